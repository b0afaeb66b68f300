"""Ataxx: the 7x7 ancestor of Attactics, on the engine interface.

The rules follow the libataxx / UAI standard set out in
``notation/ataxx/guide.md``; the board is a pair of 49-bit bitboards.
"""

from engine.ataxx.rules import AtaxxGame
from engine.ataxx.state import PASS, AtaxxMove, AtaxxState

__all__ = ["PASS", "AtaxxGame", "AtaxxMove", "AtaxxState"]
