"""Alheimur on the server, offered for the length of a test (the registry
does not offer it yet): a whole 3-player game played through the one door
(setup choices included), its page, boards and record; no page or board
shows an orbit card or an unturned card while the game is on."""

from __future__ import annotations

import random
import re

import pytest

from alheimur_selfplay import random_turn, sensible_colonists
from engine import chance
from notation import record as records
from notation import registry
from notation.alheimur import KIND
from pbem.services import games
from test_web_pages import sign_in

SEED = "a1" * 32
NAMES = ["alice", "bob", "carol"]


@pytest.fixture
def offered(monkeypatch):
    monkeypatch.setitem(registry._GAMES, "alheimur", "notation.alheimur:KIND")
    monkeypatch.setitem(registry._loaded, "alheimur", KIND)
    monkeypatch.setattr(games, "NEW_SEED", lambda: SEED)
    return KIND


def test_a_whole_three_player_game_through_the_one_door(offered, app, client):
    from sqlmodel import Session

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
        seen_orbit_hidden = False
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
            assert plies < 3000
        assert row.status == "finished"
    assert seen_orbit_hidden
    sign_in(client, app, "alice@example.org")
    record_text = client.get(f"/games/{game_id}/record.pgn").get_data(as_text=True)
    record = records.read_text(record_text)
    assert record.tags.get(records.SEED) == SEED and chance.commitment(SEED) in record_text
    records.check(record)
    for fmt in ("svg", "png", "txt"):
        assert client.get(f"/games/{game_id}/board/1.{fmt}").status_code == 200
