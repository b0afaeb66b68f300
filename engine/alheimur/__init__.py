"""Alheimur: an Icehouse space exploration game by Glenn Overby (version
1.1), for 2 to 8 players, on worlds built of Aquarius Element cards.

The rules follow ``shared/rules/alheimur.txt``, the rulings of the project
and ours in ``notation/alheimur/guide.md``.  Modules: ``deck`` (the 40 cards),
``worlds`` (tiles, territories, regions, placements), ``pieces`` (values),
``setup``, ``survival`` (expansion and survival), ``movement``, ``battle``,
``scoring`` and ``rules`` (the game object).
"""

from engine.alheimur.pieces import AlheimurState, AlheimurTurn
from engine.alheimur.rules import AlheimurGame

__all__ = ["AlheimurGame", "AlheimurState", "AlheimurTurn"]
