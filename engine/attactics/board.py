"""Attactics board geometry and piece codes.

Squares are ``rank * 8 + file`` (a1 = 0, h1 = 7, a8 = 56).  A square holds 0
(empty) or a piece code ``player * 4 + size``: ``player`` 0-based, ``size``
1 (small), 2 (medium) or 3 (large).
"""

from __future__ import annotations

from collections.abc import Iterable

from engine.i18n import _

SIZE = 8
SQUARES = range(SIZE * SIZE)
PIECES_PER_SIZE = 5
PIECES = 3 * PIECES_PER_SIZE
SIZE_LETTERS = ".sml"  # index = size; "." = nothing
SIZE_WORDS = (_("nothing"), _("small"), _("medium"), _("large"))
CORNERS = (0, 63, 56, 7)  # players 1-4 start on a1, h8, a8, h1


def code(player: int, size: int) -> int:
    return player * 4 + size


def owner(piece: int) -> int:
    return piece >> 2


def size_of(piece: int) -> int:
    return piece & 3


def square_name(square: int) -> str:
    return "abcdefgh"[square % SIZE] + str(square // SIZE + 1)


def parse_square(text: str) -> int | None:
    """The index of a square name such as ``c3`` (any case), else None."""
    if len(text) != 2:
        return None
    file = "abcdefgh".find(text[0].lower())
    rank = "12345678".find(text[1])
    if file < 0 or rank < 0:
        return None
    return rank * SIZE + file


def order(square: int) -> tuple[int, int]:
    """Sort key of the notation's square order: by file, then by rank."""
    return (square % SIZE, square // SIZE)


def names(squares: Iterable[int]) -> str:
    return ", ".join(square_name(s) for s in sorted(squares, key=order))


def _within(square: int, reach: int) -> tuple[int, ...]:
    rank, file = divmod(square, SIZE)
    result = []
    for r in range(rank - reach, rank + reach + 1):
        for f in range(file - reach, file + reach + 1):
            if 0 <= r < SIZE and 0 <= f < SIZE and (r, f) != (rank, file):
                result.append(r * SIZE + f)
    return tuple(sorted(result, key=order))


#: the 8 adjacent squares (clone targets; the squares a landing piece captures)
NEAR: tuple[tuple[int, ...], ...] = tuple(_within(s, 1) for s in SQUARES)
#: the 24 squares of the 5x5 block around a square (move/clone targets)
REACH: tuple[tuple[int, ...], ...] = tuple(_within(s, 2) for s in SQUARES)


def is_near(a: int, b: int) -> bool:
    return a != b and abs(a % SIZE - b % SIZE) <= 1 and abs(a // SIZE - b // SIZE) <= 1
