"""Logger values: the immutable game state and the turn values."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Union

from engine.logger.board import CORNERS, SQUARES


@dataclass(frozen=True, slots=True)
class LoggerState:
    """A Logger position.

    ``board`` has 25 characters, indexed as in ``engine.logger.board``;
    ``to_move`` is the 0-based player to move, None once the game is over;
    ``spawn`` is the stage a spawned tree starts at (option ``spawn``).
    """

    board: str
    to_move: int | None
    scores: tuple[int, ...]
    supplies: tuple[int, ...]
    spawn: str = "s"

    @property
    def players(self) -> int:
        return len(self.scores)

    def logger_square(self, player: int) -> int | None:
        index = self.board.find(str(player + 1))
        return None if index < 0 else index

    @property
    def in_setup(self) -> bool:
        """True while some player's logger is not yet on the board."""
        return any(self.logger_square(p) is None for p in range(self.players))

    def free_corners(self) -> list[int]:
        return [c for c in CORNERS if self.board[c] == "."]

    def count(self, chars: str) -> int:
        return sum(1 for s in SQUARES if self.board[s] in chars)


@dataclass(frozen=True, slots=True)
class SetupTurn:
    """A setup-round turn: the player puts their logger on a free corner."""

    square: int


@dataclass(frozen=True, slots=True)
class Plant:
    square: int


@dataclass(frozen=True, slots=True)
class Protest:
    squares: tuple[int, ...]  # sorted


@dataclass(frozen=True, slots=True)
class Chop:
    square: int


Action = Union[Plant, Protest, Chop]


@dataclass(frozen=True, slots=True)
class LoggerTurn:
    """A main-phase turn.

    ``move_to`` is the logger's destination (None: it stays); ``spawns`` are
    the growth-phase spawns the mover writes, ``(tree, square)`` in order;
    ``action`` is None only when no action is possible.
    """

    move_to: int | None = None
    spawns: tuple[tuple[int, int], ...] = ()
    action: Action | None = None


Turn = Union[SetupTurn, LoggerTurn]
