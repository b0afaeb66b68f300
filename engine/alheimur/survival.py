"""Expansion and survival (the first two parts of a turn), and the start of
the last round.

Survival of a colonist of ``size`` pips: at least ``size + 1`` and at most
``size + 2`` neighbours (pyramids in territories adjacent at an edge or a
point, of any size, colour or status).  An invader survives when a
transport of its colour at least as large is in the world's orbit; a player
with two or more pyramids on a world has no invaders there (they turn
upright and are checked as colonists).  Dying pyramids count as present
until every pyramid of the world is checked, then all are removed together.
"""

from __future__ import annotations

from dataclasses import replace

from engine.alheimur.pieces import SIZES, AlheimurState, Civilize, Expand, Pyramid, World
from engine.alheimur.worlds import geometry
from engine.errors import IllegalTurnError
from engine.i18n import _

#: pips -> (fewest, most) neighbours a colonist survives with
BOUNDS = {1: (2, 3), 2: (3, 4), 3: (4, 5)}


def expand(state: AlheimurState, actions: tuple[Expand | Civilize, ...], log: list[str] | None) -> AlheimurState:
    """One action (expand or civilize) per world where the current player
    has pyramids at the start of the turn; a world may be left without."""
    player = state.current
    allowed = [w.name for w in state.worlds if w.has(player)]
    done: set[str] = set()
    for action in actions:
        where = _("expansion on world {world}", world=action.world)
        world = state.world(action.world)
        if world is None:
            raise IllegalTurnError(_("{where}: there is no world {world}; the worlds are {worlds}", where=where,
                                     world=action.world, worlds=" ".join(w.name for w in state.worlds)))
        if action.world not in allowed:
            raise IllegalTurnError(_("{where}: you have no pyramids there; you may act on {worlds}", where=where,
                                     worlds=" ".join(allowed) or _("no world")))
        if action.world in done:
            raise IllegalTurnError(_("{where}: one action per world, and world {world} already had one", where=where,
                                     world=action.world))
        done.add(action.world)
        names = geometry(world.layout).names()
        if action.territory not in names:
            raise IllegalTurnError(_("{where}: no territory {territory}; the territories are {names}", where=where,
                                     territory=action.territory, names=" ".join(names)))
        if action.size not in SIZES:
            raise IllegalTurnError(_("{where}: a pyramid has 1, 2 or 3 pips, not {size}", where=where, size=action.size))
        stash = state.stash(player)
        pieces = dict(world.pieces)
        here = pieces.get(action.territory)
        if isinstance(action, Expand):
            if here is not None:
                raise IllegalTurnError(_("{where}: {territory} is occupied; expand into an empty territory", where=where,
                                         territory=action.territory))
            if not stash[action.size]:
                raise IllegalTurnError(_("{where}: no {size}-pip pyramid left in your stash", where=where,
                                         size=action.size))
            pieces[action.territory] = Pyramid(player, action.size)
            if log is not None:
                log.append(str(_("World {world}: expand {territory} with a {size}", world=world.name,
                                 territory=action.territory, size=action.size)))
        elif isinstance(action, Civilize):
            if here is None or here.owner != player:
                raise IllegalTurnError(_("{where}: you have no pyramid on {territory} to civilize", where=where,
                                         territory=action.territory))
            if abs(here.size - action.size) != 1:
                raise IllegalTurnError(_("{where}: civilize changes a pyramid by one size; {size} pips can become "
                                         "{sizes}", where=where, size=here.size,
                                         sizes=str(_(" or ")).join(str(s) for s in SIZES if abs(s - here.size) == 1)))
            if not stash[action.size]:
                raise IllegalTurnError(_("{where}: no {size}-pip pyramid left in your stash, so this civilize "
                                         "action is not possible", where=where, size=action.size))
            pieces[action.territory] = replace(here, size=action.size)
            if log is not None:
                log.append(str(_("World {world}: civilize {territory} from {old} to {new}", world=world.name,
                                 territory=action.territory, old=here.size, new=action.size)))
        else:
            raise IllegalTurnError(_("{where}: an action is expand or civilize", where=where))
        state = state.with_world(world.with_pieces(pieces))
    return state


def check_world(world: World, log: list[str] | None = None) -> World:
    """Survival on one world: invaders of players with two or more
    pyramids turn upright, every pyramid is checked, the dying are removed
    together."""
    geo = geometry(world.layout)
    pieces = dict(world.pieces)
    counts: dict[int, int] = {}
    for p in pieces.values():
        counts[p.owner] = counts.get(p.owner, 0) + 1
    for name, p in list(pieces.items()):
        if p.invader and counts[p.owner] >= 2:
            pieces[name] = replace(p, invader=False)
            if log is not None:
                log.append(str(_("World {world}: the invader on {territory} turns upright (two or more of its "
                                 "colour)", world=world.name, territory=name)))
    dying = []
    notes = []
    for name, p in sorted(pieces.items()):
        if p.invader:
            support = [s for s in world.ships if s.owner == p.owner and not s.fighter and s.size >= p.size]
            ok = bool(support)
            if log is not None:
                notes.append(str(_("{territory} invader {size}: supported", territory=name, size=p.size) if ok else
                                 _("{territory} invader {size}: no transport of {size}+ in orbit", territory=name,
                                   size=p.size)))
        else:
            n = sum(1 for other in geo.adjacent[name] if other in pieces)
            low, high = BOUNDS[p.size]
            ok = low <= n <= high
            if log is not None:
                notes.append(str(_("{territory} {size}: {count} neighbours (needs {low}-{high})", territory=name,
                                   size=p.size, count=n, low=low, high=high)))
        if not ok:
            dying.append(name)
            if log is not None:
                notes[-1] += " " + str(_("dies"))
    if log is not None:
        log.append(str(_("World {world} survival: {notes}", world=world.name, notes="; ".join(notes))))
    for name in dying:
        del pieces[name]
    return world.with_pieces(pieces)


def survive(state: AlheimurState, log: list[str] | None) -> AlheimurState:
    """Survival on every world where the current player has pyramids."""
    for world in state.worlds:
        if world.has(state.current):
            state = state.with_world(check_world(world, log))
    return state


def last_round_owed(state: AlheimurState) -> tuple[int, ...]:
    """Who gets one more turn once the current player starts the last round:
    everyone still in, in turn order from the next player round to the
    current player."""
    n = state.players
    order = [(state.current + k) % n for k in range(1, n + 1)]
    return tuple(p for p in order if not state.is_out(p) or p == state.current)
