"""Nothing hidden leaks: three players play Hands (``tests/hands_game.py``:
hidden hands, a hidden pile, cards drawn by chance) to the end, alice on the
web, bob through the API and carol by mail, and at every step everything
that reaches each of them (pages, API answers, board images, records,
previews, legal turns, mail bodies and attachments, the calendar, the
digest) is checked: no card in another player's hand and no card in the pile
appears in it; their own hand does (so the check can fail).  A signed-out
visitor and a signed-in stranger see nothing of the game.  Once the game is
over everyone sees everything."""

from __future__ import annotations

import re
from datetime import datetime, timezone

import pytest
from event_streams import Reader
from hands_game import ANIMALS, register_hands
from sqlmodel import Session
from test_email_commands import client_reply, mail_app, plain_text
from test_web_pages import csrf, sign_in

from mail.send import EmlFolderSink
from notation.drawing import render as diagrams
from pbem.db import get_session
from pbem.mailrobot import jobs
from pbem.mailrobot.inbox import store_in
from pbem.models import Game
from pbem.services import digest, games
from pbem.services.accounts import create_api_token, player_for_email
from pbem.services.stored import kind_of, state_of

NAMES = ("alice", "bob", "carol")
EMAIL = {name: f"{name}@example.org" for name in NAMES + ("dave",)}
SEAT = {name: n for n, name in enumerate(NAMES)}


@pytest.fixture
def table(database_config, tmp_path, monkeypatch):
    register_hands(monkeypatch)
    seeds = iter(f"{n:064x}" for n in range(0xbb00, 0xbc00))
    monkeypatch.setattr(games, "NEW_SEED", lambda: next(seeds))
    app = mail_app(database_config, MAIL_EML_FOLDER=str(tmp_path / "sent"))
    yield Table(app, tmp_path / "sent")
    app.extensions["pbem_engine"].dispose()


class Table:
    """The game, the three players' ways in, and what reached each of them."""

    def __init__(self, app, folder):
        self.app, self.sink = app, EmlFolderSink(folder)
        self.seen_mail = 0
        self.web = {name: app.test_client() for name in NAMES + ("dave",)}
        self.stranger = app.test_client()  # signed out
        with app.app_context():
            session = get_session()
            players = {name: player_for_email(session, EMAIL[name]) for name in NAMES + ("dave",)}
            self.tokens = {name: create_api_token(session, players[name], "tests")[0] for name in NAMES}
            digest.set_preferences(session, players["bob"], digest=True)  # bob reads the daily digest
            game = games.create_game(session, players["alice"], "hands", [EMAIL[n] for n in NAMES], hours_per_turn=48)
            self.game_id = game.id
            for name in ("bob", "carol"):
                games.accept(session, game.id, players[name])
        for name in NAMES + ("dave",):
            sign_in(self.web[name], app, EMAIL[name])
        self.calendars = {}
        for name in NAMES:
            page = self.web[name].get("/settings").get_data(as_text=True)
            self.calendars[name] = re.search(r"(/calendar/[A-Za-z0-9_-]+\.ics)", page).group(1)
        self.inbox: dict[str, list] = {name: [] for name in NAMES}

    # -- the game as the server keeps it -------------------------------------------------
    def row(self) -> Game:
        with Session(self.app.extensions["pbem_engine"]) as s:
            return s.get(Game, self.game_id)

    def full(self):
        return state_of(self.row())

    def secrets_for(self, name: str) -> set[str]:
        """The cards ``name`` must not see now: the others' hands and the pile."""
        state = self.full()
        hidden = set(state.pile)
        for seat, hand in enumerate(state.hands):
            if seat != SEAT[name]:
                hidden |= set(hand)
        return hidden

    def own(self, name: str) -> set[str]:
        return set(self.full().hands[SEAT[name]])

    def view_position(self, name: str | None, state=None) -> str:
        """The position ``name`` may see, made here from the rules (not by the server)."""
        kind = kind_of(self.row())
        state = self.full() if state is None else state
        return kind.notation.format_position(kind.rules.view(state, None if name is None else SEAT[name]))

    # -- the ways in -----------------------------------------------------------------------
    def api(self, name, method, url, **kwargs):
        return self.web[name].open(url, method=method, headers={"Authorization": f"Bearer {self.tokens[name]}"},
                                   **kwargs)

    def drain(self) -> None:
        """Send the outbox; file each new mail under its recipient."""
        jobs.process_inbox(self.app)
        jobs.drain_outbox(self.app)
        messages = [m for _, m in self.sink.messages()]
        new, self.seen_mail = messages[self.seen_mail:], len(messages)
        for message in new:
            for name in NAMES:
                if EMAIL[name] in str(message["To"]):
                    self.inbox[name].append(message)
        self.new_mail = new

    def mail_robot(self, name: str, line: str) -> list:
        """``name`` answers their latest game mail with ``line``; the robot's answers to them."""
        latest = [m for m in self.inbox[name] if "play+" in str(m["Reply-To"] or "")][-1]
        before = len(self.inbox[name])
        store_in(self.app.extensions["pbem_engine"])(client_reply(latest, line), None, [])
        self.drain()
        return self.inbox[name][before:]


def _text(value) -> str:
    """Text to search: links and addresses taken out (their random tokens are no cards)."""
    text = value if isinstance(value, str) else value.decode("utf-8", "replace")
    text = re.sub(r"https?://\S+|[\w.+-]+@[\w.-]+|cid:\S+", " ", text)
    # a form's CSRF token is random letters and digits too: "...9Cat2..." is no card
    text = re.sub(r'name="csrf_token" value="[^"]*"', " ", text)
    # the notation's own turn examples ("play ant", "yak"), the same for everyone in every game
    text = re.sub(r'placeholder="[^"]*"|"turn_examples": ?\[[^\]]*\]', " ", text)
    text = re.sub(r'(e\.g\.|such as) "?(#\d+ )?(play ant|yak)\b', " ", text)
    return text


def _cards_in(text: str) -> set[str]:
    words = set(re.findall(r"[a-z]+", _text(text).lower()))
    return {card for card in ANIMALS if card in words}


def _mail_parts(message) -> list[tuple[str, str | bytes]]:
    parts = []
    for part in message.walk():
        if part.is_multipart():
            continue
        parts.append((part.get_content_type(), part.get_content()))
    return parts


def check(table: Table, name: str, where: str, content) -> set[str]:
    """No secret of ``name`` in ``content``; the cards it does show."""
    shown = _cards_in(content)
    leaked = shown & table.secrets_for(name)
    assert not leaked, f"{name} was shown {sorted(leaked)} in the {where}: " + "; ".join(
        m.group(0) for card in leaked for m in re.finditer(rf".{{0,80}}\b{card}\b.{{0,40}}", _text(content), re.S))
    return shown


def check_png(table: Table, name: str | None, where: str, png: bytes) -> None:
    """A PNG is drawn from ``name``'s view of some position, never from the full state."""
    game = table.row()
    full = diagrams.render(game.kind, game.options, game.position, "png")
    assert png != full or table.view_position(name) == game.position, f"the {where} shows the whole board"


def everything(table: Table, name: str) -> None:
    """Every page, API answer, image, record and calendar that ``name`` can fetch now, checked."""
    gid, web = table.game_id, table.web[name]
    game = table.row()
    page = web.get(f"/games/{gid}").get_data(as_text=True)
    own = check(table, name, "game page", page)
    assert table.own(name) <= own, f"{name}'s page does not show their own hand"
    detail = table.api(name, "GET", f"/api/v1/games/{gid}").get_json()
    assert detail["position"] == table.view_position(name)
    assert detail.pop("turn_examples") == ["play ant", "yak"]  # the notation's, the same for everyone
    assert table.own(name) <= check(table, name, "API game", str(detail))
    check(table, name, "API turns", table.api(name, "GET", f"/api/v1/games/{gid}/turns").get_data(as_text=True))
    for url in (f"/games/{gid}/record.pgn", f"/games/{gid}/record.json", f"/api/v1/games/{gid}/record",
                f"/api/v1/games/{gid}/record?format=json"):
        body = (table.api(name, "GET", url) if "/api/" in url else web.get(url)).get_data(as_text=True)
        assert table.own(name) <= check(table, name, f"record {url}", body)
    for ply in sorted({0, max(0, game.ply - 1), game.ply}):
        text = web.get(f"/games/{gid}/board/{ply}.txt").get_data(as_text=True)
        check(table, name, f"text board {ply}", text)
        svg = web.get(f"/games/{gid}/board/{ply}.svg").get_data(as_text=True)
        check(table, name, f"SVG board {ply}", svg)
        png = web.get(f"/games/{gid}/board/{ply}.png").get_data()
        check_png(table, name, f"PNG board {ply}", png)
        if ply == game.ply:
            assert text.rstrip("\n") == kind_of(game).notation.text_diagram(
                kind_of(game).notation.parse_position(table.view_position(name))).rstrip("\n")
            assert png == diagrams.render(game.kind, game.options, table.view_position(name), "png")
    check(table, name, "calendar", web.get(table.calendars[name]).get_data(as_text=True))


def check_mail(table: Table) -> None:
    """Every mail that reached a player since the last look, body and attachments."""
    for message in table.new_mail:
        to = next((name for name in NAMES if EMAIL[name] in str(message["To"])), None)
        if to is None:  # dave's sign-in links: he is in no game
            assert not any(_cards_in(c) for t, c in _mail_parts(message) if t.startswith("text/"))
            continue
        for content_type, content in _mail_parts(message):
            if content_type == "image/png":
                check_png(table, to, f"mail {message['Subject']!r} PNG", content)
            else:
                check(table, to, f"mail {message['Subject']!r} ({content_type})", content)


def strangers_see_nothing(table: Table) -> None:
    """Nobody unseated gets the game's pages; the chokepoint's spectator view
    (seat None) shows the played cards only."""
    from pbem.services import visibility as views

    gid = table.game_id
    with table.app.app_context():
        session = get_session()
        sight = views.at(session, session.get(Game, gid), None)
        played = {card for cards in table.full().played for card in cards}
        assert sight.position == table.view_position(None)
        assert _cards_in(sight.position + sight.text_diagram()) <= played
        assert not _cards_in(views.record_text(session, session.get(Game, gid), None)) - played
    for client, who in ((table.stranger, "signed-out visitor"), (table.web["dave"], "stranger")):
        for url in (f"/games/{gid}", f"/games/{gid}/board/0.txt", f"/games/{gid}/board/0.svg",
                    f"/games/{gid}/record.pgn", f"/api/v1/games/{gid}"):
            response = client.get(url)
            assert response.status_code in (302, 401, 403, 404), f"a {who} got {url}"
            assert not _cards_in(response.get_data(as_text=True)), f"a {who} saw cards at {url}"


def first_legal(table: Table, name: str) -> str:
    """The first turn the mover may play, as their own channel lists it."""
    gid = table.game_id
    if name == "alice":
        page = table.web[name].get(f"/games/{gid}").get_data(as_text=True)
        listed = re.findall(r'<ul class="legal">(.*?)</ul>', page, re.S)[0]
        return re.findall(r"<code>([^<]+)</code>", listed)[0]
    if name == "bob":
        return table.api(name, "GET", f"/api/v1/games/{gid}").get_json()["legal_turns"][0]
    answer = table.mail_robot(name, "legal")
    check_mail(table)
    return re.findall(r"^  (play \w+)$", plain_text(answer[-1]).replace("\r\n", "\n"), re.M)[0]


def preview(table: Table, name: str, turn: str) -> None:
    """The mover previews ``turn`` on their channel: no card of the pile (the next draw) shows."""
    gid = table.game_id
    if name == "alice":
        page = table.web[name].get(f"/games/{gid}")
        shown = table.web[name].post(f"/games/{gid}/turn", data={
            "csrf_token": csrf(page), "turn": turn, "ply": str(table.row().ply), "action": "preview"})
        check(table, name, "web preview", shown.get_data(as_text=True))
    elif name == "bob":
        shown = table.api(name, "GET", f"/api/v1/games/{gid}/preview?turn={turn.replace(' ', '+')}")
        check(table, name, "API preview", shown.get_data(as_text=True))
    else:
        table.mail_robot(name, f"preview {turn}")
        check_mail(table)


def play(table: Table, name: str, turn: str) -> None:
    gid, ply = table.game_id, table.row().ply
    if name == "alice":
        page = table.web[name].get(f"/games/{gid}")
        done = table.web[name].post(f"/games/{gid}/turn", data={
            "csrf_token": csrf(page), "turn": turn, "ply": str(ply), "action": "play"})
        assert done.status_code == 302, done.get_data(as_text=True)
    elif name == "bob":
        done = table.api(name, "POST", f"/api/v1/games/{gid}/turns", json={"turn": turn, "ply": ply})
        assert done.status_code == 201, done.get_data(as_text=True)
        check(table, name, "API turn answer", done.get_data(as_text=True))
    else:
        table.mail_robot(name, f"#{ply + 1} {turn}")
    assert table.row().ply == ply + 1, f"{name}'s turn {turn} was not played"


class Streams:
    """Each player's event streams (the game's and ``/me/events``) and a
    stranger's, open the whole game; every frame is checked as it comes."""

    def __init__(self, table: Table):
        self.table = table
        gid = table.game_id
        self.readers = {}
        for name in NAMES:
            auth = {"Authorization": f"Bearer {table.tokens[name]}"}
            for url in (f"/api/v1/games/{gid}/events", "/api/v1/me/events"):
                self.readers[(name, url)] = Reader(table.app.test_client(), url, auth)
        self.dave = Reader(table.web["dave"], "/api/v1/me/events")  # a stranger, by the session cookie
        stranger = Reader(table.web["dave"], f"/api/v1/games/{gid}/events")
        assert stranger.status == 403 and not _cards_in(stranger.response.get_data(as_text=True))
        assert Reader(table.stranger, f"/api/v1/games/{gid}/events").status == 401
        self.seen = {key: 0 for key in self.readers}

    def check(self, ply: int) -> None:
        """Every stream got the change to ``ply``; nothing in any frame is
        another seat's secret; the stranger's stream says nothing of the game."""
        for (name, url), reader in self.readers.items():
            assert reader.wait(lambda r: any(e["data"]["game"] == self.table.game_id and e["data"]["ply"] >= ply
                                             for e in r.events())), f"{name}'s {url} missed turn {ply}"
            with reader.lock:
                new, self.seen[(name, url)] = reader.raw[self.seen[(name, url)]:], len(reader.raw)
            check(self.table, name, f"event stream {url}", "".join(new))
        assert not [e for e in self.dave.events() if e["data"]["game"] == self.table.game_id]

    def spectator(self) -> None:
        """The chokepoint's spectator rendering of the latest change shows the played cards only."""
        from sqlmodel import select as select_rows

        from pbem.models.events import GameEvent
        from pbem.services import events

        with Session(self.table.app.extensions["pbem_engine"]) as session:
            row = session.exec(select_rows(GameEvent).order_by(GameEvent.id.desc())).first()
            change = events.Change(*(getattr(row, name) for name in events.Change.__dataclass_fields__))
            rendering = events.Rendering(session, [change])
            text = rendering.frame(change, None)
        played = {card for cards in self.table.full().played for card in cards}
        assert not _cards_in(text) - played, "a spectator's event shows a card not yet played"

    def close(self) -> None:
        for reader in [*self.readers.values(), self.dave]:
            reader.close()


def test_three_players_play_hands_to_the_end_and_nobody_sees_what_they_must_not(table):
    streams = Streams(table)
    try:
        play_to_the_end(table, streams)
    finally:
        streams.close()


def play_to_the_end(table: Table, streams: Streams) -> None:
    table.drain()
    check_mail(table)
    day = 1
    mail_commands_done = False
    while table.row().status == "active":
        strangers_see_nothing(table)
        for name in NAMES:
            everything(table, name)
        game = table.row()
        mover = NAMES[kind_of(game).rules.to_move(state_of(game))]
        if not mail_commands_done:  # carol's board and record by mail, once
            for command in ("board", "record"):
                answers = table.mail_robot("carol", command)
                check_mail(table)
                assert table.own("carol") <= _cards_in(plain_text(answers[-1])), f"carol's {command} mail"
            mail_commands_done = True
        turn = first_legal(table, mover)
        assert turn.split()[-1] in table.own(mover)
        preview(table, mover, turn)
        play(table, mover, turn)
        if table.row().status == "active":  # once over, everyone sees everything
            streams.check(table.row().ply)
            streams.spectator()
        table.drain()
        check_mail(table)
        if table.row().status == "active":  # bob's digest, a new day each turn
            day += 1
            sent = digest.send_digests(table.app.extensions["pbem_engine"],
                                       now=datetime(2026, 1, day, 8, tzinfo=timezone.utc))
            table.drain()
            check_mail(table)
            assert sent in (0, 1)
    # the mail each player got while the game was on showed them their own hand
    for name in NAMES:
        assert any(_cards_in(plain_text(m)) for m in table.inbox[name])
    # once over, everyone sees everything: the full final position and every draw
    game = table.row()
    assert game.status == "finished"
    for name in NAMES:
        detail = table.api(name, "GET", f"/api/v1/games/{table.game_id}").get_json()
        assert detail["position"] == game.position
        record = table.web[name].get(f"/games/{table.game_id}/record.pgn").get_data(as_text=True)
        assert "?" not in record.split("\n\n", 1)[1]
    assert any("bob@example.org" in str(m["To"]) and "digest" in str(m["Subject"]).lower()
               for m in table.inbox["bob"]), "bob never got a digest to check"
