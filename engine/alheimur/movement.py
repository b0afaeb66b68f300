"""Movement: the six steps in their strict order.

1. Migrate: a one- or two-pip colonist to an adjacent empty territory.
2. Launch or return: as many on a world as the mover has spaceports there
   when the step begins.  A launched colonist becomes a fighter, a
   transport, or a marine boarding an empty transport of its own at least
   as large.  A ship (a transport only when empty) or a marine returns to
   an empty territory as a colonist.
3. Flip: a ship in orbit without a marine turns fighter <-> transport.
4. Land: a marine lands on an empty territory of its orbit's world, as a
   colonist where the mover has colonists there, else as an invader; two
   or more invaders of one colour on a world all turn upright.
5. Board: an invader boards an empty transport of its colour in orbit, at
   least as large, becoming its marine.
6. Fly: a ship moves from an orbit to space or from space to an orbit.

Every pyramid acts at most once in each step; moves are written in step
order.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from engine.alheimur.pieces import (
    STEP, AlheimurState, Board, Flip, Fly, Land, Launch, Migrate, Move, Pyramid, Return, Ship,
)
from engine.alheimur.worlds import geometry
from engine.errors import IllegalTurnError

STEP_NAMES = {1: "migrate", 2: "launch/return", 3: "change status", 4: "land", 5: "board", 6: "fly"}
SPACE = "S"


def _ship_text(size: int, fighter: bool, marine: int = 0) -> str:
    return f"{'fighter' if fighter else 'transport'} of {size}" + (f" carrying a marine of {marine}" if marine else "")


def move(state: AlheimurState, moves: tuple[Move, ...], log: list[str]) -> AlheimurState:
    """Play the moves in order; ``IllegalTurnError`` naming the step and the
    reason for the first that cannot be played."""
    player = state.current
    step = 0
    acted: Counter = Counter()  # (step, where, what) -> times acted this step
    budget: dict[str, int] = {}
    for m in moves:
        s = STEP[type(m)]
        where = f"movement step {s} ({STEP_NAMES[s]})"
        if s < step:
            raise IllegalTurnError(f"{where}: comes after step {step} ({STEP_NAMES[step]}); "
                                   "moves are played in step order 1 to 6")
        if s != step:
            acted.clear()
            step = s
            if s == 2:
                budget = {w.name: sum(1 for _, p in w.pieces if p.owner == player and not p.invader and p.size == 3)
                          for w in state.worlds}
        if isinstance(m, Fly):
            state = _fly(state, m, where, acted, log)
            continue
        world = state.world(m.world)
        if world is None:
            raise IllegalTurnError(f"{where}: there is no world {m.world}; "
                                   f"the worlds are {' '.join(w.name for w in state.worlds)}")
        geo = geometry(world.layout)
        pieces = dict(world.pieces)
        ships = list(world.ships)
        names = geo.names()

        def empty(t: str) -> None:
            if t not in names:
                raise IllegalTurnError(f"{where}: world {world.name} has no territory {t}; "
                                       f"its territories are {' '.join(names)}")
            if t in pieces:
                raise IllegalTurnError(f"{where}: {t} on world {world.name} is occupied")

        def own(t: str) -> Pyramid:
            if t not in names:
                raise IllegalTurnError(f"{where}: world {world.name} has no territory {t}; "
                                       f"its territories are {' '.join(names)}")
            p = pieces.get(t)
            if p is None or p.owner != player:
                raise IllegalTurnError(f"{where}: you have no pyramid on {t} of world {world.name}")
            return p

        def take_ship(size: int, fighter: bool, marine: int, moved_key: tuple | None = None) -> Ship:
            for ship in ships:
                carries = ship.marine == marine
                if ship.owner == player and ship.size == size and ship.fighter == fighter and carries:
                    if moved_key is not None and _used(ships, ship, acted, moved_key):
                        continue
                    ships.remove(ship)
                    return ship
            what = _ship_text(size, fighter, marine)
            raise IllegalTurnError(f"{where}: you have no {what} in the orbit of world {world.name}"
                                   + (" that has not already acted in this step" if moved_key else ""))

        if isinstance(m, Migrate):
            p = own(m.start)
            if p.invader or p.size == 3:
                raise IllegalTurnError(f"{where}: only one- and two-pip colonists migrate; "
                                       f"{m.start} holds {'an invader' if p.invader else 'a spaceport'}")
            if acted[(world.name, m.start)]:
                raise IllegalTurnError(f"{where}: the colonist on {m.start} has already migrated this turn")
            empty(m.end)
            if m.end not in geo.adjacent[m.start]:
                raise IllegalTurnError(f"{where}: {m.end} is not adjacent to {m.start}; "
                                       f"adjacent: {' '.join(sorted(geo.adjacent[m.start]))}")
            del pieces[m.start]
            pieces[m.end] = p
            acted[(world.name, m.end)] += 1
            log.append(f"World {world.name}: {m.start} migrates to {m.end}")
        elif isinstance(m, (Launch, Return)):
            if budget.get(world.name, 0) <= 0:
                raise IllegalTurnError(f"{where}: each spaceport of yours on world {world.name} launches or "
                                       "returns once, and none is left for this one")
            budget[world.name] -= 1
            if isinstance(m, Launch):
                if m.as_ not in ("F", "T", "M"):
                    raise IllegalTurnError(f"{where}: a launched colonist becomes a fighter (F), a transport (T) "
                                           "or a marine (M)")
                p = own(m.territory)
                if p.invader:
                    raise IllegalTurnError(f"{where}: {m.territory} holds an invader; only colonists launch")
                del pieces[m.territory]
                if m.as_ == "M":
                    if m.into < p.size:
                        raise IllegalTurnError(f"{where}: a marine of {p.size} needs a transport of {p.size} or more")
                    take_ship(m.into, False, 0)
                    ships.append(Ship(player, m.into, False, p.size))
                    log.append(f"World {world.name}: {m.territory} launches as a marine on a transport of {m.into}")
                else:
                    ships.append(Ship(player, p.size, m.as_ == "F"))
                    log.append(f"World {world.name}: {m.territory} launches as a "
                               f"{'fighter' if m.as_ == 'F' else 'transport'} of {p.size}")
            else:
                empty(m.territory)
                if m.marine:
                    ship = take_ship(m.size, False, m.marine)
                    pieces[m.territory] = Pyramid(player, ship.marine)
                    ships.append(replace(ship, marine=0))
                    log.append(f"World {world.name}: the marine of a transport of {m.size} returns to {m.territory}")
                else:
                    ship = take_ship(m.size, m.fighter, 0)
                    pieces[m.territory] = Pyramid(player, ship.size)
                    log.append(f"World {world.name}: a {_ship_text(m.size, m.fighter)} returns to {m.territory}")
        elif isinstance(m, Flip):
            ship = take_ship(m.size, not m.fighter, 0, moved_key=(world.name,))
            new = replace(ship, fighter=m.fighter)
            ships.append(new)
            acted[(world.name, new)] += 1
            log.append(f"World {world.name}: a {_ship_text(m.size, not m.fighter)} turns "
                       f"{'fighter' if m.fighter else 'transport'}")
        elif isinstance(m, Land):
            if m.marine < 1:
                raise IllegalTurnError(f"{where}: name the marine that lands (a transport of {m.size} carrying it)")
            ship = take_ship(m.size, False, m.marine)
            empty(m.territory)
            ships.append(replace(ship, marine=0))
            mine = [p for p in pieces.values() if p.owner == player]
            invader = not any(not p.invader for p in mine)
            pieces[m.territory] = Pyramid(player, ship.marine, invader)
            log.append(f"World {world.name}: a marine of {ship.marine} lands on {m.territory} as "
                       f"{'an invader' if invader else 'a colonist'}")
            if invader and len(mine) >= 1:
                for t, p in list(pieces.items()):
                    if p.owner == player:
                        pieces[t] = replace(p, invader=False)
                log.append(f"World {world.name}: two or more invaders of one colour turn upright")
        elif isinstance(m, Board):
            p = own(m.territory)
            if not p.invader:
                raise IllegalTurnError(f"{where}: {m.territory} holds a colonist; only invaders board")
            if m.into < p.size:
                raise IllegalTurnError(f"{where}: an invader of {p.size} needs a transport of {p.size} or more")
            ship = take_ship(m.into, False, 0)
            del pieces[m.territory]
            ships.append(replace(ship, marine=p.size))
            log.append(f"World {world.name}: the invader on {m.territory} boards a transport of {m.into}")
        state = state.with_world(replace(world.with_pieces(pieces), ships=tuple(sorted(ships))))
    return state


def _used(ships: list[Ship], ship: Ship, acted: Counter, key: tuple) -> bool:
    """All the ships equal to ``ship`` here have acted in this step already."""
    return sum(1 for s in ships if s == ship) + 0 <= acted[key + (ship,)]


def _fly(state: AlheimurState, m: Fly, where: str, acted: Counter, log: list[str]) -> AlheimurState:
    player = state.current
    if (m.start == SPACE) == (m.end == SPACE):
        raise IllegalTurnError(f"{where}: a ship flies from an orbit to space or from space to an orbit")
    for name in (m.start, m.end):
        if name != SPACE and state.world(name) is None:
            raise IllegalTurnError(f"{where}: there is no world {name}; the worlds are "
                                   f"{' '.join(w.name for w in state.worlds)}")
    ship = Ship(player, m.size, m.fighter, 0 if m.fighter else m.marine)
    source = list(state.space) if m.start == SPACE else list(state.world(m.start).ships)
    have = source.count(ship)
    if have - acted[(m.start, ship)] <= 0:
        place = "space" if m.start == SPACE else f"the orbit of world {m.start}"
        extra = " that has not already flown in this step" if have else ""
        raise IllegalTurnError(f"{where}: you have no {_ship_text(m.size, m.fighter, ship.marine)} in {place}{extra}")
    source.remove(ship)
    state = _put(state, m.start, source)
    target = list(state.space) if m.end == SPACE else list(state.world(m.end).ships)
    state = _put(state, m.end, target + [ship])
    acted[(m.end, ship)] += 1
    log.append(f"A {_ship_text(m.size, m.fighter, ship.marine)} flies from "
               f"{'space' if m.start == SPACE else 'orbit ' + m.start} to "
               f"{'space' if m.end == SPACE else 'orbit ' + m.end}")
    return state


def _put(state: AlheimurState, zone: str, ships: list[Ship]) -> AlheimurState:
    if zone == SPACE:
        return replace(state, space=tuple(sorted(ships)))
    return state.with_world(state.world(zone).with_ships(ships))
