"""Attactics's bot hooks: with two players, a position is worth its
difference in pyramids on the board, smoothly, and the bot searches with
alpha-beta (``engine.bots.alphabeta``) a few turns deep; with more
players the tree search decides, judged by the game's scores."""

from __future__ import annotations

import math
from typing import Any

from engine.base import Game
from engine.bots import payoff
from engine.bots.alphabeta import chooser
from engine.bots.hooks import Hooks

SCALE = 3.0  # pyramids ahead for ~76% (tanh(1))


def evaluate(game: Game, state: Any) -> tuple[float, ...]:
    scores = game.scores(state)
    if len(scores) != 2:
        return payoff.guess(game, state)
    first = 0.5 + 0.5 * math.tanh((scores[0] - scores[1]) / SCALE)
    return (first, 1.0 - first)


#: version 2 (2026-11-28): the search expands a position with ``next_states``, in the order its
#: captures' outcomes are found, not the listed turns' order: within the same node budget the
#: search may cut off elsewhere, so a game can go differently (and goes about 20 times faster)
HOOKS = Hooks(evaluate=evaluate, playout_plies=4, choose=chooser(evaluate), version=2)
