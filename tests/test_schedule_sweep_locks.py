"""The deadline sweep holds each game only while it handles it: a player's
turn played while a sweep works through many due games goes in at once and
is accepted, in a game the sweep has already reminded and in one it has not
reached yet; the sweep then leaves the game that moved on alone.

The sweep runs in a thread over many games due for a reminder; the turns are
submitted from the test's own database connections while it runs.  That the
turns went in while the sweep was still working is shown by order, not by
time: when both turns have been committed, the sweep has not yet written all
its reminders.  Run on SQLite and on PostgreSQL (skipped when
``PBEM_TEST_POSTGRES_URL`` is unset).

A game whose handling fails is rolled back on its own, and the sweep goes on
with the others."""

from __future__ import annotations

import threading
import time
from datetime import datetime, timedelta, timezone

import pytest
from sqlalchemy import func, insert, update
from sqlalchemy import select as sa_select
from sqlmodel import Session, select

from notation import registry
from pbem import create_app, db
from pbem.models import Game, Player, Seat, Turn
from pbem.models.clock import ReminderSent
from pbem.services import sweep as sweeping
from pbem.services import turns

GAMES = 1000  # the sweep takes a chunk of 50 or 100 games at a time (sweep.CHUNK, CHUNKS): many chunks


def make_due_games(engine, now: datetime, count: int = GAMES) -> tuple[list[int], list[Player]]:
    """``count`` two-player Logger games with 72 h turns, each 50 h into its
    first turn (so its 24 h reminder is due at ``now``), due one second apart
    in order of id; their ids and the two players."""
    kind = registry.get("logger")
    position = kind.notation.format_position(kind.rules.initial_state(2, {}))
    control = {"hours_per_turn": 72, "bank_hours": 0, "bank_increment_hours": 0, "bank_cap_hours": 0,
               "on_timeout": "claim", "weekends": True}
    with engine.begin() as connection:
        connection.execute(insert(Player), [{"email": f"p{i}@example.org", "name": f"P{i}", "created_at": now}
                                            for i in range(2)])
        players = [row[0] for row in connection.execute(sa_select(Player.id).order_by(Player.id))]
        rows = []
        for n in range(count):
            start = now - timedelta(hours=50) + timedelta(seconds=n)
            rows.append({"kind": "logger", "options": kind.rules.normalize_options({}), "status": "active",
                         "random_order": False, "position": position, "ply": 0, "hours_per_turn": 72,
                         "time_control": control, "deadline": start + timedelta(hours=72),
                         "turn_started_at": start, "next_check_at": start + timedelta(hours=48),
                         "creator_id": players[0], "created_at": start, "started_at": start, "result": "*"})
        connection.execute(insert(Game), rows)
        ids = [row[0] for row in connection.execute(sa_select(Game.id).order_by(Game.id))]
        connection.execute(insert(Seat), [{"game_id": g, "player_id": players[s], "number": s, "status": "accepted",
                                           "invited_at": now} for g in ids for s in (0, 1)])
    with Session(engine, expire_on_commit=False) as session:
        return ids, [session.get(Player, p) for p in players]


def reminders(engine) -> int:
    """The reminders the sweep has committed so far, read on a connection of
    our own."""
    with Session(engine) as session:
        return session.exec(select(func.count()).select_from(ReminderSent)).one()


@pytest.mark.parametrize("backend", ["postgres_config", "sqlite_config"])
def test_a_turn_goes_in_while_the_sweep_works_through_many_games(request, backend):
    config = request.getfixturevalue(backend)
    app = create_app({"TESTING": True, "SECRET_KEY": "x", "AUTO_MIGRATE": False, "BASE_URL": "http://pbem.test",
                      **config})
    engine = app.extensions["pbem_engine"]
    now = datetime.now(timezone.utc)
    ids, (ann, _bob) = make_due_games(engine, now)
    first, last = ids[0], ids[-1]  # the first game the sweep handles, and the last
    swept: list = []

    def run_sweep() -> None:
        with app.app_context():
            try:
                swept.append(sweeping.sweep(db.engine(), now))
            except BaseException as error:  # reported by the test below
                swept.append(error)

    sweeper = threading.Thread(target=run_sweep)
    sweeper.start()
    try:
        while sweeper.is_alive() and reminders(engine) == 0:  # the sweep's first reminder is out
            time.sleep(0.002)
        with app.app_context():
            played = []
            for game_id in (first, last):
                with Session(engine, expire_on_commit=False) as session:
                    played.append(turns.submit_turn(session, game_id, ann, "a1", 0, "web"))
        during = reminders(engine)
    finally:
        sweeper.join(timeout=300)
    assert not sweeper.is_alive()
    assert not isinstance(swept[0], BaseException), swept[0]
    done = swept[0]

    # both turns were accepted, and went in before the sweep was done
    assert [p.turn.ply for p in played] == [1, 1]
    assert during < done.reminders, (
        f"the turns were committed only after the sweep had written all {done.reminders} reminders")
    with Session(engine) as session:
        assert session.get(Game, first).ply == 1 and session.get(Game, last).ply == 1
        assert len(list(session.exec(select(Turn).where(Turn.game_id.in_([first, last]))))) == 2
        reminded = [row.game_id for row in session.exec(select(ReminderSent))]
    # every game was reminded once, except the one whose player had moved
    # before the sweep reached it
    assert sorted(reminded) == ids[:-1]
    assert done.reminders == GAMES - 1
    engine.dispose()


def test_a_game_that_fails_is_rolled_back_alone_and_the_sweep_goes_on(app, caplog):
    engine = app.extensions["pbem_engine"]
    now = datetime.now(timezone.utc)
    ids, _ = make_due_games(engine, now, count=5)
    broken = ids[2]
    with engine.begin() as connection:  # a position the game's notation cannot read
        connection.execute(update(Game).where(Game.id == broken).values(position="not a position"))
    with app.app_context():
        done = sweeping.sweep(db.engine(), now)
        again = sweeping.sweep(db.engine(), now)
    assert (done.reminders, again.reminders) == (4, 0)
    assert f"game {broken} failed" in caplog.text
    with Session(engine) as session:
        assert sorted(row.game_id for row in session.exec(select(ReminderSent))) == [g for g in ids if g != broken]
        assert session.get(Game, broken).next_check_at <= now  # left as it was, for the next sweep
