"""Ataxx's bot hooks: a position is worth its piece difference, smoothly
(a few pieces ahead is already good, the whole board is certain), and the
playouts are short, so the search reads a few turns deep and judges by
the count rather than by random play to the distant end."""

from __future__ import annotations

import math
from typing import Any

from engine.base import Game
from engine.bots.hooks import Hooks

SCALE = 6.0  # pieces ahead for ~76% (tanh(1))


def evaluate(game: Game, state: Any) -> tuple[float, ...]:
    x, o = game.scores(state)
    first = 0.5 + 0.5 * math.tanh((x - o) / SCALE)
    return (first, 1.0 - first)


HOOKS = Hooks(evaluate=evaluate, playout_plies=2, exploration=0.25)
