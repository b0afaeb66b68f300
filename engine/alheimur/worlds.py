"""Worlds: four cards laid 2 x 2, their tiles, territories, adjacency and
regions; the placements world-building allows; the playability check.

A finished world is a *layout*: the four cards as laid (turned cards
already written turned, ``engine.alheimur.deck.turned``), in slot order
top-left, top-right, bottom-left, bottom-right.  Its 4 x 4 tiles are named
like a chess board: files ``a`` to ``d`` left to right, ranks ``1`` to
``4`` bottom to top (``a4`` is the top-left tile).  A territory is named
by its first tile in reading order (top row first, left to right), so the
top-left card's territories are named ``a4``, ``b4``, ``a3`` or ``b3``.

While a world is being built its cards lie at slot positions (x, y)
relative to the first card at (0, 0), x growing east and y growing south;
``finish`` turns them into a layout.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property, lru_cache

from engine.alheimur.deck import territories as card_territories
from engine.alheimur.deck import turned

FILES = "abcd"
#: positions of the other cards relative to the first, by compass name
COMPASS: dict[str, tuple[int, int]] = {
    "n": (0, -1), "s": (0, 1), "e": (1, 0), "w": (-1, 0),
    "ne": (1, -1), "nw": (-1, -1), "se": (1, 1), "sw": (-1, 1),
}
COMPASS_NAME = {v: k for k, v in COMPASS.items()}

Layout = tuple[str, str, str, str]
#: a card lying in a world being built: x, y, the card as laid
Laid = tuple[int, int, str]


def tile_name(col: int, row: int) -> str:
    """Column 0-3 from the left, row 0-3 from the top -> ``a4``..``d1``."""
    return f"{FILES[col]}{4 - row}"


def tile_at(name: str) -> tuple[int, int] | None:
    """``b3`` -> (1, 1); None for a name that is no tile."""
    if len(name) != 2 or name[0] not in FILES or name[1] not in "1234":
        return None
    return FILES.index(name[0]), 4 - int(name[1])


@dataclass(frozen=True)
class Territory:
    name: str
    element: str
    tiles: tuple[tuple[int, int], ...]  # (col, row), row 0 at the top


@dataclass(frozen=True)
class Geometry:
    """What the rules need of a finished world."""

    layout: Layout
    territories: tuple[Territory, ...]  # in reading order of their names
    adjacent: dict[str, frozenset[str]]  # edge or point
    regions: tuple[frozenset[str], ...]  # same element joined along edges
    at_tile: dict[tuple[int, int], str]  # tile -> territory name

    def territory(self, name: str) -> Territory:
        return self._by_name[name]

    @cached_property
    def _by_name(self) -> dict[str, Territory]:
        return {t.name: t for t in self.territories}

    def names(self) -> tuple[str, ...]:
        return self._names

    @cached_property
    def _names(self) -> tuple[str, ...]:  # read for every move checked: the bots check hundreds of thousands
        return tuple(t.name for t in self.territories)

    def region_of(self, name: str) -> frozenset[str]:
        for region in self.regions:
            if name in region:
                return region
        raise KeyError(name)

    def tiles_in(self, region: frozenset[str]) -> int:
        by = self._by_name
        return sum(len(by[n].tiles) for n in region)


def _tiles_of(x: int, y: int, laid: str) -> list[tuple[int, int, str]]:
    return [(2 * x + i % 2, 2 * y + i // 2, laid[i]) for i in range(4)]


@lru_cache(maxsize=4096)
def geometry(layout: Layout) -> Geometry:
    """Territories, adjacency and regions of a finished world."""
    owner: dict[tuple[int, int], str] = {}
    terrs: list[Territory] = []
    for slot, laid in enumerate(layout):
        sx, sy = slot % 2, slot // 2
        for element, where in card_territories(laid):
            tiles = tuple(sorted(((2 * sx + i % 2, 2 * sy + i // 2) for i in where), key=lambda t: (t[1], t[0])))
            name = tile_name(*tiles[0])
            terrs.append(Territory(name, element, tiles))
            for tile in tiles:
                owner[tile] = name
    terrs.sort(key=lambda t: (t.tiles[0][1], t.tiles[0][0]))
    element_of = {t.name: t.element for t in terrs}
    adjacent: dict[str, set[str]] = {t.name: set() for t in terrs}
    joined: dict[str, set[str]] = {t.name: set() for t in terrs}
    for (c, r), name in owner.items():
        for dc in (-1, 0, 1):
            for dr in (-1, 0, 1):
                other = owner.get((c + dc, r + dr))
                if other is None or other == name:
                    continue
                adjacent[name].add(other)
                if abs(dc) + abs(dr) == 1 and element_of[other] == element_of[name]:
                    joined[name].add(other)
    regions: list[frozenset[str]] = []
    seen: set[str] = set()
    for t in terrs:
        if t.name in seen:
            continue
        todo, region = [t.name], set()
        while todo:
            n = todo.pop()
            if n in region:
                continue
            region.add(n)
            todo.extend(joined[n] - region)
        seen |= region
        regions.append(frozenset(region))
    return Geometry(layout, tuple(terrs), {k: frozenset(v) for k, v in adjacent.items()},
                    tuple(regions), owner)


def playable(layout: Layout) -> bool:
    """A spaceport can be built: some territory is adjacent to four or more
    others."""
    return any(len(n) >= 4 for n in geometry(layout).adjacent.values())


def fits(cards: tuple[Laid, ...], x: int, y: int) -> bool:
    """(x, y) is free, touches a laid card along an edge, and all the cards
    still fit in a 2 x 2 rectangle."""
    taken = {(cx, cy) for cx, cy, _ in cards}
    if (x, y) in taken:
        return False
    if not any(abs(x - cx) + abs(y - cy) == 1 for cx, cy in taken):
        return False
    xs = {cx for cx, _ in taken} | {x}
    ys = {cy for _, cy in taken} | {y}
    return max(xs) - min(xs) <= 1 and max(ys) - min(ys) <= 1


def forms_region(cards: tuple[Laid, ...], x: int, y: int, laid: str) -> bool:
    """A tile of ``laid`` at (x, y) shares an edge with a tile of the same
    element already in the world."""
    old = {(c, r): e for cx, cy, card in cards for c, r, e in _tiles_of(cx, cy, card)}
    for c, r, e in _tiles_of(x, y, laid):
        for dc, dr in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            if old.get((c + dc, r + dr)) == e:
                return True
    return False


def placements(cards: tuple[Laid, ...], card: str) -> list[tuple[int, int, bool]]:
    """Where and how ``card`` may be laid next to ``cards`` (at least one
    laid): (x, y, turned) in a stable order (compass order, unturned
    first).  Where some placement makes one of its elements form a region
    with a territory already there, only such placements are allowed (the
    forced-region rule).  A card that reads the same turned (a whole card)
    is offered unturned only."""
    options = []
    for (x, y) in COMPASS.values():
        if not fits(cards, x, y):
            continue
        for is_turned in (False, True):
            laid = turned(card) if is_turned else card
            if is_turned and laid == card:
                continue
            options.append((x, y, is_turned, forms_region(cards, x, y, laid)))
    forced = [o for o in options if o[3]]
    return [(x, y, t) for x, y, t, _ in (forced or options)]


def finish(cards: tuple[Laid, ...]) -> Layout:
    """The layout of four laid cards filling a 2 x 2 rectangle."""
    if len(cards) != 4:
        raise ValueError("a world has four cards")
    minx = min(x for x, _, _ in cards)
    miny = min(y for _, y, _ in cards)
    slots: list[str | None] = [None] * 4
    for x, y, laid in cards:
        slots[(y - miny) * 2 + (x - minx)] = laid
    if None in slots:
        raise ValueError("the four cards do not fill a 2 x 2 rectangle")
    return tuple(slots)  # type: ignore[return-value]  # no slot is None past the check above


def laid_from_layout(layout: Layout) -> tuple[Laid, ...]:
    """The layout's cards as laid cards (the top-left at (0, 0))."""
    return tuple((slot % 2, slot // 2, laid) for slot, laid in enumerate(layout))


def swaps(layout: Layout, card: str) -> list[tuple[int, bool]]:
    """The orbit-card swaps of the text: ``card`` replaces the card in a
    slot (0-3), laid unturned or turned, following the usual rules (the
    forced-region rule against the three cards that stay).  In slot order,
    unturned first."""
    options = []
    for slot in range(4):
        rest = tuple(c for c in laid_from_layout(layout) if (c[0], c[1]) != (slot % 2, slot // 2))
        for is_turned in (False, True):
            laid = turned(card) if is_turned else card
            if is_turned and laid == card:
                continue
            options.append((slot, is_turned, forms_region(rest, slot % 2, slot // 2, laid)))
    forced = [o for o in options if o[2]]
    return [(s, t) for s, t, _ in (forced or options)]


def swapped(layout: Layout, slot: int, card: str, is_turned: bool) -> Layout:
    laid = turned(card) if is_turned else card
    return tuple(laid if i == slot else c for i, c in enumerate(layout))  # type: ignore[return-value]  # four cards in, four out
