"""The pictures of a diagram's zones (``notation.base.Zone``) for the SVG and
PNG renderers of ``notation.drawing.render``: each zone is laid out as a block of
simple drawing operations, blocks flow down the picture (or to the right of
the one before, for a zone marked ``beside``), and both renderers draw the
same operations, so the SVG and the PNG always agree.

Stacks are columns of pyramids, top first, each in its own colour; a pile is
a face-down card with its count; a hand is a row of cards (face-down ones
blank); dice show pips; tiles sit on their map; a grid zone is a small board.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Callable, Iterable, Iterator, Sequence
from xml.sax.saxutils import escape

from notation.base import Card, Diagram, Piece, Zone

#: one drawing operation: ("rect", (x0, y0, x1, y1), fill, outline, radius),
#: ("polygon", points, fill, outline), ("circle", (cx, cy, r), fill, outline),
#: ("text", (x, y, text, size, anchor, bold), fill), ("group", title), ("end",); a group drawn
#: from operations made once at (0, 0) says so: ("group", title, token, x, y), its corner at
#: (x, y) (moved with the rest), ``token`` naming those operations (``_tile_body``)
Op = tuple[Any, ...]
#: a player's colour (None: no player's), as CSS
Colour = Callable[[int | None], str]
#: one shape of a piece (``notation.drawing.render._shapes``): (kind, data, fill)
Shape = tuple[str, Any, str]
#: a piece as shapes, its square's corner at (x, y)
PieceShapes = Callable[[Piece, float, float], list[Shape]]
INK = "#222222"
LINE = 18
STACK_WIDTH = 72  # a pyramid, and its label to the right
SLOT = 24  # height of one piece of a stack
CARD = (40, 56)
DIE = 36
TILE = 56
#: a tiles zone wider or taller than MAP_SPAN pixels at TILE a tile is drawn
#: with smaller tiles (MAP_SPAN // tiles across, not below MIN_TILE), so a
#: large map stays a picture a mail can show and a PNG quick to make (the
#: cost of a PNG grows with its pixels)
MAP_SPAN = 11 * TILE
MIN_TILE = 34
TILE_TEXT = 10  # the size of the text on a tile of TILE pixels
GAP = 8
BACK = "#37474f"
STACK_GROUND = "#f3ead7"
TILE_GROUND = "#f3ead7"
#: a region border on a tile map: its width and colour
WALL = 3
WALL_INK = "#3b2f1a"
#: pip places on a die of DIE pixels, by value
PIPS = {1: [(2, 2)], 2: [(1, 1), (3, 3)], 3: [(1, 1), (2, 2), (3, 3)], 4: [(1, 1), (3, 1), (1, 3), (3, 3)],
        5: [(1, 1), (3, 1), (2, 2), (1, 3), (3, 3)], 6: [(1, 1), (3, 1), (1, 2), (3, 2), (1, 3), (3, 3)]}


@dataclass
class Block:
    """A zone laid out: its size and its operations, relative to its corner."""

    width: float
    height: float
    ops: list[Op] = field(default_factory=list)


def ink_on(css: str) -> str:
    """Black or white, whichever reads better on ``css`` (#rrggbb)."""
    try:
        r, g, b = (int(css[i:i + 2], 16) for i in (1, 3, 5))
    except (ValueError, IndexError):
        return INK
    return INK if 0.299 * r + 0.587 * g + 0.114 * b > 150 else "#ffffff"


def layout(zones: Sequence[Zone], colour: Colour, piece_shapes: PieceShapes) -> Block:
    """All the zones as one block: rows of blocks, ``beside`` zones sharing
    the row of the zone before them."""
    total = Block(0, 0)
    x = y = 0.0
    row_height: float | None = None  # None: no row begun
    for zone in zones:
        if not (zone.beside and row_height is not None):  # a new row
            if row_height is not None:
                total.width = max(total.width, x - 2 * GAP)
                y += row_height + GAP
            x, row_height = 0.0, 0.0
        block, inner, placed = _zone(zone, colour, piece_shapes, (x, y + LINE + 4))
        total.ops.extend(_moved(block.ops, x, y))  # the title, then the body under it
        total.ops.extend(inner.ops if placed else _moved(inner.ops, x, y + LINE + 4))
        x += block.width + 2 * GAP
        row_height = max(row_height, block.height)
    if row_height is not None:
        total.width = max(total.width, x - 2 * GAP)
        y += row_height + GAP
    total.height = y
    return total


def marked_groups(ops: Iterable[Op]) -> Iterator[tuple[Op | None, list[Op]]]:
    """The operations in drawing order, one list a group: a "group" ...
    "end" run (markers dropped; empty ones left out) with its "group"
    marker, or one loose operation with None."""
    marker: Op | None = None
    current: list[Op] | None = None
    for op in ops:
        if op[0] == "group":
            marker, current = op, []
        elif op[0] == "end":
            if current:
                yield marker, current
            marker, current = None, None
        elif current is not None:
            current.append(op)
        else:
            yield None, [op]


def bounds(ops: Iterable[Op], font: Callable[[int], Any] | None = None) -> tuple[float, float, float, float] | None:
    """A box holding the rectangles, polygons and circles ``ops`` draw, and
    with ``font`` (a size's font) their texts too; None when there is none."""
    xs: list[float] = []
    ys: list[float] = []
    for op in ops:
        if op[0] == "rect":
            xs += [op[1][0], op[1][2]]
            ys += [op[1][1], op[1][3]]
        elif op[0] == "polygon":
            xs += [x for x, _ in op[1]]
            ys += [y for _, y in op[1]]
        elif op[0] == "circle":
            cx, cy, r = op[1]
            xs += [cx - r, cx + r]
            ys += [cy - r, cy + r]
        elif op[0] == "text" and font is not None:
            x, y, text, size, anchor, _ = op[1]
            left, top, right, bottom = font(size).getbbox(text, anchor=ANCHORS.get(anchor, "lm"))
            xs += [x + left, x + right]
            ys += [y + top, y + bottom]
    return (min(xs), min(ys), max(xs), max(ys)) if xs else None


def _moved(ops: list[Op], dx: float, dy: float) -> list[Op]:
    """The operations moved by (dx, dy) (the same list when both are 0)."""
    if not dx and not dy:
        return ops
    moved = []
    for op in ops:
        if op[0] == "rect":
            x0, y0, x1, y1 = op[1]
            moved.append(("rect", (x0 + dx, y0 + dy, x1 + dx, y1 + dy), *op[2:]))
        elif op[0] == "polygon":
            moved.append(("polygon", [(x + dx, y + dy) for x, y in op[1]], *op[2:]))
        elif op[0] == "circle":
            cx, cy, r = op[1]
            moved.append(("circle", (cx + dx, cy + dy, r), *op[2:]))
        elif op[0] == "text":
            x, y, *rest = op[1]
            moved.append(("text", (x + dx, y + dy, *rest), op[2]))
        elif op[0] == "group" and len(op) == 5:  # a group with its recipe and corner: the corner moves
            moved.append(("group", op[1], op[2], op[3] + dx, op[4] + dy))
        else:
            moved.append(op)
    return moved


moved = _moved


def _zone(zone: Zone, colour: Colour, piece_shapes: PieceShapes, origin: tuple[float, float]) -> tuple[Block, Block, bool]:
    """The zone's title (a block of the zone's whole size) and its body, to
    go LINE + 4 under the title, at ``origin``; True when the body is
    already there (a map, the largest zone, is made in place rather than
    moved)."""
    if zone.kind == "tiles":
        inner, placed = _tiles(zone, colour, piece_shapes, origin), True
    else:
        body = {"stacks": _stacks, "pile": _pile, "hand": _hand, "dice": _dice, "grid": _grid}[zone.kind]
        inner, placed = body(zone, colour, piece_shapes), False
    title = ("text", (0, LINE / 2, zone.title, 13, "start", True), INK)
    return Block(max(inner.width, 7.5 * len(zone.title)), LINE + 4 + inner.height, [title]), inner, placed


def _pyramid(piece: Piece, cx: float, bottom: float, colour: Colour) -> Op:
    size = max(1, min(3, piece.size))
    half, height = 8 + 5 * size, 6 + 5 * size
    fill = piece.colour or colour(piece.player)
    if piece.lying:  # laid down, pointing right, in the same slot
        return ("polygon", [(cx - half, bottom - height), (cx - half, bottom), (cx + half, bottom - height / 2)],
                fill, "#1b1b1b")
    return ("polygon", [(cx - half, bottom), (cx + half, bottom), (cx, bottom - height)], fill, "#1b1b1b")


def _stacks(zone: Zone, colour: Colour, piece_shapes: PieceShapes) -> Block:
    depth = max((len(s.pieces) for s in zone.items), default=0)
    notes = any(s.note for s in zone.items)
    block = Block(max(0, len(zone.items) * (STACK_WIDTH + GAP) - GAP), depth * SLOT + 8 + LINE + (LINE if notes else 0))
    for index, stack in enumerate(zone.items):
        x = index * (STACK_WIDTH + GAP)
        cx: float = x + 27
        words = " ".join(p.label for p in stack.pieces)
        title = f"{stack.label}: {words} (top first)" + (f"; {stack.note}" if stack.note else "")
        block.ops.append(("group", f"{stack.click}: {title}" if stack.click else title))
        block.ops.append(("rect", (x, 0, x + STACK_WIDTH, depth * SLOT + 8), STACK_GROUND, "#b9a77f", 4))
        for row, piece in enumerate(stack.pieces):
            block.ops.append(_pyramid(piece, cx, 4 + (row + 1) * SLOT - 2, colour))
            block.ops.append(("text", (x + STACK_WIDTH - 4, 4 + row * SLOT + SLOT * 0.6, piece.label, 10, "end", False),
                              INK))
        cx = x + STACK_WIDTH / 2
        block.ops.append(("text", (cx, depth * SLOT + 8 + LINE / 2, stack.label, 13, "middle", True), INK))
        if stack.note:
            block.ops.append(("text", (cx, depth * SLOT + 8 + LINE * 1.5, stack.note, 10, "middle", False), INK))
        block.ops.append(("end",))
    return block


def _card(card: Card, x: float, colour: Colour) -> list[Op]:
    w, h = CARD
    if not card.face_up:
        return [("group", "a face-down card"), ("rect", (x, 0, x + w, h), BACK, "#1b1b1b", 4),
                ("rect", (x + 5, 5, x + w - 5, h - 5), BACK, "#90a4ae", 2), ("end",)]
    fill = card.colour or (colour(card.player) if card.player is not None else "#ffffff")
    return [("group", f"card {card.label}"), ("rect", (x, 0, x + w, h), fill, "#1b1b1b", 4),
            ("text", (x + w / 2, h / 2, card.label, 14, "middle", True), ink_on(fill)), ("end",)]


def _hand(zone: Zone, colour: Colour, piece_shapes: PieceShapes) -> Block:
    block = Block(max(0, len(zone.items) * (CARD[0] + 6) - 6), CARD[1])
    for index, card in enumerate(zone.items):
        block.ops.extend(_card(card, index * (CARD[0] + 6), colour))
    return block


def _pile(zone: Zone, colour: Colour, piece_shapes: PieceShapes) -> Block:
    w, h = CARD
    block = Block(0, h + 6 + LINE)
    block.ops.append(("group", f"a pile of {zone.count} face down"))
    for shift in (6, 3) if zone.count > 1 else ():
        block.ops.append(("rect", (shift, 6 - shift, shift + w, 6 - shift + h), BACK, "#1b1b1b", 4))
    if zone.count:
        block.ops.append(("rect", (0, 6, w, 6 + h), BACK, "#1b1b1b", 4))
        block.ops.append(("text", (w / 2, 6 + h / 2, str(zone.count), 14, "middle", True), "#ffffff"))
    else:
        block.ops.append(("rect", (0, 6, w, 6 + h), "#ffffff", "#9e9e9e", 4))
    block.ops.append(("text", (0, h + 6 + LINE / 2, f"{zone.count} face down", 12, "start", False), INK))
    block.ops.append(("end",))
    x = w + 6 + 12
    for card in zone.items:
        block.ops.extend(_moved(_card(card, x, colour), 0, 6))
        x += w + 6
    block.width = max(x, 7 * len(f"{zone.count} face down"))
    return block


def _dice(zone: Zone, colour: Colour, piece_shapes: PieceShapes) -> Block:
    block = Block(max(0, len(zone.items) * (DIE + GAP) - GAP), DIE)
    for index, die in enumerate(zone.items):
        x = index * (DIE + GAP)
        fill = "#ffffff" if die.player is None else colour(die.player)
        pip = ink_on(fill)
        block.ops.append(("group", f"a d{die.sides} showing {die.value}"))
        block.ops.append(("rect", (x, 0, x + DIE, DIE), fill, "#1b1b1b", 6))
        if die.sides == 6 and die.value in PIPS:
            for px, py in PIPS[die.value]:
                block.ops.append(("circle", (x + px * DIE / 4, py * DIE / 4, 3.5), pip, pip))
        else:
            block.ops.append(("text", (x + DIE / 2, DIE / 2, str(die.value), 15, "middle", True), pip))
        block.ops.append(("end",))
    return block


def tile_size(columns: int, rows: int) -> int:
    """The pixels a tile of a map ``columns`` by ``rows`` tiles is drawn
    at: TILE, or less for a map larger than MAP_SPAN (see there)."""
    span = max(columns, rows, 1)
    return TILE if span * TILE <= MAP_SPAN else max(MIN_TILE, MAP_SPAN // span)


def _tiles(zone: Zone, colour: Colour, piece_shapes: PieceShapes, origin: tuple[float, float] = (0, 0)) -> Block:
    """The map, its top-left corner at ``origin``."""
    if not zone.items:
        return Block(0, 0)
    ox, oy = origin
    xs = [t.at[0] for t in zone.items]
    ys = [t.at[1] for t in zone.items]
    left, top = min(xs), max(ys)
    size = tile_size(max(xs) - left + 1, top - min(ys) + 1)
    text = TILE_TEXT if size == TILE else max(8, round(TILE_TEXT * size / TILE))
    block = Block((max(xs) - left + 1) * size, (top - min(ys) + 1) * size)
    for tile in zone.items:
        x, y = ox + (tile.at[0] - left) * size, oy + (top - tile.at[1]) * size
        fill = tile.colour or TILE_GROUND
        title = f"tile {tile.label} at {tile.at[0]},{tile.at[1]}"
        if tile.click:  # its clickable area is named by its click (the title up to its first colon)
            title = f"{tile.click}: {title}"
        if tile.piece is None:  # the same tile drawn again: its operations made once, at (0, 0)
            token, body = _body_of(tile.label, fill, tile.walls, tile.shapes, size, text)
            block.ops.append(("group", title, token, x, y))
            block.ops.extend(_placed(token, body, x, y))
            block.ops.append(("end",))
            continue
        block.ops.append(("group", title))
        block.ops.append(("rect", (x, y, x + size, y + size), fill, "#8d7b55", 0))
        for side in tile.walls:  # a region's border, drawn thick inside the tile's edge
            box = {"n": (x, y, x + size, y + WALL), "s": (x, y + size - WALL, x + size, y + size),
                   "w": (x, y, x + WALL, y + size), "e": (x + size - WALL, y, x + size, y + size)}.get(side)
            if box is not None:
                block.ops.append(("rect", box, WALL_INK, None, 0))
        if tile.shapes:
            block.ops.extend(_shifted(_tile_shapes_at_corner(tile.shapes, size, text), x, y))
        if tile.piece is not None:
            block.ops.extend(piece_ops(piece_shapes(tile.piece, x, y)))
        block.ops.append(("text", (x + 3, y + 8 * size / TILE, tile.label, text, "start", False), ink_on(fill)))
        block.ops.append(("end",))
    return block


#: ``_tile_body``'s answers by (label, fill, walls, id of the shapes, size,
#: text size), each kept with the very shapes it was made from (so their id
#: is not given to another object while it is here): a map's tiles come
#: with the same shapes objects at every turn (their pictures are kept by
#: the game), and hashing every shape of every tile again cost a fifth of
#: a late Taiga map's layout.  Emptied when full
_BODIES: dict[tuple[str, str, str, int, int, int], tuple[Any, tuple[int, tuple[Op, ...]]]] = {}
BODIES = 8192


def _body_of(label: str, fill: str, walls: str, shapes: tuple[Any, ...], size: int,
             text: int) -> tuple[int, tuple[Op, ...]]:
    """``_tile_body(label, fill, walls, shapes, size, text)``, found by the
    shapes' identity before their value."""
    key = (label, fill, walls, id(shapes), size, text)
    found = _BODIES.get(key)
    if found is not None and found[0] is shapes:
        return found[1]
    made = _tile_body(label, fill, walls, shapes, size, text)
    if len(_BODIES) >= BODIES:
        _BODIES.clear()
    _BODIES[key] = (shapes, made)
    return made


#: numbers for the tiles' operations made at (0, 0), never given twice
_TOKENS = itertools.count(1)


@lru_cache(maxsize=4096)
def _tile_body(label: str, fill: str, walls: str, shapes: tuple[Any, ...], size: int,
               text: int) -> tuple[int, tuple[Op, ...]]:
    """A tile without a piece as ``_tiles`` draws it with its corner at
    (0, 0), and a number naming these operations (the group's "recipe": the
    PNG painter keys the tile's sprite by it instead of by every operation)."""
    ops: list[Op] = [("rect", (0, 0, size, size), fill, "#8d7b55", 0)]
    for side in walls:  # a region's border, drawn thick inside the tile's edge
        box = {"n": (0, 0, size, WALL), "s": (0, size - WALL, size, size),
               "w": (0, 0, WALL, size), "e": (size - WALL, 0, size, size)}.get(side)
        if box is not None:
            ops.append(("rect", box, WALL_INK, None, 0))
    if shapes:
        ops.extend(_tile_shapes_at_corner(shapes, size, text))
    ops.append(("text", (3, 8 * size / TILE, label, text, "start", False), ink_on(fill)))
    return next(_TOKENS), tuple(ops)


@lru_cache(maxsize=4096)
def _tile_shapes_at_corner(shapes: tuple[Any, ...], size: int, text: int) -> tuple[Op, ...]:
    """``_tile_shapes`` of a tile whose corner is at (0, 0), kept: a map
    draws the same few tiles many times, and again at every turn."""
    return tuple(_tile_shapes(shapes, 0, 0, size, text))


#: tiles' operations moved to their place, by (token, x, y): a map's tiles
#: mostly stay where they were from one turn to the next.  Emptied when full
#: (the lists are never changed once made)
_PLACED: dict[tuple[int, float, float], list[Op]] = {}
PLACED = 8192


def _placed(token: int, body: Sequence[Op], x: float, y: float) -> list[Op]:
    """``_shifted(body, x, y)`` for the tile body named ``token``, kept."""
    key = (token, x, y)
    found = _PLACED.get(key)
    if found is None:
        if len(_PLACED) >= PLACED:
            _PLACED.clear()
        found = _PLACED[key] = _shifted(body, x, y)
    return found


def _shifted(ops: Sequence[Op], x: float, y: float) -> list[Op]:
    """Operations made at (0, 0) by ``_tile_shapes`` moved to (x, y): the
    same values it gives at (x, y) (x + (0 + a) is x + a)."""
    moved: list[Op] = []
    for op in ops:
        if op[0] == "polygon":
            moved.append(("polygon", [(x + px, y + py) for px, py in op[1]], op[2], op[3]))
        elif op[0] == "circle":
            cx, cy, r = op[1]
            moved.append(("circle", (x + cx, y + cy, r), op[2], op[3]))
        elif op[0] == "rect":
            x0, y0, x1, y1 = op[1]
            moved.append(("rect", (x + x0, y + y0, x + x1, y + y1), *op[2:]))
        else:
            tx, ty, *rest = op[1]
            moved.append(("text", (x + tx, y + ty, *rest), op[2]))
    return moved


def _tile_shapes(shapes: Sequence[Any], x: float, y: float, size: int = TILE, text: int = TILE_TEXT) -> list[Op]:
    """A tile's own picture (``notation.base.TileShape``, in fractions of
    the tile) as operations on the tile of ``size`` pixels whose corner is
    at (x, y), its text ``text`` pixels high."""
    ops: list[Op] = []
    for shape in shapes:
        if shape.kind == "polygon":
            ops.append(("polygon", [(x + px * size, y + py * size) for px, py in shape.data], shape.fill,
                        shape.outline or shape.fill))
        elif shape.kind == "circle":
            cx, cy, r = shape.data
            ops.append(("circle", (x + cx * size, y + cy * size, r * size), shape.fill, shape.outline or shape.fill))
        else:
            tx, ty, label = shape.data
            ops.append(("text", (x + tx * size, y + ty * size, str(label), text, "middle", True), shape.fill))
    return ops


def piece_ops(shapes: list[Shape]) -> list[Op]:
    """``notation.drawing.render._shapes`` output as operations."""
    ops: list[Op] = []
    for shape, data, fill in shapes:
        if shape == "polygon":
            ops.append(("polygon", data, fill, "#1b1b1b"))
        elif shape == "circle":
            ops.append(("circle", data, fill, "#1b1b1b"))
        elif shape == "rect":
            ops.append(("rect", data, fill, None, 0))
        else:
            ops.append(("text", (data[0], data[1], data[2], 16, "middle", True), fill))
    return ops


def _grid(zone: Zone, colour: Colour, piece_shapes: PieceShapes) -> Block:
    diagram: Diagram = zone.items[0]
    cell = TILE
    block = Block(diagram.files * cell, diagram.ranks * cell)
    for rank in range(diagram.ranks):
        for file in range(diagram.files):
            x, y = file * cell, (diagram.ranks - 1 - rank) * cell
            fill = "#f3ead7" if (file + rank) % 2 else "#e6d8b8"
            block.ops.append(("rect", (x, y, x + cell, y + cell), fill, "#b9a77f", 0))
    for (file, rank), piece in sorted(diagram.cells.items()):
        x, y = file * cell, (diagram.ranks - 1 - rank) * cell
        block.ops.append(("group", f"{diagram.square_name(file, rank)}: {piece.kind} {piece.label}"))
        block.ops.extend(piece_ops(piece_shapes(piece, x, y)))
        block.ops.append(("end",))
    return block


# -- drawing -----------------------------------------------------------------
#: Pillow's text anchor for each SVG ``text-anchor`` (else "lm")
ANCHORS = {"middle": "mm", "end": "rm"}


def _n(value: float) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


def svg(ops: list[Op], dx: float, dy: float) -> list[str]:
    """The operations as SVG elements, moved by (dx, dy)."""
    out = []
    for op in _moved(ops, dx, dy):
        if op[0] == "rect":
            (x0, y0, x1, y1), fill, outline, radius = op[1:]
            stroke = f' stroke="{outline}"' if outline else ""
            rx = f' rx="{radius}"' if radius else ""
            out.append(f'<rect x="{_n(x0)}" y="{_n(y0)}" width="{_n(x1 - x0)}" height="{_n(y1 - y0)}"{rx} '
                       f'fill="{fill}"{stroke}/>')
        elif op[0] == "polygon":
            points = " ".join(f"{x:.1f},{y:.1f}" for x, y in op[1])
            out.append(f'<polygon points="{points}" fill="{op[2]}" stroke="{op[3]}" stroke-width="1"/>')
        elif op[0] == "circle":
            cx, cy, r = op[1]
            out.append(f'<circle cx="{_n(cx)}" cy="{_n(cy)}" r="{_n(r)}" fill="{op[2]}" stroke="{op[3]}"/>')
        elif op[0] == "text":
            x, y, text, size, anchor, bold = op[1]
            weight = ' font-weight="bold"' if bold else ""
            out.append(f'<text x="{_n(x)}" y="{_n(y)}" text-anchor="{anchor}" dominant-baseline="central" '
                       f'font-size="{size}"{weight} fill="{op[2]}">{escape(text)}</text>')
        elif op[0] == "group":
            out.append(f"<g><title>{escape(op[1])}</title>")
        else:
            out.append("</g>")
    return out


def png(draw: Any, ops: list[Op], dx: float, dy: float, font: Callable[[int], Any]) -> None:
    """Draw the operations with a Pillow ``ImageDraw``, moved by (dx, dy);
    ``font(size)`` gives a font."""
    for op in _moved(ops, dx, dy):
        if op[0] == "rect":
            box, fill, outline, radius = op[1:]
            if radius:
                draw.rounded_rectangle(box, radius=radius, fill=fill, outline=outline)
            else:
                draw.rectangle(box, fill=fill, outline=outline)
        elif op[0] == "polygon":
            draw.polygon(op[1], fill=op[2], outline=op[3])
        elif op[0] == "circle":
            cx, cy, r = op[1]
            draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=op[2], outline=op[3])
        elif op[0] == "text":
            x, y, text, size, anchor, _ = op[1]
            draw.text((x, y), text, fill=op[2], font=font(size), anchor=ANCHORS.get(anchor, "lm"))
