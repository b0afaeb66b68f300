"""Ataxx's bot hooks: a position is worth its piece difference, smoothly
(a few pieces ahead is already good, the whole board is certain).  Two
players are searched with alpha-beta (``engine.bots.alphabeta``) a few
turns deep, judged by that count; the tree search (with short playouts
judged the same way) is left for more players."""

from __future__ import annotations

import math
from typing import Any

from engine.base import Rules
from engine.bots.alphabeta import chooser
from engine.bots.hooks import Hooks

SCALE = 6.0  # pieces ahead for ~76% (tanh(1))


def evaluate(game: Rules[Any, Any], state: Any) -> tuple[float, ...]:
    x, o = game.scores(state)
    first = 0.5 + 0.5 * math.tanh((x - o) / SCALE)
    return (first, 1.0 - first)


HOOKS = Hooks(evaluate=evaluate, playout_plies=2, exploration=0.25, choose=chooser(evaluate))
