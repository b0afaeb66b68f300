"""Two scheduler processes (real OS processes) sweep the same due deadlines
at once: each reminder is sent exactly once.  On PostgreSQL (skipped when
``PBEM_TEST_POSTGRES_URL`` is unset) the sweeps claim rows with ``FOR UPDATE
SKIP LOCKED``; on SQLite the writes are serialised and the conditional
claim decides."""

from __future__ import annotations

import subprocess
import sys
import time
from datetime import datetime, timedelta, timezone

import pytest
from sqlmodel import Session, select

from pbem import create_app, models
from pbem.models import OutboxMessage
from pbem.models.clock import ReminderSent
from pbem.services import games
from pbem.services.accounts import player_for_email

GAMES = 40

SCRIPT = """
import os, sys, time
from pbem import create_app
from pbem.scheduler import run_once
url, schema, go, ready = sys.argv[1], sys.argv[2] or None, sys.argv[3], sys.argv[4]
app = create_app({"TESTING": True, "SECRET_KEY": "x", "AUTO_MIGRATE": False, "BASE_URL": "http://pbem.test",
                  "DATABASE_URL": url, "DATABASE_SCHEMA": schema})
open(ready, "w").close()  # started up: now waiting at the line
while not os.path.exists(go):
    time.sleep(0.005)
print(run_once(app, ["sweep"])["sweep"])
"""


def wait_until_ready(workers, flags, timeout: float) -> None:
    """Wait for every worker's ready file; fail (killing them) if one dies or
    they are not all ready in ``timeout`` seconds."""
    limit = time.monotonic() + timeout
    while not all(flag.exists() for flag in flags):
        dead = [w for w in workers if w.poll() is not None]
        if dead or time.monotonic() > limit:
            for worker in workers:
                worker.kill()
            errors = [w.communicate()[1] for w in workers]
            pytest.fail(f"the scheduler workers did not start up in {timeout} s: {errors}")
        time.sleep(0.01)


@pytest.mark.parametrize("backend", ["postgres_config", "sqlite_config"])
def test_two_scheduler_processes_send_each_reminder_once(request, backend, tmp_path, monkeypatch):
    config = request.getfixturevalue(backend)
    app = create_app({"TESTING": True, "SECRET_KEY": "x", "AUTO_MIGRATE": False, **config})
    real = datetime.now(timezone.utc)
    monkeypatch.setattr(models, "CLOCK", lambda: real - timedelta(hours=50))  # 72 h turns: 24 h reminders due now
    engine = app.extensions["pbem_engine"]
    with app.app_context(), Session(engine, expire_on_commit=False) as session:
        for number in range(GAMES):
            a = player_for_email(session, f"a{number}@example.org")
            b = player_for_email(session, f"b{number}@example.org")
            session.commit()
            game = games.create_game(session, a, "logger", [a.email, b.email], hours_per_turn=72)
            games.accept(session, game.id, b)
    monkeypatch.undo()
    go = tmp_path / "go"
    ready = [tmp_path / f"ready{n}" for n in range(2)]
    workers = [
        subprocess.Popen([sys.executable, "-c", SCRIPT, config["DATABASE_URL"], config.get("DATABASE_SCHEMA") or "",
                          str(go), str(flag)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for flag in ready
    ]
    wait_until_ready(workers, ready, timeout=120)  # both have started up and wait at the line
    go.touch()
    outputs = [worker.communicate(timeout=60) for worker in workers]
    for worker, (_out, err) in zip(workers, outputs):
        assert worker.returncode == 0, err
    counts = [int(out.strip().splitlines()[-1]) for out, _ in outputs]
    assert sum(counts) == GAMES
    with Session(engine) as session:
        reminders = [m for m in session.exec(select(OutboxMessage)) if "reminder" in m.subject]
        assert len(reminders) == GAMES
        assert len({m.game_id for m in reminders}) == GAMES
        assert len(list(session.exec(select(ReminderSent)))) == GAMES
    engine.dispose()
