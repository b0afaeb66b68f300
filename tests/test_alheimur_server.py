"""Alheimur on the server, offered for the length of a test (the registry
does not offer it yet): a whole 3-player game played through the one door
(setup choices included), its page, boards and record; no page or board
shows an orbit card or an unturned card while the game is on."""

from __future__ import annotations

import random

import pytest
from alheimur_helpers import offered_with_seed
from alheimur_selfplay import random_turn, sensible_colonists
from test_email_game import served, sink  # noqa: F401 - fixtures
from test_web_pages import sign_in

from engine import chance
from notation import record as records
from notation.alheimur import KIND
from pbem.services import games

SEED = "a1" * 32
NAMES = ["alice", "bob", "carol"]


@pytest.fixture
def offered(monkeypatch):
    return offered_with_seed(monkeypatch, SEED)


def test_a_whole_three_player_game_through_the_one_door(offered, app, client):
    from pbem.db import get_session
    from pbem.models import Game
    from pbem.services.accounts import player_for_email
    from pbem.services.turns import submit_turn

    rng = random.Random(5)
    with app.app_context():
        session = get_session()
        players = [player_for_email(session, f"{n}@example.org") for n in NAMES]
        game = games.create_game(session, players[0], "alheimur", [p.email for p in players])
        for player in players[1:]:
            games.accept(session, game.id, player)
        game_id = game.id
        seen_orbit_hidden = seen_report = False
        plies = 0
        while True:
            session.expire_all()
            row = session.get(Game, game_id)
            if row.status != "active":
                break
            state = KIND.notation.parse_position(row.position)
            mover = KIND.rules.to_move(state)
            if state.phase == "play":
                turn = random_turn(state, rng)
            elif state.phase == "colonists":
                turn = sensible_colonists(state, rng)
            else:
                turn = rng.choice(KIND.rules.legal_turns(state))
            text = KIND.notation.format_turn(state, turn)
            submit_turn(session, game_id, players[mover], text, row.ply, "web")
            plies += 1
            if plies == 12:
                # mid-game, the page and the boards a player sees hide the orbit cards
                session.expire_all()
                now = session.get(Game, game_id)
                full = KIND.notation.parse_position(now.position)
                sign_in(client, app, "bob@example.org")
                page = client.get(f"/games/{game_id}").get_data(as_text=True)
                board = client.get(f"/games/{game_id}/board/{now.ply}.txt").get_data(as_text=True)
                assert "orbit" in board.lower()
                assert ":?:" in page  # the position string shown is the viewer's view
                for world in full.worlds:
                    assert f"{world.name}:{'.'.join(world.layout)}:{world.orbit_card}:" not in page + board
                for card in (c for pile in full.piles for c in pile):
                    assert f".{card}." not in page
                seen_orbit_hidden = True
            if state.phase == "play" and plies > 12 and not seen_report:
                # the page shows the report of the turn just played
                session.expire_all()
                played = session.get(Game, game_id).ply
                page = client.get(f"/games/{game_id}").get_data(as_text=True)
                assert f"What happened in turn {played}" in page
                seen_report = True
            assert plies < 3000
        assert row.status == "finished"
    assert seen_orbit_hidden and seen_report
    sign_in(client, app, "alice@example.org")
    record_text = client.get(f"/games/{game_id}/record.pgn").get_data(as_text=True)
    record = records.read_text(record_text)
    assert record.tags.get(records.SEED) == SEED and chance.commitment(SEED) in record_text
    records.check(record)
    for fmt in ("svg", "png", "txt"):
        assert client.get(f"/games/{game_id}/board/1.{fmt}").status_code == 200


def short_game_turn(state, rng):
    """Player 1 plays at random; the others give their worlds up (a small
    colonist grown to medium with two neighbours dies, and then the rest):
    a short game that still plays every kind of turn by mail."""
    from engine.alheimur.pieces import Civilize, Turn

    if state.current == 0:
        return random_turn(state, rng)
    for world in state.worlds:
        for where, pyramid in world.pieces:
            if pyramid.owner == state.current and pyramid.size == 1 and state.stash(state.current)[2]:
                return Turn(expansion=(Civilize(world.name, where, 2),))
    return Turn()


def test_a_whole_three_player_game_by_mail(offered, served):  # noqa: F811 - the fixture
    from email import message_from_bytes, policy

    from test_email_commands import client_reply, plain_text
    from test_email_game import deliver, game_row

    from pbem.db import get_session
    from pbem.mailrobot import jobs
    from pbem.services.accounts import player_for_email

    app, sink, listen_port = served
    with app.app_context():
        session = get_session()
        players = [player_for_email(session, f"{n}@example.org") for n in NAMES]
        game = games.create_game(session, players[0], "alheimur", [p.email for p in players])
        for player in players[1:]:
            games.accept(session, game.id, player)
        game_id = game.id
    jobs.drain_outbox(app)
    rng = random.Random(8)
    read, plies, over, reports = 0, 0, [], 0
    while not over:
        everything = [message_from_bytes(raw, policy=policy.default) for _, _, raw in sink.messages[read:]]
        new = [m for m in everything if m["Auto-Submitted"] == "auto-generated"]
        read = len(sink.messages)
        over = [m for m in new if "game over" in str(m["Subject"])]
        if over:
            break
        mine = [m for m in new if "your turn" in str(m["Subject"])]
        if not mine:  # the same player again (building a world): the confirmation of the last turn says so
            mine = [m for m in everything if "You played" in plain_text(m)]
        assert len(mine) == 1, [(str(m["Subject"]), str(m["To"])) for m in everything]
        [notification] = mine
        body = plain_text(notification)
        state = KIND.notation.parse_position(game_row(app, game_id).position)
        if state.phase == "play" and state.turns > 0:  # the report of the turn before, as the mail tells it
            assert f"What happened in turn {game_row(app, game_id).ply}:" in body
            reports += 1
        for world in state.worlds:  # the mail shows the player's view: no orbit card
            assert f"{world.name}:{'.'.join(world.layout)}:{world.orbit_card}:" not in body
        if state.phase == "play":
            turn = short_game_turn(state, rng)
        elif state.phase == "colonists":
            turn = sensible_colonists(state, rng)
        else:
            turn = rng.choice(KIND.rules.legal_turns(state))
        mover = str(notification["To"])
        deliver(listen_port, client_reply(notification, KIND.notation.format_turn(state, turn)), mover)
        assert jobs.process_inbox(app) == 1
        assert jobs.drain_outbox(app) >= 1
        plies += 1
        assert plies < 600, "the game should have ended"
    game = game_row(app, game_id)
    assert game.status == "finished" and game.ply == plies
    assert reports > 0
    assert {str(m["To"]) for m in over} == {f"{n}@example.org" for n in NAMES}


def test_a_game_stored_in_the_old_position_form_loads_and_is_written_back_in_the_new(offered, app, client):
    """Positions written before ships named their owner with ``p`` (``1F1``,
    which a turn reads as a fighter of 1 in the orbit of world 1) are in the
    database: the game still loads, its page and board show the new form,
    and the position stored after the next turn is written in it."""
    import re

    from alheimur_helpers import position, world

    from pbem.db import get_session
    from pbem.models import Game, Turn
    from pbem.services.accounts import player_for_email
    from pbem.services.turns import submit_turn

    battle = position(world("1", on="a4=1:1 b4=1:2 c4=1:1 a3=1:1 b3=1:3"),
                      world("2", on="d1=2:3", orbit="1F1 2F1"), space="2T2", current=0)
    old = re.sub(r"(?<=[:,.\s])p(?=[1-8][FT])", "", KIND.notation.format_position(battle))
    assert ":1F1,2F1" in old and " 2T2 " in old  # the old form
    with app.app_context():
        session = get_session()
        alice, bob = (player_for_email(session, f"{n}@example.org") for n in ("alice", "bob"))
        game = games.create_game(session, alice, "alheimur", [alice.email, bob.email])
        games.accept(session, game.id, bob)
        session.add(Turn(game_id=game.id, ply=1, seat=1, player_id=bob.id, text="pass", canonical="pass",
                         position=old, source="web"))
        game.position, game.ply = old, 1
        session.commit()
        game_id = game.id
    sign_in(client, app, "alice@example.org")
    page = client.get(f"/games/{game_id}")
    assert page.status_code == 200
    board = client.get(f"/games/{game_id}/board/1.txt").get_data(as_text=True)
    assert "p1F1 p2F1" in board and "p2T2" in board
    with app.app_context():
        session = get_session()
        submit_turn(session, game_id, player_for_email(session, "alice@example.org"), "2F1>S", 1, "web")
        session.expire_all()
        stored = session.get(Game, game_id).position
    assert " p1F1.p2T2 " in stored and ":p2F1" in stored
    assert not re.search(r"[\s:,.][1-8][FT][1-3]", stored)
