"""The bots' strength table and their think time.

For each game: each level against random play and against the level below
it (``engine.bots.match``: the first level scored, seats alternating, 95%
Wilson interval); for Ataxx, the strongest level run also plays a greedy
reference player written here from the PyPI ``ataxx`` package's move
generator (it plays the move that leaves it the most pieces ahead); and the
CPU time of a bot turn at the default level, over positions of a game.
Martian Greenhouse, a solitaire, has no opponent: its table is the share of
deals each level fills (every order) against the random player's share, on
the same deals.

    .venv/bin/python benchmarks/bots_strength.py                 # short: ~minutes on 2 cores
    .venv/bin/python benchmarks/bots_strength.py --games 40 --top hard
    .venv/bin/python benchmarks/bots_strength.py --only ataxx --top strongest

The short default (few games, levels up to "medium") finishes here; the
targets of docs/bots.md (95% against random, 65% against the level below)
need more games (``--games``) for the intervals to say so.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.base import settle_from_seed  # noqa: E402
from engine.bots import LEVELS, choose  # noqa: E402
from engine.bots.levels import DEFAULT_LEVEL  # noqa: E402
from engine.bots.match import interval, match  # noqa: E402
from engine.bots.payoff import final  # noqa: E402
from notation import registry  # noqa: E402

ORDER = [name for name in LEVELS if name != "random"]


def reference_ataxx_move(fen: str, rng: random.Random) -> str:
    """The greedy reference player: the ``ataxx`` package's legal moves,
    the one after which the mover is most pieces ahead (ties at random)."""
    import ataxx

    board = ataxx.Board(fen)
    me = board.turn
    best, best_score = [], None
    for move in board.legal_moves():
        board.makemove(move)
        ahead = board.num_black() - board.num_white()
        if me != ataxx.BLACK:
            ahead = -ahead
        board.undo()
        if best_score is None or ahead > best_score:
            best, best_score = [move], ahead
        elif ahead == best_score:
            best.append(move)
    return str(rng.choice(best))


def vs_reference(level: str, games: int, seed: int = 0) -> tuple[float, int]:
    kind = registry.get("ataxx")
    game, notation = kind.rules, kind.notation
    score = 0.0
    for index in range(games):
        rng = random.Random(f"{seed}/{index}")
        bot_seat = index % 2
        state, ply = game.initial_state(2), 0
        while not game.is_over(state) and ply < 400:
            seat = game.to_move(state)
            if seat == bot_seat:
                turn = choose(game, state, seat, level, seed=f"{seed}/{index}/{ply}", timed=False).turn
            else:
                text = reference_ataxx_move(notation.format_position(state), rng)
                turn = notation.parse_turn(state, "pass" if text == "0000" else text)
            state = game.apply(state, turn)
            ply += 1
        score += final(game, state)[bot_seat] if game.is_over(state) else 0.5
    return score, games


def turn_times(name: str, level: str, turns: int) -> list[float]:
    """CPU seconds of ``turns`` bot turns at ``level``, along a game of bots."""
    kind = registry.get(name)
    game = kind.rules
    players = max(game.min_players, min(2, game.max_players))
    seed = "ab" * 32
    state = game.seeded_state(players, None, seed) if game.uses_chance else game.initial_state(players)
    state, _ = settle_from_seed(game, state, seed, 0)
    times, ply = [], 0
    while len(times) < turns and not game.is_over(state):
        seat = game.to_move(state)
        start = time.process_time()
        turn = choose(game, game.view(state, seat), seat, level, seed=ply).turn  # timed, as the server plays
        times.append(time.process_time() - start)
        state = game.apply(state, turn)
        ply += 1
        state, _ = settle_from_seed(game, state, seed, ply)
    return times


def pct(score: float, games: int) -> str:
    low, high = interval(score, games)
    return f"{100 * score / games:3.0f}% [{100 * low:.0f}-{100 * high:.0f}]"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4, help="games per match (default 4: short)")
    parser.add_argument("--top", default=DEFAULT_LEVEL, choices=ORDER, help="the strongest level to measure")
    parser.add_argument("--only", action="append", help="only these games (repeatable)")
    parser.add_argument("--turns", type=int, default=5, help="bot turns timed per game")
    args = parser.parse_args()
    levels = ORDER[:ORDER.index(args.top) + 1]
    names = args.only or registry.names()
    print(f"| game | level | vs random | vs level below | games |")
    print(f"|---|---|---|---|---|")
    for name in names:
        game = registry.get(name).rules
        players = 1 if game.max_players == 1 else 2
        games = args.games if players > 1 else max(2, args.games // 3)
        options = {"stashes": "rb", "orders": "1"} if name == "greenhouse" else None
        for i, level in enumerate(levels):
            r = match(game, level, "random", games, seed=1, players=players, options=options)
            below = "-"
            if i:
                b = match(game, level, levels[i - 1], games, seed=2, players=players, options=options)
                below = pct(b.score, b.games)
            print(f"| {name} | {level} | {pct(r.score, r.games)} | {below} | {games} |", flush=True)
        if name == "ataxx":
            score, played = vs_reference(levels[-1], args.games)
            print(f"| ataxx | {levels[-1]} vs greedy reference (ataxx package) | {pct(score, played)} | | {played} |",
                  flush=True)
    print()
    print(f"CPU seconds per bot turn at the default level ({DEFAULT_LEVEL}), time cap on:")
    print("| game | turns | median | max |")
    print("|---|---|---|---|")
    for name in names:
        times = turn_times(name, DEFAULT_LEVEL, args.turns)
        print(f"| {name} | {len(times)} | {statistics.median(times):.2f} | {max(times):.2f} |", flush=True)


if __name__ == "__main__":
    main()
