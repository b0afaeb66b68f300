"""Alheimur random self-play in bulk, by hand (the test suite plays a
dozen games; the issue asks for thousands)::

    .venv/bin/python benchmarks/alheimur_selfplay.py --games 1000 --players 2 4 8 [--first 0]

Each game is played as the server plays it (turn texts written and read
back, chance settled from the seed); after every ply the invariants of
``tests/test_alheimur_selfplay.py`` are checked, and the game's record is
replayed from its text and its rolls.  Prints games, plies, battles' dice
and time per player count; stops at the first failure with its seed.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from test_alheimur_notation import rich_game
from test_alheimur_selfplay import check

from notation import record as records
from notation import registry


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--players", type=int, nargs="+", default=[2, 4, 8])
    parser.add_argument("--first", type=int, default=0, help="the first game's number (its seed): runs add up")
    args = parser.parse_args()
    kind = registry.get_any("alheimur")
    for players in args.players:
        start = time.perf_counter()
        plies = dice = 0
        for game in range(args.first, args.first + args.games):
            seed = f"{players:02x}{game:06x}".ljust(64, "0")
            texts, outcomes, states = rich_game(players, seed, random.Random(game), limit=3000)
            for state in states:
                check(state)
            assert kind.rules.is_over(states[-1]), f"{players} players, seed {seed}: no end in 3000 plies"
            record = records.seeded_record("alheimur", [f"P{i}" for i in range(players)], {}, seed)
            record.turns, record.chance = texts, [list(o) for o in outcomes]
            record.result = records.result_tag(kind, states[-1])
            record.tags[records.SEED] = seed
            assert records.replay(record).final == states[-1], f"seed {seed}: the record does not replay"
            plies += len(texts)
            dice += sum(1 for o in outcomes for x in o if x.purpose in ("attack", "defence"))
        took = time.perf_counter() - start
        print(f"{players} players: {args.games} games (numbers {args.first} to {args.first + args.games - 1}), "
              f"{plies} plies, {dice} rolls, {took:.1f} s")


if __name__ == "__main__":
    main()
