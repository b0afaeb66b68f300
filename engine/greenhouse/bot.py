"""The Martian Greenhouse bot: a solitaire has no opponent, so its bot is a
solver-player.  It plays the first breeding of the shortest solution the
puzzle solver (``engine.greenhouse.solver``) finds within the level's
budget: first a plan filling the orders one at a time, in as many
sequences as the level tries (``solver.plan``: a beginner only the greedy
one), then the deepening search for a shorter one; with none found, the
generic search decides.

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


def sequences_for(level: Level) -> int:
    return SEQUENCES.get(level.name, max(1, level.playouts // PLAYOUTS_PER_SEQUENCE))


def choose(game: Game, view: Any, seat: int, level: Level, rng: random.Random, budget: Budget) -> Any:
    from engine.bots.player import Choice

    nodes = level.playouts * 100
    first = solver.plan(view, sequences_for(level), max_nodes=nodes // 2, max_seconds=budget.left(SOLVER_SHARE / 2))
    found = solver.solve(view, max_depth=4 + level.playouts // 500, max_nodes=nodes,
                         max_seconds=budget.left(SOLVER_SHARE), first=first)
    if found.line:
        return Choice(found.line[0], 1.0, playouts=found.nodes, why=f"solver: {found.found} breedings to go")
    return None


HOOKS = Hooks(choose=choose, version=4)
