"""Logger: lumberjacks, growing trees and protesters on a 5x5 board.

The rules follow ``shared/rules/logger.*.txt`` and the rulings in
``notation/logger/guide.md``.
"""

from engine.logger.rules import LoggerGame
from engine.logger.state import Chop, LoggerState, LoggerTurn, Plant, Protest, SetupTurn

__all__ = ["LoggerGame", "LoggerState", "LoggerTurn", "SetupTurn", "Plant", "Protest", "Chop"]
