"""Taiga – Battle Boreal: a tile-laying game of forests, logging roads,
camps and trucks for 2 to 5 players, with a hidden draw pile
(``notation/taiga/guide.md``)."""

from engine.taiga.rules import TaigaGame
from engine.taiga.state import Choose, Discard, Pending, Piece, Place, Placed, TaigaState

__all__ = ["TaigaGame", "TaigaState", "Place", "Discard", "Choose", "Pending", "Piece", "Placed"]
