"""The lazy list of legal turns in play (``engine/alheimur/turns.py``):
every listed turn is legal, distinct and survives its notation; the list
goes smallest first and holds every kind of move, battle orders and fire."""

import random
from itertools import islice

from alheimur_selfplay import GAME, random_turn, sensible_colonists
from engine.alheimur.pieces import Fly, Launch, Migrate, Turn
from engine.alheimur.turns import STEPS, step_moves
from engine.alheimur.movement import move
from engine.alheimur.survival import survive
from engine.base import settle_from_seed
from engine.errors import IllegalTurnError
from notation.alheimur import NOTATION

SEED = "ab" * 32


def positions_in_play(plies: int = 150, every: int = 5):
    """Positions in play of a seeded random 3-player game."""
    rng = random.Random(3)
    state, _ = settle_from_seed(GAME, GAME.seeded_state(3, None, SEED), SEED, 0)
    found = []
    for ply in range(1, plies):
        if GAME.is_over(state):
            break
        if state.phase == "play":
            if ply % every == 0:
                found.append(state)
            turn = random_turn(state, rng)
        elif state.phase == "colonists":
            turn = sensible_colonists(state, rng)
        else:
            turn = rng.choice(GAME.legal_turns(state))
        state, _ = settle_from_seed(GAME, GAME.apply(state, turn), SEED, ply)
    return found


POSITIONS = positions_in_play()


def size(turn: Turn) -> int:
    return len(turn.expansion) + len(turn.moves)


def test_listed_turns_are_legal_distinct_and_read_back_from_their_notation():
    for state in POSITIONS[::3]:
        turns = list(islice(GAME.iter_turns(state), 150))
        assert len(set(turns)) == len(turns)
        for turn in turns:
            GAME.apply(state, turn)
            assert NOTATION.parse_turn(state, NOTATION.format_turn(state, turn)) == turn


def test_the_list_goes_smallest_first_and_starts_with_the_empty_turn():
    state = POSITIONS[-1]
    turns = list(islice(GAME.iter_turns(state), 400))
    assert turns[0] == Turn()
    sizes = [size(t) for t in turns]
    assert sizes == sorted(sizes)


def test_every_single_move_the_rules_accept_is_listed_before_any_turn_of_two_items():
    state = POSITIONS[len(POSITIONS) // 2]
    mid = survive(state, [])
    singles = set()
    for step in STEPS:
        for m in step_moves(mid, step):
            try:
                move(mid, (m,), [])
            except IllegalTurnError:
                continue
            singles.add(Turn(moves=(m,)))
    assert singles
    listed = set()
    for turn in GAME.iter_turns(state):
        if size(turn) > 1:
            break
        listed.add(turn)
    assert singles <= listed


def test_the_first_few_hundred_turns_hold_moves_of_several_steps_expansions_and_fire():
    seen = set()
    for state in POSITIONS:
        for turn in islice(GAME.iter_turns(state), 300):
            seen |= {type(m) for m in turn.moves}
            if turn.expansion:
                seen.add("expansion")
            if turn.fire is not None:
                seen.add("fire")
    assert {Migrate, Launch, Fly, "expansion", "fire"} <= seen


def test_a_listed_turn_that_brings_a_battle_is_followed_by_its_fire_choices():
    for state in POSITIONS:
        for turn in islice(GAME.iter_turns(state), 300):
            if turn.fire is not None:
                plain = Turn(turn.expansion, turn.moves)
                listed = [t for t in islice(GAME.iter_turns(state), 300)
                          if (t.expansion, t.moves) == (plain.expansion, plain.moves)]
                assert plain in listed and any(t.fire and t.fire.hold for t in listed)
                return
    raise AssertionError("no listed turn brought a battle")
