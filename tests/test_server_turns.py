"""The one turn submission service: turns are checked, stored and mailed,
bad turns change nothing, and racing submissions apply exactly once."""

from __future__ import annotations

import threading

import pytest
from conftest import make_test_app
from sqlmodel import Session, select

from pbem.db import get_session, make_engine
from pbem.models import FINISHED, Game, OutboxMessage, Turn
from pbem.services import errors, games
from pbem.services.accounts import player_for_email
from pbem.services.turns import preview_turn, submit_turn


def test_a_turn_is_stored_as_written_and_canonical_and_the_next_player_is_mailed(session, make_players, start_game):
    alice, bob = make_players("alice", "bob")
    game = start_game(alice, bob)
    submit_turn(session, game.id, alice, "A1", 0, "web")
    done = submit_turn(session, game.id, bob, " e5 ", 1, "api")
    assert done.game.ply == 2
    turns = session.exec(select(Turn).where(Turn.game_id == game.id).order_by(Turn.ply)).all()
    assert [(t.ply, t.seat, t.text, t.canonical, t.source) for t in turns] == [
        (1, 0, "A1", "a1", "web"),
        (2, 1, " e5 ", "e5", "api"),
    ]
    assert session.get(Game, game.id).position == turns[-1].position
    mail = session.exec(select(OutboxMessage).where(OutboxMessage.to_addr == alice.email)).all()
    assert mail[-1].subject.endswith("your turn")
    assert "Bob played e5" in mail[-1].body
    assert mail[-1].ply == 2 and mail[-1].seat == 0  # the board after turn 2 as alice sees it, drawn when sent


@pytest.mark.parametrize(
    "who, text, ply, error, words",
    [
        ("bob", "e5", 0, errors.NotYourTurn, "player 1 is to move"),
        ("alice", "a1-a3", 0, errors.BadTurn, "setup"),
        ("alice", "c3", 0, errors.BadTurn, "corner"),
        ("alice", "a1", 3, errors.PlyNotReached, "has not been reached yet"),
        ("alice", "a1", -1, errors.BadInput, "whole number"),
        ("alice", "a1", "0", errors.BadInput, "whole number"),
        ("alice", None, 0, errors.BadTurn, "a turn is text"),
        ("carol", "a1", 0, errors.Forbidden, "not a player"),
    ],
)
def test_a_bad_submission_is_refused_with_its_reason_and_changes_nothing(
    session, make_players, start_game, who, text, ply, error, words
):
    alice, bob, carol = make_players("alice", "bob", "carol")
    game = start_game(alice, bob)
    mail_before = len(session.exec(select(OutboxMessage)).all())
    player = {"alice": alice, "bob": bob, "carol": carol}[who]
    with pytest.raises(error) as raised:
        submit_turn(session, game.id, player, text, ply, "web")
    assert words in raised.value.message
    session.expire_all()
    assert session.get(Game, game.id).ply == 0
    assert session.exec(select(Turn)).all() == []
    assert len(session.exec(select(OutboxMessage)).all()) == mail_before


def test_an_unknown_game_is_named(session, make_players):
    (alice,) = make_players("alice")
    with pytest.raises(errors.NotFound, match="no game 99"):
        submit_turn(session, 99, alice, "a1", 0, "cli")


def test_preview_shows_the_position_after_without_storing(session, make_players, start_game):
    alice, bob = make_players("alice", "bob")
    game = start_game(alice, bob)
    preview = preview_turn(session, game.id, alice, "a1")
    assert preview.canonical == "a1"
    assert preview.position.startswith("...../...../..s../...../1....")
    assert session.get(Game, game.id).ply == 0


def test_the_game_ends_when_the_rules_say_so_and_takes_no_more_turns(session, make_players, start_game):
    alice, bob = make_players("alice", "bob")
    game = start_game(alice, bob)
    # a position one chop from the end: put the game there as the rules left it
    game.position = "....2/...../...../...../1MMsM 1 9,0 2,2"
    session.add(game)
    session.commit()
    submit_turn(session, game.id, alice, "C:b1", 0, "web")
    done = submit_turn(session, game.id, bob, "G P:d5", 1, "web")  # equal turns, then it ends
    assert done.game.status == FINISHED
    assert done.game.result == "1"
    subjects = [m.subject for m in session.exec(select(OutboxMessage)).all()]
    assert sum("game over" in s for s in subjects) == 2
    with pytest.raises(errors.GameNotActive, match="finished"):
        submit_turn(session, game.id, alice, "a1-a2 G", 2, "web")


def _race(config: dict, engine_options: dict) -> None:
    app = make_test_app(config)
    with app.app_context():
        session = get_session()
        alice, bob = (player_for_email(session, f"{n}@example.org") for n in ("alice", "bob"))
        session.commit()
        game = games.create_game(session, alice, "logger", [alice.email, bob.email])
        games.accept(session, game.id, bob)
        submit_turn(session, game.id, alice, "a1", 0, "web")
        engine = make_engine(config["DATABASE_URL"], config.get("DATABASE_SCHEMA"), **engine_options)
        texts = ["e5", "a5", "e1"]
        gate = threading.Barrier(20)
        outcomes: list = [None] * 20

        def submit(index: int) -> None:
            with Session(engine, expire_on_commit=False) as own:
                gate.wait()
                try:
                    submit_turn(own, game.id, bob, texts[index % 3], 1, "api")
                    outcomes[index] = "applied"
                except errors.GameMovedOn as error:
                    outcomes[index] = error.message
                except Exception as error:  # any other failure is a bug
                    outcomes[index] = repr(error)

        threads = [threading.Thread(target=submit, args=(i,)) for i in range(20)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        engine.dispose()
        assert outcomes.count("applied") == 1, outcomes
        assert all("has moved on" in o for o in outcomes if o != "applied"), outcomes
        session.expire_all()
        assert session.get(Game, game.id).ply == 2
        assert [t.ply for t in session.exec(select(Turn).where(Turn.game_id == game.id))] == [1, 2]
        mail = [m for m in session.exec(select(OutboxMessage)) if m.subject.endswith("your turn") and m.ply == 2]
        assert len(mail) == 1  # one turn applied, one mail about it
        session.close()
    app.extensions["pbem_engine"].dispose()


def test_twenty_racing_submissions_apply_once_on_sqlite(sqlite_config):
    _race(sqlite_config, {})


def test_twenty_racing_submissions_apply_once_on_postgresql(postgres_config):
    _race(postgres_config, {"pool_size": 20, "max_overflow": 5})
