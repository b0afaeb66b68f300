"""Fast paths, row "PNG board for mail": the PNG a mail carries, drawn by
``pbem.diagrams.render_fresh(game, options, position, "png")`` (what
``render`` does for a position not yet in its cache), must take under 5 ms.

One row per hosted game; its figure is the worse of two medians, the start
position and a position a few turns in, drawn side by side (interleaved) on
a process whose board and sprite caches are warm, as they are on a server
that has mailed the game before.  The note gives both, the first drawing of
the later position with every cache empty ("cold"), and what the same
pixels cost before the caches ("was": every shape drawn directly, saved by
Pillow with ``optimize=True``), measured in the same run.  No database is
used.
"""

from __future__ import annotations

import io
import time
from itertools import islice
from typing import Any, Callable, Mapping

from fast_paths_common import Database, Row, interleaved_ms

from engine.base import settle_from_seed
from notation import registry
from pbem import diagram_sprites, diagrams

USES_DATABASE = False
PATH = "PNG board for mail"
GOAL_MS = 5.0
#: turns played from the start for the position "a few turns in"
TURNS_IN = {"logger": 12, "attactics": 12, "ataxx": 12, "greenhouse": 4}
SEED = "0" * 63 + "1"


def positions(game: str) -> tuple[Mapping[str, str], str, str]:
    """The game's options, its start position and a position a few turns
    in (the rules' turns taken in a fixed, varied order)."""
    kind = registry.get(game)
    options = kind.rules.normalize_options({})
    players = kind.rules.min_players
    if kind.rules.uses_chance:
        state = settle_from_seed(kind.rules, kind.rules.seeded_state(players, options, SEED), SEED, 0)[0]
    else:
        state = kind.rules.initial_state(players, options)
    start = kind.notation.format_position(state)
    for i in range(TURNS_IN.get(game, 12)):
        if kind.rules.is_over(state):
            break
        lazy = getattr(kind.rules, "iter_turns", None)  # Martian Greenhouse has millions of turns
        turns = list(islice(lazy(state), 64)) if callable(lazy) else kind.rules.legal_turns(state)
        state = kind.rules.apply(state, turns[(i * 7) % len(turns)])
        if kind.rules.uses_chance:  # a deal, a lot, a roll: settled as the server settles them
            state = settle_from_seed(kind.rules, state, SEED, i + 1)[0]
    return {k: str(v) for k, v in options.items()}, start, kind.notation.format_position(state)


def _before(game: str, options: Mapping[str, str], position: str) -> Callable[[], bytes]:
    """The board as it was drawn before the caches: the same shapes drawn
    directly, saved by Pillow with ``optimize=True``."""
    notation = registry.get(game).notation

    def draw() -> bytes:
        diagram = notation.diagram(notation.parse_position(position, dict(options)))
        buffer = io.BytesIO()
        diagrams.png_image(diagram, cached=False).save(buffer, format="PNG", optimize=True)
        return buffer.getvalue()

    return draw


def _cold_ms(game: str, options: Mapping[str, str], position: str) -> float:
    diagram_sprites.clear()
    started = time.perf_counter()
    diagrams.render_fresh(game, options, position, "png")
    return (time.perf_counter() - started) * 1000


def measure(game: str) -> dict[str, Any]:
    """Medians (ms) of the start and later position, now and before, and
    the cold drawing of the later one."""
    options, start, later = positions(game)
    cold = _cold_ms(game, options, later)
    found = interleaved_ms({
        "start": lambda: diagrams.render_fresh(game, options, start, "png"),
        "later": lambda: diagrams.render_fresh(game, options, later, "png"),
        "was start": _before(game, options, start),
        "was later": _before(game, options, later),
    })
    found["cold"] = cold
    return found


def rows(database: Database) -> list[Row]:
    """One row per hosted game."""
    found = []
    for game in registry.names():
        ms = measure(game)
        note = (f"{game}: start {ms['start']:.2f} ms, {TURNS_IN.get(game, 12)} turns in {ms['later']:.2f} ms "
                f"(cold {ms['cold']:.1f} ms); was {ms['was start']:.1f} / {ms['was later']:.1f} ms")
        found.append(Row(f"{PATH} ({game})", database.name, "under", GOAL_MS, max(ms["start"], ms["later"]),
                         note=note))
    return found
