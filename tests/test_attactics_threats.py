"""The strongest Attactics bot's estimate of the best capture at once, and
its evaluation counting it for the player to move."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from engine.attactics.board import PIECES_PER_SIZE, code, parse_square
from engine.attactics.bot import evaluate, evaluate_threats
from engine.attactics.rules import AttacticsGame
from engine.attactics.state import AttacticsState
from engine.attactics.threats import best_capture
from engine.bots.alphabeta import search

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


def test_of_two_pieces_next_to_a_square_the_larger_clones_and_takes_more():
    # a small on a1 and a large on c1 both touch b2, next to player 2's large a3, small b3 and medium c3
    pieces = {"a1": (0, 1), "c1": (0, 3), "a3": (1, 3), "b3": (1, 1), "c3": (1, 2)}
    assert best_capture(position(pieces), 0) == 1 + 2 * 3  # the large clones to b2: takes all three


def test_a_large_that_jumps_takes_every_neighbour_of_its_landing():
    # b3 is two from a1's large and next to a small, a large and a medium: jumping there takes all three
    pieces = {"a1": (0, 3), "a3": (1, 1), "b4": (1, 3), "c4": (1, 2)}
    assert best_capture(position(pieces), 0) == 2 * 3


def _midgame() -> AttacticsState:
    state = GAME.initial_state(2)
    rng = random.Random(7)
    for _ in range(24):
        state = GAME.apply(state, rng.choice(GAME.legal_turns(state)))
    return state


def test_remembering_evaluations_finds_the_same_turn_with_fewer_evaluations():
    state = _midgame()
    calls = []

    def counted(game, position):
        calls.append(1)
        return evaluate_threats(game, position)

    found = []
    for remember in (False, True):
        calls.clear()
        found.append((search(GAME, state, counted, 3, 4000, rng=random.Random(1), remember=remember), len(calls)))
    (plain, plain_calls), (remembered, remembered_calls) = found
    assert remembered == plain
    assert remembered_calls < plain_calls
