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
    STEP,
    AlheimurState,
    Board,
    Flip,
    Fly,
    Land,
    Launch,
    Migrate,
    Move,
    Pyramid,
    Return,
    Ship,
)
from engine.alheimur.worlds import geometry
from engine.errors import IllegalTurnError
from engine.i18n import N_, Text, _

STEP_NAMES = {1: N_("migrate"), 2: N_("launch/return"), 3: N_("change status"), 4: N_("land"), 5: N_("board"),
              6: N_("fly")}
SPACE = "S"


def _ship_text(size: int, fighter: bool, marine: int = 0) -> str:
    text = str(_("fighter of {size}", size=size) if fighter else _("transport of {size}", size=size))
    return text + (" " + str(_("carrying a marine of {size}", size=marine)) if marine else "")


def move(state: AlheimurState, moves: tuple[Move, ...], log: list[str] | None) -> AlheimurState:
    """Play the moves in order; ``IllegalTurnError`` naming the step and the
    reason for the first that cannot be played."""
    player = state.current
    step = 0
    acted: Counter[tuple[str, str | Ship]] = Counter()  # (step, where, what) -> times acted this step
    budget: dict[str, int] = {}
    for m in moves:
        s = STEP[type(m)]
        where = _("movement step {step} ({name})", step=s, name=_(STEP_NAMES[s]))
        if s < step:
            raise IllegalTurnError(_("{where}: comes after step {step} ({name}); moves are played in step order "
                                     "1 to 6", where=where, step=step, name=_(STEP_NAMES[step])))
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
            raise IllegalTurnError(_("{where}: there is no world {world}; the worlds are {worlds}", where=where,
                                     world=m.world, worlds=" ".join(w.name for w in state.worlds)))
        geo = geometry(world.layout)
        pieces = dict(world.pieces)
        ships = list(world.ships)
        names = geo.names()

        def empty(t: str) -> None:
            if t not in names:
                raise IllegalTurnError(_("{where}: world {world} has no territory {territory}; its territories are "
                                         "{names}", where=where, world=world.name, territory=t, names=" ".join(names)))
            if t in pieces:
                raise IllegalTurnError(_("{where}: {territory} on world {world} is occupied", where=where, territory=t,
                                         world=world.name))

        def own(t: str) -> Pyramid:
            if t not in names:
                raise IllegalTurnError(_("{where}: world {world} has no territory {territory}; its territories are "
                                         "{names}", where=where, world=world.name, territory=t, names=" ".join(names)))
            p = pieces.get(t)
            if p is None or p.owner != player:
                raise IllegalTurnError(_("{where}: you have no pyramid on {territory} of world {world}", where=where,
                                         territory=t, world=world.name))
            return p

        def take_ship(size: int, fighter: bool, marine: int, moved_key: tuple[str] | None = None) -> Ship:
            for ship in ships:
                carries = ship.marine == marine
                if ship.owner == player and ship.size == size and ship.fighter == fighter and carries:
                    if moved_key is not None and _used(ships, ship, acted, moved_key):
                        continue
                    ships.remove(ship)
                    return ship
            what = _ship_text(size, fighter, marine)
            if moved_key:
                raise IllegalTurnError(_("{where}: you have no {ship} in the orbit of world {world} that has not "
                                         "already acted in this step", where=where, ship=what, world=world.name))
            raise IllegalTurnError(_("{where}: you have no {ship} in the orbit of world {world}", where=where,
                                     ship=what, world=world.name))

        if isinstance(m, Migrate):
            p = own(m.start)
            if p.invader or p.size == 3:
                raise IllegalTurnError(_("{where}: only one- and two-pip colonists migrate; {territory} holds an "
                                         "invader", where=where, territory=m.start) if p.invader else
                                       _("{where}: only one- and two-pip colonists migrate; {territory} holds a "
                                         "spaceport", where=where, territory=m.start))
            if acted[(world.name, m.start)]:
                raise IllegalTurnError(_("{where}: the colonist on {territory} has already migrated this turn",
                                         where=where, territory=m.start))
            empty(m.end)
            if m.end not in geo.adjacent[m.start]:
                raise IllegalTurnError(_("{where}: {end} is not adjacent to {start}; adjacent: {names}", where=where,
                                         end=m.end, start=m.start, names=" ".join(sorted(geo.adjacent[m.start]))))
            del pieces[m.start]
            pieces[m.end] = p
            acted[(world.name, m.end)] += 1
            if log is not None:
                log.append(str(_("World {world}: {start} migrates to {end}", world=world.name, start=m.start, end=m.end)))
        elif isinstance(m, (Launch, Return)):
            if budget.get(world.name, 0) <= 0:
                raise IllegalTurnError(_("{where}: each spaceport of yours on world {world} launches or returns "
                                         "once, and none is left for this one", where=where, world=world.name))
            budget[world.name] -= 1
            if isinstance(m, Launch):
                if m.as_ not in ("F", "T", "M"):
                    raise IllegalTurnError(_("{where}: a launched colonist becomes a fighter (F), a transport (T) "
                                             "or a marine (M)", where=where))
                p = own(m.territory)
                if p.invader:
                    raise IllegalTurnError(_("{where}: {territory} holds an invader; only colonists launch",
                                             where=where, territory=m.territory))
                del pieces[m.territory]
                if m.as_ == "M":
                    if m.into < p.size:
                        raise IllegalTurnError(_("{where}: a marine of {size} needs a transport of {size} or more",
                                                 where=where, size=p.size))
                    take_ship(m.into, False, 0)
                    ships.append(Ship(player, m.into, False, p.size))
                    if log is not None:
                        log.append(str(_("World {world}: {territory} launches as a marine on a transport of {size}",
                                         world=world.name, territory=m.territory, size=m.into)))
                else:
                    ships.append(Ship(player, p.size, m.as_ == "F"))
                    if log is not None:
                        log.append(str(_("World {world}: {territory} launches as a {ship}", world=world.name,
                                         territory=m.territory, ship=_ship_text(p.size, m.as_ == "F"))))
            else:
                empty(m.territory)
                if m.marine:
                    ship = take_ship(m.size, False, m.marine)
                    pieces[m.territory] = Pyramid(player, ship.marine)
                    ships.append(replace(ship, marine=0))
                    if log is not None:
                        log.append(str(_("World {world}: the marine of a transport of {size} returns to {territory}",
                                         world=world.name, size=m.size, territory=m.territory)))
                else:
                    ship = take_ship(m.size, m.fighter, 0)
                    pieces[m.territory] = Pyramid(player, ship.size)
                    if log is not None:
                        log.append(str(_("World {world}: a {ship} returns to {territory}", world=world.name,
                                         ship=_ship_text(m.size, m.fighter), territory=m.territory)))
        elif isinstance(m, Flip):
            if m.fighter and not any(s.owner == player and s.size == m.size and not s.fighter and not s.marine
                                     for s in ships):
                loaded = next((s for s in ships if s.owner == player and s.size == m.size and not s.fighter), None)
                if loaded is not None:  # its only transports of that size carry a marine
                    raise IllegalTurnError(_("{where}: your transport of {size} in the orbit of world {world} "
                                             "carries a marine of {marine}, and only a ship without a marine "
                                             "changes status", where=where, size=m.size, world=world.name,
                                             marine=loaded.marine))
            ship = take_ship(m.size, not m.fighter, 0, moved_key=(world.name,))
            new = replace(ship, fighter=m.fighter)
            ships.append(new)
            acted[(world.name, new)] += 1
            if log is not None:
                log.append(str(_("World {world}: a {ship} turns fighter", world=world.name,
                                 ship=_ship_text(m.size, not m.fighter)) if m.fighter else
                               _("World {world}: a {ship} turns transport", world=world.name,
                                 ship=_ship_text(m.size, not m.fighter))))
        elif isinstance(m, Land):
            if m.marine < 1:
                raise IllegalTurnError(_("{where}: name the marine that lands (a transport of {size} carrying it)",
                                         where=where, size=m.size))
            ship = take_ship(m.size, False, m.marine)
            empty(m.territory)
            ships.append(replace(ship, marine=0))
            mine = [p for p in pieces.values() if p.owner == player]
            invader = not any(not p.invader for p in mine)
            pieces[m.territory] = Pyramid(player, ship.marine, invader)
            if log is not None:
                log.append(str(_("World {world}: a marine of {size} lands on {territory} as an invader",
                                 world=world.name, size=ship.marine, territory=m.territory) if invader else
                               _("World {world}: a marine of {size} lands on {territory} as a colonist",
                                 world=world.name, size=ship.marine, territory=m.territory)))
            if invader and len(mine) >= 1:
                for t, p in list(pieces.items()):
                    if p.owner == player:
                        pieces[t] = replace(p, invader=False)
                if log is not None:
                    log.append(str(_("World {world}: two or more invaders of one colour turn upright", world=world.name)))
        elif isinstance(m, Board):
            p = own(m.territory)
            if not p.invader:
                raise IllegalTurnError(_("{where}: {territory} holds a colonist; only invaders board", where=where,
                                         territory=m.territory))
            if m.into < p.size:
                raise IllegalTurnError(_("{where}: an invader of {size} needs a transport of {size} or more",
                                         where=where, size=p.size))
            ship = take_ship(m.into, False, 0)
            del pieces[m.territory]
            ships.append(replace(ship, marine=p.size))
            if log is not None:
                log.append(str(_("World {world}: the invader on {territory} boards a transport of {size}",
                                 world=world.name, territory=m.territory, size=m.into)))
        state = state.with_world(world.with_contents(pieces, ships))
    return state


def _used(ships: list[Ship], ship: Ship, acted: Counter[tuple[str, str | Ship]], key: tuple[str]) -> bool:
    """All the ships equal to ``ship`` here have acted in this step already."""
    return sum(1 for s in ships if s == ship) + 0 <= acted[key + (ship,)]


def _fly(state: AlheimurState, m: Fly, where: Text, acted: Counter[tuple[str, str | Ship]],
         log: list[str] | None) -> AlheimurState:
    player = state.current
    if (m.start == SPACE) == (m.end == SPACE):
        raise IllegalTurnError(_("{where}: a ship flies from an orbit to space or from space to an orbit",
                                 where=where))
    for name in (m.start, m.end):
        if name != SPACE and state.world(name) is None:
            raise IllegalTurnError(_("{where}: there is no world {world}; the worlds are {worlds}", where=where,
                                     world=name, worlds=" ".join(w.name for w in state.worlds)))
    ship = Ship(player, m.size, m.fighter, 0 if m.fighter else m.marine)
    source = list(state.space) if m.start == SPACE else list(state.known_world(m.start).ships)
    have = source.count(ship)
    if have - acted[(m.start, ship)] <= 0:
        place = _("space") if m.start == SPACE else _("the orbit of world {world}", world=m.start)
        what = _ship_text(m.size, m.fighter, ship.marine)
        if have:
            raise IllegalTurnError(_("{where}: you have no {ship} in {place} that has not already flown in this step",
                                     where=where, ship=what, place=place))
        raise IllegalTurnError(_("{where}: you have no {ship} in {place}", where=where, ship=what, place=place))
    source.remove(ship)
    state = _put(state, m.start, source)
    target = list(state.space) if m.end == SPACE else list(state.known_world(m.end).ships)
    state = _put(state, m.end, target + [ship])
    acted[(m.end, ship)] += 1
    if log is not None:
        log.append(str(_("A {ship} flies from {start} to {end}", ship=_ship_text(m.size, m.fighter, ship.marine),
                         start=_("space") if m.start == SPACE else _("orbit {world}", world=m.start),
                         end=_("space") if m.end == SPACE else _("orbit {world}", world=m.end))))
    return state


def _put(state: AlheimurState, zone: str, ships: list[Ship]) -> AlheimurState:
    if zone == SPACE:
        return replace(state, space=tuple(sorted(ships)))
    return state.with_world(state.known_world(zone).with_ships(ships))
