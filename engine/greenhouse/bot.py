"""The Martian Greenhouse bot: a solitaire has no opponent, so its bot is a
solver-player.  It plays the first breeding of the shortest solution the
puzzle solver (``engine.greenhouse.solver``) finds within the level's
budget; with none found, the generic search decides.

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


def choose(game: Game, view: Any, seat: int, level: Level, rng: random.Random, budget: Budget) -> Any:
    from engine.bots.player import Choice

    found = solver.solve(view, max_depth=4 + level.playouts // 500, max_nodes=level.playouts * 100,
                         max_seconds=budget.left(SOLVER_SHARE))
    if found.line:
        return Choice(found.line[0], 1.0, playouts=found.nodes, why=f"solver: {found.found} breedings to go")
    return None


HOOKS = Hooks(choose=choose)
