"""The lazy list of legal turns in play (``engine/alheimur/turns.py``):
every listed turn is legal, distinct and survives its notation; the list
goes smallest first and holds every kind of move, battle orders and fire.

The random game's positions depend on the order of sets of names (hash
seeds): the tests assert only what holds for any of them."""

import random
from itertools import islice

from alheimur_helpers import position, world
from alheimur_selfplay import GAME, random_turn, sensible_colonists

from engine.alheimur.movement import move
from engine.alheimur.pieces import FireOrder, Fly, Turn
from engine.alheimur.survival import survive
from engine.alheimur.turns import STEPS, expansion_options, step_moves
from engine.base import settle_from_seed
from engine.errors import IllegalTurnError
from notation.alheimur import NOTATION

SEED = "ab" * 32
#: player 1's colonists on their home world
HOME = "a4=1:1 b4=1:2 c4=1:1 a3=1:1 b3=1:3"


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


def _accepted_moves(state) -> list:
    """Every single move of every step that the rules accept after survival."""
    mid = survive(state, [])
    accepted = []
    for step in STEPS:
        for m in step_moves(mid, step):
            try:
                move(mid, (m,), [])
            except IllegalTurnError:
                continue
            accepted.append(m)
    return accepted


def _single_moves(state) -> set:
    return {Turn(moves=(m,)) for m in _accepted_moves(state)}


def test_every_single_move_the_rules_accept_is_listed_before_any_turn_of_two_items():
    # from the middle of the game on, the first position with a move to make
    # (which one it is depends on the hash seed: see the module's docstring)
    state, singles = next(((s, found) for s in POSITIONS[len(POSITIONS) // 2:] + POSITIONS[:len(POSITIONS) // 2]
                           if (found := _single_moves(s))), (None, set()))
    assert singles, "no position of the random game has a single move to make"
    listed = set()
    for turn in GAME.iter_turns(state):
        if size(turn) > 1:
            break
        listed.add(turn)
    assert singles <= listed


def test_the_first_few_hundred_turns_hold_every_kind_of_move_the_position_allows_and_expansions():
    for state in POSITIONS:
        allowed = {type(m) for m in _accepted_moves(state)}
        seen = set()
        for turn in islice(GAME.iter_turns(state), 300):
            seen |= {type(m) for m in turn.moves}
            if turn.expansion:
                seen.add("expansion")
        if any(expansion_options(state)):
            allowed.add("expansion")
        assert allowed <= seen


def test_a_turn_that_brings_battles_is_followed_by_its_battle_orders_and_fire_choices():
    # player 1's fighter in space; player 2's ships in the orbits of worlds 2 and 3, player 1's transport at 3
    s = position(world("1", on=HOME), world("2", on="d1=2:3", orbit="2F1"), world("3", on="d1=2:2", orbit="2T1 1T1"),
                 space="1F2")
    fly = Fly("S", "2", 2, True)
    listed = [t for t in islice(GAME.iter_turns(s), 300) if t.moves == (fly,)]
    assert Turn(moves=(fly,)) in listed  # battles at 2 and 3, in world order
    assert Turn(moves=(fly,), battles=("3", "2")) in listed
    fires = {t.fire for t in listed if t.fire is not None}
    assert fires == {FireOrder(hold=True), FireOrder(), FireOrder(players=(1,)), FireOrder(transports=True)}
    for turn in listed:
        GAME.apply(s, turn)
