"""Fast paths, row "PNG board for mail": the PNG a mail carries, drawn by
``notation.drawing.render.render_fresh(game, options, position, "png")`` (what
``render`` does for a position not yet in its cache), must take under 5 ms.

One row per hosted game; its figure is the worst of the medians of the
start position, a position a few turns in and, for a game whose picture
grows as it is played (``LATE``: Taiga's map), a position late in the game
(its largest picture), drawn side by side (interleaved) on
a process whose board and sprite caches are warm, as they are on a server
that has mailed the game before.  The note gives both, the first drawing of
the later position with every cache empty ("cold"), and what the same
pixels cost before the caches ("was": every shape drawn directly, saved by
Pillow with ``optimize=True``), measured in the same run.  No database is
used.

A second row per game (issue 52: a few positions do not show what mail
meets) draws ``SAMPLE`` (60) positions picked at random from
``SAMPLE_GAMES`` games of random play of two to four players, spread over
their whole length, and gives their median, its note the 90th percentile
and the worst.
"""

from __future__ import annotations

import io
import os
import random
import statistics
import time
from itertools import islice
from typing import Any, Callable, Mapping

from fast_paths_common import Database, Row, interleaved_ms

from engine.base import settle_from_seed
from notation import registry
from notation.drawing import render as diagrams
from notation.drawing import sprites as diagram_sprites

USES_DATABASE = False
PATH = "PNG board for mail"
GOAL_MS = 5.0
#: turns played from the start for the position "a few turns in"
TURNS_IN = {"logger": 12, "attactics": 12, "ataxx": 12, "greenhouse": 4}
#: turns played for the late position of a game whose picture grows (Taiga:
#: 70 of its 72 tiles laid, the map at its largest; the game ends with 72)
LATE = {"taiga": 70}
SEED = "0" * 63 + "1"


def positions(game: str, turns_in: int | None = None) -> tuple[Mapping[str, str], str, str]:
    """The game's options, its start position and a position ``turns_in``
    (by default ``TURNS_IN``) turns in (the rules' turns taken in a fixed,
    varied order)."""
    kind = registry.get(game)
    options = kind.rules.normalize_options({})
    players = kind.rules.min_players
    if kind.rules.uses_chance:  # dealt, and any draw during play settled, as the server does
        state = settle_from_seed(kind.rules, kind.rules.seeded_state(players, options, SEED), SEED, 0)[0]
    else:
        state = kind.rules.initial_state(players, options)
    start = kind.notation.format_position(state)
    for i in range(TURNS_IN.get(game, 12) if turns_in is None else turns_in):
        if kind.rules.is_over(state):
            break
        lazy = getattr(kind.rules, "iter_turns", None)  # Martian Greenhouse has millions of turns
        turns = list(islice(lazy(state), 64)) if callable(lazy) else kind.rules.legal_turns(state)
        state = kind.rules.apply(state, turns[(i * 7) % len(turns)])
        if kind.rules.uses_chance:
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
    """Medians (ms) of the start, later (and late) positions, now and
    before, and the cold drawing of the later one."""
    options, start, later = positions(game)
    cold = _cold_ms(game, options, later)
    actions = {
        "start": lambda: diagrams.render_fresh(game, options, start, "png"),
        "later": lambda: diagrams.render_fresh(game, options, later, "png"),
        "was start": _before(game, options, start),
        "was later": _before(game, options, later),
    }
    if game in LATE:
        late = positions(game, LATE[game])[2]
        actions["late"] = lambda: diagrams.render_fresh(game, options, late, "png")
        actions["was late"] = _before(game, options, late)
    found = interleaved_ms(actions)
    found["cold"] = cold
    return found


#: random-play positions drawn per game for the sample row (issue 52: the few
#: positions above showed under 4 ms while mail's positions took a median
#: of 6.8 to 7.4 ms); ``PBEM_BENCH_BOARD_SAMPLE`` overrides
SAMPLE = int(os.environ.get("PBEM_BENCH_BOARD_SAMPLE") or 60)
#: random games played for the sample, each to its end or ``SAMPLE_PLIES`` turns
SAMPLE_GAMES, SAMPLE_PLIES = 6, 120


def random_positions(game: str, count: int = SAMPLE, seed: int = 52) -> tuple[Mapping[str, str], list[str]]:
    """The game's options and ``count`` positions met in random play (a
    seeded ``random.Random``: a random one of a position's first 400 legal
    turns; chance settled from a seed per game), spread over the games'
    whole length."""
    kind = registry.get(game)
    options = kind.rules.normalize_options({})
    chooser = random.Random(f"{game}-{seed}")
    met: list[str] = []
    for number in range(SAMPLE_GAMES):
        players = chooser.randint(kind.rules.min_players, min(kind.rules.max_players, kind.rules.min_players + 2))
        game_seed = f"{number + 1:064x}"
        if kind.rules.uses_chance:
            state = settle_from_seed(kind.rules, kind.rules.seeded_state(players, options, game_seed), game_seed, 0)[0]
        else:
            state = kind.rules.initial_state(players, options)
        for ply in range(SAMPLE_PLIES):
            met.append(kind.notation.format_position(state))
            if kind.rules.is_over(state):
                break
            lazy = getattr(kind.rules, "iter_turns", None)
            turns = list(islice(lazy(state), 400)) if callable(lazy) else kind.rules.legal_turns(state)
            state = kind.rules.apply(state, chooser.choice(turns))
            if kind.rules.uses_chance:
                state = settle_from_seed(kind.rules, state, game_seed, ply + 1)[0]
    picked = sorted(chooser.sample(range(len(met)), min(count, len(met))))
    return {k: str(v) for k, v in options.items()}, [met[i] for i in picked]


def sample_ms(game: str) -> list[float]:
    """Each sampled position's time (ms) to draw, warm caches: the median of
    three drawings, after one."""
    options, found = random_positions(game)
    times = []
    for position in found:
        diagrams.render_fresh(game, options, position, "png")
        runs = []
        for _ in range(3):
            started = time.perf_counter()
            diagrams.render_fresh(game, options, position, "png")
            runs.append((time.perf_counter() - started) * 1000)
        times.append(statistics.median(runs))
    return times


def rows(database: Database) -> list[Row]:
    """Two rows per hosted game: its few fixed positions (the worst median),
    and the median of a wide sample of random-play positions (``SAMPLE``),
    with its 90th percentile and worst in the note."""
    found = []
    for game in registry.names():
        ms = measure(game)
        note = (f"{game}: start {ms['start']:.2f} ms, {TURNS_IN.get(game, 12)} turns in {ms['later']:.2f} ms "
                f"(cold {ms['cold']:.1f} ms); was {ms['was start']:.1f} / {ms['was later']:.1f} ms")
        if "late" in ms:
            note += f"; {LATE[game]} turns in {ms['late']:.2f} ms, was {ms['was late']:.1f} ms"
        worst = max(ms["start"], ms["later"], ms.get("late", 0.0))
        found.append(Row(f"{PATH} ({game})", database.name, "under", GOAL_MS, worst, note=note))
        sample = sorted(sample_ms(game))
        p90 = sample[min(len(sample) - 1, int(0.9 * len(sample)))]
        found.append(Row(f"{PATH}, {len(sample)} random-play positions ({game})", database.name, "under", GOAL_MS,
                         statistics.median(sample),
                         note=f"{game}: {len(sample)} positions of random play, median {statistics.median(sample):.2f}"
                              f" ms, p90 {p90:.2f} ms, worst {sample[-1]:.2f} ms"))
    return found
