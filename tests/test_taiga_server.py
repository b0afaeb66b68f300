"""Taiga on the server, through the existing helpers only: a whole two-player
game, alice on the web and bob by mail, every notification carrying the map
picture; the drawn tile shown only to its player, the draw pile to nobody,
the legal placements offered by mail and on the page; the record replays and
checks against the revealed seed."""

from __future__ import annotations

import re
from email import policy
from email.parser import BytesParser

import pytest
from sqlmodel import Session
from test_email_commands import client_reply, mail_app, plain_text
from test_web_pages import csrf, sign_in

from engine import chance
from mail.send import EmlFolderSink
from notation import record as records
from notation.registry import get
from pbem.db import get_session
from pbem.mailrobot import jobs
from pbem.mailrobot.inbox import store_in
from pbem.models import Game
from pbem.services import games
from pbem.services.accounts import player_for_email
from pbem.services.stored import state_of

TAIGA = get("taiga")
SEED = f"{0x7a16a:064x}"
EMAIL = {"alice": "alice@example.org", "bob": "bob@example.org"}
SEAT = {"alice": 0, "bob": 1}
#: a tile code in the pile written as the position string writes it ("S1*4"), never shown while the game is on
PILE_ITEM = re.compile(r"\b(?:S[0-9]|H[0-9]|MA|BI|AS|OA|X[12]|R[1-4]|C[1-3])\*[0-9]")


@pytest.fixture
def table(database_config, tmp_path, monkeypatch):
    monkeypatch.setattr(games, "NEW_SEED", lambda: SEED)
    app = mail_app(database_config, MAIL_EML_FOLDER=str(tmp_path / "sent"))
    sink = EmlFolderSink(tmp_path / "sent")
    with app.app_context():
        session = get_session()
        players = {name: player_for_email(session, EMAIL[name]) for name in EMAIL}
        game = games.create_game(session, players["alice"], "taiga", [EMAIL["alice"], EMAIL["bob"]],
                                 hours_per_turn=48)
        games.accept(session, game.id, players["bob"])
        game_id = game.id
    web = app.test_client()
    sign_in(web, app, EMAIL["alice"])
    yield app, sink, web, game_id
    app.extensions["pbem_engine"].dispose()


def row(app, game_id) -> Game:
    with Session(app.extensions["pbem_engine"]) as s:
        return s.get(Game, game_id)


def drain(app, sink, seen: list) -> list:
    """Process the inbox, send the outbox; the mails sent now (each file read once)."""
    jobs.process_inbox(app)
    jobs.drain_outbox(app)
    names = sorted(p.name for p in sink.folder.glob("*.eml"))[len(seen):]
    new = []
    for name in names:
        with open(sink.folder / name, "rb") as handle:
            new.append(BytesParser(policy=policy.default).parse(handle))
    seen.extend(new)
    return new


def png_parts(message) -> list[bytes]:
    return [p.get_content() for p in message.walk() if p.get_content_type() == "image/png"]


def test_a_whole_taiga_game_by_mail_and_on_the_web(table):
    app, sink, web, game_id = table
    seen: list = []
    mails = drain(app, sink, seen)
    assert row(app, game_id).status == "active" and row(app, game_id).seed_hash == chance.commitment(SEED)
    notified = 0
    checked_legal = False
    while row(app, game_id).status == "active":
        game = row(app, game_id)
        state = state_of(game)
        rules, notation = TAIGA.rules, TAIGA.notation
        mover = rules.to_move(state)
        name = "alice" if mover == 0 else "bob"
        other = "bob" if name == "alice" else "alice"
        turn = notation.format_turn(state, rules.legal_turns(state)[0])
        # what the players were sent: each notification carries the map picture; the drawn tile only to its player
        for message in mails:
            text = plain_text(message)
            assert not PILE_ITEM.search(text), "the draw pile shows in a mail"
            if "your turn" in str(message["Subject"]) or "You played" in text or "played" in str(message["Subject"]):
                assert png_parts(message), f"no map picture in {message['Subject']!r}"
                notified += 1
        if state.drawn:
            to_other = [m for m in mails if EMAIL[other] in str(m["To"])]
            for message in to_other:
                assert f"drawn tile: {state.drawn}" not in plain_text(message)
        if name == "alice":
            page = web.get(f"/games/{game_id}").get_data(as_text=True)
            assert not PILE_ITEM.search(page)
            if state.drawn:
                assert f"drawn tile: {state.drawn}" in page
                assert notation.format_turn(state, rules.legal_turns(state)[0]) in page.replace("&#39;", "'")
            form = web.get(f"/games/{game_id}")
            done = web.post(f"/games/{game_id}/turn", data={"csrf_token": csrf(form), "turn": turn,
                                                            "ply": str(game.ply), "action": "play"})
            assert done.status_code == 302, done.get_data(as_text=True)
        else:
            latest = [m for m in seen if EMAIL["bob"] in str(m["To"]) and "play+" in str(m["Reply-To"] or "")][-1]
            if not checked_legal and state.drawn:
                store_in(app.extensions["pbem_engine"])(client_reply(latest, "legal"), None, [])
                listing = plain_text(drain(app, sink, seen)[-1])
                assert turn in listing and f"drawn tile: {state.drawn}" in plain_text(latest)
                checked_legal = True
            store_in(app.extensions["pbem_engine"])(client_reply(latest, f"#{game.ply + 1} {turn}"), None, [])
        mails = drain(app, sink, seen)
        assert row(app, game_id).ply == game.ply + 1, f"{name}'s turn {turn!r} was not played"
    game = row(app, game_id)
    assert game.status == "finished" and game.seed == SEED and checked_legal and notified > 60
    record = records.read(web.get(f"/games/{game_id}/record.pgn").get_data(as_text=True))
    records.verify_seed(record)
    assert records.check(record).final == state_of(game)
    over = [m for m in seen if "game over" in str(m["Subject"]).lower()]
    assert over and all(png_parts(m) for m in over)


def test_the_legal_turns_are_grouped_by_tile_and_place_on_the_page_by_mail_and_in_the_api(table):
    app, sink, web, game_id = table
    seen: list = []
    drain(app, sink, seen)
    rules, notation = TAIGA.rules, TAIGA.notation

    def every(state):
        return [notation.format_turn(state, t) for t in rules.legal_turns(state)]

    def play_first(name):
        game = row(app, game_id)
        turn = every(state_of(game))[0]
        if name == "alice":
            form = web.get(f"/games/{game_id}")
            web.post(f"/games/{game_id}/turn", data={"csrf_token": csrf(form), "turn": turn, "ply": str(game.ply),
                                                    "action": "play"})
        else:
            latest = [m for m in seen if EMAIL["bob"] in str(m["To"]) and "play+" in str(m["Reply-To"] or "")][-1]
            store_in(app.extensions["pbem_engine"])(client_reply(latest, f"#{game.ply + 1} {turn}"), None, [])
        drain(app, sink, seen)
        assert row(app, game_id).ply == game.ply + 1

    play_first("alice")  # the seed's first tile fits nowhere: discarded
    # bob asks by mail, and reads his turns a tile and place a line
    state = state_of(row(app, game_id))
    latest = [m for m in seen if EMAIL["bob"] in str(m["To"]) and "play+" in str(m["Reply-To"] or "")][-1]
    store_in(app.extensions["pbem_engine"])(client_reply(latest, "legal"), None, [])
    listing = plain_text(drain(app, sink, seen)[-1])
    groups, _more = notation.legal_groups(state, 300)
    assert len(groups) < len(every(state))
    assert f"{len(every(state))} in all: {len(groups)} lines, each naming the turns it stands for" in \
        " ".join(listing.split())
    assert all(f"  {g.text}" + (f" ({g.count})" if g.count > 1 else "") in listing for g in groups)
    for ply in range(1, 10):  # to a turn of alice's with more than 100 legal turns
        play_first("bob" if ply % 2 else "alice")
    state = state_of(row(app, game_id))
    turns = every(state)
    assert rules.to_move(state) == 0 and len(turns) > 100
    page = web.get(f"/games/{game_id}").get_data(as_text=True).replace("&#39;", "'")
    lines = re.findall(r"<li><code>([^<]+)</code>", re.findall(r'<ul class="legal grouped">(.*?)</ul>', page, re.S)[0])
    assert len(lines) < 20 and any("a truck ($5)" in line for line in lines)
    assert f"({len(turns)}, in {len(lines)} lines)" in page
    data = web.get(f"/api/v1/games/{game_id}").get_json()
    assert [g["text"] for g in data["legal_groups"]] == [line.replace("&amp;", "&") for line in lines]
    assert sum(g["count"] for g in data["legal_groups"]) == len(turns) and not data["legal_groups_cut"]
    assert data["legal_turns"] == turns[:100] and data["legal_turns_cut"] is True
    everything = web.get(f"/api/v1/games/{game_id}?legal=all").get_json()
    assert everything["legal_turns"] == turns and everything["legal_turns_cut"] is False
    refused = web.get(f"/api/v1/games/{game_id}?legal=some")
    assert refused.status_code == 400 and "legal is all" in refused.get_json()["error"]
