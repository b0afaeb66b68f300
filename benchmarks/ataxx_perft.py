"""Ataxx perft speed: our bitboard perft (``pbem position perft ataxx``)
against the ``ataxx`` package from PyPI (``Board.perft``), on the same
machine in the same run.  Run by hand::

    .venv/bin/python benchmarks/ataxx_perft.py            # depth 5
    .venv/bin/python benchmarks/ataxx_perft.py --depth 4

Prints, per position, the count (both must agree), both times and the
ratio (package time / our time: above 1 means we are faster), then the
time of the real command line for the start position.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

import ataxx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from notation import registry  # noqa: E402  (importable once the repository is on the path)

# name -> (FEN, how many plies less than --depth: busy positions branch far more)
POSITIONS = {
    "start": ("x5o/7/7/7/7/7/o5x x 0 1", 0),
    "4 corners": ("x5o/7/2-1-2/7/2-1-2/7/o5x x 0 1", 0),
    "4 sides": ("x5o/7/3-3/2-1-2/3-3/7/o5x x 0 1", 0),
    "middle game": ("x1o2o1/1xo1ox1/2x1x2/1o1x3/3o1x1/1x3o1/o2x2x o 3 12", 2),
    "end game": ("xxoooxx/xoxxo2/oxo--xx/xo-x-ox/o1xxoxo/2xooxx/o3x2 x 0 30", 1),
}


def timed(function, *args) -> tuple[int, float]:
    start = time.perf_counter()
    value = function(*args)
    return value, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, default=5)
    args = parser.parse_args()
    kind = registry.get("ataxx")
    print(f"depth {args.depth}; ataxx package {ataxx.__version__}; Python {sys.version.split()[0]}")
    print(f"{'position':<12} {'depth':>5} {'nodes':>10} {'ours (s)':>9} {'ataxx (s)':>10} {'ratio':>7}")
    total_ours = total_theirs = 0.0
    for name, (fen, less) in POSITIONS.items():
        depth = max(1, args.depth - less)
        state = kind.notation.parse_position(fen)
        ours, ours_time = timed(kind.rules.count_leaves, state, depth)
        theirs, theirs_time = timed(ataxx.Board(fen).perft, depth)
        if ours != theirs:
            raise SystemExit(f"{name}: counts differ: ours {ours}, ataxx {theirs}")
        total_ours += ours_time
        total_theirs += theirs_time
        print(f"{name:<12} {depth:>5} {ours:>10} {ours_time:>9.3f} {theirs_time:>10.3f} {theirs_time / ours_time:>6.1f}x")
    print(f"{'all':<12} {'':>5} {'':>10} {total_ours:>9.3f} {total_theirs:>10.3f} {total_theirs / total_ours:>6.1f}x")
    pbem = Path(sys.executable).with_name("pbem")
    start = POSITIONS["start"][0]
    command = [str(pbem), "position", "perft", "ataxx", start, str(args.depth)]
    output, elapsed = timed(lambda: subprocess.run(command, capture_output=True, text=True, check=True).stdout)
    print(f"\n$ pbem position perft ataxx '{start}' {args.depth}\n{output.strip()}  ({elapsed:.2f} s, start-up included)")


if __name__ == "__main__":
    main()
