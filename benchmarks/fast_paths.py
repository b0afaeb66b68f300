"""The fast-paths runner: measures every row of the issue "Fast paths"
against its goal in one run and prints the table.  Run by hand:

    .venv/bin/python benchmarks/fast_paths.py [--only NAME] [--repeats N]

It imports every row module ``benchmarks/fast_paths_<name>.py`` (found by
name, so a new module needs no change here; ``fast_paths_common.py`` says
what a module provides), and runs each on SQLite and, when
``PBEM_TEST_POSTGRES_URL`` is set, on PostgreSQL too (a module that uses no
database runs once).  ``--only boards`` runs ``fast_paths_boards.py`` alone;
``--repeats N`` measures each figure N times instead of the modules' own
count (quick, and noisier).

It reports; it is not a test: a missed goal prints MISS and still exits 0.
It exits 1 only when a row module cannot be imported or fails.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
import traceback
from pathlib import Path
from types import ModuleType
from typing import Sequence, TextIO

HERE = Path(__file__).resolve().parent
PREFIX = "fast_paths_"
NOT_ROWS = {"fast_paths_common"}
HEADERS = ("path", "database", "floor", "measured", "floor figure", "figure", "goal", "result")


def module_names(only: str | None = None) -> list[str]:
    """The row modules' short names (``boards`` for fast_paths_boards.py),
    sorted; just ``only`` when given (an error if there is no such module)."""
    names = sorted(p.stem[len(PREFIX):] for p in HERE.glob(f"{PREFIX}*.py") if p.stem not in NOT_ROWS)
    if only is None:
        return names
    if only not in names:
        raise SystemExit(f"no row module {PREFIX}{only}.py; there are: {', '.join(names) or 'none'}")
    return [only]


def load(name: str) -> ModuleType:
    if str(HERE) not in sys.path:
        sys.path.insert(0, str(HERE))
    return importlib.import_module(PREFIX + name)


def _figure(value: float | None, unit: str) -> str:
    return "-" if value is None else f"{value:.2f} {unit}"


def cells(row) -> tuple[str, ...]:
    """A row of the table as text: the figure is a ratio ("2.10x") when
    the row has a floor, else the measurement itself."""
    figure = f"{row.figure:.2f}x" if row.floor else f"{row.figure:.2f} {row.unit}"
    goal = {"at most x": f"<= {row.goal:g}x", "at least x": f">= {row.goal:g}x"}.get(
        row.kind, f"< {row.goal:g} {row.unit}")
    return (row.path, row.database, row.floor_name or "-", _figure(row.measured, row.unit),
            _figure(row.floor, row.unit), figure, goal, "PASS" if row.passed else "MISS")


def table(lines: Sequence[tuple[str, ...]]) -> str:
    """Columns padded to their widest cell."""
    widths = [max(len(line[i]) for line in lines) for i in range(len(lines[0]))]
    out = []
    for index, line in enumerate(lines):
        out.append("  ".join(cell.ljust(width) for cell, width in zip(line, widths)).rstrip())
        if index == 0:
            out.append("  ".join("-" * width for width in widths))
    return "\n".join(out)


def run(names: Sequence[str], out: TextIO | None = None) -> int:
    """Measure the rows of the modules ``names`` on every database, print
    the table, its notes and a summary; the exit code (1 if a module
    failed)."""
    from fast_paths_common import Database, databases

    out = out or sys.stdout
    rows, errors = [], []
    for name in names:
        try:
            module = load(name)
            targets = databases() if getattr(module, "USES_DATABASE", True) else [Database("-")]
            for database in targets:
                print(f"measuring {name} on {database.name}...", file=sys.stderr, flush=True)
                rows.extend(module.rows(database))
        except Exception:  # report it, and carry on with the other modules
            errors.append((name, traceback.format_exc()))
    if rows:
        print(table([HEADERS] + [cells(row) for row in rows]), file=out)
        notes = [f"- {row.path} [{row.database}]: {row.note}" for row in rows if row.note]
        if notes:
            print("\nnotes:", *notes, sep="\n", file=out)
    for name, text in errors:
        print(f"\nERROR in {PREFIX}{name}.py:\n{text}", file=out)
    passed = sum(row.passed for row in rows)
    print(f"\n{len(rows)} rows: {passed} PASS, {len(rows) - passed} MISS"
          + (f", {len(errors)} module(s) failed" if errors else ""), file=out)
    return 1 if errors else 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", metavar="NAME", help="run benchmarks/fast_paths_NAME.py alone")
    parser.add_argument("--repeats", type=int, metavar="N", help="measure each figure N times")
    args = parser.parse_args(argv)
    if args.repeats is not None:
        os.environ["PBEM_BENCH_REPEATS"] = str(args.repeats)
    sys.path.insert(0, str(HERE))
    return run(module_names(args.only))


if __name__ == "__main__":
    sys.exit(main())
