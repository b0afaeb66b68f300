"""The caches that make a PNG board fast without changing a pixel: each
empty board drawn once, and each piece, stack, card, die, caption line...
drawn once as a sprite and pasted where it goes.

A picture is drawn as groups of operations (``notation.drawing.zones.Op``): a
piece on its square, a zone's group (a stack, a card), a loose line of
text.  ``Painter.paint`` draws a group by pasting its sprite: the group's
operations moved to an even integer origin (so the sprite is the same wherever
the group stands: the fractions of every coordinate are kept), drawn once
on the background it stands on (a square's colour, white), and cropped to
the pixels they change.  The sprite is pasted only where the picture still
shows that plain background under it (only its part on the picture, for
a group that reaches past an edge: a caption line wider than the board),
or anywhere when the group covers
every pixel of its sprite whatever was under it (a map tile: it was drawn
alike on two backgrounds); anywhere else (something drawn there before
it), and for a group whose drawing would not fit its sprite, the group is
drawn directly, as it always was.  Either way the pixels are the
ones direct drawing gives (``tests/test_diagram_sprites.py`` checks every
piece kind on every square, and the stored fingerprints every grid board).

Both caches are bounded LRUs behind a lock, shared by a process's threads;
the images in them are never changed once made (boards are copied before
drawing on them).
"""

from __future__ import annotations

import math
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any, Callable, Hashable

from notation.drawing import zones

#: empty boards kept: one a (game, players, caption lines, and for a map
#: that grows, its size) in play, each at most a few MB (a late Taiga map),
#: most well under 1 MB; and at most ``BOARD_BYTES`` of them.  Mail sends
#: the boards of many games at many sizes, and 32 of them were thrown out
#: and drawn again a few mails later (issue 52, point 6)
BOARDS = 256
BOARD_BYTES = 64 << 20
#: sprites kept: at most about 50 kB each (a Martian Greenhouse stack, a long
#: caption line; Pillow keeps 4 bytes a pixel), most of them about 12 kB (a
#: piece on a square); and at most ``SPRITE_BYTES`` of them.  The boards of
#: every game in play need a few thousand (1,024 were made again and again)
SPRITES = 8192
SPRITE_BYTES = 48 << 20


_MISSING = object()


class LRU:
    """A bounded least-recently-used cache that threads may share."""

    def __init__(self, maxsize: int, max_bytes: int | None = None) -> None:
        self.maxsize = maxsize
        #: at most this many bytes of images kept (``weight``), when given
        self.max_bytes = max_bytes
        self.bytes = 0
        self.hits = self.misses = 0
        self._items: OrderedDict[Hashable, Any] = OrderedDict()
        self._weights: dict[Hashable, int] = {}
        self._lock = threading.Lock()

    def get(self, key: Hashable, make: Callable[..., Any], *args: Any) -> Any:
        """The value for ``key``, made by ``make(*args)`` the first time
        (outside the lock: two threads may both make it, and one is kept)."""
        items = self._items
        # a hit takes no lock: a look-up and a move to the end are each one
        # step for the interpreter, and a map pastes some 150 sprites; a key
        # another thread dropped in between is made again below, as any miss
        value = items.get(key, _MISSING)
        if value is not _MISSING:
            try:
                items.move_to_end(key)
            except KeyError:
                pass
            else:
                self.hits += 1  # counts only: a lost increment under threads changes nothing
                return value
        with self._lock:
            self.misses += 1
        value = make(*args)
        heavy = weight(value)
        with self._lock:
            self.bytes += heavy - self._weights.get(key, 0)
            self._items[key], self._weights[key] = value, heavy
            self._items.move_to_end(key)
            while len(self._items) > 1 and (len(self._items) > self.maxsize
                                            or (self.max_bytes is not None and self.bytes > self.max_bytes)):
                dropped, _ = self._items.popitem(last=False)
                self.bytes -= self._weights.pop(dropped, 0)
        return value

    def peek(self, key: Hashable) -> Any:
        """The value for ``key`` (counted as a hit), or None when there is
        none; nothing is made."""
        value = self._items.get(key, _MISSING)
        if value is _MISSING:
            return None
        try:
            self._items.move_to_end(key)
        except KeyError:  # another thread dropped it just now
            return None
        self.hits += 1
        return value

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
            self._weights.clear()
            self.bytes = self.hits = self.misses = 0

    def info(self) -> dict[str, int]:
        with self._lock:
            return {"hits": self.hits, "misses": self.misses, "size": len(self._items), "maxsize": self.maxsize}


def weight(value: Any) -> int:
    """About how many bytes a cached value holds: Pillow keeps 4 bytes a
    pixel of an image (a board, or a sprite's), and a little for the rest."""
    image = getattr(value, "image", value)
    size = getattr(image, "size", None)
    if isinstance(size, tuple) and len(size) == 2:
        return 4 * int(size[0]) * int(size[1]) + 200
    return 200


boards = LRU(BOARDS, BOARD_BYTES)
sprites = LRU(SPRITES, SPRITE_BYTES)


def cache_info() -> dict[str, dict[str, int]]:
    """Hits, misses and sizes of the board and sprite caches."""
    return {"boards": boards.info(), "sprites": sprites.info()}


def clear() -> None:
    """Empty both caches (benchmarks measure a cold start with it)."""
    boards.clear()
    sprites.clear()


def board(key: Hashable, draw: Callable[[], Any]) -> Any:
    """A copy of the empty board ``key``, drawn by ``draw()`` the first
    time; the copy is the caller's to draw on."""
    return boards.get(key, draw).copy()


#: each thread's canvas, reused from one picture to the next (``canvas``)
_canvases = threading.local()


def canvas(key: Hashable, draw: Callable[[], Any]) -> Any:
    """The empty board ``key`` (drawn by ``draw()`` the first time) on this
    thread's canvas, in its top-left corner: a picture kept by the thread,
    at least as large as the board (it grows to the largest board the
    thread has drawn), overwritten there with the board, so no fresh memory
    is taken for it.  A board is megabytes; a copy of it takes memory that
    other pictures freed and changed in size, and writing to that memory
    again costs more than drawing the whole map (a late Taiga map: 1 ms of
    a 5 ms picture, when other pictures were drawn in between, and as much
    again when the canvas was made anew for each size).  Only the board's
    box, ``(0, 0) + empty.size``, is the picture: what lies beyond it is
    left from earlier pictures (``Painter`` is given that size, and
    ``notation.drawing.png.encode_rgb`` encodes only that box).  The canvas is
    the caller's only until the thread's next call: for a picture encoded
    at once (``notation.drawing.render.render_png``), never one handed out."""
    empty = boards.get(key, draw)
    found = getattr(_canvases, "image", None)
    width, height = empty.size
    if found is None or found.mode != empty.mode or found.width < width or found.height < height:
        size = (width, height) if found is None else (max(width, found.width), max(height, found.height))
        from PIL import Image

        found = _canvases.image = Image.new(empty.mode, size, WHITE)
    found.load()
    if ink(key, empty) is None:  # an all-white board (a map's): filled, not copied (half the memory read)
        found.im.paste(WHITE, (0, 0, width, height))
    else:
        found.im.paste(empty.im, (0, 0, width, height))  # the board's pixels over the last picture's
    return found


@dataclass(frozen=True)
class Sprite:
    """A group drawn on its background: ``image`` (None when the group
    draws nothing) goes at ``(dx, dy)`` from the group's integer origin."""

    image: Any
    dx: int
    dy: int
    #: the group covers every pixel of ``image`` whatever was under it (it
    #: drew the same pixels on two different backgrounds): pasted anywhere
    opaque: bool = False
    #: ``image.im`` and ``image.size``, read once (Pillow's ``im`` is a property)
    core: Any = field(default=None, init=False, repr=False, compare=False)
    size: tuple[int, int] = field(default=(0, 0), init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        if self.image is not None:
            object.__setattr__(self, "core", self.image.im)
            object.__setattr__(self, "size", self.image.size)


def _freeze(op: zones.Op) -> zones.Op:
    return (op[0], tuple(op[1]), *op[2:]) if op[0] == "polygon" else tuple(op)


def _local(ops: list[zones.Op], dx: float, dy: float, ox: int, oy: int) -> tuple[zones.Op, ...]:
    """The operations moved by (dx, dy), then by (-ox, -oy) to their sprite's
    origin, frozen (hashable): in one pass, the same values as
    ``zones.moved`` twice."""
    local: list[zones.Op] = []
    for op in ops:
        kind = op[0]
        if kind == "rect":
            x0, y0, x1, y1 = op[1]
            local.append(("rect", (x0 + dx - ox, y0 + dy - oy, x1 + dx - ox, y1 + dy - oy), *op[2:]))
        elif kind == "polygon":
            local.append(("polygon", tuple((x + dx - ox, y + dy - oy) for x, y in op[1]), *op[2:]))
        elif kind == "circle":
            cx, cy, r = op[1]
            local.append(("circle", (cx + dx - ox, cy + dy - oy, r), *op[2:]))
        elif kind == "text":
            x, y, *rest = op[1]
            local.append(("text", (x + dx - ox, y + dy - oy, *rest), op[2]))
        else:
            local.append(_freeze(op))
    return tuple(local)


def _anchor(op: zones.Op) -> tuple[float, float]:
    if op[0] == "rect":
        return op[1][0], op[1][1]
    if op[0] == "polygon":
        x, y = op[1][0]
        return x, y
    return op[1][0], op[1][1]


def _make(ops: tuple[zones.Op, ...], background: tuple[int, int, int], font: Callable[[int], Any]) -> Sprite | None:
    """The sprite of ``ops`` (at their integer origin) on ``background``;
    None when their drawing reaches the edge of the room it was given.  The
    group is drawn a second time on another background: where the two
    drawings agree on every pixel of the sprite, the sprite is opaque."""
    from PIL import Image, ImageChops, ImageDraw

    found = zones.bounds(ops, font)
    if found is None:  # nothing drawn that has a size: drawn as it is, not as a sprite
        return None
    x0, y0, x1, y1 = found
    left, top = math.floor(x0) - 3, math.floor(y0) - 3
    left, top = left - left % 2, top - top % 2  # even: see ``Painter.paint``
    size = (math.ceil(x1) + 4 - left, math.ceil(y1) + 4 - top)
    canvas = Image.new("RGB", size, background)
    zones.png(ImageDraw.Draw(canvas), list(ops), -left, -top, font)
    ink = ImageChops.difference(canvas, Image.new("RGB", size, background)).getbbox()
    if ink is None:
        return Sprite(None, 0, 0)
    if ink[0] == 0 or ink[1] == 0 or ink[2] == size[0] or ink[3] == size[1]:
        return None
    other = tuple(255 - c if abs(255 - 2 * c) > 64 else (c + 128) % 256 for c in background)
    second = Image.new("RGB", size, other)
    zones.png(ImageDraw.Draw(second), list(ops), -left, -top, font)
    opaque = ImageChops.difference(canvas.crop(ink), second.crop(ink)).getbbox() is None
    return Sprite(canvas.crop(ink), left + ink[0], top + ink[1], opaque)


WHITE = (255, 255, 255)
#: ``Painter``'s ``ink`` when nothing is known of the picture it starts with
UNKNOWN = ("unknown",)
#: painted boxes a painter compares a box with before it crops the picture
#: instead (``Painter._untouched``)
BOXES_COMPARED = 64
#: the ink of the empty boards measured so far (``ink``), by board key
_inks: dict[Hashable, tuple[int, int, int, int] | None] = {}


def ink(key: Hashable, empty: Any) -> tuple[int, int, int, int] | None:
    """The box holding every pixel of the empty board ``key`` (``empty``,
    or a copy of it not yet drawn on) that is not white; None when it is
    all white (a picture of zones only).  Measured once per board."""
    try:
        return _inks[key]
    except KeyError:  # not measured yet (or another thread just emptied _inks)
        pass
    from PIL import Image, ImageChops

    found = ImageChops.difference(empty, Image.new(empty.mode, empty.size, WHITE)).getbbox()
    if len(_inks) >= 4 * BOARDS:
        _inks.clear()
    _inks[key] = found
    return found


class Painter:
    """Draws groups of operations on one picture, from sprites when it can.

    A group whose sprite is not opaque is pasted only where the picture
    still shows its plain background.  When the painter is told where the
    picture's ``ink`` was when it began (``ink(key, empty)``: the box of
    every pixel that is not white, None for none), it knows a white box
    that meets neither that ink nor anything it pasted since is still
    white, without cropping the picture to look (a Martian Greenhouse
    board: half its time went in looking)."""

    def __init__(self, image: Any, font: Callable[[int], Any], ink: Any = UNKNOWN,
                 size: tuple[int, int] | None = None) -> None:
        from PIL import ImageDraw

        self.image = image
        self.font = font
        self.draw = ImageDraw.Draw(image)  # loads the picture and makes it writable
        self.core = image.im  # pasted on directly: ``Image.paste``'s checks cost more than the copy
        # the picture is the box (0, 0, width, height) of ``image``: all of it
        # unless ``size`` says less (a thread's canvas, ``canvas``)
        self.width: int
        self.height: int
        self.width, self.height = image.size if size is None else size
        self.ink = ink
        self.pasted: list[tuple[int, int, int, int]] = []  # every box pasted since, while ``ink`` is known
        self.bottom = 0  # where the lowest of them ends

    def _sprite(self, ops: list[zones.Op], dx: float, dy: float, ox: int, oy: int,
                background: tuple[int, int, int]) -> Sprite | None:
        return _make(_local(ops, dx, dy, ox, oy), background, self.font)

    def _untouched(self, box: tuple[int, int, int, int]) -> bool:
        """Whether ``box`` surely still shows the white it began with: it
        meets neither the picture's first ink nor a box pasted since."""
        if self.ink is UNKNOWN:
            return False
        left, top, right, bottom = box
        first = self.ink
        if first is not None and left < first[2] and first[0] < right and top < first[3] and first[1] < bottom:
            return False
        if top >= self.bottom:  # below everything pasted (a caption under the board)
            return True
        if len(self.pasted) > BOXES_COMPARED:
            return False  # comparing costs more than looking
        return not any(left < r and x < right and top < b and t < bottom for x, t, r, b in self.pasted)

    def _paste(self, core: Any, box: tuple[int, int, int, int]) -> None:
        self.core.paste(core, box)
        if self.ink is not UNKNOWN:
            self.pasted.append(box)
            if box[3] > self.bottom:
                self.bottom = box[3]

    def _pasted_opaque(self, background: tuple[int, int, int], token: Any, x: float, y: float) -> bool:
        """The quick way for a group made from a recipe (a map's tile: most
        of a late Taiga map's groups) whose sprite is cached, opaque and
        wholly on the picture: pasted, and True; else False and nothing
        done (``paint`` goes the whole way)."""
        ox, oy = 2 * math.floor(x / 2), 2 * math.floor(y / 2)
        sprite = sprites.peek((background, token, x - ox, y - oy))
        if sprite is None or not sprite.opaque or sprite.core is None:
            return False
        left, top = ox + sprite.dx, oy + sprite.dy
        width, height = sprite.size
        if left < 0 or top < 0 or left + width > self.width or top + height > self.height:
            return False
        self._paste(sprite.core, (left, top, left + width, top + height))
        return True

    def paint(self, ops: list[zones.Op], background: tuple[int, int, int], dx: float = 0, dy: float = 0,
              marker: zones.Op | None = None) -> None:
        """Draw ``ops`` (one group) moved by (dx, dy), on a picture that
        should show ``background`` (RGB) under them.  A ``marker`` with a
        recipe (``("group", title, token, x, y)``: the operations made once at
        (0, 0), now with their corner at (x, y)) keys the sprite by the token
        and the corner's place between even pixels, not by every operation."""
        if marker is not None and len(marker) == 5:
            x, y = marker[3], marker[4]
            if self._pasted_opaque(background, marker[2], x + dx, y + dy):
                return
        else:
            x, y = _anchor(ops[0])
            marker = None
        # moved by even numbers only: Pillow rounds some halves to even
        # (rounded corners), so an odd move may change a pixel
        ox, oy = 2 * math.floor((x + dx) / 2), 2 * math.floor((y + dy) / 2)
        if marker is not None:
            key: Hashable = (background, marker[2], x + dx - ox, y + dy - oy)
        else:
            key = (background, _local(ops, dx, dy, ox, oy))
        sprite = sprites.get(key, self._sprite, ops, dx, dy, ox, oy, background)
        if sprite is not None and sprite.image is None:
            return
        if sprite is not None:
            left, top = ox + sprite.dx, oy + sprite.dy
            width, height = sprite.size
            box = (left, top, left + width, top + height)
            core = sprite.core
            inside = left >= 0 and top >= 0 and box[2] <= self.width and box[3] <= self.height
            if not inside:  # partly off the picture (a caption line wider than the board): its visible part
                seen = (max(left, 0), max(top, 0), min(box[2], self.width), min(box[3], self.height))
                if seen[0] < seen[2] and seen[1] < seen[3]:
                    core = sprite.image.crop((seen[0] - left, seen[1] - top, seen[2] - left, seen[3] - top)).im
                    box, inside = seen, True
            if inside and (sprite.opaque or (background == WHITE and self._untouched(box))):
                self._paste(core, box)
                return
            if inside:
                found = self.image.crop(box).getcolors(1)  # None: more than one colour
                if found is not None and found[0][1] == background:
                    self._paste(core, box)
                    return
        self.ink = UNKNOWN  # drawn directly, somewhere: from here on, look before pasting
        zones.png(self.draw, ops, dx, dy, self.font)
