"""Fast-paths rows for the deadline sweep: one sweep over 100,000 active
games of which 1,000 have a reminder due, and its memory, which must stay
flat in the number of games.

``rows(database)`` builds the games with bulk INSERTs (a few seconds), then
times the sweep (the median of ``REPEATS`` sweeps, the same 1,000 games made
due again between them) and traces its peak Python memory (tracemalloc),
with 100,000 games and with 20,000 games (the same 1,000 due): the memory
row is the ratio of the two.  Run by hand:

    .venv/bin/python benchmarks/fast_paths_sweep.py [--games N]

(with ``PBEM_TEST_POSTGRES_URL`` set, PostgreSQL too).
"""

from __future__ import annotations

import argparse
import gc
import os
import statistics
import sys
import time
import tracemalloc
from datetime import datetime, timedelta, timezone
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))  # fast_paths_common, however we were imported

from fast_paths_common import Database, Row, databases
from sqlalchemy import delete, insert, select, text, update

GAMES = 100_000
SMALL = 20_000
DUE = 1_000
REPEATS = 3
GOAL_SECONDS = 0.5
#: the memory of a sweep over GAMES games may be at most this times that over SMALL games
MEMORY_GOAL = 1.25


def fill(engine: Any, count: int, due: int, now: datetime) -> list[int]:
    """``count`` two-player Logger games with 72 h turns, ``due`` of them
    (spread evenly) 50 h into their turn (their 24 h reminder due at
    ``now``), the rest 1 h in; bulk INSERTs.  The ids of the due games."""
    from notation import registry
    from pbem.models import Game, Player, Seat

    kind = registry.get("logger")
    position = kind.notation.format_position(kind.rules.initial_state(2, {}))
    options = kind.rules.normalize_options({})
    control = {"hours_per_turn": 72, "bank_hours": 0, "bank_increment_hours": 0, "bank_cap_hours": 0,
               "on_timeout": "claim", "weekends": True}
    every = max(1, count // due)
    step = 10_000
    with engine.begin() as connection:
        connection.execute(insert(Player), [{"email": f"p{i}@bench.example", "name": f"P{i}", "created_at": now}
                                            for i in range(2)])
        players = list(connection.execute(select(Player.id).order_by(Player.id)).scalars())
        for first in range(0, count, step):
            rows = []
            for n in range(first, min(count, first + step)):
                start = now - timedelta(hours=50 if n % every == 0 and n // every < due else 1)
                rows.append({"kind": "logger", "options": options, "status": "active", "random_order": False,
                             "position": position, "ply": 0, "hours_per_turn": 72, "time_control": control,
                             "deadline": start + timedelta(hours=72), "turn_started_at": start,
                             "next_check_at": start + timedelta(hours=48), "creator_id": players[0],
                             "created_at": start, "started_at": start, "result": "*"})
            connection.execute(insert(Game), rows)
        ids = list(connection.execute(select(Game.id).order_by(Game.id)).scalars())
        for first in range(0, len(ids), step):
            connection.execute(insert(Seat), [
                {"game_id": g, "player_id": players[s], "number": s, "status": "accepted", "invited_at": now}
                for g in ids[first:first + step] for s in (0, 1)])
        due_ids = list(connection.execute(
            select(Game.id).where(Game.turn_started_at == now - timedelta(hours=50))).scalars())
    if engine.dialect.name == "postgresql":  # statistics, as a live database has (autovacuum would add them later)
        with engine.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
            connection.execute(text("ANALYZE games, seats"))
    return due_ids


def due_again(engine: Any, due_ids: list[int], now: datetime) -> None:
    """Undo a sweep: the reminders and mail gone, the same games due again."""
    from pbem.models import Game, OutboxMessage
    from pbem.models.clock import ReminderSent

    with engine.begin() as connection:
        connection.execute(delete(OutboxMessage))
        connection.execute(delete(ReminderSent))
        for first in range(0, len(due_ids), 500):
            connection.execute(update(Game).where(Game.id.in_(due_ids[first:first + 500]))
                               .values(next_check_at=now - timedelta(hours=2)))


def measure(database: Database, count: int, repeats: int) -> tuple[float, float, int]:
    """Median seconds of a sweep with ``DUE`` reminders due among ``count``
    games, its peak traced memory (MiB) and the reminders it sent."""
    from pbem import create_app
    from pbem.services.sweep import sweep

    app = create_app({"SECRET_KEY": "bench", "BASE_URL": "http://bench", "SCHEDULER": "off",
                      "DATABASE_URL": database.fresh_url()})
    engine = app.extensions["pbem_engine"]
    now = datetime.now(timezone.utc)
    due_ids = fill(engine, count, DUE, now)
    times, sent = [], 0
    with app.app_context():
        for n in range(repeats):
            if n:
                due_again(engine, due_ids, now)
            gc.collect()
            began = time.perf_counter()
            sent = sweep(engine, now).reminders
            times.append(time.perf_counter() - began)
        due_again(engine, due_ids, now)
        gc.collect()
        tracemalloc.start()
        sweep(engine, now)
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
    engine.dispose()
    return statistics.median(times), peak / 2**20, sent


def rows(database: Database, games: int = GAMES, repeats: int = REPEATS) -> list[Row]:
    seconds, peak, sent = measure(database, games, repeats)
    _, small_peak, _ = measure(database, SMALL, 1)
    return [
        Row(f"deadline sweep, {games:,} active games, {DUE:,} reminders due", database.name, "under",
            GOAL_SECONDS, seconds, unit="s", note=f"{sent} reminders sent; median of {repeats}"),
        Row(f"deadline sweep memory, {games:,} games vs {SMALL:,} ({DUE:,} due)", database.name, "at most x",
            MEMORY_GOAL, peak, floor=small_peak, unit="MiB", floor_name=f"the same sweep over {SMALL:,} games",
            note=f"peak traced {peak:.1f} MiB vs {small_peak:.1f} MiB"),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=GAMES)
    parser.add_argument("--repeats", type=int, default=REPEATS)
    args = parser.parse_args()
    for database in databases():
        for row in rows(database, args.games, args.repeats):
            ratio = f" ({row.figure:.2f}x of {row.floor:.2f})" if row.floor else ""
            print(f"{row.database:10} {row.path}: {row.measured:.3f} {row.unit}{ratio}, goal {row.kind} "
                  f"{row.goal}: {'ok' if row.passed else 'MISSED'}  [{row.note}]", flush=True)


if __name__ == "__main__":
    main()
