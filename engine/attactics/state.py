"""Attactics values: the immutable position and the turn values."""

from __future__ import annotations

from dataclasses import dataclass

from engine.attactics.board import PIECES, PIECES_PER_SIZE, owner, size_of


@dataclass(frozen=True, slots=True)
class AttacticsState:
    """An Attactics position.

    ``board`` has 64 piece codes (``engine.attactics.board``); ``stashes``
    holds per player the number of smalls, mediums and larges off the board;
    ``to_move`` is the 0-based player to move, None once the game is over,
    when ``winner`` says who won.
    """

    board: tuple[int, ...]
    players: int
    to_move: int | None
    stashes: tuple[tuple[int, int, int], ...]
    winner: int | None = None

    def on_board(self, player: int) -> int:
        # every pyramid not in the stash is on the board (ruling 8: destroyed and captured ones go back
        # to it); counting the squares was a tenth of a bot's search
        return PIECES - sum(self.stashes[player])

    def board_counts(self, player: int) -> tuple[int, int, int]:
        counts = [0, 0, 0]
        for piece in self.board:
            if piece and owner(piece) == player:
                counts[size_of(piece) - 1] += 1
        return counts[0], counts[1], counts[2]

    def is_out(self, player: int) -> bool:
        return self.on_board(player) == 0

    @staticmethod
    def stash_from(counts: tuple[int, int, int]) -> tuple[int, int, int]:
        return PIECES_PER_SIZE - counts[0], PIECES_PER_SIZE - counts[1], PIECES_PER_SIZE - counts[2]


@dataclass(frozen=True, slots=True)
class Fill:
    """What a square affected by the turn ends up with, as the mover states
    it: for a captured square, a piece of ``size`` from the stash (or from
    the board square ``source``), or nothing (``size`` 0); for a piece
    reduced by a grow, its ``size`` afterwards."""

    square: int
    size: int
    source: int | None = None


@dataclass(frozen=True, slots=True)
class Move:
    """Move/clone the piece on ``frm`` to ``to`` (one square away: clone;
    two: jump); ``fills`` state the mover's choices, if any."""

    frm: int
    to: int
    fills: tuple[Fill, ...] = ()


@dataclass(frozen=True, slots=True)
class Grow:
    square: int
    fills: tuple[Fill, ...] = ()


@dataclass(frozen=True, slots=True)
class Shrink:
    square: int
    fills: tuple[Fill, ...] = ()


Turn = Move | Grow | Shrink
