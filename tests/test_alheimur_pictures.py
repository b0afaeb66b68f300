"""Alheimur's pictures: territory borders drawn thick on each world (where
two tiles of one territory meet there is none), invaders and fighters lying
on their side, colonists and transports upright, in SVG and PNG."""

import io
import re

from alheimur_helpers import position, world
from PIL import Image

from engine.alheimur.worlds import geometry
from notation.alheimur import NOTATION
from notation.drawing import render as diagrams
from notation.drawing.zones import WALL_INK

#: a world of whole and half cards: territories of two and four tiles
HALVES = ("AAEE", "AEAE", "FFFF", "WWTT")


def state():
    return position(world("1", layout=HALVES, on="a4=1:1 a3=1:2 c4=1:1 c1=2:1i"),
                    world("2", on="d1=2:3", orbit="1F2 2T3+1"),
                    space="1F1 2T1")


def polygons(svg: str) -> list[list[tuple[float, float]]]:
    found = []
    for points in re.findall(r'<polygon points="([^"]+)"', svg):
        found.append([tuple(float(v) for v in p.split(",")) for p in points.split()])
    return found


def lying(points) -> bool:
    """A triangle with a vertical side (its base) on the left: laid down."""
    xs = sorted(x for x, _ in points)
    return abs(xs[0] - xs[1]) < 0.01 and xs[2] > xs[1]


def upright(points) -> bool:
    ys = sorted(y for _, y in points)
    return abs(ys[1] - ys[2]) < 0.01 and ys[0] < ys[1]


def test_invaders_and_fighters_lie_on_their_side_colonists_and_transports_stand():
    s = state()
    tiles = {t.label: t for zone in NOTATION.diagram(s).zones if zone.kind == "tiles"
             and zone.title.startswith("World 1") for t in zone.items}
    assert tiles["c1"].piece.lying and not tiles["a4"].piece.lying
    stacks = {st.label: st for zone in NOTATION.diagram(s).zones if zone.kind == "stacks" for st in zone.items}
    fighter = next(st for label, st in stacks.items() if "F2" in label)
    transport = next(st for label, st in stacks.items() if "T3" in label)
    assert fighter.pieces[-1].lying and not transport.pieces[-1].lying and not transport.pieces[0].lying
    shapes = polygons(diagrams.render_svg(NOTATION.diagram(s)))
    # pieces: 4 + 1 on the worlds, 2 + 1 marine in orbit 2, 2 in space; 2 invader/fighters lie + 1 in space
    assert sum(lying(p) for p in shapes) == 3
    assert sum(upright(p) for p in shapes) == len(shapes) - 3


def test_a_border_runs_between_territories_and_around_the_world_but_not_inside_a_territory():
    s = state()
    w = s.worlds[0]
    geo = geometry(w.layout)
    tiles = [t for zone in NOTATION.diagram(s).zones if zone.kind == "tiles" and zone.title.startswith("World 1")
             for t in zone.items]
    by_place = {t.at: t for t in tiles}
    big = next(terr for terr in geo.territories if len(terr.tiles) > 1)
    (c0, r0), (c1, r1) = big.tiles[0], big.tiles[1]
    a, b = by_place[(c0, 3 - r0)], by_place[(c1, 3 - r1)]
    side = {(1, 0): "e", (-1, 0): "w", (0, 1): "s", (0, -1): "n"}[(c1 - c0, r1 - r0)]
    opposite = {"e": "w", "w": "e", "n": "s", "s": "n"}[side]
    assert side not in a.walls and opposite not in b.walls  # one territory: no border between
    corner = by_place[(0, 3)]  # the top-left tile: the world's edge north and west
    assert "n" in corner.walls and "w" in corner.walls
    walls = sum(len(t.walls) for t in tiles)
    assert 16 <= walls < 64  # the edge of the world (16 sides) and some inner borders, not every side
    png = Image.open(io.BytesIO(diagrams.render_png(NOTATION.diagram(s)))).convert("RGB")
    ink = tuple(int(WALL_INK[i:i + 2], 16) for i in (1, 3, 5))
    assert ink in {colour for _, colour in png.getcolors(maxcolors=1 << 20)}
