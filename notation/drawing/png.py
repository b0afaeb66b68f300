"""A fast PNG encoder for the board pictures of ``notation.drawing.render``.

Boards are flat colours: long runs of one pixel, rows repeated down a
square.  Pillow's encoder tries every PNG filter on every row (and, with
``optimize=True``, compresses at zlib's slowest level), which cost four
fifths of a board's time for files a few kilobytes smaller.  Here every row
keeps filter 0 (none) and the rows are deflated once at ``LEVEL``: the same
pixels, losslessly, in a fraction of the time.

Deflating is then most of the cost (3 ms for a late Taiga map of 630 by 840
pixels), so it is done by ISA-L (the ``isal`` package, a dependency) when it
is installed: the same zlib stream format, about eight times as fast, files
of the same size.  Without it, zlib does it.  ``portable=True`` always uses
zlib, for files that must come out byte for byte the same on every machine
(the docs' tile pictures, which a test compares).
"""

from __future__ import annotations

import struct
import zlib
from types import ModuleType
from typing import Any

_fast_zlib: ModuleType | None
try:  # ISA-L's deflate: the same format, several times as fast
    from isal import isal_zlib as _fast_zlib
except ImportError:  # pragma: no cover - isal is a dependency; zlib still works
    _fast_zlib = None

#: zlib level: 1-3 are zlib's fast matcher.  At 3 a board file is 1.2 to
#: 1.8 times the size Pillow's ``optimize=True`` made (8 to 27 kB for the
#: hosted games' boards, from 6 to 23 kB); level 6 comes within a fifth of
#: those sizes but costs a Martian Greenhouse board as much again.
LEVEL = 3
#: ISA-L's level (0-3; 1 and 2 are its fast ones, files as small as zlib's at 3)
FAST_LEVEL = 1
SIGNATURE = b"\x89PNG\r\n\x1a\n"
#: rows deflated at a time (about 120 kB of a 630-pixel-wide picture: under
#: the size from which memory is fresh from the system at every request)
BAND = 64


def _chunk(tag: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data))


def encode_rgb(image: Any, level: int = LEVEL, portable: bool = False,
               size: tuple[int, int] | None = None) -> bytes:
    """The PNG file of a Pillow image in mode "RGB" (8 bits a channel, no
    filter, not interlaced), deflated by ISA-L when it is installed, unless
    ``portable`` (then by zlib at ``level``: the same bytes everywhere).
    With ``size``, the picture is only the box ``(0, 0) + size`` of
    ``image`` (a thread's canvas, larger than the board drawn on it)."""
    if image.mode != "RGB":
        raise ValueError(f"encode_rgb takes an RGB image, not {image.mode}")
    from PIL import Image

    width, height = image.size if size is None else size
    if width > image.width or height > image.height or width < 1 or height < 1:
        raise ValueError(f"encode_rgb: a box of {width}x{height} does not fit an image of {image.width}x{image.height}")
    stride = 3 * width
    squeeze = _compressor(level, portable)
    # band by band: a whole late map's pixels at once (1.6 MB, twice) were
    # fresh memory at every picture, and writing to it cost more than
    # deflating.  Pillow's raw encoder (what ``tobytes`` uses) hands out
    # whole rows, BAND at a time
    image.load()
    rows = Image._getencoder("RGB", "raw", ("RGB", 0, 1))
    rows.setimage(image.im, (0, 0, width, height))
    out = []
    done = 0
    while not done:
        _, done, raw = rows.encode(stride * BAND)
        if done < 0 or len(raw) % stride:  # never seen; a corrupt picture otherwise
            raise ValueError(f"Pillow's raw encoder failed ({done}) or split a row")
        # each row after its filter byte: the rows joined with a 0 between
        # them, after the band's first filter byte (no row copied first)
        view = memoryview(raw)
        out.append(squeeze.compress(b"\x00"))
        out.append(squeeze.compress(b"\x00".join([view[start:start + stride]
                                                   for start in range(0, len(raw), stride)])))
    out.append(squeeze.flush())
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (SIGNATURE + _chunk(b"IHDR", header) + _chunk(b"IDAT", b"".join(out)) + _chunk(b"IEND", b""))


def _compressor(level: int = LEVEL, portable: bool = False) -> Any:
    """A zlib stream compressor: ISA-L's (at ``FAST_LEVEL``) when it is
    installed and not ``portable``, else zlib's at ``level``."""
    if _fast_zlib is not None and not portable:
        return _fast_zlib.compressobj(FAST_LEVEL)
    return zlib.compressobj(level)
