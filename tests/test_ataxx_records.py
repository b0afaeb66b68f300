"""Ataxx records: PGN as the public Ataxx tools write it, the project's
own record format, and every ``pbem position``/``pbem record`` command."""

from __future__ import annotations

import random

import ataxx
import ataxx.pgn
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import PbemError, RecordError
from notation import record as records
from notation.ataxx.pgn import looks_like, read_pgn, write_pgn
from pbem.cli import main

START = "x5o/7/7/7/7/7/o5x x 0 1"
SAMPLE = """[Event "Test match"]
[Site "?"]
[Date "2024.05.01"]
[Round "1"]
[White "Bob"]
[Black "Alice"]
[Result "*"]

1. g2 a2 2. f2 {a comment} b3 (2... b2 3. e1) 3. a7c5 b1 *
"""


def run(*args):
    return CliRunner().invoke(main, list(args))


def package_game(seed: int, fen: str = ataxx.FEN_STARTPOS, limit: int = 400) -> tuple[str, ataxx.Board]:
    """A random game played and written by the ``ataxx`` package."""
    rng = random.Random(seed)
    board = ataxx.Board(fen)
    for _ in range(limit):
        moves = board.legal_moves()
        if not moves:
            break
        board.makemove(rng.choice(moves))
    game = ataxx.pgn.Game()
    game.from_board(board)
    game.set_black("Alice")
    game.set_white("Bob")
    return str(game), board


@pytest.mark.parametrize("seed", range(12))
def test_pgn_written_by_the_ataxx_package_replays_to_the_same_position(seed):
    fen = [ataxx.FEN_STARTPOS, ataxx.FEN_4CORNERS, ataxx.FEN_4SIDES][seed % 3]
    text, board = package_game(seed, fen, limit=400 if seed % 2 else 30)
    assert looks_like(text)
    record = records.read(text)
    assert record.game == "ataxx" and record.players == ["Alice", "Bob"]
    played = records.check(record)
    kind = record.kind
    assert kind.notation.format_position(played.final) == board.get_fen()
    expected = {"1-0": "1", "0-1": "2", "1/2-1/2": "1=2", "*": "*"}[board.result()]
    assert records.result_tag(kind, played.final) == expected == record.result


def test_sample_pgn_with_comments_and_variations():
    record = read_pgn(SAMPLE)
    assert record.turns == ["g2", "a2", "f2", "b3", "a7c5", "b1"]
    assert record.players == ["Alice", "Bob"] and record.date == "2024.05.01"
    assert record.tags["Event"] == "Test match"
    assert records.replay(record).texts == record.turns


@pytest.mark.parametrize("seed", range(6))
def test_pgn_round_trip_write_read_write(seed):
    text, board = package_game(seed, ataxx.FEN_4CORNERS if seed % 2 else ataxx.FEN_STARTPOS, limit=60)
    record = read_pgn(text)
    written = write_pgn(record)
    again = read_pgn(written)
    assert write_pgn(again) == written
    assert records.replay(again).final == records.replay(record).final
    # the package reads what we write, to the same position
    parsed = ataxx.pgn.parse(written)
    replayed = ataxx.Board(parsed.headers.get("FEN", ataxx.FEN_STARTPOS))
    for node in parsed.main_line():
        replayed.makemove(node.move)
    assert replayed.get_fen() == board.get_fen()


def test_pgn_from_a_position_with_o_to_move_numbers_the_first_move_with_dots():
    record = records.Record("ataxx", ["A", "B"], ["a2", "g2"], start="x5o/7/7/7/7/7/o5x o 0 5")
    text = write_pgn(record)
    assert '[FEN "x5o/7/7/7/7/7/o5x o 0 5"]' in text and '[SetUp "1"]' in text
    assert "5... a2 6. g2 *" in text
    assert read_pgn(text).turns == ["a2", "g2"]


@pytest.mark.parametrize(
    "text,words",
    [
        ('[Event "x"]\n[Result "1-0"]\n\n1. g2 a2 0-1\n', "differ"),
        ('[Event "x"]\n\n1. g2 ( a2\n', "unbalanced"),
        ('[Event "x"]\n[Result "2-0"]\n\n1. g2\n', "not 1-0"),
    ],
)
def test_bad_pgn_is_refused_with_record_error(text, words):
    with pytest.raises(RecordError, match=words):
        records.read(text)


def test_a_wrong_move_is_named_by_number():
    record = records.read('[Event "x"]\n\n1. g2 a2 2. e4 *\n')
    with pytest.raises(records.BadTurn, match="turn 3 .*'e4'"):
        records.replay(record)


# -- the command line ---------------------------------------------------------
@pytest.mark.parametrize("depth,count", [(1, "16"), (2, "256"), (3, "6460"), (4, "155888"), (5, "4752668")])
def test_cli_perft(depth, count):
    result = run("position", "perft", "ataxx", START, str(depth))
    assert result.exit_code == 0, result.output
    assert result.output.strip() == count


def test_cli_position_commands():
    assert run("position", "start", "ataxx", "2").output.strip() == START
    assert "x to move" in run("position", "show", "ataxx", START).output
    assert run("position", "legal", "ataxx", START).output.split()[:3] == ["f1", "f2", "g2"]
    applied = run("position", "apply", "ataxx", START, "g2", "a1c2")
    assert applied.exit_code == 0
    assert applied.output.split("\n")[:2] == ["x5o/7/7/7/7/6x/o5x o 0 1", "x5o/7/7/7/7/2o3x/6x x 1 2"]
    bad = run("position", "apply", "ataxx", START, "e4")
    assert bad.exit_code == 1 and "no x piece is next to e4" in bad.stderr
    assert run("position", "start", "ataxx", "3").exit_code == 1


def test_cli_record_commands_on_a_pgn_file(tmp_path):
    text, board = package_game(5)
    path = tmp_path / "game.pgn"
    path.write_text(text)
    checked = run("record", "check", str(path))
    assert checked.exit_code == 0, checked.output
    assert checked.output.startswith("ok: ")
    replayed = run("record", "replay", str(path))
    assert replayed.exit_code == 0 and replayed.output.splitlines()[0] == board.get_fen()
    converted = run("record", "convert", str(path))
    assert converted.exit_code == 0 and converted.output.startswith('[Game "ataxx"]')
    own = tmp_path / "game.txt"
    own.write_text(converted.output)
    assert run("record", "replay", str(own)).output == replayed.output
    bad = tmp_path / "bad.pgn"
    bad.write_text('[Event "x"]\n\n1. g2 a2 2. e4 *\n')
    failed = run("record", "check", str(bad))
    assert failed.exit_code == 1 and "turn 3" in failed.stderr


PGN_TEXT = st.one_of(
    st.text(max_size=80),
    st.builds(
        lambda tags, moves: tags + "\n\n" + moves,
        st.sampled_from(['[Event "?"]', '[FEN "x5o/7/7/7/7/7/o5x o 0 1"]', '[Result "1-0"]', '[FEN "bad"]', "[White x]"]),
        st.text(alphabet="abcdefg1234567890. -{}()*/!?$;\n", max_size=40),
    ),
)


@settings(max_examples=300, deadline=None)
@given(PGN_TEXT)
def test_pgn_reader_returns_a_record_or_raises_record_error(text):
    try:
        record = read_pgn(text)
    except RecordError:
        return
    try:
        records.replay(record)
    except PbemError:
        pass


@pytest.mark.parametrize(
    "text,words",
    [
        ('[Event "x"]\n\n1. g2 a2 3. f2 b3 *\n', r"turn 3 'f2' is numbered 3, but it is move 2"),
        ('[Event "x"]\n\n2. g2 a2 *\n', r"'g2' is numbered 2, but it is move 1"),
        ('[Event "x"]\n\n1. g2 2. a2 *\n', r"'a2' is numbered 2, but it is move 1"),
        ('[Event "x"]\n\n1. g2 a2 2. f2 1... b3 *\n', r"'b3' is numbered 1, but it is move 2"),
        ('[Event "x"]\n[FEN "x5o/7/7/7/7/7/o5x o 0 5"]\n\n1... a2 *\n', r"numbered 1, but it is move 5"),
        ('[Event "x"]\n\n' + "9" * 5000 + ". g2 *\n", "but it is move 1"),
    ],
)
def test_pgn_move_numbers_must_match_the_game(text, words):
    with pytest.raises(RecordError, match=words):
        records.read(text)


def test_pgn_move_numbers_may_be_left_out_or_written_for_o_with_dots():
    assert records.read('[Event "x"]\n\ng2 a2 f2 *\n').turns == ["g2", "a2", "f2"]
    assert records.read('[Event "x"]\n\n1. g2 1... a2 2.f2 *\n').turns == ["g2", "a2", "f2"]
    fen = '[Event "x"]\n[FEN "x5o/7/7/7/7/7/o5x o 0 5"]\n\n5... a2 6. g2 *\n'
    assert records.read(fen).turns == ["a2", "g2"]
