"""Alheimur: the time to resolve one turn with fleet battles in an
8-player position (target: well under 50 ms).  Run by hand::

    .venv/bin/python benchmarks/alheimur_turn.py

The position: eight worlds and the player to move with a fighter and a
transport in four orbits that each hold ships of the world's owner and of a
third player with a spaceport there; the turn expands, moves and fights
all four battles, every die rolled from a seed as the server does.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from alheimur_helpers import GAME, position, world

from engine.alheimur.pieces import Expand, Fly, Turn
from engine.base import settle_from_seed

SEED = "be" * 32
HOME = "a4={p}:1 b4={p}:2 c4={p}:1 a3={p}:1 b3={p}:3"


def busy_position():
    worlds = []
    for p in range(1, 9):
        orbit = ""
        if p in (2, 3, 4, 5):
            third = p + 4
            orbit = f"1F3 1T3 {p}F3 {p}T2 {third}F2 {third}T3"
        on = HOME.format(p=p)
        if p in (2, 3, 4, 5):
            on += f" d1={p + 4}:3"
        worlds.append(world(str(p), on=on, orbit=orbit))
    return position(*worlds, players=8, space="1F3")


def main() -> None:
    state = busy_position()
    turn = Turn((Expand("1", "d4", 1),), (Fly("S", "2", 3, True),), ("5", "4"))
    times = []
    rolls = 0
    for _ in range(30):
        start = time.perf_counter()
        after = GAME.apply(state, turn)
        after, happened = settle_from_seed(GAME, after, SEED, 1)
        times.append(time.perf_counter() - start)
        rolls = len(happened)
    print(f"8 players, 4 battles, {rolls} rolls: median {statistics.median(times) * 1000:.1f} ms, "
          f"max {max(times) * 1000:.1f} ms (target: well under 50 ms)")


if __name__ == "__main__":
    main()
