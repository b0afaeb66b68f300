"""The fast-paths runner (``benchmarks/fast_paths.py``) finds its row
modules by name and prints the table: run on the boards module with two
repeats, it shows one row per hosted game with its figure, goal and
verdict, and a summary, and exits 0 whatever the figures.  Nothing here
looks at how fast anything is."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from notation import registry

ROOT = Path(__file__).resolve().parent.parent
RUNNER = ROOT / "benchmarks" / "fast_paths.py"


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(RUNNER), *args], capture_output=True, text=True, cwd=ROOT,
                          timeout=120)


def test_the_runner_prints_the_boards_table_and_a_summary():
    done = run("--only", "boards", "--repeats", "2")
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].split() == ["path", "database", "floor", "measured", "floor", "figure", "figure", "goal",
                                "result"]
    for game in registry.names():
        row = next(line for line in lines if line.startswith(f"PNG board for mail ({game})"))
        assert "< 5 ms" in row and row.split()[-1] in ("PASS", "MISS")
        assert any(line.startswith(f"- PNG board for mail ({game})") and "was" in line for line in lines)
        assert any(line.startswith("PNG board for mail, ") and line.split(" (")[1].startswith(f"{game})")
                   for line in lines), f"the random-play sample's row of {game}"
    summary = lines[-1]
    assert summary.startswith(f"{2 * len(registry.names())} rows: ") and "PASS" in summary and "MISS" in summary


def test_row_modules_are_found_by_name_and_a_wrong_name_is_refused():
    sys.path.insert(0, str(RUNNER.parent))
    import fast_paths

    assert "boards" in fast_paths.module_names()
    assert "common" not in fast_paths.module_names()
    assert fast_paths.module_names("boards") == ["boards"]
    done = run("--only", "nosuch")
    assert done.returncode != 0 and "no row module fast_paths_nosuch.py" in done.stderr


def test_each_database_gets_its_rows_and_a_failing_module_is_reported(monkeypatch, capsys):
    sys.path.insert(0, str(RUNNER.parent))
    import fast_paths
    from fast_paths_common import Row

    class Measured:
        USES_DATABASE = True

        @staticmethod
        def rows(database):
            return [Row("a path", database.name, "at most x", 2.0, 3.0, floor=1.0, floor_name="a floor")]

    class Broken:
        @staticmethod
        def rows(database):
            raise RuntimeError("no figures today")

    monkeypatch.setenv("PBEM_TEST_POSTGRES_URL", "postgresql+psycopg://nobody@127.0.0.1:1/none")
    monkeypatch.setattr(fast_paths, "load", lambda name: {"fine": Measured, "broken": Broken}[name])
    assert fast_paths.run(["fine", "broken"]) == 1
    out = capsys.readouterr().out
    assert [line.split()[2] for line in out.splitlines() if line.startswith("a path")] == ["SQLite", "PostgreSQL"]
    assert "3.00x" in out and "<= 2x" in out and "MISS" in out
    assert "ERROR in fast_paths_broken.py" in out and "no figures today" in out
    assert out.splitlines()[-1] == "2 rows: 0 PASS, 2 MISS, 1 module(s) failed"
