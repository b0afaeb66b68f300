"""Taiga's immutable values: the state of a game and the three kinds of turn.

Players are 0-based here.  Pieces on the map are ``Piece(x, y, spot, role,
player)`` with ``role`` one of ``surveyor``, ``lumberjack``, ``keeper`` (all
meeples) or ``truck``; ``spot`` names the forest area, road segment or camp
of the tile at ``x, y`` (``engine.taiga.tiles``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

MEEPLES = 7
TRUCKS = 2
START_MONEY = 10
TRUCK_COST = 5
LUMBERJACK_COST = 2
HIDDEN = "?"
ROLES = ("surveyor", "lumberjack", "keeper", "truck")
MEEPLE_ROLES = ("surveyor", "lumberjack", "keeper")


class Placed(NamedTuple):
    """A tile on the map (a named tuple: maps are hashed often)."""

    x: int
    y: int
    code: str
    turn: int


class Piece(NamedTuple):
    x: int
    y: int
    spot: str
    role: str
    player: int


class Pending(NamedTuple):
    """A completed forest whose surveyor's owner (not the player who
    completed it) chooses: payout or lumberjack.  ``x, y, spot`` is an area
    of the forest on the tile that completed it."""

    player: int
    x: int
    y: int
    spot: str


@dataclass(frozen=True)
class TaigaState:
    """Everything about a game.  ``placed`` is in the order the tiles were
    laid (the start tile first); ``pieces``, ``logged`` and ``pile`` are
    sorted; ``discards`` in the order discarded.  ``pile`` holds what is left
    to draw (``HIDDEN`` entries in a view); ``drawn`` is the mover's drawn
    tile (``HIDDEN`` in other players' views, None when there is none).
    ``logged`` holds one area key ``(x, y, spot)`` of each logged forest
    (its smallest)."""

    placed: tuple[Placed, ...]
    pieces: tuple[Piece, ...]
    logged: tuple[tuple[int, int, str], ...]
    money: tuple[int, ...]
    tokens: tuple[tuple[str, ...], ...]
    discards: tuple[str, ...]
    pile: tuple[str, ...]
    drawn: str | None
    mover: int
    pending: tuple[Pending, ...] = ()

    @property
    def players(self) -> int:
        return len(self.money)

    def meeples_left(self, player: int) -> int:
        return MEEPLES - sum(1 for p in self.pieces if p.player == player and p.role != "truck")

    def trucks_left(self, player: int) -> int:
        return TRUCKS - sum(1 for p in self.pieces if p.player == player and p.role == "truck")


@dataclass(frozen=True)
class Place:
    """Lay ``code`` (the drawn tile, or a discard of that code) at ``x, y``
    turned ``turn`` quarter turns clockwise; then ``meeple`` (a forest spot:
    surveyor; ``c``: camp keeper) or ``truck`` (x, y, road spot); then the
    mover's ``choices`` for the forests this tile completes where the mover
    has a surveyor: (spot on this tile, "pay" or "lumberjack"), by spot."""

    code: str
    x: int
    y: int
    turn: int = 0
    meeple: str | None = None
    truck: tuple[int, int, str] | None = None
    choices: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class Discard:
    """The drawn tile fits nowhere: it goes face up to the discard pile."""

    code: str


@dataclass(frozen=True)
class Choose:
    """The first pending choice: "pay" or "lumberjack"."""

    option: str


TaigaTurn = Place | Discard | Choose
