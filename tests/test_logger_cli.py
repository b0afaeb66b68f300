"""The ``pbem position`` commands on Logger, run as a user runs them."""

import subprocess
import sys

from click.testing import CliRunner

from pbem.cli import main

START = "...../...../..s../...../..... 1 0,0 2,2"


def run(*args):
    return CliRunner().invoke(main, list(args))


def test_worked_example_through_position_apply():
    result = run("position", "apply", "logger", "....2/...../...../...../1MMsM 1 0,0 2,2", "C:b1")
    assert result.exit_code == 0, result.output
    assert result.output == "....2/...../...../.ss.s/1..SM 2 2,0 2,2\n"


def test_apply_prints_each_position_then_stops_at_an_error():
    result = run("position", "apply", "logger", START, "a1", "e5", "a1-a3 G P:b3", "a3-a5")
    assert result.exit_code == 1
    assert result.stdout.splitlines() == [
        "...../...../..s../...../1.... 2 0,0 2,2",
        "....2/...../..s../...../1.... 1 0,0 2,2",
        "....2/...../1sS../...../..... 2 0,0 2,2",
    ]
    assert result.stderr.startswith("error: ")
    assert "e5" in result.stderr  # the logger to move is player 2 on e5


def test_console_script_is_installed():
    out = subprocess.run(
        [sys.executable, "-m", "pbem", "position", "start", "logger", "3"], capture_output=True, text=True
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "...../...../..s../...../..... 1 0,0,0 1,1,1"
