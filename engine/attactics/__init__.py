"""Attactics: Ataxx with Icehouse pyramids, for 2 to 4 players on a
chessboard.

The rules follow ``shared/rules/attactics.txt`` and the rulings restated in
``notation/attactics/guide.md``.
"""

from engine.attactics.rules import AttacticsGame
from engine.attactics.state import AttacticsState, Fill, Grow, Move, Shrink

__all__ = ["AttacticsGame", "AttacticsState", "Fill", "Grow", "Move", "Shrink"]
