"""How close a paired comparison's pick comes to a judge of many samples.

Usage: ``.venv/bin/python benchmarks/bots_paired_oracle.py GAME POSITIONS
WIDTH SAMPLES`` (GAME: taiga or alheimur).  Positions are taken every 7th
ply of beginners' games (Alheimur's from play only); each position's
candidates are the ones medium compares (Taiga: the best WIDTH by the
prospects; Alheimur: the glance's best WIDTH), the judge plays SAMPLES
paired samples of every candidate, and ``paired.compare`` (300 playouts
in equal shares) and ``paired.halve`` (300 playouts halved round by round)
each choose 3 times.  Printed: each one's mean regret (the judge's best
value less the judge's value of the pick) and how often it picked the
judge's best, with their CPU.  benchmarks/results/bots_experiments.md quotes a run of
``alheimur 12 10 200`` and ``taiga 12 6 300`` (2026-12-03).
"""
import random
import statistics
import sys
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from engine.base import settle_from_seed
from engine.bots import choose, mcts, paired
from engine.bots.match import game_seed
from notation import registry

name = sys.argv[1]
positions = int(sys.argv[2])
width = int(sys.argv[3])
oracle_n = int(sys.argv[4])
game = registry.get(name).rules
if name == "taiga":
    from engine.taiga import bot as B
    # as Taiga's medium compared its turns until version 8: 3 turns, then the prospects
    hooks = replace(B.HOOKS, playout_plies=3, evaluate=B.evaluate_prospects)
    def cands(view, seat, rng):
        turns = mcts.turns_of(game, view, mcts.turn_limit(300))
        return B.narrowed(game, view, seat, turns, rng, width, B.evaluate_prospects)
else:
    from engine.alheimur import bot as B
    hooks = B.HOOKS
    def cands(view, seat, rng):
        turns = mcts.turns_of(game, view, mcts.turn_limit(300))
        return B.order_turns(game, view, turns, rng)[:width]

views = []
for g in range(100):
    seed = game_seed(f"oracle{g}", 0)
    state = game.seeded_state(2, None, seed)
    state, _ = settle_from_seed(game, state, seed, 0)
    ply = 0
    while not game.is_over(state) and ply < 400:
        seat = game.to_move(state)
        view = game.view(state, seat)
        if ply % 7 == 3 and len(views) < positions and (name != "alheimur" or view.phase == "play"):
            views.append((view, seat))
        turn = choose(game, view, seat, "beginner", seed=f"{g}/{ply}", timed=False).turn
        state = game.apply(state, turn)
        ply += 1
        state, _ = settle_from_seed(game, state, seed, ply)
    if len(views) >= positions:
        break
print(len(views), "positions")
res = {"compare": [], "halve": []}
t = {"compare": 0.0, "halve": 0.0}
for i, (view, seat) in enumerate(views):
    rng = random.Random(i)
    cs = cands(view, seat, rng)
    if len(cs) <= 1:
        continue
    # oracle: values of each candidate with many samples
    totals = [0.0] * len(cs)
    for _sample in range(oracle_n):
        st = hooks.determinize(game, view, seat, rng)
        seed = rng.getrandbits(62)
        paired._sample(game, st, cs, list(range(len(cs))), totals, paired._played(game, hooks, seat), seed)
    val = [x / oracle_n for x in totals]
    best = max(val)
    for trial in range(3):
        for kind in res:
            r = random.Random(1000 * i + trial)
            t0 = time.process_time()
            if kind == "compare":
                f = paired.compare(game, view, seat, cs, 300 // len(cs), r, hooks)
            else:
                f = paired.halve(game, view, seat, cs, 300, r, hooks)
            t[kind] += time.process_time() - t0
            res[kind].append(best - val[cs.index(f.turn)])
    print(i, len(cs), " ".join(f"{v:.3f}" for v in sorted(val, reverse=True)[:4]), flush=True)
for kind, r in res.items():
    print(kind, "mean regret %.4f" % statistics.mean(r), "picked best %d/%d" % (sum(x == 0 for x in r), len(r)), "cpu %.1f" % t[kind])
