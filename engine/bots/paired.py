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

``halve`` spends the samples where they decide (sequential halving,
Karnin, Koren and Somekh 2013): every candidate plays a few samples, the
better half goes on to more, and so on until two remain; the survivors of
a round have met the same samples, so their totals still compare.  With
300 playouts among 10 candidates the last two meet some 80 samples each
where ``compare`` gives every candidate 30.

A game's ``choose`` hook uses them (Alheimur's strongest; Taiga's
medium and up until its version 8); the bot still sees only its view.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass
from typing import Any, Callable

from engine.base import Rules
from engine.bots import mcts
from engine.bots.budget import Budget
from engine.bots.hooks import Hooks
from engine.errors import PbemError


@dataclass(frozen=True)
class Compared:
    turn: Any
    value: float  # the bot's mean payoff after the turn, 0 to 1
    samples: int  # samples played (each plays every candidate still compared)
    playouts: int  # candidates' playouts in all


def compare(game: Rules[Any, Any], view: Any, seat: int, candidates: list[Any], samples: int, rng: random.Random,
            hooks: Hooks, budget: Budget | None = None) -> Compared:
    """The best of ``candidates`` (turns of ``view``, ``seat`` to move) by
    their total payoff over ``samples`` paired samples (fewer if the turn's
    CPU ``budget`` would run out: the comparison stops when one more sample,
    as long as the longest so far, would overrun it less
    ``mcts.RESERVE``); at least one.  A candidate that a
    determinization refuses scores 0 in that sample."""

    return compare_by(game, view, seat, candidates, samples, rng, hooks.determinize,
                      _played(game, hooks, seat), budget)


def _played(game: Rules[Any, Any], hooks: Hooks, seat: int) -> Callable[[Any, int], float]:
    """A candidate's worth in a sample: its playout from the position after
    it, the sample's seed giving the chance and the playout's turns."""
    def played(after: Any, seed: int) -> float:
        return mcts.playout(game, after, random.Random(2 * seed + 1), hooks, seat,
                            chance=random.Random(2 * seed))[seat]
    return played


class _Clock:
    """The turn's CPU budget as a comparison spends it: ``out()`` after a
    sample says whether one more, as long as the longest so far, would
    overrun it less ``mcts.RESERVE``."""

    def __init__(self, budget: Budget | None) -> None:
        self.budget = budget
        self.last = time.process_time()
        self.longest = 0.0

    def out(self) -> bool:
        budget = self.budget
        if budget is None or not budget.capped:
            return False
        now = time.process_time()
        self.longest = max(self.longest, now - self.last)
        self.last = now
        return budget.would_overrun(self.longest + mcts.RESERVE * (budget.seconds or 0.0))


def _sample(game: Rules[Any, Any], state: Any, candidates: list[Any], indices: list[int], totals: list[float],
            judge: Callable[[Any, int], float], seed: int) -> None:
    """Adds each candidate's worth in one sample (``state``, ``seed``) to
    its total; a candidate that the dealt state refuses scores 0."""
    for index in indices:
        try:
            after = game.apply(state, candidates[index])
        except PbemError:
            continue
        totals[index] += judge(after, seed)


def compare_by(game: Rules[Any, Any], view: Any, seat: int, candidates: list[Any], samples: int, rng: random.Random,
               determinize: Callable[[Rules[Any, Any], Any, int, random.Random], Any], judge: Callable[[Any, int], float],
               budget: Budget | None = None) -> Compared:
    """``compare`` with each candidate's worth in a sample given by
    ``judge(position after it, the sample's seed)`` (``compare``'s: a
    playout), the sample's position dealt by ``determinize``."""
    if not candidates:
        raise ValueError("there is no turn to compare")
    totals = [0.0] * len(candidates)
    every = list(range(len(candidates)))
    clock = _Clock(budget)
    done = 0
    while done < max(1, samples):
        done += 1
        state = determinize(game, view, seat, rng)
        _sample(game, state, candidates, every, totals, judge, rng.getrandbits(62))
        if clock.out():
            break
    best = max(every, key=lambda index: (totals[index], -index))
    return Compared(candidates[best], totals[best] / done, done, done * len(candidates))


def halve(game: Rules[Any, Any], view: Any, seat: int, candidates: list[Any], playouts: int, rng: random.Random,
          hooks: Hooks, budget: Budget | None = None) -> Compared:
    """The best of ``candidates`` by sequential halving on the same luck:
    ``playouts`` (candidates' playouts, each a ``compare`` sample of one
    candidate) shared equally among the rounds, each round's share among
    the candidates left (one sample each at least), the better half
    (rounded up) of them going on until one is left.  Stops early, at
    the best of those left, if the turn's CPU ``budget`` would run out
    (as ``compare``).  Ties: the earlier candidate."""
    return halve_by(game, view, seat, candidates, playouts, rng, hooks.determinize,
                    _played(game, hooks, seat), budget)


def halve_by(game: Rules[Any, Any], view: Any, seat: int, candidates: list[Any], playouts: int, rng: random.Random,
             determinize: Callable[[Rules[Any, Any], Any, int, random.Random], Any], judge: Callable[[Any, int], float],
             budget: Budget | None = None) -> Compared:
    """``halve`` with each candidate's worth in a sample given by ``judge``
    and the sample's position dealt by ``determinize`` (as ``compare_by``)."""
    if len(candidates) <= 1:
        return compare_by(game, view, seat, candidates, 1, rng, determinize, judge, budget)
    totals = [0.0] * len(candidates)

    def ranked(indices: list[int]) -> list[int]:  # best first, ties: the earlier candidate
        return sorted(indices, key=lambda index: (-totals[index], index))

    def best() -> Compared:
        first = ranked(left)[0]
        return Compared(candidates[first], totals[first] / done, done, played)

    left = list(range(len(candidates)))
    share = max(1, playouts // math.ceil(math.log2(len(candidates))))
    clock = _Clock(budget)
    done = played = 0
    while len(left) > 1:
        for _ in range(max(1, share // len(left))):
            state = determinize(game, view, seat, rng)
            _sample(game, state, candidates, left, totals, judge, rng.getrandbits(62))
            done += 1
            played += len(left)
            if clock.out():
                return best()
        left = ranked(left)[:(len(left) + 1) // 2]
    return best()
