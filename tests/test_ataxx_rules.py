"""Ataxx rules, notation and perft, checked against the ``ataxx`` package
(python-ataxx, the reference the issue names) on many random positions."""

from __future__ import annotations

import random

import ataxx
import pytest

from engine.errors import GameOverError, IllegalTurnError, MalformedTurnError, PositionError
from notation import registry

KIND = registry.get("ataxx")
GAME, NOTATION = KIND.rules, KIND.notation
START = "x5o/7/7/7/7/7/o5x x 0 1"


def pos(text):
    return NOTATION.parse_position(text)


def random_fen(rng: random.Random, empty: float | None = None) -> str:
    """A random position: pieces, blocked squares, empty squares in random
    proportions (crowded boards give forced passes and finished games)."""
    weights = [rng.random() for _ in range(3)] + [rng.random() if empty is None else empty]
    cells = rng.choices("xo-.", weights=weights, k=49)
    rows = []
    for rank in range(7):
        row, run = "", 0
        for char in cells[rank * 7 : rank * 7 + 7]:
            if char == ".":
                run += 1
                continue
            row += (str(run) if run else "") + char
            run = 0
        rows.append(row + (str(run) if run else ""))
    half = rng.choice([0, 0, 0, 5, 97, 98, 99, 100])
    return f"{'/'.join(rows)} {rng.choice('xo')} {half} {rng.randint(1, 60)}"


def random_positions(count: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    return [random_fen(rng) for _ in range(count)]


def forced_passes(count: int, seed: int) -> list[str]:
    """Random crowded positions in which, by the ``ataxx`` package, the
    side to move must pass."""
    rng, found = random.Random(seed), []
    while len(found) < count:
        fen = random_fen(rng, empty=0.03)
        if [str(m) for m in ataxx.Board(fen).legal_moves()] == ["0000"]:
            found.append(fen)
    return found


# -- perft ------------------------------------------------------------------
@pytest.mark.parametrize("depth,count", [(1, 16), (2, 256), (3, 6460), (4, 155888), (5, 4752668)])
def test_perft_from_the_start(depth, count):
    assert GAME.count_leaves(pos(START), depth) == count


def test_perft_counts_passes_and_finished_games():
    # x on a1 is boxed in by blocked squares: x must pass; o can still move.
    boxed = pos("6o/7/7/7/3----/3----/3--x- x 0 1")
    assert NOTATION.legal_texts(boxed) == ["0000"]
    assert GAME.count_leaves(boxed, 1) == 1
    assert GAME.count_leaves(boxed, 2) == ataxx.Board(NOTATION.format_position(boxed)).perft(2)
    over = pos("x6/7/7/7/7/7/7 o 0 1")  # o has no pieces
    assert GAME.count_leaves(over, 0) == 1
    assert GAME.count_leaves(over, 3) == 0


def test_perft_agrees_with_the_ataxx_package_on_random_positions():
    passes = over = 0
    for fen in random_positions(400, seed=6) + forced_passes(40, seed=9):
        state = pos(fen)
        board = ataxx.Board(fen)
        passes += NOTATION.legal_texts(state) == ["0000"]
        over += GAME.is_over(state)
        for depth in (1, 2):
            assert GAME.count_leaves(state, depth) == board.perft(depth), (fen, depth)
    assert passes >= 40 and over >= 20  # the sample really has forced passes and finished games


def test_perft_depth_three_agrees_on_open_positions():
    rng = random.Random(7)
    for _ in range(12):
        board = ataxx.Board(random.choice([ataxx.FEN_STARTPOS, ataxx.FEN_4CORNERS, ataxx.FEN_4SIDES]))
        for _ in range(rng.randint(0, 30)):
            moves = board.legal_moves()
            if not moves:
                break
            board.makemove(rng.choice(moves))
        fen = board.get_fen()
        assert GAME.count_leaves(pos(fen), 3) == ataxx.Board(fen).perft(3), fen


def test_moves_results_and_positions_agree_with_the_ataxx_package():
    for fen in random_positions(300, seed=8):
        state, board = pos(fen), ataxx.Board(fen)
        ours = NOTATION.legal_texts(state)
        assert sorted(ours) == sorted(str(m) for m in board.legal_moves()), fen
        theirs = board.result()
        result = GAME.result(state)
        expected = {"1-0": (0,), "0-1": (1,), "1/2-1/2": (0, 1)}.get(theirs)
        assert (result.winners if result else None) == expected, fen
        for text in ours[:6]:
            after = GAME.apply(state, NOTATION.parse_turn(state, text))
            board.makemove(ataxx.Move.from_san(text))
            assert NOTATION.format_position(after) == board.get_fen(), (fen, text)
            board.undo()


# -- the game ---------------------------------------------------------------
def test_start_and_clone_jump_capture():
    state = GAME.initial_state(2)
    assert NOTATION.format_position(state) == START
    state = GAME.apply(state, NOTATION.parse_turn(state, "g2"))
    assert NOTATION.format_position(state) == "x5o/7/7/7/7/6x/o5x o 0 1"
    state = GAME.apply(state, NOTATION.parse_turn(state, "g7f5"))  # a jump
    assert NOTATION.format_position(state) == "x6/7/5o1/7/7/6x/o5x x 1 2"
    state = GAME.apply(state, NOTATION.parse_turn(state, "g2f4"))  # a jump that captures f5
    assert NOTATION.format_position(state) == "x6/7/5x1/5x1/7/7/o5x o 2 2"


def test_game_over_when_a_side_has_no_pieces():
    state = pos("xx5/7/7/7/7/7/7 o 3 9")
    assert GAME.to_move(state) is None
    assert GAME.result(state).winners == (0,)
    with pytest.raises(GameOverError):
        NOTATION.parse_turn(state, "a1")


def test_game_over_when_the_board_is_full():
    full = "/".join(["xxxxxxx"] * 4 + ["ooooooo"] * 3) + " o 0 30"
    assert GAME.result(pos(full)).winners == (0,)
    even = "/".join(["xxxxxxx"] * 3 + ["ooooooo"] * 3 + ["-------"]) + " x 0 30"
    result = GAME.result(pos(even))
    assert result.winners == (0, 1) and result.tag() == "1=2"


def test_game_over_when_neither_side_can_move():
    state = pos("xo----o/-------/-------/-------/-------/-------/-----1- x 0 9")
    assert GAME.to_move(state) is None
    assert GAME.result(state).winners == (1,)  # o has more pieces


def test_half_move_clock_at_100_draws_whatever_the_count():
    state = pos("xxx4/7/7/7/7/7/6o o 99 60")
    assert GAME.to_move(state) == 1
    after = GAME.apply(state, NOTATION.parse_turn(state, "g1e1"))  # a jump: the clock reaches 100
    assert after.halfmove == 100 and GAME.to_move(after) is None
    assert GAME.result(after).winners == (0, 1)
    clone = GAME.apply(state, NOTATION.parse_turn(state, "f1"))
    assert clone.halfmove == 0 and GAME.to_move(clone) == 0


def test_pass_only_when_forced():
    boxed = pos("6o/7/7/7/3----/3----/3--x- x 0 1")
    after = GAME.apply(boxed, NOTATION.parse_turn(boxed, "pass"))
    assert NOTATION.format_position(after) == "6o/7/7/7/3----/3----/3--x- o 1 1"
    with pytest.raises(IllegalTurnError, match="may not pass"):
        NOTATION.parse_turn(pos(START), "0000")


# -- notation ---------------------------------------------------------------
@pytest.mark.parametrize("text,canonical", [("G2", "g2"), (" g 2 ", "g2"), ("a7c5", "a7c5"), ("A7-C5", "a7c5"), ("a7b6", "b6")])
def test_turn_input_is_forgiving_and_output_canonical(text, canonical):
    state = pos(START)
    assert NOTATION.format_turn(state, NOTATION.parse_turn(state, text)) == canonical


@pytest.mark.parametrize(
    "text,error,words",
    [
        ("h2", MalformedTurnError, "clone such as g2"),
        ("a7d4", MalformedTurnError, "exactly two squares"),
        ("e4", IllegalTurnError, "no x piece is next to e4"),
        ("g7", IllegalTurnError, "not empty"),
        ("g1e1", IllegalTurnError, "no o piece stands on g1"),
        ("c5", IllegalTurnError, "blocked"),
    ],
)
def test_turn_errors_say_what_is_wrong(text, error, words):
    state = pos("x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1" if text == "c5" else START)
    if text == "g1e1":
        state = pos("x5o/7/7/7/7/7/o5x o 0 1")
    with pytest.raises(error, match=words):
        NOTATION.parse_turn(state, text)


def test_fen_is_read_like_libataxx_and_written_in_full():
    assert NOTATION.format_position(pos("x5o/7/7/7/7/7/o5x")) == START
    assert NOTATION.format_position(pos("startpos")) == START
    assert NOTATION.format_position(pos("X5O/7/2-1-2/7/2-1-2/7/O5X O 12 7")) == "x5o/7/2-1-2/7/2-1-2/7/o5x o 12 7"


@pytest.mark.parametrize(
    "text", ["", "x5o/7/7/7/7/7 x 0 1", "x6o/7/7/7/7/7/o5x x 0 1", "x5o/7/7/7/7/7/o5x z 0 1", "x5o/7/7/7/7/7/o5x x a 1", "8/7/7/7/7/7/7"]
)
def test_bad_fens_are_refused_with_position_error(text):
    with pytest.raises(PositionError):
        pos(text)


def test_diagram_shows_stones_and_blocked_squares():
    diagram = NOTATION.diagram(pos("x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1"))
    assert diagram.cells[(0, 6)].kind == "stone" and diagram.cells[(0, 6)].player == 0
    assert diagram.cells[(2, 4)].kind == "blocked"
    assert "x to move" in NOTATION.text_diagram(pos(START))


def test_a_forfeited_turn_is_played_as_a_pass():
    after = GAME.forfeit_turn(pos("x5o/7/7/7/7/7/o5x o 4 7"))
    assert NOTATION.format_position(after) == "x5o/7/7/7/7/7/o5x x 5 8"
    with pytest.raises(GameOverError):
        GAME.forfeit_turn(pos("xx5/7/7/7/7/7/7 o 3 9"))


def test_the_ranking_is_winner_then_loser_or_one_group_on_a_draw():
    assert GAME.ranking(pos("xx5/7/7/7/7/7/7 o 3 9")) == [(0,), (1,)]
    assert GAME.ranking(pos("xo----o/-------/-------/-------/-------/-------/-----1- x 0 9")) == [(1,), (0,)]
    even = "/".join(["xxxxxxx"] * 3 + ["ooooooo"] * 3 + ["-------"]) + " x 0 30"
    assert GAME.ranking(pos(even)) == [(0, 1)]
    assert GAME.ranking(pos(START)) == []


def test_the_default_ranking_follows_the_result():
    from engine.base import Rules

    state = pos("xo----o/-------/-------/-------/-------/-------/-----1- x 0 9")
    assert Rules.ranking(GAME, state) == [(1,), (0,)]
    assert Rules.ranking(GAME, pos(START)) == []
