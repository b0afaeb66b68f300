"""The Martian Greenhouse bot: a solitaire has no opponent, so its bot is a
solver-player.  It plays the first breeding of the shortest solution the
puzzle solver (``engine.greenhouse.solver``) finds within the level's
budget: first a plan filling the orders one at a time, in as many
sequences as the level tries (``solver.plan``: easy only the greedy one;
from hard up, each fill's unused children re-chosen to help the orders
still to fill), then the deepening search for a shorter one; with none
found, the generic search decides.  A beginner fills the order it picks
at random each turn and searches no further (``PLANS``).

The solver gets 80% of the turn's CPU cap (``time.process_time``, counted
from the start of the turn, as every bot's), the rest is for everything
around it; without a cap (``timed=False``) only its node budget stops it,
so a turn depends on the position and level alone."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from engine.base import Rules
from engine.bots.budget import Budget
from engine.bots.hooks import Hooks
from engine.bots.levels import Level
from engine.greenhouse import solver

#: the share of the turn's CPU cap the solver may use
SOLVER_SHARE = 0.8


@dataclass(frozen=True)
class Plan:
    """How a level plays: the order-filling sequences its plan tries
    (``solver.plan``), whether it re-chooses the children its fills leave
    unused (``leftovers.reshape``), how many plans it makes (the first as
    described, the others quick tries: ``TRY_SEQUENCES`` sequences each,
    an order taking more than ``TRY_FILL_NODES`` nodes left for later,
    the pairs met in a random order and the leftovers' ties broken at
    random; the shortest kept), the solver's node budget and the depth of
    its deepening search for a shorter solution (0: none, the plan's first
    breeding is played), and which order each fill takes first
    (``solver.plan``'s ``fill_first``)."""

    sequences: int
    reshape: bool
    tries: int
    nodes: int
    depth: int
    fill_first: str = "quickest"


#: the levels (bots version 6, 2026-12-03), each one rung lower than at version 5, so that each
#: beats the one below on most deals: easy plays as version 5's beginner, medium as its easy,
#: hard as its medium, strongest as it did; version 5's hard, even with strongest on 58 deals
#: of 75, is gone.  The beginner fills the orders one at a time, each turn the fill of an order
#: picked at random (so it often leaves a flower half bred), and looks for nothing shorter:
#: version 5's beginner, filling them in the order listed instead, was beaten by the easy of
#: today in only 68% of 224 deals.  At version 5, 3 sequences were too few to beat the greedy
#: one on most deals and 7 found shorter solutions on some; reshaping made medium (20
#: sequences) beat easy (8), which without it played as easy (49% of 75 deals).
PLANS = {
    "beginner": Plan(1, False, 1, 8_000, 0, "random"),
    "easy": Plan(1, False, 1, 4_000, 4),
    "medium": Plan(8, False, 1, 15_000, 4),
    "hard": Plan(20, True, 1, 30_000, 4),
    "strongest": Plan(400, True, 120, 600_000, 16),
}
#: a level not named in ``PLANS`` tries one sequence per this many of its playouts
PLAYOUTS_PER_SEQUENCE = 40
TRY_SEQUENCES = 8
TRY_FILL_NODES = 40


def plan_for(level: Level) -> Plan:
    """How ``level`` plays (``PLANS``; another level by its playouts)."""
    return PLANS.get(level.name) or Plan(max(1, level.playouts // PLAYOUTS_PER_SEQUENCE), False, 1,
                                         level.playouts * 100, 4 + level.playouts // 500)


def choose(game: Rules[Any, Any], view: Any, seat: int, level: Level, rng: random.Random, budget: Budget) -> Any:
    from engine.bots.player import Choice

    plan = plan_for(level)
    share = SOLVER_SHARE if not plan.depth else SOLVER_SHARE / 2
    first = solver.plan(view, plan.sequences, max_nodes=plan.nodes // 2, max_seconds=budget.left(share),
                        reshape=plan.reshape, fill_first=plan.fill_first,
                        rng=rng if plan.fill_first == "random" else None)
    if first and not plan.depth:
        return Choice(first[0], 1.0, why=f"solver: the orders one at a time, {len(first)} breedings to go")
    for _ in range(1, plan.tries):
        left = budget.left(SOLVER_SHARE / 2)
        if left is not None and left <= 0:
            break
        again = solver.plan(view, TRY_SEQUENCES, max_nodes=plan.nodes // 2, max_seconds=left, reshape=plan.reshape,
                            rng=random.Random(rng.random()), fill_nodes=TRY_FILL_NODES)
        if again and (first is None or len(again) < len(first)):
            first = again
    found = solver.solve(view, max_depth=plan.depth or 4, max_nodes=plan.nodes,
                         max_seconds=budget.left(SOLVER_SHARE), first=first,
                         prune=True)  # the quick search the levels were measured with (version 6)
    if found.line:
        return Choice(found.line[0], 1.0, playouts=found.nodes, why=f"solver: {found.found} breedings to go")
    return None


#: version 6 (2026-12-03): the levels one rung lower and a beginner that fills the orders in a
#: random order (``PLANS``); strongest plays as at version 5
HOOKS = Hooks(choose=choose, version=6, kept={"strongest": 5})
