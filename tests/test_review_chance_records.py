"""Review of chance during play on the server: a record downloaded while the
game goes on shows its reader only the draws they saw (``?`` for the
others'), on the web, through the API and by mail; the whole record once the
game is over."""

from __future__ import annotations

import json
import re

import pytest
from hands_game import register_hands
from sqlmodel import select

from notation import record as records
from pbem.models import Game, Seat
from pbem.services import turns
from pbem.services import visibility as views
from pbem.services.stored import state_of


@pytest.fixture
def hands(monkeypatch):
    return register_hands(monkeypatch)


def _draws(text: str) -> list[str]:
    return [o for outcomes in records.read(text).chance for outcome in outcomes for o in outcome.values]


def test_a_record_of_a_game_going_on_shows_each_player_only_their_own_draws(
        session, make_players, start_game, hands):
    alice, bob = make_players("alice", "bob")
    game = start_game(alice, bob, kind="hands")
    state = state_of(game)
    turns.submit_turn(session, game.id, alice, f"play {state.hands[0][0]}", 0, "web")
    session.expire_all()
    game = session.get(Game, game.id)
    state = state_of(game)
    seats = {s.number: s for s in session.exec(select(Seat).where(Seat.game_id == game.id))}
    for number, _seat in seats.items():
        for text in (views.record_text(session, game, number), views.record_json(session, game, number)):
            seen = [d for d in _draws(text) if d != records.HIDDEN]
            assert set(seen) <= set(state.hands[number]) | set(state.played[number])
            assert not set(seen) & set(state.hands[1 - number]), "another player's cards show in the record"
            assert "?" in _draws(text)
    for text in (views.record_text(session, game, None), views.record_json(session, game, None)):  # nobody's seat
        assert set(_draws(text)) == {records.HIDDEN}
    final = json.loads(views.record_json(session, game, None))["final_position"]
    assert not set(state.hands[0] + state.hands[1]) & set(re.findall(r"[a-z]+", final))


def test_the_downloads_of_a_game_going_on_show_no_other_players_draws(app, hands):
    from test_greenhouse_server import bearer
    from test_web_pages import sign_in

    alice = app.test_client()
    sign_in(alice, app, "alice@example.org")
    token = bearer(app)
    made = alice.post("/api/v1/games", headers=token,
                      json={"game": "hands", "players": ["alice@example.org", "bob@example.org"]})
    assert made.status_code == 201, made.get_data(as_text=True)
    game_id = made.get_json()["id"]
    bob = app.test_client()
    sign_in(bob, app, "bob@example.org")
    assert bob.post(f"/api/v1/games/{game_id}/accept", headers=bearer(app, "bob@example.org")).status_code == 200
    from pbem.db import get_session

    with app.app_context():
        state = state_of(get_session().get(Game, game_id))
    for text in (alice.get(f"/games/{game_id}/record.pgn").get_data(as_text=True),
                 alice.get(f"/games/{game_id}/record.json").get_data(as_text=True),
                 alice.get(f"/api/v1/games/{game_id}/record", headers=token).get_data(as_text=True)):
        draws = _draws(text)
        assert not set(draws) & set(state.hands[1]), "bob's cards show in alice's record"
        assert set(state.hands[0]) <= set(draws)  # her own draws she sees



def test_the_board_before_the_first_turn_is_the_dealt_one_not_one_waiting_for_the_deal(app, hands):
    from test_greenhouse_server import bearer
    from test_web_pages import sign_in

    from pbem.db import get_session
    from pbem.services.stored import start_state

    alice = app.test_client()
    sign_in(alice, app, "alice@example.org")
    token = bearer(app)
    game_id = alice.post("/api/v1/games", headers=token, json={
        "game": "hands", "players": ["alice@example.org", "bob@example.org"]}).get_json()["id"]
    assert app.test_client().post(f"/api/v1/games/{game_id}/accept",
                                  headers=bearer(app, "bob@example.org")).status_code == 200
    with app.app_context():
        game = get_session().get(Game, game_id)
        dealt = game.position
        assert hands.rules.chance(start_state(game, 2)) is not None  # the origin waits for the deal
        card = state_of(game).hands[0][0]
    played = alice.post(f"/api/v1/games/{game_id}/turns", headers=token, json={"turn": f"play {card}", "ply": 0})
    assert played.status_code in (200, 201), played.get_data(as_text=True)
    seen = hands.rules.view(hands.notation.parse_position(dealt), 0)  # alice's view of the dealt start
    board = alice.get(f"/games/{game_id}/board/0.txt").get_data(as_text=True)
    assert board.rstrip("\n") == hands.notation.text_diagram(seen).rstrip("\n")
    with app.app_context():
        session = get_session()
        assert views.at(session, session.get(Game, game_id), 0, 0).position == hands.notation.format_position(seen)
