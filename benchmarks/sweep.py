"""One deadline sweep over 100,000 active games of which 1% are due (a 24 h
reminder), on SQLite and on PostgreSQL.  Run by hand:

    .venv/bin/python benchmarks/sweep.py [POSTGRES_URL] [--games N]

SQLite uses a fresh file in a temporary folder; PostgreSQL (when a URL is
given, e.g. postgresql+psycopg://postgres@127.0.0.1:5432/test) a fresh
schema, dropped afterwards.  Prints the time of the sweep, the reminders it
sent, and memory (peak Python allocations during the sweep, and the
process's peak RSS); asserts nothing about speed.
"""

from __future__ import annotations

import argparse
import resource
import secrets
import tempfile
import time
import tracemalloc
from datetime import datetime, timedelta, timezone

from sqlalchemy import insert, text, update

from notation import registry
from pbem import create_app, db
from pbem.models import Game, Player, Seat
from pbem.services import sweep as sweeping


def fill(engine, count: int, now: datetime) -> None:
    kind = registry.get("logger")
    position = kind.notation.format_position(kind.rules.initial_state(2, {}))
    options = kind.rules.normalize_options({})
    control = {"hours_per_turn": 72, "bank_hours": 0, "bank_increment_hours": 0, "bank_cap_hours": 0,
               "on_timeout": "claim", "weekends": True}
    with engine.begin() as connection:
        connection.execute(insert(Player), [{"email": f"p{i}@bench.example", "name": f"P{i}", "created_at": now}
                                            for i in range(2)])
        ids = [row[0] for row in connection.execute(text("SELECT id FROM players ORDER BY id"))]
        step = 10_000
        for first in range(0, count, step):
            rows = []
            for n in range(first, min(count, first + step)):
                due = n % 100 == 0  # 1%: started 50 hours ago, so the 24 h reminder is due
                start = now - timedelta(hours=50 if due else 1)
                rows.append({"kind": "logger", "options": options, "status": "active", "random_order": False,
                             "position": position, "ply": 0, "hours_per_turn": 72, "time_control": control,
                             "deadline": start + timedelta(hours=72), "turn_started_at": start,
                             "next_check_at": start + timedelta(hours=48), "creator_id": ids[0],
                             "created_at": start, "started_at": start, "result": "*"})
            connection.execute(insert(Game), rows)
        game_ids = [row[0] for row in connection.execute(text("SELECT id FROM games ORDER BY id"))]
        for first in range(0, len(game_ids), step):
            connection.execute(insert(Seat), [
                {"game_id": g, "player_id": ids[s], "number": s, "status": "accepted", "invited_at": now}
                for g in game_ids[first:first + step] for s in (0, 1)])


def run(label: str, config: dict, count: int) -> None:
    app = create_app({"SECRET_KEY": "bench", "BASE_URL": "http://bench", **config})
    engine = app.extensions["pbem_engine"]
    now = datetime.now(timezone.utc)
    began = time.perf_counter()
    fill(engine, count, now)
    print(f"{label}: {count:,} active games made in {time.perf_counter() - began:.1f} s")
    with app.app_context():
        began = time.perf_counter()
        done = sweeping.sweep(db.engine(), now)
        took = time.perf_counter() - began
        tracemalloc.start()
        again = sweeping.sweep(db.engine(), now)  # nothing left due: the cost of an idle sweep
        _, idle_peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
    print(f"{label}: one sweep took {took:.2f} s and sent {done.reminders} reminders "
          f"({took / max(1, done.reminders) * 1000:.1f} ms each); a second sweep sent {again.reminders}")
    # memory of a sweep with work to do: make the same games due again and trace it
    with engine.begin() as connection:
        connection.execute(text("DELETE FROM outbox"))
        connection.execute(text("DELETE FROM reminders_sent"))
        connection.execute(update(Game).where(Game.turn_started_at == now - timedelta(hours=50))
                           .values(next_check_at=now - timedelta(hours=2)))
    with app.app_context():
        tracemalloc.start()
        traced = sweeping.sweep(db.engine(), now)
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"{label}: peak Python memory during a sweep: {peak / 2**20:.1f} MiB ({traced.reminders} reminders); "
          f"an idle sweep: {idle_peak / 2**20:.2f} MiB; process peak RSS so far {rss:.0f} MiB")
    engine.dispose()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("postgres", nargs="?", help="a PostgreSQL URL; without it only SQLite is measured")
    parser.add_argument("--games", type=int, default=100_000)
    args = parser.parse_args()
    run("SQLite", {"DATABASE_URL": f"sqlite:///{tempfile.mkdtemp()}/sweep.sqlite3"}, args.games)
    if args.postgres:
        from pbem.db import make_engine

        schema = f"pbem_bench_{secrets.token_hex(3)}"
        admin = make_engine(args.postgres)
        with admin.begin() as connection:
            connection.execute(text(f'CREATE SCHEMA "{schema}"'))
        try:
            run("PostgreSQL", {"DATABASE_URL": args.postgres, "DATABASE_SCHEMA": schema}, args.games)
        finally:
            with admin.begin() as connection:
                connection.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
            admin.dispose()


if __name__ == "__main__":
    main()
