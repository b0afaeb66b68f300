"""Pictures of Taiga tiles, drawn from the tile data (``engine/taiga/tiles.txt``):
the shapes of a tile for the PNG and SVG maps (``notation.base.TileShape``)
and its glyph for the plain-text map.

Softwood forest is dark green, hardwood light green, grassland pale, roads
brown; a logging camp is a hut; a species symbol is a coloured disc with the
species' letter; meeples are discs and trucks small boxes in their player's
colour (S surveyor, L lumberjack, K camp keeper, T truck).  A logged forest
is drawn as cleared ground.

Glyph (5 characters by 3 rows)::

    s1S      row 1: a meeple (s surveyor, l lumberjack, k keeper) and its
    =S2*=           player; then the north edge
    t2.      row 2: west edge, code, mark, east edge
             row 3: a truck and its player; then the south edge

Edges read S softwood, H hardwood, ``.`` grass, ``|`` or ``=`` road; the
mark is ``*`` a camp, ``m b a o`` a species token still on the tile,
``x`` a logged forest.
"""

from __future__ import annotations

from typing import Iterable

from engine.taiga.tiles import DIRECTIONS, Turned
from notation.base import TileShape, player_colour

GRASS = "#d7e4a5"
SOFTWOOD = "#1b5e20"
HARDWOOD = "#7cb342"
CLEARED = "#c9b48a"
ROAD = "#795548"
CAMP = "#5d4037"
SPECIES_COLOURS = {"maple": "#d84315", "birch": "#f5f5f5", "ash": "#90a4ae", "oak": "#8d6e00"}
OUTLINE = "#1b1b1b"
ROLE_LETTERS = {"surveyor": "S", "lumberjack": "L", "keeper": "K", "truck": "T"}
#: where a piece on a spot stands, in fractions of the tile (y down)
SPOT_PLACE = {"n": (0.5, 0.16), "e": (0.84, 0.5), "s": (0.5, 0.84), "w": (0.16, 0.5), "c": (0.5, 0.5)}


def _spin(points: Iterable[tuple[float, float]], direction: int) -> tuple[tuple[float, float], ...]:
    """Points drawn for the north side, turned to ``direction`` (clockwise)."""
    result = []
    for x, y in points:
        for _ in range(direction):
            x, y = 1 - y, x
        result.append((round(x, 4), round(y, 4)))
    return tuple(result)


def tile_shapes(tile: Turned, pieces: Iterable[tuple[str, str, int]] = (), logged: Iterable[str] = (),
                token: bool = True) -> tuple[TileShape, ...]:
    """The picture of ``tile``: its forests (``logged`` spots cleared), its
    roads, camp, species symbol (when ``token``) and printed value, then
    ``pieces`` as (spot, role, 0-based player)."""
    cleared = set(logged)
    shapes: list[TileShape] = [TileShape("polygon", ((0, 0), (1, 0), (1, 1), (0, 1)), GRASS)]
    for area in tile.forests:
        spot = DIRECTIONS[min(area)]
        fill = CLEARED if spot in cleared else SOFTWOOD if tile.kind_of(spot) == "softwood" else HARDWOOD
        if len(area) == 4:
            shapes.append(TileShape("polygon", ((0, 0), (1, 0), (1, 1), (0, 1)), fill))
            continue
        depth = 0.3 if len(area) == 1 else 0.26
        for d in sorted(area):
            shapes.append(TileShape("polygon", _spin(((0, 0), (1, 0), (1 - depth, depth), (depth, depth)), d), fill))
        if len(area) > 1:
            shapes.append(TileShape("polygon", ((0.25, 0.25), (0.75, 0.25), (0.75, 0.75), (0.25, 0.75)), fill))
    for road in tile.roads:
        for d in sorted(road):
            end = 0.56 if len(road) > 1 else 0.5
            shapes.append(TileShape("polygon", _spin(((0.44, 0), (0.56, 0), (0.56, end), (0.44, end)), d), ROAD))
        if len(road) > 2:
            shapes.append(TileShape("circle", (0.5, 0.5, 0.1), ROAD))
    if tile.feature == "camp":
        shapes.append(TileShape("polygon", ((0.3, 0.42), (0.5, 0.27), (0.7, 0.42), (0.7, 0.64), (0.3, 0.64)),
                                CAMP, OUTLINE))
    elif tile.feature and token:  # a diamond, so it is never taken for a meeple
        cx, cy, r = 0.62, 0.62, 0.2
        shapes.append(TileShape("polygon", ((cx, cy - r), (cx + r, cy), (cx, cy + r), (cx - r, cy)),
                                SPECIES_COLOURS[tile.feature], OUTLINE))
        shapes.append(TileShape("text", (cx, cy, tile.feature[0].upper()), OUTLINE))
    if tile.value:
        shapes.append(TileShape("text", (0.82, 0.86, f"${tile.value}"), "#ffffff"))
    for spot, role, player in pieces:
        shapes.extend(piece_shapes(spot, role, player, tile))
    return tuple(shapes)


def piece_shapes(spot: str, role: str, player: int, tile: Turned | None = None) -> list[TileShape]:
    """A meeple (a disc) or a truck (a box) of ``player`` on ``spot``."""
    cx, cy = SPOT_PLACE[spot]
    if tile is not None and spot in tile.forest_spots and len(tile.area(spot)) == 4:
        cx, cy = 0.3, 0.3  # a full forest: clear of its species symbol
    elif tile is not None and spot in tile.forest_spots and len(tile.area(spot)) > 1:
        cx, cy = (cx + 0.5) / 2, (cy + 0.5) / 2  # a larger forest: nearer the middle
    colour = player_colour(player).css
    ink = "#ffffff" if player_colour(player).name not in ("gold", "sky") else OUTLINE
    if role == "truck":
        cx, cy = (cx + 0.5) / 2, (cy + 0.5) / 2
        box = ((cx - 0.13, cy - 0.09), (cx + 0.13, cy - 0.09), (cx + 0.13, cy + 0.09), (cx - 0.13, cy + 0.09))
        return [TileShape("polygon", box, colour, OUTLINE), TileShape("text", (cx, cy, "T"), ink)]
    return [TileShape("circle", (cx, cy, 0.12), colour, OUTLINE),
            TileShape("text", (cx, cy, ROLE_LETTERS[role]), ink)]


def corner_colour(tile: Turned, logged: Iterable[str] = ()) -> str:
    """The colour of the tile's top-left corner (where the map writes the
    tile's coordinates)."""
    cleared = set(logged)
    for area in tile.forests:
        if 0 in area or 3 in area:
            spot = DIRECTIONS[min(area)]
            return CLEARED if spot in cleared else SOFTWOOD if tile.kind_of(spot) == "softwood" else HARDWOOD
    return GRASS


def _edge_char(tile: Turned, d: int) -> str:
    edge = tile.edges[d]
    if edge == "R":
        return "|" if d in (0, 2) else "="
    return "." if edge == "G" else edge


def tile_glyph(tile: Turned, pieces: Iterable[tuple[str, str, int]] = (), logged: Iterable[str] = (),
               token: bool = True) -> tuple[str, str, str]:
    """The tile in three rows of five characters (see the module's doc)."""
    meeple = truck = "  "
    for _spot, role, player in pieces:
        if role == "truck":
            truck = f"t{player + 1}"
        else:
            meeple = f"{ROLE_LETTERS[role].lower()}{player + 1}"
    mark = " "
    if tile.feature == "camp":
        mark = "*"
    elif tile.feature and token:
        mark = tile.feature[0]
    elif any(True for _ in logged):
        mark = "x"
    return (f"{meeple}{_edge_char(tile, 0)}  ",
            f"{_edge_char(tile, 3)}{tile.code:<2}{mark}{_edge_char(tile, 1)}",
            f"{truck}{_edge_char(tile, 2)}  ")


#: the glyph of an empty place next to the map
EMPTY_GLYPH = ("     ", "  .  ", "     ")
