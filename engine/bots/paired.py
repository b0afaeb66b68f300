"""Paired Monte Carlo: a few candidate turns compared on the same luck.

In a game of chance and hidden information (Taiga), the tree search's
playouts differ in their draws as much as in the turns tried, so a few
hundred of them cannot tell close turns apart: Taiga's medium level (300
playouts) was no stronger than easy (150), 52% of 40.  Here each sample
deals one determinization of the bot's view (``hooks.determinize``) and
one seed, and plays every candidate turn from it: the same hidden parts,
the same chance outcomes (a stream of their own) and the same seed for the
playout's turns (``mcts.playout``, cut after ``hooks.playout_plies``).
The luck is shared (common random numbers), so what separates two turns'
totals is mostly the turns themselves; the best total wins.

A game's ``choose`` hook uses it (Taiga's, from medium up); the bot still
sees only its view.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Any, Callable

from engine.base import Game
from engine.bots import mcts
from engine.bots.budget import Budget
from engine.bots.hooks import Hooks
from engine.errors import PbemError


@dataclass(frozen=True)
class Compared:
    turn: Any
    value: float  # the bot's mean payoff after the turn, 0 to 1
    samples: int  # samples played (each plays every candidate)


def compare(game: Game, view: Any, seat: int, candidates: list[Any], samples: int, rng: random.Random,
            hooks: Hooks, budget: Budget | None = None) -> Compared:
    """The best of ``candidates`` (turns of ``view``, ``seat`` to move) by
    their total payoff over ``samples`` paired samples (fewer if the turn's
    CPU ``budget`` would run out: the comparison stops when one more sample,
    as long as the longest so far, would overrun it less
    ``mcts.RESERVE``); at least one.  A candidate that a
    determinization refuses scores 0 in that sample."""

    def played(after: Any, seed: int) -> float:
        return mcts.playout(game, after, random.Random(2 * seed + 1), hooks, seat,
                            chance=random.Random(2 * seed))[seat]

    return compare_by(game, view, seat, candidates, samples, rng, hooks.determinize, played, budget)


def compare_by(game: Game, view: Any, seat: int, candidates: list[Any], samples: int, rng: random.Random,
               determinize: Callable[[Game, Any, int, random.Random], Any], judge: Callable[[Any, int], float],
               budget: Budget | None = None) -> Compared:
    """``compare`` with each candidate's worth in a sample given by
    ``judge(position after it, the sample's seed)`` (``compare``'s: a
    playout), the sample's position dealt by ``determinize``."""
    if not candidates:
        raise ValueError("there is no turn to compare")
    totals = [0.0] * len(candidates)
    last = time.process_time()
    longest = 0.0
    done = 0
    for done in range(1, max(1, samples) + 1):
        state = determinize(game, view, seat, rng)
        seed = rng.getrandbits(62)
        for index, turn in enumerate(candidates):
            try:
                after = game.apply(state, turn)
            except PbemError:
                continue
            totals[index] += judge(after, seed)
        if budget is not None and budget.capped:
            now = time.process_time()
            longest = max(longest, now - last)
            last = now
            if budget.would_overrun(longest + mcts.RESERVE * (budget.seconds or 0.0)):
                break
    best = max(range(len(candidates)), key=lambda index: (totals[index], -index))
    return Compared(candidates[best], totals[best] / done, done)
