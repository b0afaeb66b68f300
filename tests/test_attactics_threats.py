"""The strongest Attactics bot's estimate of the best capture at once, and
its evaluation counting it for the player to move."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engine.attactics.board import PIECES_PER_SIZE, code, parse_square
from engine.attactics.bot import evaluate, evaluate_threats
from engine.attactics.rules import AttacticsGame
from engine.attactics.state import AttacticsState
from engine.attactics.threats import best_capture

GAME = AttacticsGame()


def position(pieces: dict[str, tuple[int, int]], to_move: int = 0) -> AttacticsState:
    board = [0] * 64
    for name, (player, size) in pieces.items():
        board[parse_square(name)] = code(player, size)
    state = replace(GAME.initial_state(2), board=tuple(board), to_move=to_move)
    stashes = tuple(AttacticsState.stash_from(state.board_counts(p)) for p in range(2))
    return replace(state, stashes=stashes)


#: player 1's small on a1 next to b2, an empty square beside player 2's smalls on b3 and c2 and medium on a3
CORNER = {"a1": (0, 1), "b3": (1, 1), "c2": (1, 1), "a3": (1, 2)}


def test_a_clone_next_to_two_smalls_gains_five_and_a_small_leaves_a_medium_alone():
    assert best_capture(position(CORNER), 0) == 1 + 2 * 2  # the clone and the two smalls taken; not a3


def test_the_other_side_takes_the_lone_small_by_a_clone():
    assert best_capture(position(CORNER), 1) == 1 + 2 * 1


def test_a_jump_captures_without_adding_a_piece():
    far = {"a1": (0, 2), "d3": (1, 1), "d4": (1, 2)}  # a1 jumps to c3 (two away): takes d3 and d4 (medium)
    assert best_capture(position(far), 0) == 2 * 2


def test_a_clone_made_with_a_larger_piece_captures_up_to_its_size():
    pieces = {"a1": (0, 1), "b3": (1, 2), "c2": (1, 1)}
    state = position(pieces)
    no_smalls = replace(state, stashes=((0, PIECES_PER_SIZE, PIECES_PER_SIZE), state.stashes[1]))
    assert best_capture(state, 0) == 1 + 2 * 1  # a small clone takes c2 only
    assert best_capture(no_smalls, 0) == 1 + 2 * 2  # out of smalls, it clones a medium: takes b3 too


def test_nothing_to_capture_is_nothing_gained():
    assert best_capture(position({"a1": (0, 1), "h8": (1, 1)}), 0) == 0


@pytest.mark.parametrize("mover", [0, 1])
def test_the_threats_evaluation_favours_the_player_who_can_capture_at_once(mover):
    state = position({"a1": (0, 1), "b3": (1, 1), "c2": (1, 1), "a3": (1, 1), "h8": (0, 1)}, to_move=mover)
    plain, threats = evaluate(GAME, state), evaluate_threats(GAME, state)
    assert plain[0] < 0.5  # two pyramids to four
    assert (threats[0] > plain[0]) == (mover == 0) and (threats[1] > plain[1]) == (mover == 1)
    assert threats[0] + threats[1] == pytest.approx(1.0)
