"""Board diagrams for every game: one SVG renderer (web), one PNG renderer
(email) and the notation's text diagram (plain-text email), all drawn from
the game's ``notation.base.Diagram`` without knowing the game.  Rendered
diagrams are cached per (game, options, position, format), and a PNG is
drawn from cached pieces (``notation.drawing.sprites``, ``docs/diagrams.md``).

A piece is drawn by the look of its kind (``notation.base.PieceLook``: a
pyramid, a disc, a square or its label), which the game that uses the kind
declares (``Notation.piece_looks``) or which every game shares (the
Icehouse pyramid, ``notation.base.SHARED_LOOKS``): the renderer names no
game's pieces, and a kind no game declares is drawn as its label.  A piece
with its own ``colour`` is drawn in it instead of its player's.  Players 1-8 have the colours of
``notation.base.PLAYER_COLOURS``; a diagram with ``players`` set gets a
legend naming them.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any, Callable, Hashable, Mapping
from xml.sax.saxutils import escape

from engine.i18n import current_language, translate
from notation import registry
from notation.base import PLAYER_COLOURS as _PALETTE
from notation.base import SHARED_LOOKS, Diagram, Piece, PieceLook, player_colour
from notation.drawing import png as png_encode
from notation.drawing import sprites, zones

CELL = 56
MARGIN = 26  # room for the rank numbers (left) and files (below)
LINE = 18  # caption line height
PLAYER_COLOURS = tuple(c.css for c in _PALETTE)
NEUTRAL = "#6b6b6b"
BOARD_LIGHT = "#f3ead7"
BOARD_DARK = "#e6d8b8"
INK = "#222222"
FORMATS = {"svg": "image/svg+xml", "png": "image/png", "txt": "text/plain; charset=utf-8"}


def colour(player: int | None) -> str:
    return NEUTRAL if player is None else PLAYER_COLOURS[player % len(PLAYER_COLOURS)]


def _fill(piece: Piece) -> str:
    """The piece's own colour when it has one, else its player's."""
    return piece.colour or colour(piece.player)


SWATCH = 84  # width of one entry of the player legend


def _legend_rows(diagram: Diagram, width: int) -> list[list[int]]:
    """The player legend's entries (0-based players), row by row."""
    per_row = max(1, (width - 8) // SWATCH)
    players = list(range(diagram.players))
    return [players[i:i + per_row] for i in range(0, len(players), per_row)]


def _size(diagram: Diagram) -> tuple[int, int]:
    width, height, _, _, _ = _layout(diagram)
    return width, height


def _layout(diagram: Diagram) -> tuple[int, int, zones.Block | None, int, int]:
    """Width, height, the zones laid out, where they start and where the
    caption starts (a board without zones is laid out as it always was)."""
    width = MARGIN + diagram.files * CELL + 8 if diagram.has_grid else 0
    bottom = 8 + diagram.ranks * CELL + MARGIN if diagram.has_grid else 0
    block, zones_top = None, bottom + 8
    if diagram.zones:
        block = zones.layout(diagram.zones, colour, _shapes)
        width = max(width, int(block.width) + 16, 240)
        bottom = zones_top + int(block.height)
    height = bottom + LINE * len(diagram.caption) + (6 if diagram.caption else 0)
    if diagram.players:
        height += LINE * len(_legend_rows(diagram, width)) + 6
    return width, height, block, zones_top, bottom + 6


def _legend_shapes(diagram: Diagram, width: int, top: float) -> list[tuple[str, Any, str]]:
    """The player legend under the caption: a swatch and "5 purple" each."""
    shapes: list[tuple[str, Any, str]] = []
    y = top + 6
    for row in _legend_rows(diagram, width):
        for index, player in enumerate(row):
            x = 4 + index * SWATCH
            shapes.append(("rect", (x, y + 3, x + 12, y + 15), colour(player)))
            name = translate(player_colour(player).name)  # the reader's language (the games' catalogue)
            shapes.append(("label", (x + 16, y + LINE / 2, f"{player + 1} {name}"), INK))
        y += LINE
    return shapes


def _origin(diagram: Diagram, file: int, rank: int) -> tuple[int, int]:
    """Top-left corner of a square; rank 1 at the bottom."""
    return MARGIN + file * CELL, 8 + (diagram.ranks - 1 - rank) * CELL


#: how a kind that no game gives a look is drawn
_AS_LABEL = PieceLook("label")


def piece_look(kind: str) -> PieceLook:
    """How pieces of ``kind`` are drawn: the look the registered games (or
    the shared looks) give it, else its label.  ``ValueError`` when two
    games give it different looks."""
    found = _looks(tuple(registry.all_names())).get(kind, _AS_LABEL)
    if isinstance(found, str):
        raise ValueError(found)
    return found


@lru_cache(maxsize=8)
def _looks(names: tuple[str, ...]) -> dict[str, PieceLook | str]:
    """The shared looks and every registered game's, by kind; a kind given
    two different looks maps to the error naming who gave them.  A game
    whose plug-in cannot be loaded gives none (using it says why)."""
    found: dict[str, PieceLook | str] = dict(SHARED_LOOKS)
    givers = {kind: "notation.base.SHARED_LOOKS" for kind in SHARED_LOOKS}
    for name in names:
        try:
            looks = registry.get_any(name).notation.piece_looks
        except registry.GameLoadError:
            continue
        for kind, look in looks.items():
            if kind not in found:
                found[kind], givers[kind] = look, name
            elif found[kind] != look:
                found[kind] = (f"the piece kind {kind!r} is given two looks, by {givers[kind]} and by {name}; "
                               "a kind is drawn the same way in every game: give it another name")
    return found


def _look_fill(look: PieceLook, piece: Piece) -> str:
    """The look's own fill, else the piece's colour, else its player's, else the look's neutral one."""
    if look.fill:
        return look.fill
    if piece.colour or piece.player is not None:
        return _fill(piece)
    return look.neutral or NEUTRAL


def _shapes(piece: Piece, x: float, y: float) -> list[zones.Shape]:
    """The piece as simple shapes, by the look of its kind: ("polygon",
    points, fill), ("circle", (cx, cy, r), fill), ("rect", (x0, y0, x1,
    y1), fill), ("text", (cx, cy, text), fill)."""
    cx, cy = x + CELL / 2, y + CELL / 2
    look = piece_look(piece.kind)
    shapes: list[tuple[str, Any, str]] = []
    if look.shape == "pyramid":
        size = max(1, min(3, piece.size))
        half = 8 + 5 * size
        height = 14 + 9 * size
        base = cy + height / 2
        fill = _look_fill(look, piece)
        if piece.lying:  # laid down, pointing right: its base stands upright on the left
            left = cx - height / 2
            shapes.append(("polygon", [(left, cy - half), (left, cy + half), (left + height, cy)], fill))
        else:
            shapes.append(("polygon", [(cx - half, base), (cx + half, base), (cx, base - height)], fill))
        if piece.marked:
            shapes.append(("circle", (x + CELL - 12, y + 12, 7), colour(piece.player) if piece.player is not None else "#b71c1c"))
    elif look.shape == "disc":
        shapes.append(("circle", (cx, cy, look.size), _look_fill(look, piece)))
    elif look.shape == "square":
        inset = look.size
        shapes.append(("rect", (x + inset, y + inset, x + CELL - inset, y + CELL - inset), _look_fill(look, piece)))
    if look.shape == "label":
        shapes.append(("text", (cx, cy, piece.label), INK))
    elif look.label is not None:
        shapes.append(("text", (cx, cy, piece.label), look.label))
    return shapes


def _describe(diagram: Diagram, file: int, rank: int, piece: Piece) -> str:
    who = "" if piece.player is None else f" of player {piece.player + 1}"
    mark = " (marked)" if piece.marked else ""
    return f"{diagram.square_name(file, rank)}: {piece.kind} {piece.label}{who}{mark}"


# -- SVG ---------------------------------------------------------------------
def render_svg(diagram: Diagram) -> str:
    width, height, block, zones_top, caption_top = _layout(diagram)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" role="img" font-family="sans-serif">',
        f"<title>{escape(diagram.caption[0] if diagram.caption else 'board')}</title>",
        f'<rect width="{width}" height="{height}" fill="#ffffff"/>',
    ]
    for rank in range(diagram.ranks):
        for file in range(diagram.files):
            x, y = _origin(diagram, file, rank)
            fill = BOARD_LIGHT if (file + rank) % 2 else BOARD_DARK
            out.append(f'<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="{fill}" stroke="#b9a77f"/>')
        _, y = _origin(diagram, 0, rank)
        out.append(f'<text x="{MARGIN / 2}" y="{y + CELL / 2}" text-anchor="middle" dominant-baseline="central" '
                   f'font-size="13" fill="{INK}">{rank + 1}</text>')
    for file in range(diagram.files):
        x, _ = _origin(diagram, file, 0)
        out.append(f'<text x="{x + CELL / 2}" y="{8 + diagram.ranks * CELL + MARGIN / 2}" text-anchor="middle" '
                   f'dominant-baseline="central" font-size="13" fill="{INK}">{chr(ord("a") + file)}</text>')
    for (file, rank), piece in sorted(diagram.cells.items()):
        x, y = _origin(diagram, file, rank)
        out.append(f"<g><title>{escape(_describe(diagram, file, rank, piece))}</title>")
        for shape, data, fill in _shapes(piece, x, y):
            if shape == "polygon":
                points = " ".join(f"{px:.1f},{py:.1f}" for px, py in data)
                out.append(f'<polygon points="{points}" fill="{fill}" stroke="#1b1b1b" stroke-width="1"/>')
            elif shape == "circle":
                out.append(f'<circle cx="{data[0]}" cy="{data[1]}" r="{data[2]}" fill="{fill}" stroke="#1b1b1b"/>')
            elif shape == "rect":
                out.append(f'<rect x="{data[0]}" y="{data[1]}" width="{data[2] - data[0]}" height="{data[3] - data[1]}" fill="{fill}"/>')
            else:
                out.append(f'<text x="{data[0]}" y="{data[1]}" text-anchor="middle" dominant-baseline="central" '
                           f'font-size="16" font-weight="bold" fill="{fill}">{escape(data[2])}</text>')
        out.append("</g>")
    if block is not None:
        out.extend(zones.svg(block.ops, 8, zones_top))
    y = caption_top
    for line in diagram.caption:
        out.append(f'<text x="4" y="{y + LINE / 2}" dominant-baseline="central" font-size="13" fill="{INK}">{escape(line)}</text>')
        y += LINE
    for shape, data, fill in _legend_shapes(diagram, width, y) if diagram.players else ():
        if shape == "rect":
            out.append(f'<rect x="{data[0]}" y="{data[1]}" width="{data[2] - data[0]}" height="{data[3] - data[1]}" '
                       f'fill="{fill}" stroke="#1b1b1b"/>')
        else:
            out.append(f'<text x="{data[0]}" y="{data[1]}" dominant-baseline="central" font-size="13" '
                       f'fill="{fill}">{escape(data[2])}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


# -- PNG ---------------------------------------------------------------------
WHITE = sprites.WHITE


def _rgb(css: str) -> tuple[int, int, int]:
    return int(css[1:3], 16), int(css[3:5], 16), int(css[5:7], 16)


def _draw_board(diagram: Diagram, width: int, height: int) -> Any:
    """The picture with the empty board on it: squares, ranks and files."""
    from PIL import Image, ImageDraw, ImageFont

    image = Image.new("RGB", (width, height), "#ffffff")
    draw = ImageDraw.Draw(image)
    font = _font(ImageFont, 13)
    for rank in range(diagram.ranks):
        for file in range(diagram.files):
            x, y = _origin(diagram, file, rank)
            fill = BOARD_LIGHT if (file + rank) % 2 else BOARD_DARK
            draw.rectangle((x, y, x + CELL, y + CELL), fill=fill, outline="#b9a77f")
        _, y = _origin(diagram, 0, rank)
        draw.text((MARGIN / 2, y + CELL / 2), str(rank + 1), fill=INK, font=font, anchor="mm")
    for file in range(diagram.files):
        x, _ = _origin(diagram, file, 0)
        draw.text((x + CELL / 2, 8 + diagram.ranks * CELL + MARGIN / 2), chr(ord("a") + file), fill=INK, font=font, anchor="mm")
    return image


def _groups(diagram: Diagram, width: int, block: zones.Block | None, zones_top: int,
            caption_top: int) -> list[tuple[list[zones.Op], tuple[int, int, int], tuple[int, int], zones.Op | None]]:
    """Everything drawn over the empty board, in drawing order, as groups of
    operations, each with the background it stands on, the move that puts
    it in place (the zones' groups are laid out from (0, 0)) and its "group"
    marker (None when it has none)."""
    found: list[tuple[list[zones.Op], tuple[int, int, int], tuple[int, int], zones.Op | None]] = []
    for (file, rank), piece in sorted(diagram.cells.items()):
        x, y = _origin(diagram, file, rank)
        square = _rgb(BOARD_LIGHT if (file + rank) % 2 else BOARD_DARK)
        found.append((zones.piece_ops(_shapes(piece, x, y)), square, (0, 0), None))
    if block is not None:
        found.extend((group, WHITE, (8, zones_top), marker) for marker, group in zones.marked_groups(block.ops))
    y = caption_top
    for line in diagram.caption:
        found.append(([("text", (4, y + LINE / 2, line, 13, "start", False), INK)], WHITE, (0, 0), None))
        y += LINE
    for shape, data, fill in _legend_shapes(diagram, width, y) if diagram.players else ():
        if shape == "rect":
            found.append(([("rect", data, fill, "#1b1b1b", 0)], WHITE, (0, 0), None))
        else:
            found.append(([("text", (data[0], data[1], data[2], 13, "start", False), fill)], WHITE, (0, 0), None))
    return found


#: blocks of image memory Pillow keeps for the next image once one is freed
#: (its default keeps none): a board is a fresh image of up to a few MB,
#: and taking that memory from the system again for every picture cost a
#: third of an Alheimur board's time.  Boards are at most about 4 MB
#: (Pillow keeps 4 bytes a pixel), so this keeps at most about 32 MB.
IMAGE_BLOCKS_KEPT = 8


@lru_cache(maxsize=1)
def _keep_image_memory() -> None:
    """Let Pillow keep ``IMAGE_BLOCKS_KEPT`` freed blocks (more if
    ``PILLOW_BLOCKS_MAX`` asked for more), once per process."""
    # Image.core (the same module), which PIL.Image does not export to the type checker
    from PIL import _imaging as core

    if core.get_blocks_max() < IMAGE_BLOCKS_KEPT:
        core.set_blocks_max(IMAGE_BLOCKS_KEPT)


def png_image(diagram: Diagram, cached: bool = True) -> Any:
    """The diagram as a Pillow RGB image.  ``cached`` draws it from the
    cached empty board and sprites (``notation.drawing.sprites``); without it
    every shape is drawn directly.  Both give the same pixels."""
    from PIL import ImageDraw

    if cached:
        return _painted(diagram, sprites.board)[0]
    _keep_image_memory()
    width, height, block, zones_top, caption_top = _layout(diagram)
    image = _draw_board(diagram, width, height)
    draw = ImageDraw.Draw(image)
    for ops, _, (dx, dy), _ in _groups(diagram, width, block, zones_top, caption_top):
        zones.png(draw, ops, dx, dy, _sized_font)
    return image


def _painted(diagram: Diagram, take: Callable[[Hashable, Callable[[], Any]], Any]) -> tuple[Any, tuple[int, int]]:
    """The diagram drawn from the cached empty board and sprites on the
    image ``take(key, draw)`` gives (a copy of the empty board, or the
    thread's canvas with the board in its top-left corner), and the size
    of the picture: the box ``(0, 0) + size`` of that image."""
    _keep_image_memory()
    width, height, block, zones_top, caption_top = _layout(diagram)
    key = (diagram.files, diagram.ranks, width, height)
    draw = lambda: _draw_board(diagram, width, height)  # noqa: E731 - named for the cache key beside it
    image = take(key, draw)
    painter = sprites.Painter(image, _sized_font, sprites.ink(key, sprites.boards.get(key, draw)),
                              (width, height))
    for ops, background, (dx, dy), marker in _groups(diagram, width, block, zones_top, caption_top):
        painter.paint(ops, background, dx, dy, marker)
    return image, (width, height)


def render_png(diagram: Diagram) -> bytes:
    """The diagram as a PNG file (``notation.drawing.png``), drawn on the
    thread's reused canvas (``diagram_sprites.canvas``): it is encoded at
    once and never handed out."""
    image, size = _painted(diagram, sprites.canvas)
    return png_encode.encode_rgb(image, size=size)


def _sized_font(size: int) -> Any:
    from PIL import ImageFont

    return _font(ImageFont, size)


@lru_cache(maxsize=16)
def _font(image_font: Any, size: int) -> Any:
    """Pillow's default font at ``size`` pixels, loaded once."""
    try:
        return image_font.load_default(size=size)
    except TypeError:  # Pillow without FreeType sizes
        return image_font.load_default()


# -- cached, by position -------------------------------------------------------
def render(game: str, options: Mapping[str, str], position: str, fmt: str) -> str | bytes:
    """The diagram of ``position`` in ``fmt`` ("svg", "png" or "txt"),
    cached.  Raises ``PbemError`` for a bad position, ``KeyError`` for an
    unknown format."""
    if fmt not in FORMATS:
        raise KeyError(fmt)
    return _render(game, tuple(sorted((str(k), str(v)) for k, v in options.items())), position, fmt,
                   current_language())


@lru_cache(maxsize=1024)
def _render(game: str, options: tuple[tuple[str, str], ...], position: str, fmt: str,
            language: str) -> str | bytes:
    """``render_fresh``, kept per language too: a game's captions may be
    in the language of the moment (Taiga's are)."""
    return render_fresh(game, dict(options), position, fmt)


def render_fresh(game: str, options: Mapping[str, str], position: str, fmt: str) -> str | bytes:
    """What ``render`` gives, drawn now rather than taken from the cache of
    rendered positions (the PNG's empty board and sprites still come from
    theirs): what a new position costs, as the benchmarks measure it."""
    if fmt not in FORMATS:
        raise KeyError(fmt)
    notation = registry.get(game).notation
    state = notation.parse_position(position, dict(options))
    if fmt == "txt":
        return notation.text_diagram(state) + "\n"
    diagram = notation.diagram(state)
    return render_svg(diagram) if fmt == "svg" else render_png(diagram)


def cache_info() -> Any:
    """Hits and misses of the cache of rendered positions (the PNG's board
    and sprite caches: ``notation.drawing.sprites.cache_info``)."""
    return _render.cache_info()
