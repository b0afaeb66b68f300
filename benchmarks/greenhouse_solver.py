"""Martian Greenhouse solver: par on a table of deals.  Run by hand::

    .venv/bin/python benchmarks/greenhouse_solver.py             # 10 s per deal
    .venv/bin/python benchmarks/greenhouse_solver.py --seconds 30

Prints, per deal (seed, stashes, number of orders drawn from the seed), the
time taken, the fewest breedings found (par; "-" when none within the
budget), the lower bound proven, and whether the budget ran out.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.greenhouse import GreenhouseGame, solver

RULES = GreenhouseGame()
DEALS = [
    (f"{n:064x}", stashes, orders)
    for stashes, orders in (("rb", 1), ("rb", 2), ("rbpc", 1), ("rbpc", 2), ("rbpc", 3), ("rbpc", 4))
    for n in (1, 2, 3)
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="budget per deal (default 10)")
    parser.add_argument("--nodes", type=int, default=200_000, help="node budget per deal (default 200000)")
    args = parser.parse_args()
    print(f"budget per deal: {args.seconds:g} s, {args.nodes} nodes; Python {sys.version.split()[0]}")
    print(f"{'seed':<10} {'stashes':<8} {'orders':>6} {'time (s)':>9} {'found':>6} {'lower':>6} {'nodes':>8}  cut short")
    for seed, stashes, orders in DEALS:
        state = RULES.seeded_state(1, {"stashes": stashes, "orders": str(orders)}, seed)
        par = solver.solve(state, max_nodes=args.nodes, max_seconds=args.seconds)
        found = "-" if par.found is None else str(par.found)
        print(f"{seed[-8:]:<10} {stashes:<8} {orders:>6} {par.seconds:>9.2f} {found:>6} {par.lower_bound:>6} "
              f"{par.nodes:>8}  {'yes' if par.cut_short else 'no'}", flush=True)


if __name__ == "__main__":
    main()
