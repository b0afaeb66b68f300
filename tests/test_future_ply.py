"""A submission naming a ply (or a mailed turn number) the game has not
reached yet is told so, with the turn the game is at; a past one is still
told the game has moved on.  Every path that takes a ply: the service, the
API, the web form, a mailed ``#N`` turn and ``#N preview``, and ``pbem play``."""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner
from conftest import make_test_app
from sqlmodel import select
from test_email_commands import client_reply, duel, plain_text, robot, turns  # noqa: F401  (fixtures)
from test_web_review_findings import alice, make_game, post, signed_in, text  # noqa: F401  (fixtures)

from pbem.cli import main
from pbem.db import get_session
from pbem.models import Turn
from pbem.services import errors, games
from pbem.services.accounts import create_api_token, player_for_email
from pbem.services.turns import submit_turn


def _play_opening(session, game, alice, bob) -> None:
    submit_turn(session, game.id, alice, "a1", 0, "web")
    submit_turn(session, game.id, bob, "e5", 1, "web")


def test_the_service_tells_a_future_ply_where_the_game_is(session, make_players, start_game):
    alice, bob = make_players("alice", "bob")
    game = start_game(alice, bob)
    _play_opening(session, game, alice, bob)
    with pytest.raises(errors.PlyNotReached) as raised:
        submit_turn(session, game.id, alice, "a1-a3 G P:b3", 7, "web")
    message = raised.value.message
    assert "moved on" not in message
    assert "ply 7 has not been reached yet in game" in message
    assert "2 turns have been played" in message and "turn to play now is turn 3, sent with ply 2" in message
    with pytest.raises(errors.GameMovedOn, match="moved on"):  # a past ply is still stale
        submit_turn(session, game.id, alice, "a1-a3 G P:b3", 1, "web")
    session.expire_all()
    assert session.get(type(game), game.id).ply == 2


def test_the_api_answers_a_future_ply_with_409_saying_what_is_wrong(app, client):
    with app.app_context():
        session = get_session()
        alice = player_for_email(session, "alice@example.org")
        game = games.create_game(session, alice, "logger", ["bob@example.org"])
        games.accept(session, game.id, player_for_email(session, "bob@example.org"))
        token = create_api_token(session, alice, "test")[0]
        game_id = game.id
    response = client.post(f"/api/v1/games/{game_id}/turns", json={"turn": "a1", "ply": 5},
                           headers={"Authorization": f"Bearer {token}"})
    assert response.status_code == 409
    error = response.get_json()["error"]
    assert "ply 5 has not been reached yet" in error and "1 turn" not in error
    assert "0 turns have been played" in error and "sent with ply 0" in error


def test_the_web_form_with_a_future_ply_says_what_is_wrong(app, alice):
    game_id = make_game(app)
    response = post(alice, f"/games/{game_id}", f"/games/{game_id}/turn", turn="a1", ply="4", action="play")
    assert response.status_code == 409
    page = text(response)
    refusal = re.search(r'id="turn-error"[^>]*>(.*?)</p>', page, re.S).group(1)
    assert "ply 4 has not been reached yet" in refusal and "moved on" not in refusal
    assert "turn to play now is turn 1, sent with ply 0" in page


def test_a_mailed_future_turn_number_says_which_turn_the_game_is_at(duel):
    robot, (game_id, _, _), mail = duel
    [answer] = robot.send(client_reply(mail, "#3 a1"))
    body = plain_text(answer)
    assert "turn #3 has not been reached yet" in body and "moved on" not in body
    assert f"game {game_id} is at turn #1 (0 turns played)" in body and "write #1 before your turn" in body
    assert turns(robot.app, game_id) == []
    [answer] = robot.send(client_reply(mail, "#2 preview a1"))
    assert "turn #2 has not been reached yet" in plain_text(answer)
    robot.send(client_reply(mail, "#1 a1"))
    assert [t.ply for t in turns(robot.app, game_id)] == [1]


def test_a_mailed_past_turn_number_is_still_told_the_game_moved_on(duel):
    robot, (game_id, _, _), mail = duel
    robot.send(client_reply(mail, "#1 a1"))
    [answer] = robot.send(client_reply(mail, "#1 a1-a2"))
    assert "moved on" in plain_text(answer)
    assert [t.ply for t in turns(robot.app, game_id)] == [1]


def test_pbem_play_with_a_future_ply_says_what_is_wrong(sqlite_config):
    app = make_test_app(sqlite_config)
    with app.app_context():
        session = get_session()
        alice = player_for_email(session, "alice@example.org")
        game = games.create_game(session, alice, "logger", ["bob@example.org"])
        games.accept(session, game.id, player_for_email(session, "bob@example.org"))
    runner = CliRunner(env={"DATABASE_URL": sqlite_config["DATABASE_URL"], "PBEM_SECRET_KEY": "x"})
    result = runner.invoke(main, ["play", str(game.id), "a1", "--as", "alice@example.org", "--ply", "9"])
    assert result.exit_code == 1 and "ply 9 has not been reached yet" in result.stderr
    with app.app_context():
        assert get_session().exec(select(Turn)).all() == []
