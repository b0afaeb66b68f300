"""Ataxx values: the immutable position and the move."""

from __future__ import annotations

from dataclasses import dataclass

from engine.ataxx.bitboard import FULL


@dataclass(frozen=True, slots=True)
class AtaxxState:
    """An Ataxx position, as a FEN holds it.

    ``x`` and ``o`` are the two sides' bitboards, ``blocked`` the blocked
    squares; ``turn`` is 0 when ``x`` (player 1) is to move, 1 for ``o``;
    ``halfmove`` counts plies since the last clone; ``fullmove`` starts at 1
    and grows after each move of ``o``.
    """

    x: int
    o: int
    blocked: int = 0
    turn: int = 0
    halfmove: int = 0
    fullmove: int = 1

    @property
    def empty(self) -> int:
        return FULL & ~(self.x | self.o | self.blocked)

    def side(self, player: int) -> int:
        return self.o if player else self.x

    def counts(self) -> tuple[int, int]:
        return self.x.bit_count(), self.o.bit_count()


@dataclass(frozen=True, slots=True)
class AtaxxMove:
    """A move: ``to`` alone is a clone, ``frm`` and ``to`` a jump, and
    ``to`` None a pass."""

    to: int | None
    frm: int | None = None

    @property
    def is_pass(self) -> bool:
        return self.to is None


PASS = AtaxxMove(None)
