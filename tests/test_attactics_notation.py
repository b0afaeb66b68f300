"""Attactics notation, positions, diagrams, records and the command line.
The parsers' fuzzing and the round trips are in ``test_game_contract.py``."""

from __future__ import annotations

import random

import pytest
from click.testing import CliRunner

from engine.errors import AmbiguousTurnError, MalformedTurnError, PositionError
from notation import record as records
from notation import registry
from pbem.cli import main

KIND = registry.get("attactics")
GAME, NOTATION = KIND.rules, KIND.notation
START2 = ".......2s/......../......../......../......../......../......../1s....... 1 2"
CHOICE = "......../......../......../......../...2s1s.../.......1s/.......1s/1s......1s 1 2"


def run(*args):
    return CliRunner().invoke(main, list(args))


def random_game(seed: int, players: int = 2, limit: int = 40) -> list[str]:
    rng = random.Random(seed)
    state, texts = GAME.initial_state(players), []
    for _ in range(limit):
        if state.to_move is None:
            break
        turn = rng.choice(GAME.legal_turns(state))
        texts.append(NOTATION.format_turn(state, turn))
        state = GAME.apply(state, turn)
    return texts


# -- turns ------------------------------------------------------------------------
@pytest.mark.parametrize(
    "text,canonical",
    [
        ("a1-c3", "a1-c3"),
        ("A1-C3", "a1-c3"),
        ("a1c3", "a1-c3"),
        ("  a1 - c3 ", "a1-c3"),
        ("a1+", "a1+"),
        ("+A1", "a1+"),
        ("grow a1", "a1+"),
        ("a1 -", "a1-"),
        ("shrink a1", "a1-"),
    ],
)
def test_turn_input_is_forgiving_and_output_canonical(text, canonical):
    state = NOTATION.parse_position(START2)
    assert NOTATION.format_turn(state, NOTATION.parse_turn(state, text)) == canonical


@pytest.mark.parametrize("text", ["a1-c3 d4=h2", "A1-C3  D4 = H2", "a1c3 d4=h2", "a1-c3, d4=h2"])
def test_fills_are_read_forgivingly(text):
    state = NOTATION.parse_position(CHOICE)
    assert NOTATION.format_turn(state, NOTATION.parse_turn(state, text)) == "a1-c3 d4=h2"


def test_fill_sizes_may_be_pips_and_empty_may_be_zero():
    state = NOTATION.parse_position(CHOICE)
    with pytest.raises(AmbiguousTurnError):
        NOTATION.parse_turn(state, "a1-c3")
    turn = NOTATION.parse_turn(state, "a1-c3 d4=h1")
    assert NOTATION.format_turn(state, turn) == "a1-c3 d4=h1"


@pytest.mark.parametrize("text", ["", "a9-c3", "x1", "a1-c3 d4", "a1-c3 d4=q", "a1*", "a1-c3 =h2", "a1-c3-e5"])
def test_malformed_turns(text):
    state = NOTATION.parse_position(START2)
    with pytest.raises(MalformedTurnError):
        NOTATION.parse_turn(state, text)


def test_a_jump_and_a_clone_read_the_same_way():
    state = NOTATION.parse_position(START2)
    assert NOTATION.legal_texts(state) == ["a1-a2", "a1-a3", "a1-b1", "a1-b2", "a1-b3", "a1-c1", "a1-c2", "a1-c3", "a1+", "a1-"]


# -- positions --------------------------------------------------------------------
def test_positions_read_runs_of_empty_squares_and_write_dots():
    state = NOTATION.parse_position("72S/8/8/8/8/8/8/1s7 1 2")
    assert NOTATION.format_position(state) == START2
    assert NOTATION.parse_position("72s/8/8/8/8/8/8/1s7 1") == state  # players inferred when left out
    assert NOTATION.format_position(GAME.initial_state(3)).endswith(" 1 3")


@pytest.mark.parametrize(
    "text,words",
    [
        ("8/8/8/8/8/8/8/1s7 1 2", "over"),
        ("72s/8/8/8/8/8/8/1s1s1s1s1s1s2 1 2", "more than 5"),
        ("72s/8/8/8/8/8/8/1s5.3s 1 2", "only 2 players"),
        ("72s/8/8/8/8/8/8/1s7 3 3", "no piece on the board"),
        ("72s/8/8/8/8/8/8/1s7 w1 2", "has not won"),
        ("72s/8/8/8/8/8/8/1s7 5 2", "player to move"),
        ("72s/8/8/8/8/8/8/1s7 1 5", "2 to 4 players"),
        ("72s/8/8/8/8/8/8/1s8 1 2", "rank 1"),
        ("72s/8/8 1 2", "eight ranks"),
        ("72s", "three fields"),
    ],
)
def test_bad_positions_say_what_is_wrong(text, words):
    with pytest.raises(PositionError, match=words):
        NOTATION.parse_position(text)


def test_a_finished_game_reads_and_writes_its_winner():
    state = NOTATION.parse_position("8/8/8/8/8/8/8/1s7 w1 2")
    assert GAME.to_move(state) is None and GAME.result(state).winners == (0,)
    assert NOTATION.format_position(state) == "......../......../......../......../......../......../......../1s....... w1 2"


def test_diagram_has_pyramids_and_stashes():
    state = NOTATION.parse_position(CHOICE)
    diagram = NOTATION.diagram(state)
    piece = diagram.cells[(3, 3)]
    assert (piece.kind, piece.player, piece.size) == ("pyramid", 1, 1)
    text = NOTATION.text_diagram(state)
    assert "Player 1 to move" in text and "stash 0 small, 5 medium, 5 large" in text


# -- records --------------------------------------------------------------------------
def test_record_from_a_start_position():
    record = records.Record("attactics", ["A", "B"], ["a1-c3 d4=h2"], start=CHOICE)
    text = records.write_text(record)
    assert f'[Start "{CHOICE}"]' in text and "1. a1-c3 d4=h2" in text
    assert records.replay(records.read(text)).texts == ["a1-c3 d4=h2"]


# -- the command line -------------------------------------------------------------------
def test_cli_position_commands():
    assert run("position", "start", "attactics", "2").output.strip() == START2
    assert "Player 1 to move" in run("position", "show", "attactics", START2).output
    assert run("position", "legal", "attactics", START2).output.split("\n")[0] == "a1-a2"
    applied = run("position", "apply", "attactics", START2, "a1-b2", "h8-f6")
    assert applied.exit_code == 0
    assert applied.output.splitlines()[1] == "......../......../.....2s../......../......../......../.1s....../1s....... 1 2"
    assert run("position", "perft", "attactics", START2, "1").output.strip() == "10"
    assert run("position", "perft", "attactics", START2, "2").output.strip() == "90"  # shrinking a1 loses at once
    ambiguous = run("position", "apply", "attactics", CHOICE, "a1-c3")
    assert ambiguous.exit_code == 1 and "a1-c3 d4=h1, a1-c3 d4=h2" in ambiguous.stderr
    assert run("position", "start", "attactics", "5").exit_code == 1


def test_cli_record_commands(tmp_path):
    turns = random_game(7, 3)
    record = records.Record("attactics", ["A", "B", "C"], turns)
    path = tmp_path / "game.txt"
    path.write_text(records.write_text(record))
    checked = run("record", "check", str(path))
    assert checked.exit_code == 0, checked.output
    replayed = run("record", "replay", str(path))
    final = records.replay(record).final
    assert replayed.output.splitlines()[0] == NOTATION.format_position(final)
    assert run("record", "convert", str(path), "--to", "json").output.startswith("{")
    bad = tmp_path / "bad.txt"
    bad.write_text('[Game "attactics"]\n[Player1 "A"]\n[Player2 "B"]\n\n1. a1-c3 | h8-h5\n*\n')
    failed = run("record", "check", str(bad))
    assert failed.exit_code == 1 and "turn 2" in failed.stderr
