"""The background workers wake when their work is committed, not on their
timers: with every safety-net interval an hour long, the computer answers a
turn, queued mail goes out and a deadline is handled within seconds; a
wake-up that never arrives is made good by the safety net; on PostgreSQL a
``pbem scheduler`` of its own process wakes on another process's commit
(``LISTEN/NOTIFY``).  SQLite and PostgreSQL (when configured)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from datetime import timedelta
from pathlib import Path

import pytest
from conftest import make_test_app
from sqlalchemy import text
from sqlmodel import Session, select
from test_api_games import api_caller as _api
from test_api_games import new_game

from pbem import scheduler, wake
from pbem.models import Game, OutboxMessage, Turn, utcnow
from pbem.services import gamestate

HOUR = 3600
SLOW = {"BOTS_SECONDS": HOUR, "OUTBOX_SECONDS": HOUR, "INBOX_SECONDS": HOUR, "SWEEP_SECONDS": HOUR}


def wait_for(check, seconds: float = 10.0):
    """``check()``'s first true answer within ``seconds`` (polled), else None."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        found = check()
        if found:
            return found
        time.sleep(0.05)
    return None


@pytest.fixture
def slow_app(database_config, tmp_path):
    app = make_test_app(database_config, MAIL_EML_FOLDER=str(tmp_path / "mail"), **SLOW)
    yield app
    app.extensions["pbem_engine"].dispose()


def running(app, names):
    jobs = scheduler.build(app, names=names)
    jobs.start()
    workers = jobs.pbem_workers
    assert wait_for(lambda: all(w.runs for w in workers), 20), "each worker's first pass (everything) ran"
    return jobs


def plies(app, game_id) -> int:
    with Session(app.extensions["pbem_engine"]) as session:
        return session.get(Game, game_id).ply


def test_the_computer_answers_a_turn_at_once_not_at_its_interval(slow_app):
    api_call = _api(slow_app)
    jobs = running(slow_app, ["bots"])
    try:
        game = new_game(api_call, players=("alice@example.org",), bots=["beginner"])
        played_at = time.monotonic()
        answer = api_call("alice", "POST", f"/api/v1/games/{game['id']}/turns", {"turn": "a1", "ply": 0})
        assert answer.status_code in (200, 201), answer.get_json()
        assert wait_for(lambda: plies(slow_app, game["id"]) == 2, 10), "the bot answered within seconds"
        assert time.monotonic() - played_at < 5
        with Session(slow_app.extensions["pbem_engine"]) as session:
            turn = session.exec(select(Turn).where(Turn.game_id == game["id"], Turn.ply == 2)).one()
            assert turn.source == "bot"
    finally:
        jobs.shutdown()


def test_queued_mail_goes_out_at_once(slow_app, tmp_path):
    api_call = _api(slow_app)
    jobs = running(slow_app, ["outbox"])
    try:
        new_game(api_call)  # bob's invitation is queued
        engine = slow_app.extensions["pbem_engine"]

        def sent():
            with Session(engine) as session:
                rows = session.exec(select(OutboxMessage).where(OutboxMessage.to_addr == "bob@example.org")).all()
                return rows and all(r.sent_at is not None for r in rows)

        assert wait_for(sent, 10), "the invitation was sent within seconds"
        assert any("bob@example.org" in p.read_text(errors="replace") for p in (tmp_path / "mail").glob("*.eml"))
    finally:
        jobs.shutdown()


def test_a_lost_wake_up_is_made_good_by_the_safety_net(database_config, tmp_path):
    app = make_test_app(database_config, **{**SLOW, "BOTS_SECONDS": 2})
    api_call = _api(app)
    jobs = running(app, ["bots"])
    try:
        (worker,) = jobs.pbem_workers
        for unsubscribe in worker._unsubscribe:  # as if every notification were lost
            unsubscribe()
        game = new_game(api_call, players=("alice@example.org",), bots=["beginner"])
        assert api_call("alice", "POST", f"/api/v1/games/{game['id']}/turns",
                        {"turn": "a1", "ply": 0}).status_code in (200, 201)
        time.sleep(0.5)
        assert plies(app, game["id"]) == 1, "no wake-up: the bot has not answered yet"
        assert wait_for(lambda: plies(app, game["id"]) == 2, 10), "the 2 s safety net made it play"
    finally:
        jobs.shutdown()
        app.extensions["pbem_engine"].dispose()


def test_a_deadline_is_handled_when_it_passes_not_at_the_sweeps_interval(slow_app):
    api_call = _api(slow_app)
    engine = slow_app.extensions["pbem_engine"]
    game = new_game(api_call, time_control={"hours_per_turn": 24, "on_timeout": "forfeit"})
    assert api_call("bob", "POST", f"/api/v1/games/{game['id']}/accept").status_code == 200
    jobs = running(slow_app, ["sweep"])
    try:
        soon = utcnow() + timedelta(seconds=1.5)
        with slow_app.app_context(), Session(engine) as session:
            row = session.get(Game, game["id"])
            assert gamestate.set_clock(session, row, deadline=soon, next_check_at=soon)
            session.commit()
        set_at = time.monotonic()
        assert plies(slow_app, game["id"]) == 0
        assert wait_for(lambda: plies(slow_app, game["id"]) == 1, 10), "alice's turn was forfeited at the deadline"
        assert time.monotonic() - set_at < 5
    finally:
        jobs.shutdown()


def test_a_scheduler_process_wakes_on_another_processs_commit(postgres_config, tmp_path):
    app = make_test_app(postgres_config)
    engine = app.extensions["pbem_engine"]
    api_call = _api(app)
    game = new_game(api_call, players=("alice@example.org",), bots=["beginner"])
    env = {**os.environ, "PBEM_DATABASE_URL": postgres_config["DATABASE_URL"],
           "PBEM_DATABASE_SCHEMA": postgres_config["DATABASE_SCHEMA"], "PBEM_AUTO_MIGRATE": "off",
           "PBEM_INSTANCE": str(tmp_path), "PBEM_SECRET_KEY": "x"}
    process = subprocess.Popen([sys.executable, "-m", "pbem", "scheduler", "--job", "bots", "--bots-seconds", str(HOUR)],
                               env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               cwd=Path(__file__).parent.parent)
    try:
        channel = wake.pg_channel(engine)

        def listening():
            with engine.connect() as connection:
                return connection.execute(text("SELECT count(*) FROM pg_stat_activity WHERE query = :q"),
                                          {"q": f'LISTEN "{channel}"'}).scalar()

        assert wait_for(listening, 30), "the scheduler process listens"
        time.sleep(0.5)  # its first pass (everything) is done: nothing to play yet
        assert plies(app, game["id"]) == 0
        assert api_call("alice", "POST", f"/api/v1/games/{game['id']}/turns",
                        {"turn": "a1", "ply": 0}).status_code in (200, 201)
        assert wait_for(lambda: plies(app, game["id"]) == 2, 10), "the other process's bot answered at once"
    finally:
        process.terminate()
        output = process.communicate(timeout=10)[0].decode(errors="replace")
        engine.dispose()
    assert "Traceback" not in output, output
