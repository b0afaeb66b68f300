"""The map of a Taiga game as a graph: which tiles fit where, the forests
(areas joined across matching forest edges), the road network, and what a
logging camp reaches.

Forests: each forest area of each tile is a key ``(x, y, spot)``; areas on
neighbouring tiles that share a forest edge belong to one forest.  A forest
is complete when none of its forest edges faces an empty place.

Roads: each road segment is a key ``(x, y, spot)``; segments on neighbouring
tiles that share a road edge are joined, and a road serves every forest area
of its tile.  Roads run through the forests they serve: a route may go from a
road into a forest it serves and out along any other road serving that
forest (complete or not), but never through a camp kept by an opponent.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Iterable

from engine.taiga.state import Placed
from engine.taiga.tiles import DIRECTIONS, KINDS, STEP, Turned, turned, turns_of

Key = tuple[int, int, str]


@dataclass(frozen=True)
class Forest:
    """One forest: its area keys (sorted), its tiles, its kind, how many of
    its forest edges face an empty place, its printed value and the species
    symbols on it."""

    keys: tuple[Key, ...]
    tiles: frozenset[tuple[int, int]]
    kind: str
    open: int
    value: int
    species: tuple[tuple[int, int, str], ...]

    @property
    def key(self) -> Key:
        """The forest's name: its smallest area key."""
        return self.keys[0]

    @property
    def size(self) -> int:
        return len(self.tiles)

    @property
    def complete(self) -> bool:
        return self.open == 0


@dataclass
class Map:
    """The analysis of a map, built tile by tile (``analyse``); never
    changed once built."""

    tiles: dict[tuple[int, int], Turned]
    forests: dict[Key, Forest] = field(default_factory=dict)  # forest name -> forest
    forest_of: dict[Key, Key] = field(default_factory=dict)  # area key -> forest name
    links: dict[Key, tuple[Key, ...]] = field(default_factory=dict)  # road segment -> joined segments
    served_by: dict[Key, tuple[Key, ...]] = field(default_factory=dict)  # forest name -> segments serving it
    camps: dict[tuple[int, int], Key] = field(default_factory=dict)  # camp tile -> its road segment

    def forest_at(self, key: Key) -> Forest:
        return self.forests[self.forest_of[key]]

    def serves(self, segment: Key) -> list[Key]:
        """The forests (names) the road segment serves: those of its tile."""
        x, y, _ = segment
        return [self.forest_of[(x, y, s)] for s in self.tiles[(x, y)].forest_spots]

    def segment_keys(self) -> list[Key]:
        return sorted(self.links)


def _extend(old: Map | None, placed: Placed) -> Map:
    """``old`` with one more tile."""
    x, y = placed.x, placed.y
    tile = turned(placed.code, placed.turn)
    if old is None:
        new = Map({(x, y): tile})
    else:
        new = Map({**old.tiles, (x, y): tile}, dict(old.forests), dict(old.forest_of), dict(old.links),
                  dict(old.served_by), dict(old.camps))
    tiles = new.tiles
    own_segments = tuple((x, y, DIRECTIONS[min(r)]) for r in tile.roads)
    for key in own_segments:
        new.links[key] = ()
    if tile.feature == "camp":
        new.camps[(x, y)] = own_segments[0]
    # areas of this tile: which old forests they join, and their open edges
    joins: dict[Key, set[Key]] = {}
    opened: dict[Key, int] = {}
    closed: dict[Key, int] = {}  # old forest name -> its edges this tile closes
    for d in range(4):
        edge = tile.edges[d]
        if edge not in "SHR":
            continue
        here = (x, y, tile.spot_of(d))
        nx, ny = x + STEP[d][0], y + STEP[d][1]
        other = tiles.get((nx, ny))
        if edge == "R":
            if other is not None:
                there = (nx, ny, other.spot_of((d + 2) % 4))
                new.links[here] = new.links[here] + (there,)
                new.links[there] = new.links[there] + (here,)
            continue
        joins.setdefault(here, set())
        opened.setdefault(here, 0)
        if other is None:
            opened[here] += 1
        else:
            name = new.forest_of[(nx, ny, other.spot_of((d + 2) % 4))]
            joins[here].add(name)
            closed[name] = closed.get(name, 0) + 1
    # areas of this tile that join a common old forest are one forest
    groups: list[tuple[set[Key], set[Key]]] = []  # (new areas, old forests)
    for area, names in joins.items():
        group = ({area}, set(names))
        for joined in [g for g in groups if g[1] & names]:
            groups.remove(joined)
            group[0].update(joined[0])
            group[1].update(joined[1])
        groups.append(group)
    for areas, names in groups:
        old_forests = [new.forests.pop(name) for name in sorted(names)]
        keys = tuple(sorted([k for f in old_forests for k in f.keys] + list(areas)))
        tile_set = frozenset((k[0], k[1]) for k in keys)
        species = tuple(sorted((tx, ty, feature) for tx, ty in tile_set
                               if (feature := tiles[(tx, ty)].feature) is not None and feature != "camp"))
        open_edges = sum(f.open for f in old_forests) - sum(closed[n] for n in names) + sum(opened[a] for a in areas)
        first = min(areas)
        forest = Forest(keys, tile_set, tile.kind_of(first[2]), open_edges,
                        sum(tiles[t].value for t in tile_set), species)
        new.forests[forest.key] = forest
        for key in keys:
            new.forest_of[key] = forest.key
        serving = [s for n in names for s in new.served_by.pop(n, ())] + list(own_segments)
        if serving:
            new.served_by[forest.key] = tuple(sorted(set(serving)))
    return new


@lru_cache(maxsize=8192)
def analyse(placed: tuple[Placed, ...]) -> Map:
    """Forests and roads of the map made of ``placed`` (built from the map
    without its last tile, which the cache usually holds)."""
    if len(placed) == 1:
        return _extend(None, placed[0])
    return _extend(analyse(placed[:-1]), placed[-1])


def reach(board: Map, start: Key, blocked: Iterable[Key] = ()) -> tuple[set[Key], set[Key]]:
    """The road segments and forests a route from segment ``start`` reaches,
    going along roads and through the forests they serve, never entering a
    segment in ``blocked`` (the camps of opponents)."""
    stop = set(blocked)
    segments: set[Key] = {start}
    forests: set[Key] = set()
    queue = deque([start])
    while queue:
        key = queue.popleft()
        for other in board.links[key]:
            if other not in segments and other not in stop:
                segments.add(other)
                queue.append(other)
        for forest in board.serves(key):
            if forest in forests:
                continue
            forests.add(forest)
            for other in board.served_by.get(forest, ()):
                if other not in segments and other not in stop:
                    segments.add(other)
                    queue.append(other)
    return segments, forests


def mismatch(tiles: dict[tuple[int, int], Turned], x: int, y: int, tile: Turned) -> tuple[int, Turned] | None:
    """The first side (0-3) on which ``tile`` laid at ``x, y`` does not match
    its neighbour, with that neighbour; None when every side matches."""
    for d in range(4):
        other = tiles.get((x + STEP[d][0], y + STEP[d][1]))
        if other is not None and other.edges[(d + 2) % 4] != tile.edges[d]:
            return d, other
    return None


def frontier(tiles: dict[tuple[int, int], Turned]) -> list[tuple[int, int]]:
    """The empty places next to the map, sorted."""
    places = set()
    for x, y in tiles:
        for dx, dy in STEP:
            if (x + dx, y + dy) not in tiles:
                places.add((x + dx, y + dy))
    return sorted(places)


@lru_cache(maxsize=8192)
def open_places(placed: tuple[Placed, ...]) -> tuple[tuple[int, int, str], ...]:
    """The empty places next to the map made of ``placed``, sorted, each
    with the edges its neighbours show it (side ``d``: the neighbour's
    edge facing it, ``.`` where there is none), so that whether a tile
    fits there is read from those four letters alone."""
    tiles = analyse(placed).tiles
    found = []
    for x, y in frontier(tiles):
        faced = ""
        for d in range(4):
            other = tiles.get((x + STEP[d][0], y + STEP[d][1]))
            faced += "." if other is None else other.edges[(d + 2) % 4]
        found.append((x, y, faced))
    return tuple(found)


@lru_cache(maxsize=None)
def fitting_turns(code: str, faced: str) -> tuple[int, ...]:
    """The turns of ``code`` (``tiles.turns_of``) that fit a place whose
    neighbours show it ``faced`` (``open_places``)."""
    return tuple(t for t in turns_of(code)
                 if all(want in (".", have) for want, have in zip(faced, turned(code, t).edges)))


@lru_cache(maxsize=8192)
def placements(placed: tuple[Placed, ...], code: str) -> tuple[tuple[int, int, int], ...]:
    """Every place and turn ``(x, y, turn)`` where ``code`` fits, sorted;
    turns that lie alike are given once (``tiles.turns_of``).  Read from
    the edges each empty place faces (``open_places``): laying every turn
    of the tile against every neighbour made a medium bot's turns take
    two thirds more CPU."""
    return tuple((x, y, t) for x, y, faced in open_places(placed) for t in fitting_turns(code, faced))


def fits_somewhere(placed: tuple[Placed, ...], code: str) -> bool:
    return bool(placements(placed, code))


def known(code: str) -> bool:
    return code in KINDS
