"""How often Attactics' alpha-beta search, within strongest's budget,
plays the turn of the full search to the same depth.

Usage: ``.venv/bin/python benchmarks/bots_alphabeta_depth.py [GAMES]``
(default 6).  Positions are every 9th ply (from the 5th) of GAMES games
between easy and medium bots, untimed; on each, the search of
strongest's level (5 turns ahead within 240,000 positions) and the
search 5 turns ahead within 4,000,000 (in practice, complete) are run.
Printed: per position the depth each completed, its positions and CPU,
and whether their turns agree; then the totals.  benchmarks/results/bots_experiments.md
quotes a run of 6 games (28 positions, 2026-12-03).
"""
import random
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from engine.attactics.bot import evaluate
from engine.bots import choose
from engine.bots.alphabeta import depth_for, search
from engine.bots.levels import level_named
from notation import registry

games = int(sys.argv[1]) if len(sys.argv) > 1 else 6
game = registry.get("attactics").rules
positions = []
for g in range(games):
    state, ply = game.initial_state(2, None), 0
    levels = ["easy", "medium"] if g % 2 == 0 else ["medium", "easy"]
    while not game.is_over(state) and ply < 300:
        seat = game.to_move(state)
        if ply % 9 == 4:
            positions.append(state)
        state = game.apply(state, choose(game, game.view(state, seat), seat, levels[seat], seed=f"p{g}/{ply}",
                                         timed=False).turn)
        ply += 1
strongest = level_named("strongest")
depth, nodes = depth_for(strongest.playouts), 40 * strongest.playouts
depths, agree, cpu = Counter(), 0, [0.0, 0.0]
for i, state in enumerate(positions):
    found = []
    for k, budget in enumerate((nodes, 4_000_000)):
        start = time.process_time()
        found.append(search(game, state, evaluate, depth, budget, None, random.Random(i)))
        cpu[k] += time.process_time() - start
    depths[found[0].depth] += 1
    agree += found[0].turn == found[1].turn
    print(f"{i:3d} strongest: depth {found[0].depth}, {found[0].nodes} positions; full: depth {found[1].depth}, "
          f"{found[1].nodes} positions; {'same turn' if found[0].turn == found[1].turn else 'another turn'}",
          flush=True)
print(f"{len(positions)} positions: strongest completed depths {dict(sorted(depths.items()))}, "
      f"played the full search's turn on {agree}; CPU {cpu[0]:.0f} s and {cpu[1]:.0f} s")
