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


def test_show_prints_a_diagram_with_scores():
    result = run("position", "show", "logger", "....2/...../..s../...../1.... 1 3,0 2,2")
    assert result.exit_code == 0
    assert result.output.splitlines()[:6] == [
        "5 . . . . 2",
        "4 . . . . .",
        "3 . . s . .",
        "2 . . . . .",
        "1 1 . . . .",
        "  a b c d e",
    ]
    assert "Player 1: 3 points, 2 protesters in supply" in result.output


def test_legal_lists_every_turn_in_canonical_notation():
    result = run("position", "legal", "logger", "....2/...../s..../M..../1M... 1 0,0 2,2")
    assert result.exit_code == 0
    lines = result.output.splitlines()
    assert len(lines) == len(set(lines)) == 10
    assert "G:b1>b2 C:a2" in lines and "G:a2>b2 C:a2" in lines
    # each listed turn is accepted back by apply
    for line in lines:
        assert run("position", "apply", "logger", "....2/...../s..../M..../1M... 1 0,0 2,2", line).exit_code == 0


def test_perft_counts_leaves():
    assert run("position", "perft", "logger", START, "2").output == "12\n"


def test_bad_position_and_unknown_game_are_errors():
    result = run("position", "show", "logger", "nonsense")
    assert result.exit_code == 1 and result.stderr.startswith("error: a Logger position has four fields")
    result = run("position", "show", "go", START)
    assert result.exit_code == 1 and "unknown game 'go'" in result.stderr


def test_options_are_passed_to_the_game():
    result = run("position", "apply", "logger", "....2/...../...../...../1MMsM 1 0,0 2,2", "C:b1", "-o", "spawn=sapling")
    assert result.output == "....2/...../...../.SS.S/1..SM 2 2,0 2,2\n"
    result = run("position", "apply", "logger", START, "a1", "-o", "spawn=oak")
    assert result.exit_code == 1 and "seedling, sapling" in result.stderr
