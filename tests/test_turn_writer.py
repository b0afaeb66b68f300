"""One writer of turns: ``pbem.services.transition`` builds and writes every
turn a game stores, a player's (web, API, mail, command line, bot) and the
clock's (the sweep's forfeits).  It refuses a turn longer than ``MAX_TURN``
characters from any source, and a caller's own rows (mail's "You played"
answer) go in after the claim, in the turn's transaction."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from click.testing import CliRunner
from sqlmodel import Session, select
from test_email_commands import client_reply, duel, plain_text, robot, turns  # noqa: F401  (fixtures)

from pbem.cli import main
from pbem.models import Game, OutboxMessage, Player, Seat, Turn, utcnow
from pbem.services import errors, transition
from pbem.services import sweep as sweeping
from pbem.services import turns as turn_service
from pbem.services.stored import kind_of
from pbem.services.turns import preview_turn, submit_turn

ROOT = Path(__file__).resolve().parent.parent
WRITER = ROOT / "pbem" / "services" / "transition.py"
#: a legal first turn ("a1", the notation reads past the spaces), one character too long
LONG = "a1" + " " * (transition.MAX_TURN - 1)


def _nothing_stored(session: Session, game: Game, mail_before: int) -> None:
    session.expire_all()
    assert session.get(Game, game.id).ply == 0
    assert session.exec(select(Turn)).all() == []
    assert len(session.exec(select(OutboxMessage)).all()) == mail_before


@pytest.mark.parametrize("source", ["cli", "email", "bot", "web", "api"])
def test_a_turn_too_long_is_refused_from_every_source_and_nothing_is_stored(session, make_players, start_game,
                                                                            source):
    alice, bob = make_players("alice", "bob")
    game = start_game(alice, bob)
    assert preview_turn(session, game.id, alice, LONG).canonical == "a1"  # legal, only too long
    mail_before = len(session.exec(select(OutboxMessage)).all())
    with pytest.raises(errors.BadInput) as refused:
        submit_turn(session, game.id, alice, LONG, 0, source)
    assert refused.value.message == transition.too_long(LONG, kind_of(game).notation.example_turn(None))
    assert refused.value.message.startswith("a turn is at most 500 characters; yours has 501")
    _nothing_stored(session, game, mail_before)
    assert submit_turn(session, game.id, alice, LONG[:transition.MAX_TURN], 0, source).turn.canonical == "a1"


def test_pbem_play_refuses_a_turn_too_long_and_stores_nothing(app, session, make_players, start_game):
    alice, bob = make_players("alice", "bob")
    game = start_game(alice, bob)
    mail_before = len(session.exec(select(OutboxMessage)).all())
    database = {"DATABASE_URL": app.config["DATABASE_URL"], "PBEM_SECRET_KEY": "x"}
    if app.config.get("DATABASE_SCHEMA"):  # PostgreSQL: the test's schema
        database["PBEM_DATABASE_SCHEMA"] = app.config["DATABASE_SCHEMA"]
    result = CliRunner(env=database).invoke(main, ["play", str(game.id), LONG, "--as", alice.email])
    assert result.exit_code == 1
    assert "a turn is at most 500 characters; yours has 501" in result.stderr
    _nothing_stored(session, game, mail_before)


def test_the_writer_itself_refuses_a_turn_too_long(session, make_players, start_game):
    alice, bob = make_players("alice", "bob")
    game = start_game(alice, bob)
    seat = session.exec(select(Seat).where(Seat.game_id == game.id, Seat.number == 0)).one()
    preview = preview_turn(session, game.id, alice, "a1")
    move = transition.Move(seat, LONG, preview.canonical, preview.state, "cli")
    mail_before = len(session.exec(select(OutboxMessage)).all())
    with pytest.raises(errors.BadInput, match="at most 500 characters"):
        transition.write(session, game, 0, utcnow(), move)
    session.rollback()
    _nothing_stored(session, game, mail_before)


def test_then_runs_after_the_claim_in_the_turns_transaction(session, make_players, start_game):
    alice, bob = make_players("alice", "bob")
    game = start_game(alice, bob)
    seen = []

    def then(written):
        rows = session.exec(select(Turn)).all()
        seen.append((game.ply, written.turn.canonical, [t.canonical for t in rows]))

    submit_turn(session, game.id, alice, "a1", 0, "web", then=then)
    assert seen == [(1, "a1", ["a1"])]  # the game advanced and the turn written before it ran


def test_a_failing_then_stores_nothing_and_a_turn_that_moved_on_calls_no_then(session, make_players, start_game):
    alice, bob = make_players("alice", "bob")
    game = start_game(alice, bob)
    mail_before = len(session.exec(select(OutboxMessage)).all())

    def broken(_done):
        raise RuntimeError("the caller's rows failed")

    with pytest.raises(RuntimeError):
        submit_turn(session, game.id, alice, "a1", 0, "web", then=broken)
    _nothing_stored(session, game, mail_before)
    submit_turn(session, game.id, alice, "a1", 0, "web")
    called = []
    with pytest.raises(errors.GameMovedOn):
        submit_turn(session, game.id, alice, "e5", 0, "web", then=called.append)
    assert called == []


def test_a_mailed_turn_that_lost_the_race_gets_no_you_played_answer(duel, monkeypatch):
    robot, (game_id, alice_id, _), mail = duel
    checked = turn_service.preview_turn

    def web_turn_lands_first(session, *args, **kwargs):
        """The mailed turn is checked; then alice's turn from the web
        (another session) is stored before the mailed one is."""
        preview = checked(session, *args, **kwargs)
        with Session(robot.app.extensions["pbem_engine"]) as other:
            submit_turn(other, game_id, other.get(Player, alice_id), "e5", 0, "web")
        return preview

    monkeypatch.setattr(turn_service, "preview_turn", web_turn_lands_first)
    answers = robot.send(client_reply(mail, "a1"))
    bodies = [plain_text(answer) for answer in robot.to("alice@example.org", answers)]
    assert not any("You played" in body for body in bodies)
    assert any("moved on" in body for body in bodies)
    assert [(t.canonical, t.source) for t in turns(robot.app, game_id)] == [("e5", "web")]


def test_a_mailed_turn_and_its_answer_are_stored_together_the_answer_sent_first(duel):
    robot, (game_id, _, _), mail = duel
    answers = robot.send(client_reply(mail, "a1"))
    assert [str(answer["To"]) for answer in answers] == ["alice@example.org", "bob@example.org"]
    assert "You played a1 in game" in plain_text(answers[0]) and "your turn" in str(answers[1]["Subject"])
    assert [t.source for t in turns(robot.app, game_id)] == ["email"]


def test_the_clocks_turns_go_through_the_writer_too(app, session, make_players, start_game, monkeypatch):
    alice, bob = make_players("alice", "bob")
    game = start_game(alice, bob, time_control={"hours_per_turn": 72, "on_timeout": "forfeit"})
    written = []
    real = transition.write

    def watched(*args, **kwargs):
        done = real(*args, **kwargs)
        written.append(done)
        return done

    monkeypatch.setattr(transition, "write", watched)
    assert sweeping.sweep(app.extensions["pbem_engine"], game.deadline).timeouts == 1
    assert [(w.turn.source, w.turn.canonical, w.turn.ply) for w in written] == [("clock", "--", 1)]
    session.expire_all()
    assert session.get(Game, game.id).ply == 1


def _builds_turns(tree: ast.AST) -> list[str]:
    """Lines of ``tree`` that build a turn row: ``Turn(...)`` or ``Turn.model_construct(...)``."""
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if isinstance(func, ast.Name) and func.id == "Turn":
            found.append(f"{node.lineno}: Turn(...)")
        elif isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "Turn" \
                and func.attr in ("model_construct", "model_validate"):
            found.append(f"{node.lineno}: Turn.{func.attr}(...)")
    return found


def test_only_the_writer_builds_turn_rows():
    offenders = []
    for path in sorted((ROOT / "pbem").rglob("*.py")):
        if path == WRITER or "migrations" in path.parts:
            continue
        offenders += [f"{path.relative_to(ROOT)}:{line}" for line in _builds_turns(ast.parse(path.read_text()))]
    assert offenders == [], "only pbem/services/transition.py may build a turn row:\n" + "\n".join(offenders)
    assert _builds_turns(ast.parse("t = Turn(ply=1)\nu = Turn.model_construct(ply=2)")) == [
        "1: Turn(...)", "2: Turn.model_construct(...)"]
