"""What the fast-paths runner (``benchmarks/fast_paths.py``) and its row
modules share: one ``Row`` per path measured, the way figures are taken
(medians of repeated runs), and the database a row runs on.

A row module is ``benchmarks/fast_paths_<name>.py`` with a function
``rows(database: Database) -> list[Row]``: it measures its paths and their
floors side by side, in the same run, on ``database``.  The runner calls
every row module once per database (SQLite always; PostgreSQL too when
``PBEM_TEST_POSTGRES_URL`` is set) and prints the table.  A module that
touches no database sets ``USES_DATABASE = False`` and is called once, its
rows under the database "-".  Nothing here is part of the test command.

``PBEM_BENCH_REPEATS`` (set by the runner's ``--repeats N``) overrides how
many times ``median_ms`` and ``interleaved_ms`` measure when a row module
does not say, so a quick run (a test of the runner) stays quick.
"""

from __future__ import annotations

import os
import statistics
import tempfile
import time
import uuid
from dataclasses import dataclass
from typing import Callable


@dataclass(frozen=True)
class Database:
    """Where a row runs: ``name`` ("SQLite" or "PostgreSQL") and a fresh,
    empty database URL for each call of ``fresh_url``."""

    name: str
    base_url: str | None = None  # the PostgreSQL server's URL; None for SQLite

    def fresh_url(self) -> str:
        """A new empty database: a SQLite file in a new temporary folder, or
        a new schema on the PostgreSQL server (``search_path`` set by URL)."""
        if self.base_url is None:
            return f"sqlite:///{tempfile.mkdtemp(prefix='pbem-bench-')}/bench.sqlite3"
        import sqlalchemy

        schema = f"bench_{uuid.uuid4().hex[:12]}"
        engine = sqlalchemy.create_engine(self.base_url)
        with engine.begin() as connection:
            connection.execute(sqlalchemy.text(f'CREATE SCHEMA "{schema}"'))
        engine.dispose()
        joiner = "&" if "?" in self.base_url else "?"
        return f"{self.base_url}{joiner}options=-csearch_path%3D{schema}"


def databases() -> list[Database]:
    """SQLite, and PostgreSQL when ``PBEM_TEST_POSTGRES_URL`` is set."""
    found = [Database("SQLite")]
    url = os.environ.get("PBEM_TEST_POSTGRES_URL")
    if url:
        found.append(Database("PostgreSQL", url))
    return found


@dataclass(frozen=True)
class Row:
    """One line of the table.

    ``kind`` says how ``measured`` is judged against ``goal``:
    - "at most x": ``measured / floor`` (a ratio of medians, e.g. seconds per
      request) must be at most ``goal``;
    - "at least x": ``measured / floor`` (e.g. a throughput) must be at least
      ``goal``;
    - "under": ``measured`` itself (in ``unit``) must be under ``goal``
      (``floor`` None).
    """

    path: str
    database: str
    kind: str
    goal: float
    measured: float
    floor: float | None = None
    unit: str = "ms"
    floor_name: str = ""
    note: str = ""

    @property
    def figure(self) -> float:
        """The figure compared with the goal: the ratio, or the measurement."""
        return self.measured / self.floor if self.floor else self.measured

    @property
    def passed(self) -> bool:
        if self.kind == "at most x":
            return self.figure <= self.goal
        if self.kind == "at least x":
            return self.figure >= self.goal
        return self.figure < self.goal


def repeats(default: int = 50) -> int:
    """How many times to measure: ``PBEM_BENCH_REPEATS`` when set, else
    ``default``."""
    return max(1, int(os.environ.get("PBEM_BENCH_REPEATS") or default))


def median_ms(action: Callable[[], object], repeats: int | None = None, warmup: int | None = None) -> float:
    """The median time of ``action`` in milliseconds, after ``warmup`` calls
    (by default 50 repeats, or ``PBEM_BENCH_REPEATS``, and 5 warm-up calls
    at most)."""
    repeats, warmup = _counts(repeats, warmup)
    for _ in range(warmup):
        action()
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        action()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def interleaved_ms(actions: dict[str, Callable[[], object]], repeats: int | None = None,
                   warmup: int | None = None) -> dict[str, float]:
    """Median milliseconds of each action, measured in turn one call after
    another (a, b, a, b, ...), so a path and its floor share the machine's
    ups and downs (counts as for ``median_ms``)."""
    repeats, warmup = _counts(repeats, warmup)
    for _ in range(warmup):
        for action in actions.values():
            action()
    times: dict[str, list[float]] = {name: [] for name in actions}
    for _ in range(repeats):
        for name, action in actions.items():
            start = time.perf_counter()
            action()
            times[name].append((time.perf_counter() - start) * 1000)
    return {name: statistics.median(found) for name, found in times.items()}


def _counts(repeats_: int | None, warmup: int | None) -> tuple[int, int]:
    count = repeats() if repeats_ is None else repeats_
    return count, min(5, count) if warmup is None else warmup
