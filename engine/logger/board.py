"""Logger board geometry: squares, orthogonal neighbours, rows and columns.

Squares are indices 0..24, ``rank * 5 + file`` with rank 0 = rank 1 and
file 0 = file a.  Square contents are single characters:

``.`` empty, ``s`` seedling, ``S`` sapling, ``M`` mature tree,
``P`` mature tree with a protester, ``1``-``4`` a player's logger.
"""

from __future__ import annotations

from collections.abc import Iterable

SIZE = 5
SQUARES = range(SIZE * SIZE)
EMPTY, SEEDLING, SAPLING, MATURE, PROTESTED = ".", "s", "S", "M", "P"
TREES = frozenset("sSMP")
MATURE_TREES = frozenset("MP")
CORNERS = (0, 4, 20, 24)  # a1, e1, a5, e5


def square_name(square: int) -> str:
    return "abcde"[square % SIZE] + str(square // SIZE + 1)


def parse_square(text: str) -> int | None:
    """The index of a square name such as ``c3`` (any case), else None."""
    if len(text) != 2:
        return None
    file = "abcde".find(text[0].lower())
    rank = "12345".find(text[1])
    if file < 0 or rank < 0:
        return None
    return rank * SIZE + file


def order(square: int) -> tuple[int, int]:
    """Sort key of the notation's square order: by file, then by rank
    (a1, a2, ..., a5, b1, ...)."""
    return (square % SIZE, square // SIZE)


def names(squares: Iterable[int]) -> str:
    """Square names, comma-separated, in notation order."""
    return ", ".join(square_name(s) for s in sorted(squares, key=order))


def _neighbours(square: int) -> tuple[int, ...]:
    rank, file = divmod(square, SIZE)
    result = []
    for dr, df in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        r, f = rank + dr, file + df
        if 0 <= r < SIZE and 0 <= f < SIZE:
            result.append(r * SIZE + f)
    return tuple(sorted(result, key=order))


NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(_neighbours(s) for s in SQUARES)

#: every other square of the same rank or file
LINES: tuple[tuple[int, ...], ...] = tuple(
    tuple(sorted(({(s // SIZE) * SIZE + f for f in range(SIZE)} | {r * SIZE + s % SIZE for r in range(SIZE)}) - {s}))
    for s in SQUARES
)


def ray(start: int, towards: int) -> list[int]:
    """The squares from ``towards`` onwards, continuing away from the
    orthogonally adjacent ``start``, up to the edge of the board."""
    dr = towards // SIZE - start // SIZE
    df = towards % SIZE - start % SIZE
    r, f = divmod(towards, SIZE)
    result = []
    while 0 <= r < SIZE and 0 <= f < SIZE:
        result.append(r * SIZE + f)
        r += dr
        f += df
    return result
