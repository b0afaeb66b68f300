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
    filter, not interlaced).  The pixels are read and deflated ``BAND_ROWS``
    rows at a time: a copy of the whole picture (a board is up to a few MB)
    costs more, in memory taken from the system, than the deflating."""
    if image.mode != "RGB":
        raise ValueError(f"encode_rgb takes an RGB image, not {image.mode}")
    width, height = image.size
    stride = 3 * width
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (SIGNATURE + _chunk(b"IHDR", header) + _chunk(b"IDAT", _deflated_rows(image, stride, level))
            + _chunk(b"IEND", b""))


#: rows read and deflated at a time (about 60 kB for a board 300 pixels wide)
BAND_ROWS = 64


def _deflated_rows(image: Any, stride: int, level: int) -> bytes:
    """Every row of ``image`` after its filter byte 0, deflated: read with
    Pillow's raw encoder a band of rows at a time."""
    from PIL import Image

    image.load()
    if not stride or not image.size[1]:
        return zlib.compress(b"", level)
    encoder = Image._getencoder("RGB", "raw", "RGB")
    compressor = zlib.compressobj(level)
    out: list[bytes] = []
    carry = b""
    try:
        encoder.setimage(image.im, (0, 0, *image.size))
        while True:
            _, status, data = encoder.encode(max(BAND_ROWS * stride, 65536))
            if carry:
                data, carry = carry + data, b""
            whole = len(data) - len(data) % stride  # the encoder gives whole rows; a part row waits, to be sure
            view = memoryview(data)
            if whole:  # the rows joined by b"\x00", one before the first: no copy of each row
                out.append(compressor.compress(b"\x00".join([b""] + [view[i:i + stride]
                                                                      for i in range(0, whole, stride)])))
            carry = bytes(view[whole:])
            if status:
                break
        if status < 0:
            raise RuntimeError(f"encoder error {status} reading the picture")
    finally:
        encoder.cleanup()
    out.append(compressor.flush())
    return b"".join(out)
