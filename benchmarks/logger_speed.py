"""Logger speed: random self-play games per second and legal-turn
generation per position.  Run by hand: ``.venv/bin/python benchmarks/logger_speed.py``."""

from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from notation.registry import get

RULES = get("logger").rules


def self_play(games: int, players: int, seed: int) -> tuple[float, int, list]:
    rng = random.Random(seed)
    positions = []
    plies = 0
    start = time.perf_counter()
    for _ in range(games):
        state = RULES.initial_state(players)
        while not RULES.is_over(state):
            positions.append(state)
            state = RULES.apply(state, rng.choice(RULES.legal_turns(state)))
            plies += 1
    return time.perf_counter() - start, plies, positions


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 300
    print(f"Logger, {games} random self-play games per player count")
    all_positions = []
    for players in (2, 3, 4):
        seconds, plies, positions = self_play(games, players, players)
        all_positions.extend(positions)
        print(
            f"  {players} players: {games / seconds:8.1f} games/s  {plies / seconds:9.0f} turns/s  "
            f"({plies / games:.1f} turns a game)"
        )
    sample = all_positions[:: max(1, len(all_positions) // 5000)]
    start = time.perf_counter()
    turns = sum(len(RULES.legal_turns(s)) for s in sample)
    seconds = time.perf_counter() - start
    print(
        f"legal-turn generation: {len(sample) / seconds:9.0f} positions/s, "
        f"{seconds / len(sample) * 1e6:7.1f} us a position, {turns / len(sample):.1f} turns a position"
    )


if __name__ == "__main__":
    main()
