"""The bots' levels: think budgets, from "beginner" to "strongest".

A level is a number of playouts (simulated games from the position) and a
time cap in milliseconds that stops the search early on a slow machine.  The
playout count alone decides the turn, so a seeded search is reproducible
as long as the cap is not reached; tests and matches may drop the cap.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.errors import OptionError


@dataclass(frozen=True)
class Level:
    name: str
    playouts: int  # 0: a random legal turn, no search
    max_ms: int | None  # stop thinking after this long (None: never)
    help: str


LEVELS: dict[str, Level] = {level.name: level for level in (
    Level("random", 0, None, "a random legal turn (for measuring the others)"),
    Level("beginner", 40, 1000, "a quick look: 40 playouts"),
    Level("easy", 150, 1500, "150 playouts"),
    Level("medium", 300, 1500, "300 playouts, at most 1.5 s"),
    Level("hard", 1500, 6000, "1500 playouts, at most 6 s"),
    Level("strongest", 6000, 20000, "6000 playouts, at most 20 s: the most this machine allows a turn"),
)}

#: the level of a bot when none is named (its turns must take under 2 s of CPU)
DEFAULT_LEVEL = "medium"


def level_named(name: str | None) -> Level:
    """The level called ``name`` (None: the default); ``OptionError``
    naming the levels when there is none."""
    key = (name or DEFAULT_LEVEL).strip().lower()
    if key not in LEVELS:
        raise OptionError(f"there is no bot level {name!r}; the levels are: {', '.join(LEVELS)}")
    return LEVELS[key]
