"""A fast PNG encoder for the board pictures of ``pbem.diagrams``.

Boards are flat colours: long runs of one pixel, rows repeated down a
square.  Pillow's encoder tries every PNG filter on every row (and, with
``optimize=True``, compresses at zlib's slowest level), which cost four
fifths of a board's time for files a few kilobytes smaller.  Here every row
keeps filter 0 (none) and the rows are deflated once at ``LEVEL``: the same
pixels, losslessly, in a fraction of the time.
"""

from __future__ import annotations

import struct
import zlib
from typing import Any

#: zlib level: 1-3 are zlib's fast matcher.  At 3 a board file is 1.2 to
#: 1.8 times the size Pillow's ``optimize=True`` made (8 to 27 kB for the
#: hosted games' boards, from 6 to 23 kB); level 6 comes within a fifth of
#: those sizes but costs a Martian Greenhouse board as much again.
LEVEL = 3
SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _chunk(tag: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data))


def encode_rgb(image: Any, level: int = LEVEL) -> bytes:
    """The PNG file of a Pillow image in mode "RGB" (8 bits a channel, no
    filter, not interlaced)."""
    if image.mode != "RGB":
        raise ValueError(f"encode_rgb takes an RGB image, not {image.mode}")
    width, height = image.size
    raw = memoryview(image.tobytes())
    stride = 3 * width
    # each row after its filter byte 0: the rows joined by b"\x00", one before the first (no copy of a row)
    rows = b"\x00".join([b""] + [raw[i:i + stride] for i in range(0, len(raw), stride)])
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (SIGNATURE + _chunk(b"IHDR", header) + _chunk(b"IDAT", zlib.compress(rows, level))
            + _chunk(b"IEND", b""))
