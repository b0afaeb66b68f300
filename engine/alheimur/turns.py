"""The legal turns of an Alheimur position in play, lazily.

A turn in play is a combination (an expansion action per world, any number
of moves in the six steps, a fleet-battle order, the current player's fire),
far too many to list whole.  ``play_turns`` yields them by size: first the
empty turn, then every turn of one item (one move or one expansion action),
then of two items, and so on.  Within a size, the turns starting with a
move of each step and those with 1, 2, ... expansion actions take turns (so
the first few hundred turns of a position hold every kind of move as well
as expansions).  Each item is generated from the position after the
items before it and kept only when the rules accept the prefix, so every
yielded turn is legal and nothing is enumerated that is not asked for.

After each turn whose moves bring about fleet battles, its variants follow:
every other order of the battles (``battles ...``), and the current
player's fire for the turn (``hold``, ``fire``, ``fire N`` for each other
player in a battle, ``fire t``).  Not listed (but accepted when written):
fire for one world's battle (``at W ...``) and a new standing order
(``standing ...``), which is a setting rather than a move; moves that the
list would only reach in an order differing from the step order (none:
moves are played in step order 1 to 6).
"""

from __future__ import annotations

from dataclasses import replace
from itertools import combinations, permutations
from typing import Iterator

from engine.alheimur import battle
from engine.alheimur.movement import move
from engine.alheimur.pieces import (
    SIZES,
    AlheimurState,
    Board,
    Civilize,
    Expand,
    FireOrder,
    Flip,
    Fly,
    Land,
    Launch,
    Migrate,
    Move,
    Return,
    Turn,
)
from engine.alheimur.survival import expand, survive
from engine.alheimur.worlds import geometry
from engine.errors import IllegalTurnError

#: the movement steps, in their order
STEPS = (1, 2, 3, 4, 5, 6)


def expansion_options(state: AlheimurState) -> list[list[Expand | Civilize]]:
    """Per world where the current player has pyramids: its expansion
    actions (expand into an empty territory, civilize one's own pyramid)."""
    me = state.current
    stash = state.stash(me)
    result: list[list[Expand | Civilize]] = []
    for world in state.worlds:
        if not world.has(me):
            continue
        occupied = dict(world.pieces)
        options: list[Expand | Civilize] = []
        for t in geometry(world.layout).names():
            here = occupied.get(t)
            if here is None:
                options += [Expand(world.name, t, size) for size in SIZES if stash[size]]
            elif here.owner == me:
                options += [Civilize(world.name, t, size) for size in SIZES
                            if abs(size - here.size) == 1 and stash[size]]
        result.append(options)
    return result


def step_moves(state: AlheimurState, step: int) -> list[Move]:
    """The moves of one movement step the current player might make in
    ``state`` (each still checked by the rules before it is kept)."""
    me = state.current
    found: list[Move] = []
    for world in state.worlds:
        geo = geometry(world.layout)
        pieces = dict(world.pieces)
        empty = [t for t in geo.names() if t not in pieces]
        mine = [(t, p) for t, p in pieces.items() if p.owner == me]
        ships = sorted({s for s in world.ships if s.owner == me}, key=lambda s: (s.size, s.fighter, s.marine))
        if step == 1:
            found += [Migrate(world.name, t, e) for t, p in mine if p.size < 3 and not p.invader
                      for e in geo.adjacent[t] if e not in pieces]
        elif step == 2:
            if any(p.size == 3 and not p.invader for _, p in mine):
                for t, p in mine:
                    if p.invader:
                        continue
                    found += [Launch(world.name, t, "F"), Launch(world.name, t, "T")]
                    found += [Launch(world.name, t, "M", s.size) for s in ships
                              if not s.fighter and not s.marine and s.size >= p.size]
                for s in ships:
                    for e in empty:
                        if s.fighter or not s.marine:
                            found.append(Return(world.name, s.size, s.fighter, 0, e))
                        if s.marine:
                            found.append(Return(world.name, s.size, False, s.marine, e))
        elif step == 3:
            found += [Flip(world.name, s.size, not s.fighter) for s in ships if not s.marine]
        elif step == 4:
            found += [Land(world.name, s.size, s.marine, e) for s in ships if s.marine for e in empty]
        elif step == 5:
            found += [Board(world.name, t, s.size) for t, p in mine if p.invader
                      for s in ships if not s.fighter and not s.marine and s.size >= p.size]
        elif step == 6:
            found += [Fly(world.name, "S", s.size, s.fighter, s.marine) for s in ships]
    if step == 6:
        flying = sorted({s for s in state.space if s.owner == me}, key=lambda s: (s.size, s.fighter, s.marine))
        found += [Fly("S", w.name, s.size, s.fighter, s.marine) for s in flying for w in state.worlds]
    return found


#: the most items (expansion actions and moves) of a turn the list holds
MOST_ITEMS = 64


def moved(mid: AlheimurState, moves: tuple[Move, ...]) -> AlheimurState | None:
    """The position after ``moves`` from ``mid``, or None when the rules refuse them."""
    try:
        return move(mid, moves, None)
    except IllegalTurnError:
        return None


def _move_sequences(mid: AlheimurState, after: AlheimurState, moves: tuple[Move, ...], first_step: int,
                    count: int) -> Iterator[tuple[tuple[Move, ...], AlheimurState]]:
    """Every legal continuation of ``moves`` by ``count`` more moves (steps
    from ``first_step`` on), with the position after them."""
    if count == 0:
        yield moves, after
        return
    for step in STEPS[first_step - 1:]:
        for m in step_moves(after, step):
            longer = moves + (m,)
            later = moved(mid, longer)
            if later is not None:
                yield from _move_sequences(mid, later, longer, step, count - 1)


def _expansions(state: AlheimurState, count: int) -> Iterator[tuple[Expand | Civilize, ...]]:
    """Every combination of ``count`` expansion actions on distinct worlds,
    in world order, that the stash allows."""
    per_world = expansion_options(state)
    for worlds in combinations(range(len(per_world)), count):
        yield from _pick(state, [per_world[w] for w in worlds], ())


def _pick(state: AlheimurState, lists: list[list[Expand | Civilize]], chosen: tuple[Expand | Civilize, ...],
          ) -> Iterator[tuple[Expand | Civilize, ...]]:
    if not lists:
        yield chosen
        return
    stash = state.stash(state.current)
    for action in lists[0]:
        used = sum(1 for a in chosen if a.size == action.size)
        if stash[action.size] > used:
            yield from _pick(state, lists[1:], chosen + (action,))


def variants(turn: Turn, after: AlheimurState) -> Iterator[Turn]:
    """``turn`` (battles in world order, fire from the standing order), then,
    where its moves bring about fleet battles, its other battle orders and
    the current player's fire choices for the turn."""
    yield turn
    here = battle.sites(after)
    if not here:
        return
    for order in permutations(here):
        if list(order) != here:
            yield replace(turn, battles=tuple(order))
    others = sorted({s.owner for w in here for s in after.known_world(w).ships if s.owner != after.current})
    fires = [FireOrder(hold=True), FireOrder()] + [FireOrder(players=(p,)) for p in others]
    fires.append(FireOrder(transports=True))
    for fire in fires:
        yield replace(turn, fire=fire)


def play_turns(state: AlheimurState, most_items: int = MOST_ITEMS) -> Iterator[Turn]:
    """Every legal turn in play with up to ``most_items`` expansion actions
    and moves, smallest first (see the module's docstring), lazily.  Within
    a size, the turns starting with a move of each step and those with
    expansion actions take turns, so a short prefix of the list holds
    every kind."""
    yield from variants(Turn(), survive(state, None))
    for size in range(1, most_items + 1):
        kinds = [_starting_with(state, size, step) for step in STEPS]
        kinds += [_with_expansions(state, size, actions) for actions in range(1, size + 1)]
        found = False
        for turn in _round_robin(kinds):
            found = True
            yield turn
        if not found:
            return


def _starting_with(state: AlheimurState, size: int, step: int) -> Iterator[Turn]:
    """The turns of ``size`` moves (no expansion) whose first move is of ``step``."""
    mid = survive(state, None)
    for m in step_moves(mid, step):
        after = moved(mid, (m,))
        if after is not None:
            for moves, last in _move_sequences(mid, after, (m,), step, size - 1):
                yield from variants(Turn(moves=moves), last)


def _with_expansions(state: AlheimurState, size: int, actions: int) -> Iterator[Turn]:
    """The turns of ``actions`` expansion actions and ``size - actions`` moves."""
    for chosen in _expansions(state, actions):
        try:
            mid = survive(expand(state, chosen, None), None)
        except IllegalTurnError:
            continue
        for moves, after in _move_sequences(mid, mid, (), 1, size - actions):
            yield from variants(Turn(expansion=chosen, moves=moves), after)


def _round_robin(iterators: list[Iterator[Turn]]) -> Iterator[Turn]:
    """One from each in turn until all are spent."""
    live = list(iterators)
    while live:
        for it in list(live):
            try:
                yield next(it)
            except StopIteration:
                live.remove(it)
