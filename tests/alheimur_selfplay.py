"""Random Alheimur play for the tests: setup choices at random, then turns
of random expansion actions and random moves of every step, each kept only
when the rules accept it; chance settled from the seed as the server does."""

from __future__ import annotations

import random

from engine.alheimur import AlheimurGame
from engine.alheimur.movement import move
from engine.alheimur.pieces import (
    SIZES,
    AlheimurState,
    Board,
    Civilize,
    Expand,
    Flip,
    Fly,
    Land,
    Launch,
    Migrate,
    Return,
    Turn,
)
from engine.alheimur.survival import expand, survive
from engine.alheimur.worlds import geometry
from engine.base import settle_from_seed
from engine.errors import IllegalTurnError

GAME = AlheimurGame()


def _mid(state: AlheimurState, turn: Turn) -> AlheimurState:
    log: list[str] = []
    return move(survive(expand(state, turn.expansion, log), log), turn.moves, log)


def candidates(state: AlheimurState, step: int) -> list:
    me = state.current
    found: list = []
    for world in state.worlds:
        geo = geometry(world.layout)
        pieces = dict(world.pieces)
        empty = [t for t in geo.names() if t not in pieces]
        mine = [(t, p) for t, p in pieces.items() if p.owner == me]
        ports = any(p.size == 3 and not p.invader for _, p in mine)
        ships = [s for s in world.ships if s.owner == me]
        if step == 1:
            found += [Migrate(world.name, t, e) for t, p in mine if p.size < 3 and not p.invader
                      for e in sorted(geo.adjacent[t]) if e not in pieces]
        elif step == 2 and ports:
            for t, p in mine:
                found += [Launch(world.name, t, "F"), Launch(world.name, t, "T")]
                found += [Launch(world.name, t, "M", s.size) for s in ships
                          if not s.fighter and not s.marine and s.size >= p.size]
            for s in ships:
                for e in empty[:3]:
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
        found += [Fly("S", w.name, s.size, s.fighter, s.marine) for s in state.space if s.owner == me
                  for w in state.worlds]
    return found


def _keeps_all(world, action, me: int) -> bool:
    """After the action, survival on this world keeps every pyramid of ``me``."""
    from engine.alheimur.pieces import Pyramid
    from engine.alheimur.survival import check_world
    pieces = dict(world.pieces)
    old = pieces.get(action.territory)
    pieces[action.territory] = Pyramid(me, action.size, old.invader if old else False)
    before = sum(1 for p in pieces.values() if p.owner == me)
    after = check_world(world.with_pieces(pieces))
    return sum(1 for _, p in after.pieces if p.owner == me) == before


def _careful(state: AlheimurState, turn: Turn, move) -> bool:
    """After ``move`` the next survival check of its world keeps every
    pyramid of the mover there."""
    from engine.alheimur.survival import check_world
    try:
        after = _mid(state, Turn(turn.expansion, turn.moves + (move,)))
    except IllegalTurnError:
        return False
    world = after.world(move.world)
    mine = sum(1 for _, p in world.pieces if p.owner == state.current)
    return sum(1 for _, p in check_world(world).pieces if p.owner == state.current) == mine


def sensible_colonists(state: AlheimurState, rng: random.Random):
    """Three small colonists on mutually adjacent territories (they
    survive their first check), else any."""
    from itertools import combinations

    from engine.alheimur.pieces import Colonists
    geo = geometry(state.worlds[state.current].layout)
    triples = [c for c in combinations(geo.names(), 3)
               if all(b in geo.adjacent[a] for a, b in combinations(c, 2))]
    if not triples:
        return rng.choice(GAME.legal_turns(state))
    return Colonists(tuple((t, 1) for t in rng.choice(triples)))


def random_turn(state: AlheimurState, rng: random.Random) -> Turn:
    me = state.current
    actions = []
    stash = state.stash(me)
    for world in state.worlds:
        if not world.has(me) or rng.random() < 0.2:
            continue
        geo = geometry(world.layout)
        pieces = dict(world.pieces)
        options = [Expand(world.name, t, s) for t in geo.names() if t not in pieces for s in SIZES if stash[s]]
        options += [Civilize(world.name, t, s) for t, p in pieces.items() if p.owner == me
                    for s in SIZES if abs(s - p.size) == 1 and stash[s]]
        safe = [o for o in options if _keeps_all(world, o, me)]
        if rng.random() < 0.95:
            options = safe
        if options:
            action = rng.choice(options)
            actions.append(action)
            stash[action.size] -= 1
    turn = Turn(expansion=tuple(actions))
    for step in range(1, 7):
        mid = _mid(state, turn)
        options = candidates(mid, step)
        rng.shuffle(options)
        if step in (1, 2, 4, 5) and rng.random() < 0.9:
            options = [o for o in options if _careful(state, turn, o)]
        if step == 6:
            # ships seek out other players' ships
            busy = {w.name for w in mid.worlds if any(x.owner != me for x in w.ships)}
            options.sort(key=lambda m: m.end not in busy)
        for option in options[: rng.randint(0, 3)]:
            trial = Turn(turn.expansion, turn.moves + (option,))
            try:
                _mid(state, trial)
            except IllegalTurnError:
                continue
            turn = trial
    return turn


def play_game(players: int, seed: str, rng: random.Random, limit: int = 2000, check=None):
    """Play a random game; returns (final state, plies, turns played).
    ``check(state)`` runs after every settled ply."""
    state, _ = settle_from_seed(GAME, GAME.seeded_state(players, None, seed), seed, 0)
    ply = 0
    while not GAME.is_over(state) and ply < limit:
        if state.phase == "play":
            turn = random_turn(state, rng)
        elif state.phase == "colonists":
            turn = sensible_colonists(state, rng)
        else:
            turn = rng.choice(GAME.legal_turns(state))
        state = GAME.apply(state, turn)
        ply += 1
        state, _ = settle_from_seed(GAME, state, seed, ply)
        if check is not None:
            check(state)
    return state, ply
