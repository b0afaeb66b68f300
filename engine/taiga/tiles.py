"""The Taiga tile set, read from ``tiles.txt`` (the one data file the rules,
the renderer and the docs share), and tiles turned on the map.

Directions are ``n e s w`` (0 to 3); a tile turned ``r`` quarter turns
clockwise shows on side ``d`` what it printed on side ``(d - r) % 4``.  A
tile's *spots* name its parts by a direction letter: a forest area or a road
segment by the first of its edges in the order n, e, s, w (areas and roads
never share an edge, so a letter names one part), a logging camp by ``c``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from engine.i18n import N_

DIRECTIONS = "nesw"
#: the sides' names in messages (translated where they are used, with ``_``)
DIRECTION_NAMES = (N_("north"), N_("east"), N_("south"), N_("west"))
#: (dx, dy) of each direction: x grows east, y grows north
STEP = ((0, 1), (1, 0), (0, -1), (-1, 0))
EDGE_KINDS = {"S": N_("softwood forest"), "H": N_("hardwood forest"), "G": N_("grassland"), "R": N_("road")}
#: a forest's kind (``Turned.kind_of``), as messages name it ("the softwood forest at n")
FOREST_KINDS = (N_("softwood"), N_("hardwood"))
FOREST_EDGES = "SH"
SPECIES = (N_("maple"), N_("birch"), N_("ash"), N_("oak"))
FEATURES = ("camp", *SPECIES)
CAMP_SPOT = "c"
START = "ST"


@dataclass(frozen=True)
class TileKind:
    """One line of ``tiles.txt``: a kind of tile as printed (north up)."""

    code: str
    count: int
    edges: str  # four letters, n e s w
    forests: tuple[frozenset[int], ...]
    roads: tuple[frozenset[int], ...]
    feature: str | None
    value: int
    name: str


@dataclass(frozen=True)
class Turned:
    """A tile as it lies on the map, turned ``turn`` quarter turns clockwise."""

    code: str
    turn: int
    edges: str
    forests: tuple[frozenset[int], ...]  # sorted by their first edge
    roads: tuple[frozenset[int], ...]
    feature: str | None
    value: int
    forest_spots: tuple[str, ...] = ()  # the spots of its forest areas
    road_spots: tuple[str, ...] = ()  # the spots of its road segments

    def spot_of(self, direction: int) -> str:
        """The spot (area or road) that holds edge ``direction``, else ''."""
        for part, spot in zip(self.forests + self.roads, self.forest_spots + self.road_spots):
            if direction in part:
                return spot
        return ""

    def area(self, spot: str) -> frozenset[int]:
        return next(a for a in self.forests if DIRECTIONS[min(a)] == spot)

    def road(self, spot: str) -> frozenset[int]:
        return next(r for r in self.roads if DIRECTIONS[min(r)] == spot)

    def kind_of(self, spot: str) -> str:
        """"softwood" or "hardwood" for a forest spot."""
        return "softwood" if self.edges[DIRECTIONS.index(spot)] == "S" else "hardwood"


class TileDataError(ValueError):
    """``tiles.txt`` says something impossible."""


def _parts(text: str, line: int) -> tuple[frozenset[int], ...]:
    if text == "-":
        return ()
    parts = []
    for item in text.split("+"):
        if not item or any(c not in DIRECTIONS for c in item) or len(set(item)) != len(item):
            raise TileDataError(f"tiles.txt line {line}: {item!r} is not a set of edges n e s w")
        parts.append(frozenset(DIRECTIONS.index(c) for c in item))
    return tuple(parts)


def read_tiles(text: str) -> dict[str, TileKind]:
    """The tile kinds of a ``tiles.txt`` text, checked for consistency."""
    kinds: dict[str, TileKind] = {}
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        fields = line.split(None, 7)
        if len(fields) != 8:
            raise TileDataError(f"tiles.txt line {number}: eight fields expected, got {len(fields)}")
        code, count, edges, forests, roads, feature, value, name = fields
        kind = TileKind(code, int(count), edges, _parts(forests, number), _parts(roads, number),
                        None if feature == "-" else feature, int(value), name)
        _check(kind, number)
        if code in kinds:
            raise TileDataError(f"tiles.txt line {number}: code {code} twice")
        kinds[code] = kind
    return kinds


def _check(kind: TileKind, line: int) -> None:
    where = f"tiles.txt line {line} ({kind.code})"
    if len(kind.edges) != 4 or any(e not in EDGE_KINDS for e in kind.edges):
        raise TileDataError(f"{where}: edges are four of {''.join(EDGE_KINDS)}")
    forest_edges = {d for d in range(4) if kind.edges[d] in FOREST_EDGES}
    road_edges = {d for d in range(4) if kind.edges[d] == "R"}
    in_areas = [d for a in kind.forests for d in a]
    in_roads = [d for r in kind.roads for d in r]
    if sorted(in_areas) != sorted(forest_edges):
        raise TileDataError(f"{where}: every forest edge is in exactly one forest area")
    if sorted(in_roads) != sorted(road_edges):
        raise TileDataError(f"{where}: every road edge is in exactly one road segment")
    for area in kind.forests:
        if len({kind.edges[d] for d in area}) != 1:
            raise TileDataError(f"{where}: a forest area is all softwood or all hardwood")
    if kind.feature is not None and kind.feature not in FEATURES:
        raise TileDataError(f"{where}: the feature is one of {', '.join(FEATURES)}")
    if kind.feature == "camp" and (len(kind.roads) != 1 or kind.forests):
        raise TileDataError(f"{where}: a camp tile has one road and no forest")
    if kind.feature in SPECIES and kind.edges != "HHHH":
        raise TileDataError(f"{where}: a species symbol is on a full hardwood tile")
    if kind.count < 1 or kind.value < 0:
        raise TileDataError(f"{where}: a count of at least 1 and a value of at least 0")


def _load() -> dict[str, TileKind]:
    return read_tiles(resources.files("engine.taiga").joinpath("tiles.txt").read_text(encoding="utf-8"))


#: every kind of tile, in the order of ``tiles.txt``
KINDS: dict[str, TileKind] = _load()
CODES: tuple[str, ...] = tuple(KINDS)
#: the tiles of the draw pile, one entry per copy, in the order of ``tiles.txt``
#: (the start tile is on the table, not in the pile)
PILE: tuple[str, ...] = tuple(code for code, kind in KINDS.items()
                              for _ in range(kind.count - (1 if code == START else 0)))


@lru_cache(maxsize=None)
def turned(code: str, turn: int) -> Turned:
    """Tile ``code`` turned ``turn`` quarter turns clockwise."""
    kind = KINDS[code]

    def spin(parts: tuple[frozenset[int], ...]) -> tuple[frozenset[int], ...]:
        return tuple(sorted((frozenset((d + turn) % 4 for d in p) for p in parts), key=min))

    edges = "".join(kind.edges[(d - turn) % 4] for d in range(4))
    forests, roads = spin(kind.forests), spin(kind.roads)
    return Turned(code, turn, edges, forests, roads, kind.feature, kind.value,
                  tuple(DIRECTIONS[min(a)] for a in forests), tuple(DIRECTIONS[min(r)] for r in roads))


def _signature(tile: Turned) -> tuple[str, tuple[frozenset[int], ...], tuple[frozenset[int], ...]]:
    return tile.edges, tile.forests, tile.roads


@lru_cache(maxsize=None)
def turns_of(code: str) -> tuple[int, ...]:
    """The turns (0-3) that give different tiles on the map: a turn that
    lies like a smaller one (a crossroads, a full forest) is left out."""
    seen, result = set(), []
    for turn in range(4):
        sig = _signature(turned(code, turn))
        if sig not in seen:
            seen.add(sig)
            result.append(turn)
    return tuple(result)


@lru_cache(maxsize=None)
def canonical_turn(code: str, turn: int) -> int:
    """The smallest turn that lays ``code`` as ``turn`` does."""
    sig = _signature(turned(code, turn % 4))
    return next(t for t in turns_of(code) if _signature(turned(code, t)) == sig)


def total_tiles() -> int:
    return sum(kind.count for kind in KINDS.values())
