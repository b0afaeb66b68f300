"""Setup: the deal into eight piles, world building card by card with the
forced-region rule, the playability check with the orbit-card swap, the
extra piles and the re-deal, the starting colonists and the first player.

Chance comes through ``engine.base.ChanceEvent`` (see ``chance_event``):
the deal is a draw of all 40 cards that nobody sees (``seen_by=()``); the
neutral world's placements and the orbit-card swap, where more than one
is allowed, are drawn by lot in public; so is the first player.
"""

from __future__ import annotations

from dataclasses import replace
from itertools import combinations, product
from typing import Iterator

from engine.alheimur.deck import DECK, turned
from engine.alheimur.pieces import DEFAULT_ORDER, SIZES, AlheimurState, Colonists, Place, Pyramid, World, world_name
from engine.alheimur.worlds import (
    COMPASS,
    COMPASS_NAME,
    Layout,
    finish,
    fits,
    geometry,
    placements,
    playable,
    swapped,
    swaps,
)
from engine.base import ChanceEvent
from engine.errors import IllegalTurnError
from engine.i18n import _

#: a card a view does not show
HIDDEN = "?"
PILES = 8
PILE_SIZE = 5
#: the slots of a world by the name of their top-left tile
SLOT_NAMES = ("a4", "c4", "a2", "c2")


def place_text(x: int, y: int, is_turned: bool) -> str:
    """``e``, ``sw~``: where the card goes from the first card, ``~`` when
    turned half a turn."""
    return COMPASS_NAME[(x, y)] + ("~" if is_turned else "")


def read_place_text(text: str) -> tuple[int, int, bool] | None:
    turned_ = text.endswith("~")
    at = COMPASS.get(text.rstrip("~"))
    return None if at is None else (at[0], at[1], turned_)


def swap_text(slot: int, is_turned: bool) -> str:
    return SLOT_NAMES[slot] + ("~" if is_turned else "")


def start(players: int) -> AlheimurState:
    """The position waiting for the deal."""
    return AlheimurState(players=players, phase="deal", orders=tuple(DEFAULT_ORDER for _ in range(players)))


def chance_event(state: AlheimurState) -> ChanceEvent | None:
    """What setup waits for, if anything."""
    if state.phase == "deal":
        return ChanceEvent("draw", "deal", count=len(DECK), items=DECK, seen_by=())
    if state.phase in ("build", "swap") and state.lots:
        return ChanceEvent("draw", "lot", count=1, items=state.lots)
    if state.phase == "first":
        return ChanceEvent("draw", "first", count=1, items=tuple(str(p + 1) for p in range(state.players)))
    return None


def apply_outcome(state: AlheimurState, outcome: tuple[str, ...]) -> AlheimurState:
    if state.phase == "deal":
        return deal(state, outcome)
    if state.phase == "first":
        return replace(state, phase="play", current=int(outcome[0]) - 1)
    (text,) = outcome
    if state.phase == "swap":
        return _swap(state, text)
    x, y, is_turned = read_place_text(text)  # type: ignore[misc]  # a place text is x, y and the turn
    return lay(replace(state, lots=()), x, y, is_turned)


def builders(state: AlheimurState) -> list[int]:
    """Who builds, in order: the neutral world first (index ``players``)
    when fewer than eight play, then the players by seat."""
    neutral = [state.players] if state.players < PILES else []
    return neutral + list(range(state.players))


def deal(state: AlheimurState, cards: tuple[str, ...]) -> AlheimurState:
    """The 40 cards in the order drawn, five to a pile: pile k holds cards
    5k..5k+4, turned over in that order.  Players take piles 1.. by seat, the
    neutral world the next, the rest are extra piles."""
    piles = tuple(tuple(cards[i:i + PILE_SIZE]) for i in range(0, len(cards), PILE_SIZE))
    owners = state.players + (1 if state.players < PILES else 0)
    state = replace(state, piles=piles, pile_of=tuple(range(owners)), extra=tuple(range(owners, PILES)),
                    worlds=(), building=(), card="", lots=(), deals=state.deals + 1)
    return _begin(state, builders(state)[0])


def _begin(state: AlheimurState, builder: int) -> AlheimurState:
    """Turn over the first card of the builder's pile and lay it; turn
    over the next."""
    pile = state.piles[state.pile_of[builder]]
    state = replace(state, phase="build", builder=builder, building=((0, 0, pile[0]),), card=pile[1],
                    piles=_take(state.piles, state.pile_of[builder], 2))
    return _next_card(state)


def _take(piles: tuple[tuple[str, ...], ...], index: int, n: int) -> tuple[tuple[str, ...], ...]:
    return tuple(p[n:] if i == index else p for i, p in enumerate(piles))


def _next_card(state: AlheimurState) -> AlheimurState:
    """Lay the turned-over card where only one placement is allowed; draw
    lots for the neutral world; else wait for the builder."""
    if state.card == HIDDEN:
        # a player's view (the mail robot reads turns against it): the card
        # turned over next is not shown, so nothing more is laid here
        return replace(state, current=state.builder if state.builder < state.players else state.current, lots=())
    options = placements(state.building, state.card)
    if len(options) == 1:
        return lay(state, *options[0])
    if state.builder == state.players:
        return replace(state, lots=tuple(place_text(*o) for o in options))
    return replace(state, current=state.builder, lots=())


def lay(state: AlheimurState, x: int, y: int, is_turned: bool) -> AlheimurState:
    """Lay the turned-over card; when the world has four cards, finish it."""
    laid = turned(state.card) if is_turned else state.card
    building = state.building + ((x, y, laid),)
    pile_index = state.pile_of[state.builder]
    if len(building) < 4:
        pile = state.piles[pile_index]
        state = replace(state, building=building, card=pile[0], piles=_take(state.piles, pile_index, 1))
        return _next_card(state)
    orbit = state.piles[pile_index][0]
    state = replace(state, building=(), card="", piles=_take(state.piles, pile_index, 1))
    return _check(state, finish(building), orbit)


def _check(state: AlheimurState, layout: Layout, orbit: str) -> AlheimurState:
    """The playability check of a player's world: the swap, else an extra
    pile, else the re-deal."""
    owner = None if state.builder == state.players else state.builder
    if owner is None or orbit == HIDDEN or playable(layout):
        return _done(state, World(world_name(owner), owner, layout, orbit))
    good = [(s, t) for s, t in swaps(layout, orbit) if playable(swapped(layout, s, orbit, t))]
    pending = World(world_name(owner), owner, layout, orbit)
    if len(good) == 1:
        return _swapped(state, pending, *good[0])
    if good:
        return replace(state, phase="swap", worlds=state.worlds + (pending,),
                       lots=tuple(swap_text(s, t) for s, t in good))
    if state.extra:
        state = replace(state, pile_of=tuple(state.extra[0] if i == owner else p for i, p in enumerate(state.pile_of)),
                        extra=state.extra[1:])
        return _begin(state, owner)
    return replace(start(state.players), deals=state.deals, orders=state.orders)


def _swap(state: AlheimurState, text: str) -> AlheimurState:
    pending = state.worlds[-1]
    slot = SLOT_NAMES.index(text.rstrip("~"))
    return _swapped(replace(state, worlds=state.worlds[:-1], lots=(), phase="build"), pending, slot, text.endswith("~"))


def _swapped(state: AlheimurState, world: World, slot: int, is_turned: bool) -> AlheimurState:
    """The orbit card replaces the card in ``slot``; that card, turned back
    as it was printed, becomes the orbit card."""
    old = world.layout[slot]
    printed = old if old in DECK else turned(old)
    layout = swapped(world.layout, slot, world.orbit_card, is_turned)
    return _done(state, replace(world, layout=layout, orbit_card=printed))


def _done(state: AlheimurState, world: World) -> AlheimurState:
    worlds = state.worlds + (world,)
    order = builders(state)
    built = {w.owner if w.owner is not None else state.players for w in worlds}
    rest = [b for b in order if b not in built]
    state = replace(state, worlds=_sorted_worlds(worlds), phase="build")
    if rest:
        return _begin(state, rest[0])
    return replace(state, phase="colonists", current=0, builder=0)


def _sorted_worlds(worlds: tuple[World, ...]) -> tuple[World, ...]:
    return tuple(sorted(worlds, key=lambda w: (w.owner is None, w.owner or 0)))


# -- the builder's and the colonists' turns ---------------------------------

def place_turns(state: AlheimurState) -> list[Place]:
    if state.card == HIDDEN:
        return []
    return [Place(x, y, t) for x, y, t in placements(state.building, state.card)]


def apply_place(state: AlheimurState, turn: Place) -> AlheimurState:
    options = placements(state.building, state.card)
    if (turn.x, turn.y, turn.turned) not in options:
        allowed = ", ".join(place_text(*o) for o in options)
        at = place_text(turn.x, turn.y, turn.turned) if (turn.x, turn.y) in COMPASS_NAME else (turn.x, turn.y)
        raise IllegalTurnError(_("world building: {card} cannot be laid at {place}; {why}allowed: {allowed}",
                                 card=state.card, place=at, why=_why(state, turn), allowed=allowed))
    return lay(state, turn.x, turn.y, turn.turned)


def _why(state: AlheimurState, turn: Place) -> str:
    if not fits(state.building, turn.x, turn.y):
        return str(_("the cards must touch along an edge and make a 2 x 2 rectangle; "))
    return str(_("where the card can form a region with a territory already there, it must; "))


def colonist_turns(state: AlheimurState) -> Iterator[Colonists]:
    """Every choice of three territories of one's world and their sizes."""
    world = state.world(world_name(state.current))
    if world is None:
        return
    names = geometry(world.layout).names()
    for where in combinations(names, 3):
        for sizes in product(SIZES, repeat=3):
            yield Colonists(tuple(zip(where, sizes)))


def apply_colonists(state: AlheimurState, turn: Colonists) -> AlheimurState:
    world = state.world(world_name(state.current))
    if world is None:
        raise IllegalTurnError(_("starting colonists: player {player} has no world", player=state.current + 1))
    names = geometry(world.layout).names()
    where = [t for t, _ in turn.placed]
    if len(turn.placed) != 3:
        raise IllegalTurnError(_("starting colonists: place exactly three, not {count}", count=len(turn.placed)))
    for t, size in turn.placed:
        if t not in names:
            raise IllegalTurnError(_("starting colonists: world {world} has no territory {territory}; its "
                                     "territories are {names}", world=world.name, territory=t, names=" ".join(names)))
        if size not in SIZES:
            raise IllegalTurnError(_("starting colonists: a pyramid has 1, 2 or 3 pips, not {size}", size=size))
    if len(set(where)) != 3:
        raise IllegalTurnError(_("starting colonists: three different territories, one pyramid in each"))
    pieces = {t: Pyramid(state.current, size) for t, size in turn.placed}
    state = state.with_world(world.with_pieces(pieces))
    if state.current + 1 < state.players:
        return replace(state, current=state.current + 1)
    return replace(state, phase="first", current=0)


__all__ = ["start", "chance_event", "apply_outcome", "place_turns", "apply_place", "colonist_turns",
           "apply_colonists", "place_text", "read_place_text", "swap_text"]
