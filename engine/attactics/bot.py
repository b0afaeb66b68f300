"""Attactics's bot hooks: with two players, a position is worth its
difference in pyramids on the board, smoothly, and the bot searches with
alpha-beta (``engine.bots.alphabeta``) a few turns deep; with more
players the tree search decides, judged by the game's scores.

The strongest level (version 3) judges a position by its difference in
pyramids and half the best capture the player to move has
(``engine.attactics.threats``): counted alone, the pyramids judge a
position wrong wherever the search stops just before a capture.  The
estimate costs about as much as the rest of a position's search, so the
strongest level searches fewer positions a playout than the others."""

from __future__ import annotations

import math
import random
from typing import Any

from engine.attactics.threats import best_capture
from engine.base import Rules
from engine.bots import payoff
from engine.bots.alphabeta import chooser
from engine.bots.budget import Budget
from engine.bots.hooks import Hooks

SCALE = 3.0  # pyramids ahead for ~76% (tanh(1))


def evaluate(game: Rules[Any, Any], state: Any) -> tuple[float, ...]:
    scores = game.scores(state)
    if len(scores) != 2:
        return payoff.guess(game, state)
    return _worth(scores[0] - scores[1])


def _worth(lead: float) -> tuple[float, float]:
    """The two players' worth of the first player's ``lead``, smoothly."""
    first = 0.5 + 0.5 * math.tanh(lead / SCALE)
    return (first, 1.0 - first)


#: the share of the best capture of the player to move that counts in ``evaluate_threats``
THREAT = 0.5
#: the fewest playouts of a level that judges by ``evaluate_threats`` (strongest)
THREATS_FROM = 6000
#: positions a playout of the level for a level judging by ``evaluate_threats`` (the others: 40):
#: the estimate made a position about 2.4 times as dear to search (less since each is kept for the
#: turn, ``remember``); at 16 a strongest turn untimed stays within the 16 s at which its capped
#: search stops, on the positions timed (docs/bots.md, "CPU per bot turn")
THREATS_NODES = 16


def evaluate_threats(game: Rules[Any, Any], state: Any) -> tuple[float, ...]:
    """As ``evaluate``, with half the best capture the player to move has
    counted to them (more than two players: ``evaluate``)."""
    scores = game.scores(state)
    if len(scores) != 2:
        return payoff.guess(game, state)
    lead: float = scores[0] - scores[1]
    if state.to_move is not None:
        threat = THREAT * best_capture(state, state.to_move)
        lead += threat if state.to_move == 0 else -threat
    return _worth(lead)


_PLAIN = chooser(evaluate)
_THREATS = chooser(evaluate_threats, THREATS_NODES, remember=True)  # a position's estimate kept for the turn


def choose(game: Rules[Any, Any], view: Any, seat: int, level: Any, rng: random.Random, budget: Budget) -> Any:
    """The alpha-beta search, judging by ``evaluate_threats`` from strongest
    up and by ``evaluate`` below."""
    pick = _THREATS if level.playouts >= THREATS_FROM else _PLAIN
    return pick(game, view, seat, level, rng, budget)


#: version 2 (2026-11-28): the search expands a position with ``next_states``, in the order its
#: captures' outcomes are found, not the listed turns' order: within the same node budget the
#: search may cut off elsewhere, so a game can go differently (and goes about 20 times faster)
#: version 3 (2026-12-04): strongest judges by ``evaluate_threats`` (the others play as in version 2)
HOOKS = Hooks(evaluate=evaluate, playout_plies=4, choose=choose, version=3,
              kept={"beginner": 2, "easy": 2, "medium": 2, "hard": 2})
