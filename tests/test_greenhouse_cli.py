"""``pbem position`` with Martian Greenhouse (issue 54, point 2): a position
whose greenhouse is empty, --seed given to apply, perft that would never
end, numbers of ten digits or more, and ``legal --all`` written in bulk."""

import click
from click.testing import CliRunner

from notation import registry
from pbem.cli import engine as cli_engine
from pbem.cli import main

#: a greenhouse of pure-ish flowers (two stashes): 26,017 legal turns
FEW = "1:1R1R1R1R1R2R/2:2R2R2R2R3R3R/3:3R3R3R1B1B1B/4:1B1B2B2B2B2B/5:2B3B3B3B3B3B 1R2R3R1B2B3B - 6 0 -"
FEW_OPTIONS = ["-o", "stashes=rb", "-o", "orders=1R2R3R1B2B3B"]
#: every flower delivered: the greenhouse field is '-', so the position starts with '-'
EMPTY = "- 1R1R1R1R1R2R=1/2R2R2R2R3R3R=2/3R3R3R1B1B1B=3/1B1B2B2B2B2B=4/2B3B3B3B3B3B=5 - 6 0 -"
EMPTY_OPTIONS = ["-o", "stashes=rb", "-o", "orders=5"]
SEED = "0" * 63 + "1"
TURN = "#1 x #2 -> 1R 1R 1R 2R 2R 2R / 1R 1R 2R 2R 3R 3R"


def run(*args):
    return CliRunner().invoke(main, list(args))


def test_a_position_whose_greenhouse_is_empty_is_a_position_not_an_option():
    for args in (["show", "greenhouse", EMPTY, *EMPTY_OPTIONS], ["show", "greenhouse", *EMPTY_OPTIONS, EMPTY],
                 ["show", "greenhouse", *EMPTY_OPTIONS, "--", EMPTY]):
        shown = run("position", *args)
        assert shown.exit_code == 0, shown.output
        assert "(empty)" in shown.stdout and "Every order filled in 0 breedings" in shown.stdout
    perft = run("position", "perft", "greenhouse", EMPTY, "1", *EMPTY_OPTIONS)
    assert perft.exit_code == 0 and perft.stdout.strip() == "0"
    unknown = run("position", "show", "greenhouse", EMPTY, "--bogus", *EMPTY_OPTIONS)
    assert unknown.exit_code == 2 and "No such option '--bogus'" in unknown.stderr  # options are still options
    assert "starts with '-'" in run("position", "--help").stdout


def test_apply_refuses_a_seed_when_the_game_draws_nothing_during_play():
    refused = run("position", "apply", "greenhouse", FEW, TURN, *FEW_OPTIONS, "--seed", SEED)
    assert refused.exit_code == 1 and not refused.stdout
    assert "draws and rolls nothing during play, so apply takes no --seed" in refused.stderr
    assert "pbem position start greenhouse" in refused.stderr
    assert run("position", "apply", "greenhouse", FEW, TURN, *FEW_OPTIONS).exit_code == 0
    taiga = run("position", "start", "taiga", "2", "--seed", SEED).stdout.strip()  # draws tiles during play
    turn = run("position", "legal", "taiga", taiga).stdout.splitlines()[0]
    drawn = run("position", "apply", "taiga", taiga, turn, "--seed", SEED)
    assert drawn.exit_code == 0 and "chance after turn 1" in drawn.stderr


def test_perft_stops_past_its_leaves_and_says_how_big_it_is(monkeypatch):
    start = run("position", "start", "greenhouse", "1", "--seed", SEED).stdout.strip()
    stopped = run("position", "perft", "greenhouse", start, "2", "--max-leaves", "5000")
    assert stopped.exit_code == 1 and not stopped.stdout
    assert "more than 5,000 leaves 2 turns deep: stopped counting" in stopped.stderr
    assert "--max-leaves" in stopped.stderr
    monkeypatch.setattr(cli_engine, "PERFT_NOTICE", 20_000)
    quiet = run("position", "perft", "greenhouse", FEW, "1", *FEW_OPTIONS)
    assert quiet.exit_code == 0 and quiet.output.strip() == "26017"  # no notice for a program reading it
    monkeypatch.setattr(cli_engine, "_at_a_terminal", lambda: True)
    counted = run("position", "perft", "greenhouse", FEW, "1", *FEW_OPTIONS)
    assert counted.exit_code == 0 and counted.stdout.strip() == "26017"
    assert "still counting: over 20,000 leaves so far; it stops past 10,000,000 (--max-leaves)" in counted.stderr
    ataxx = run("position", "perft", "ataxx", "x5o/7/7/7/7/7/o5x x 0 1", "3", "--max-leaves", "0")
    assert ataxx.stdout.strip() == "6460" and not ataxx.stderr  # the rules' count, no cap


def test_numbers_of_ten_digits_or_more_are_refused_for_what_they_are():
    turn = run("position", "apply", "greenhouse", FEW, TURN.replace("#1 ", "#1234567890 "), *FEW_OPTIONS)
    assert turn.exit_code == 1 and "a flower's number has at most nine digits; 1234567890 has 10 digits" in turn.stderr
    assert "not a breeding" not in turn.stderr
    nine = run("position", "apply", "greenhouse", FEW, TURN.replace("#1 ", "#123456789 "), *FEW_OPTIONS)
    assert "there is no #123456789 in the greenhouse" in nine.stderr
    for position in (FEW.replace(" 6 0 -", " 12345678901 0 -"), FEW.replace("1:1R1R1R", "1234567890:1R1R1R"),
                     FEW.replace(" 6 0 -", " 6 99999999999999999999 -")):
        shown = run("position", "show", "greenhouse", position, *FEW_OPTIONS)
        assert shown.exit_code == 1 and "have at most nine digits" in shown.stderr, shown.stderr
        assert "whole numbers" not in shown.stderr and "a flower is its number" not in shown.stderr


def test_legal_all_writes_the_turns_a_block_at_a_time(monkeypatch):
    writes = []
    echo = click.echo

    def counted(message=None, *args, **kwargs):
        writes.append(message)
        return echo(message, *args, **kwargs)

    monkeypatch.setattr(click, "echo", counted)
    everything = run("position", "legal", "greenhouse", FEW, *FEW_OPTIONS, "--all")
    assert everything.exit_code == 0
    lines = everything.stdout.splitlines()
    assert len(lines) == 26017 and lines[-1] == "give up"
    kind = registry.get("greenhouse")
    assert lines == kind.notation.legal_texts(kind.notation.parse_position(FEW, dict(o.split("=") for o in
                                                                                       FEW_OPTIONS[1::2])))
    assert len(writes) <= 26017 // cli_engine.LEGAL_BLOCK + 1  # not a write a line
