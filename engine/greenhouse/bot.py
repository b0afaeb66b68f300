"""The Martian Greenhouse bot: a solitaire has no opponent, so its bot is a
solver-player.  It plays the first breeding of the shortest solution the
puzzle solver (``engine.greenhouse.solver``) finds within the level's
budget; with none found, the generic search decides."""

from __future__ import annotations

import random
from typing import Any

from engine.base import Game
from engine.bots.hooks import Hooks
from engine.bots.levels import Level
from engine.greenhouse import solver


def choose(game: Game, view: Any, seat: int, level: Level, rng: random.Random) -> Any:
    from engine.bots.player import Choice

    seconds = 0.8 * (level.max_ms or 2000) / 1000  # the rest of the cap for everything around it
    found = solver.solve(view, max_depth=4 + level.playouts // 500, max_nodes=level.playouts * 100,
                         max_seconds=seconds)
    if found.line:
        return Choice(found.line[0], 1.0, playouts=found.nodes, why=f"solver: {found.found} breedings to go")
    return None


HOOKS = Hooks(choose=choose)
