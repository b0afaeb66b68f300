"""The Martian Greenhouse bot: a solitaire has no opponent, so its bot is a
solver-player.  It plays the first breeding of the shortest solution the
puzzle solver (``engine.greenhouse.solver``) finds within the level's
budget: first a plan filling the orders one at a time, in as many
sequences as the level tries (``solver.plan``: a beginner only the greedy
one; from medium up, each fill's unused children re-chosen to help the
orders still to fill), then the deepening search for a shorter one; with
none found, the generic search decides.

The solver gets 80% of the turn's CPU cap (``time.process_time``, counted
from the start of the turn, as every bot's), the rest is for everything
around it; without a cap (``timed=False``) only its node budget stops it,
so a turn depends on the position and level alone."""

from __future__ import annotations

import random
from typing import Any

from engine.base import Game
from engine.bots.budget import Budget
from engine.bots.hooks import Hooks
from engine.bots.levels import Level
from engine.greenhouse import solver

#: the share of the turn's CPU cap the solver may use
SOLVER_SHARE = 0.8


#: order-filling sequences each level's plan tries (``solver.plan``): a
#: beginner fills the orders greedily, each time the quickest; 3 sequences
#: were too few to beat it on most deals (10 deals of the strength rows in
#: a row gave the same breedings), 7 found a shorter solution on some of
#: those; a level not named here tries one per 40 of its playouts
SEQUENCES = {"beginner": 1, "easy": 8, "medium": 20, "hard": 100, "strongest": 400}
PLAYOUTS_PER_SEQUENCE = 40


#: levels whose plan re-chooses the children its fills leave unused
#: (``leftovers.reshape``, bots version 5): easy and medium think within
#: the same 1.5 s cap, and four orders have only 24 sequences, so without
#: it medium played as easy (49% of 75 deals)
RESHAPING = frozenset({"medium", "hard", "strongest"})


#: plans a level makes within the plans' share of its cap: the first as
#: medium's, the others quick tries (``TRY_SEQUENCES`` sequences each, an
#: order taking more than ``TRY_FILL_NODES`` nodes left for later) with
#: the pairs met in a random order and the leftovers' ties broken at
#: random; the shortest is kept
TRIES = {"hard": 30, "strongest": 120}
TRY_SEQUENCES = 8
TRY_FILL_NODES = 40


def sequences_for(level: Level) -> int:
    return SEQUENCES.get(level.name, max(1, level.playouts // PLAYOUTS_PER_SEQUENCE))


def choose(game: Game, view: Any, seat: int, level: Level, rng: random.Random, budget: Budget) -> Any:
    from engine.bots.player import Choice

    nodes = level.playouts * 100
    reshape = level.name in RESHAPING
    first = solver.plan(view, sequences_for(level), max_nodes=nodes // 2, max_seconds=budget.left(SOLVER_SHARE / 2),
                        reshape=reshape)
    for _ in range(1, TRIES.get(level.name, 1)):
        left = budget.left(SOLVER_SHARE / 2)
        if left is not None and left <= 0:
            break
        again = solver.plan(view, TRY_SEQUENCES, max_nodes=nodes // 2, max_seconds=left, reshape=reshape,
                            rng=random.Random(rng.random()), fill_nodes=TRY_FILL_NODES)
        if again and (first is None or len(again) < len(first)):
            first = again
    found = solver.solve(view, max_depth=4 + level.playouts // 500, max_nodes=nodes,
                         max_seconds=budget.left(SOLVER_SHARE), first=first)
    if found.line:
        return Choice(found.line[0], 1.0, playouts=found.nodes, why=f"solver: {found.found} breedings to go")
    return None


HOOKS = Hooks(choose=choose, version=5, kept={"beginner": 4, "easy": 4})
