"""Ataxx board geometry as 49-bit bitboards (Python ints).

Square ``rank * 7 + file`` is bit ``rank * 7 + file``: a1 is bit 0, g1 bit 6,
a7 bit 42.  ``NEAR[s]`` holds the 8 squares around ``s`` (clone targets and
the squares a piece landing on ``s`` captures), ``FAR[s]`` the 16 squares two
steps away (jump targets).
"""

from __future__ import annotations

from collections.abc import Iterator

SIZE = 7
SQUARES = range(SIZE * SIZE)
FULL = (1 << 49) - 1
FILE_A = sum(1 << (rank * SIZE) for rank in range(SIZE))
NOT_A = FULL & ~FILE_A
NOT_G = FULL & ~(FILE_A << (SIZE - 1))


def dilate(bb: int) -> int:
    """``bb`` and every square next to one of its squares."""
    row = bb | ((bb << 1) & NOT_A) | ((bb >> 1) & NOT_G)
    return (row | (row << SIZE) | (row >> SIZE)) & FULL


NEAR: tuple[int, ...] = tuple(dilate(1 << s) & ~(1 << s) for s in SQUARES)
FAR: tuple[int, ...] = tuple(dilate(dilate(1 << s)) & ~dilate(1 << s) for s in SQUARES)


def squares(bb: int) -> Iterator[int]:
    """The squares of ``bb``, lowest first."""
    while bb:
        low = bb & -bb
        yield low.bit_length() - 1
        bb ^= low


def square_name(square: int) -> str:
    return "abcdefg"[square % SIZE] + str(square // SIZE + 1)


def parse_square(text: str) -> int | None:
    """The index of a square name such as ``c5`` (any case), else None."""
    if len(text) != 2:
        return None
    file = "abcdefg".find(text[0].lower())
    rank = "1234567".find(text[1])
    if file < 0 or rank < 0:
        return None
    return rank * SIZE + file


def can_move(side: int, empty: int) -> bool:
    """True if some piece of ``side`` has an empty square within two steps."""
    return bool(dilate(dilate(side)) & empty)
