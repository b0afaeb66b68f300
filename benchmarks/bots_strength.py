"""The bots' strength table, kept across runs, and their think time.

Strength: for each game, each level against random play and against the
level below it, one game at a time, seats alternating (the first level
scored: 1 a win, 0.5 a draw, 0 a loss); for Ataxx, the strongest level
also plays a greedy reference player written here from the PyPI ``ataxx``
package's move generator (it plays the move that leaves it the most pieces
ahead).  Martian Greenhouse, a solitaire, plays each level on the same
deal (the game's default: four stashes, four orders) and scores them by
the game's own score (``engine.bots.match.solitaire_points``): 1 every
order filled where the other failed, or both filled and in fewer
breedings; 0.5 the same.  Its rows share their deals: game ``i`` of every
row is played on the game's deal ``i``, and a level's outcome on a deal
is kept (``solitaire`` in the results, by the bots' tag) for its other
rows, so each level plays each deal once, not once per row (rows begun
before, which have no ``deals``, keep the deals seeded by the row).

The bots play as the server plays them.  Most games' bots think within
their levels' CPU caps without them (``--times --untimed``), so they play
without the cap (``timed=False``) and a game depends only on its seed.
The games in ``TIMED`` (Alheimur, Martian Greenhouse) think several times
longer than their caps allow untimed, so the server, which caps every
bot turn, plays them with a fraction of their playouts (or of their
solver's sequences): their rows play with the cap on, as the server does,
and their results depend on this machine's speed as the levels do.  Play
them with no more processes (``--jobs``) than cores.

Each finished game is added to ``benchmarks/results/bots_strength.json``
(per row: games, score, wins/draws/losses, CPU seconds and the indexes of
the games played), so runs add up: a later run plays the next games of
each row, new seeds, until ``--games`` are done.  ``--seconds`` bounds a
run (the games still being played then are dropped; the finished ones are
kept), ``--jobs`` plays games in parallel processes.  Two runs at once
(say one of capped rows, one of untimed) must not share the file: the
second keeps its games in a file of its own (``--results FILE``, begun
from a copy of the committed one) and ``--merge FILE`` adds its rows back.
``--against random`` or ``--against below`` plays only those rows.

Each row also keeps the ``bots`` tag of the games in it: the game's bot
version (``Hooks.version``, raised whenever a change makes the game's bot
play differently; a row of levels that a change left as they were, named
in ``Hooks.kept``, keeps the version they last changed at) and the benchmark's options for the game (Martian
Greenhouse's deal).  A row whose tag is not the current one holds games of
older bots: a run moves it to ``stale`` (kept, not counted) and plays the
row again from game 0; the table counts only rows of the current tag.
A change undone (its version with it) brings its rows back from ``stale``.

    .venv/bin/python benchmarks/bots_strength.py --only ataxx --only attactics --seconds 3600
    .venv/bin/python benchmarks/bots_strength.py --top easy --games 20 --jobs 2
    .venv/bin/python benchmarks/bots_strength.py --only logger --levels strongest --against random \
        --games 75 --results /tmp/other.json                       # beside another run
    .venv/bin/python benchmarks/bots_strength.py --merge /tmp/other.json
    .venv/bin/python benchmarks/bots_strength.py --table          # the table, from the stored results
    .venv/bin/python benchmarks/bots_strength.py --times          # CPU per bot turn over whole games

``--times``: the CPU time of a bot turn at the default level, time cap on,
as the server plays.  For each game, one game is played by beginner bots
(their time cap on); the default level then thinks, timed, on ``--turns``
consecutive positions of it from the start, a third and two thirds of the
way through (the positions' own turns, whatever it chose): median and
maximum per game.
"""

from __future__ import annotations

import argparse
import collections
import functools
import json
import multiprocessing
import os
import queue
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any, Iterator

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.base import settle_from_seed
from engine.bots import LEVELS, choose
from engine.bots.hooks import hooks_for, offered, played_as
from engine.bots.levels import DEFAULT_LEVEL
from engine.bots.match import interval, outcome_points, play_game, seated, solitaire_outcome
from engine.bots.payoff import final
from notation import registry

RESULTS = Path(__file__).resolve().parent / "results" / "bots_strength.json"
ORDER = [name for name in LEVELS if name != "random"]
GREEDY = "greedy"  # the Ataxx reference player
TARGETS = {"random": 0.95, "below": 0.65}
GAMES = ("ataxx", "attactics", "logger", "greenhouse", "taiga", "alheimur")
#: the deal each game is played on here (Martian Greenhouse: the default deal, as its puzzles; the
#: small one, stashes rb and one order, never told levels apart)
OPTIONS = {"greenhouse": {"stashes": "rbpc", "orders": "4"}}
#: games whose rows play with the levels' CPU caps on, as the server plays them (``timed`` in their
#: tag): untimed, their turns take several times their caps (Alheimur's medium about 9 s against
#: 1.5 s, Greenhouse's about 4 s), so an untimed row measured bots the server never fields; the other
#: games' untimed turns fit within their caps (docs/bots.md, "CPU per bot turn")
TIMED = frozenset({"alheimur", "greenhouse"})
#: how a solitaire's levels are compared, in its rows' tag: by the game's score (fewer breedings)
SOLITAIRE_SCORING = "by=score"
#: a solitaire row whose game ``i`` is played on the game's deal ``i``, the same in every row, so that
#: a level's game on a deal is played once for all its rows (kept in ``results["solitaire"]``); rows
#: begun before (no ``deals``) keep their deals, seeded by the row
SHARED_DEALS = "shared"


# -- the reference player ------------------------------------------------------

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


def vs_reference(level: str, index: int, seed: str) -> float:
    """Game ``index`` of ``level`` against the greedy reference: the bot's points."""
    kind = registry.get("ataxx")
    game, notation = kind.rules, kind.notation
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
    return final(game, state)[bot_seat] if game.is_over(state) else 0.5


# -- the rows and their games ------------------------------------------------------

def row_key(name: str, level: str, opponent: str) -> str:
    return f"{name}/{level}/{opponent}"


def bots_tag(name: str, *levels: str) -> str:
    """The tag of a game's rows: its bot's version (of the row's ``levels``:
    the latest at which one of them changed, ``Hooks.version_of``; random
    play and the reference player never change) and the options it is
    played with here."""
    options = OPTIONS.get(name)
    game = registry.get(name).rules
    hooks = hooks_for(game)
    bots = [hooks.version_of(level) for level in levels if level not in ("random", GREEDY)]
    tag = f"v{max(bots) if bots else hooks.version}"
    tag += (" " + ",".join(f"{k}={v}" for k, v in sorted(options.items())) if options else "")
    tag += f" {SOLITAIRE_SCORING}" if game.max_players == 1 else ""
    return tag + (" timed" if name in TIMED else "")


def row_tag(key: str) -> str:
    """The current tag of row ``key`` (game/level/opponent)."""
    name, level, opponent = key.split("/")
    return bots_tag(name, level, opponent)


def current(results: dict[str, Any], key: str) -> dict[str, Any] | None:
    """The stored row ``key`` when its games are of the current bots."""
    row = results["rows"].get(key)
    return row if row is not None and row.get("bots") == row_tag(key) else None


def retire(results: dict[str, Any]) -> None:
    """Move the rows of older bots (another tag) to ``stale``, and forget
    the solitaire outcomes of older bots; a stale row of the current tag
    (a change of the bots undone, its version with it) counts again."""
    for key in [k for k in results["rows"] if current(results, k) is None]:
        row = results["rows"].pop(key)
        results.setdefault("stale", {})[f"{key} ({row.get('bots', 'untagged')})"] = row
    stale = results.get("stale", {})
    for name in list(stale):
        key, _, tag = name.partition(" (")
        if key.count("/") == 2 and key not in results["rows"] and stale[name].get("bots") == row_tag(key) \
                and tag == f"{stale[name]['bots']})":
            results["rows"][key] = stale.pop(name)
    kept = results.get("solitaire", {})
    for key in [k for k in kept if not k.endswith(f"({bots_tag(k.split('/')[0], k.split(' ')[1])})")]:
        del kept[key]


def rows(names: list[str], levels: list[str]) -> list[tuple[str, str, str]]:
    """(game, level, opponent) of the table, in its order: each of
    ``levels`` that the game offers (``engine.bots.hooks.offered``) against
    random play and against the level the game offers below it."""
    found = []
    for name in names:
        ladder = list(offered(registry.get(name).rules))
        for level in [lv for lv in levels if lv in ladder]:
            found.append((name, level, "random"))
            if ladder.index(level):
                found.append((name, level, ladder[ladder.index(level) - 1]))
        if name == "ataxx" and "strongest" in levels:
            found.append((name, "strongest", GREEDY))
    return found


def solitaire(name: str) -> bool:
    return registry.get(name).rules.max_players == 1


def deal_seed(results: dict[str, Any], name: str, level: str, opponent: str) -> str:
    """The seed of a row's games: a solitaire row of shared deals (every
    row begun since) plays the game's deals, any other row its own."""
    row = results["rows"].get(row_key(name, level, opponent))
    if solitaire(name) and (row is None or row.get("deals") == SHARED_DEALS):
        return f"{name}/deal"
    return row_key(name, level, opponent)


def outcome_key(name: str, seed: str, index: int, level: str) -> str:
    """Where a solitaire level's outcome on a deal is kept: by the bots' tag too."""
    return f"{seed}#{index} {level} ({bots_tag(name, level)})"


def task_for(results: dict[str, Any], name: str, level: str, opponent: str, index: int) -> tuple:
    """A game to play, with the outcomes already known on its deal (a solitaire's)."""
    seed = deal_seed(results, name, level, opponent)
    kept = results.get("solitaire", {})
    known = {lv: tuple(kept[outcome_key(name, seed, index, lv)]) for lv in (level, opponent)
             if outcome_key(name, seed, index, lv) in kept}
    return name, level, opponent, index, seed, known


def play_one(task: tuple) -> tuple[str, int, float, float, str, dict[str, tuple]]:
    """One game of a row (``task_for``): (row key, index, the level's points,
    CPU seconds, the deal's seed, the solitaire outcomes played for it, by level)."""
    name, level, opponent, index, seed, known = task
    start = time.process_time()
    played: dict[str, tuple] = {}
    if opponent == GREEDY:
        points = vs_reference(level, index, seed)
    else:
        game = registry.get(name).rules
        options = OPTIONS.get(name)
        timed = name in TIMED
        if game.max_players == 1:
            for lv in (level, opponent):
                if lv not in known:
                    played[lv] = solitaire_outcome(game, play_game(game, [lv], (seed, index), options, timed))
            outcomes = {**known, **played}
            points = outcome_points(outcomes[level], outcomes[opponent])
        else:
            seat, seats = seated(level, opponent, index)
            points = play_game(game, seats, (seed, index), options, timed).payoffs[seat]
    return row_key(name, level, opponent), index, points, time.process_time() - start, seed, played


def keep_outcomes(results: dict[str, Any], name: str, seed: str, index: int, played: dict[str, tuple]) -> None:
    for lv, outcome in played.items():
        results.setdefault("solitaire", {})[outcome_key(name, seed, index, lv)] = list(outcome)


def load(path: Path | None = None) -> dict[str, Any]:
    path = path or RESULTS
    if path.exists():
        return json.loads(path.read_text())
    return {"rows": {}}


def save(results: dict[str, Any], path: Path | None = None) -> None:
    path = path or RESULTS
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_suffix(".tmp")
    temporary.write_text(json.dumps(results, indent=1, sort_keys=True) + "\n")
    os.replace(temporary, path)


def merge(results: dict[str, Any], other: dict[str, Any]) -> list[str]:
    """Add to ``results`` what a run kept in another file (``--results``,
    begun from a copy of these results): each row of the current bots that
    has games these lack, and the solitaire outcomes.  A row played on in
    both files since (neither's games contain the other's) is a conflict:
    ``ValueError`` naming it, and nothing is changed.  As a run does, the
    rows of older bots are then moved to ``stale`` (``retire``), so that a
    new version's rows played in another file do not leave the old ones
    among the rows (and one the other run played again is set aside before
it is replaced, not overwritten).  The keys of the rows taken."""
    taken, conflicts = [], []
    for key, row in other.get("rows", {}).items():
        if row.get("bots") != row_tag(key):
            continue
        mine = results["rows"].get(key)
        if mine is not None and mine.get("bots") == row["bots"]:
            if set(row["done"]) <= set(mine["done"]):
                continue
            if not set(mine["done"]) <= set(row["done"]):
                conflicts.append(key)
                continue
        taken.append(key)
    if conflicts:
        raise ValueError(f"rows played on in both files: {', '.join(conflicts)}; "
                         "play a row in one file at a time")
    retire(results)  # first: a row of older bots that the other run played again goes to ``stale``
    for key in taken:
        results["rows"][key] = other["rows"][key]
    results.setdefault("solitaire", {}).update(other.get("solitaire", {}))
    retire(results)
    return taken


def add(results: dict[str, Any], key: str, index: int, points: float, cpu: float) -> None:
    row = results["rows"].setdefault(key, {"games": 0, "score": 0.0, "wins": 0, "draws": 0, "losses": 0,
                                           "cpu": 0.0, "done": [], "bots": row_tag(key)})
    if row["games"] == 0 and solitaire(key.split("/")[0]):
        row.setdefault("deals", SHARED_DEALS)
    if index in row["done"]:
        return
    row["games"] += 1
    row["score"] += points
    row["wins"] += points == 1.0
    row["losses"] += points == 0.0
    row["draws"] += 0.0 < points < 1.0
    row["cpu"] = round(row["cpu"] + cpu, 1)
    row["done"] = sorted(row["done"] + [index])


def tasks(results: dict[str, Any], wanted: list[tuple[str, str, str]], games: int) -> Iterator[tuple]:
    """The games still to play for each row to have ``games``, row by row,
    each at the smallest index not played yet."""
    for name, level, opponent in wanted:
        done = set(results["rows"].get(row_key(name, level, opponent), {}).get("done", []))
        index = 0
        for _ in range(games - len(done)):
            while index in done:
                index += 1
            yield name, level, opponent, index
            index += 1


def run(wanted: list[tuple[str, str, str]], games: int, jobs: int, seconds: float | None,
        path: Path | None = None) -> None:
    results = load(path)
    retire(results)
    todo = list(tasks(results, wanted, games))
    if not todo:
        print("every row has its games")
        return
    deadline = None if seconds is None else time.monotonic() + seconds
    print(f"{len(todo)} games to play, {jobs} at a time" + (f", for {seconds:g} s at most" if seconds else ""),
          flush=True)
    pool = multiprocessing.Pool(jobs, maxtasksperchild=20)
    finished: queue.Queue = queue.Queue()
    waiting = collections.deque(todo)

    def submit() -> None:
        # a game is handed out only when a process is free, with the solitaire outcomes known by
        # then: rows are played in order, so a level's games on the deals are played in its first
        # row and read by the next
        pool.apply_async(play_one, (task_for(results, *waiting.popleft()),),
                         callback=finished.put, error_callback=finished.put)

    try:
        for _ in range(min(jobs, len(waiting))):
            submit()
        for _ in todo:
            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                raise TimeoutError
            try:
                got = finished.get(timeout=left)
            except queue.Empty:
                raise TimeoutError from None
            if isinstance(got, BaseException):
                raise got
            key, index, points, cpu, seed, played = got
            keep_outcomes(results, key.split("/")[0], seed, index, played)
            add(results, key, index, points, cpu)
            if waiting:
                submit()
            save(results, path)
            row = results["rows"][key]
            print(f"{key} #{index}: {points:g} ({cpu:.0f} s CPU); row {row['score']:g}/{row['games']}", flush=True)
    except (TimeoutError, multiprocessing.TimeoutError):
        print("time is up: the games being played are dropped, the finished ones kept", flush=True)
    finally:
        pool.terminate()
        pool.join()


# -- the table ------------------------------------------------------------------

def verdict(score: float, games: int, target: float) -> str:
    """PASS when the 95% interval is all above the target, MISS when all
    below, else open (more games needed)."""
    low, high = interval(score, games)
    return "PASS" if low >= target else "MISS" if high < target else "open"


def table(names: list[str], levels: list[str], path: Path | None = None) -> str:
    results = load(path)
    lines = ["| game | level | opponent | score | 95% interval | games | target | verdict |",
             "|---|---|---|---|---|---|---|---|"]
    for name, level, opponent in rows(names, levels):
        row = current(results, row_key(name, level, opponent))
        target = (TARGETS["random"] if opponent == "random" else None if opponent == GREEDY
                  else TARGETS["below"])
        aim = "-" if target is None else f"{100 * target:.0f}%"
        against = "greedy reference (ataxx package)" if opponent == GREEDY else opponent
        if not row or not row["games"]:
            lines.append(f"| {name} | {level} | {against} | not measured | | 0 | {aim} | |")
            continue
        low, high = interval(row["score"], row["games"])
        lines.append(f"| {name} | {level} | {against} | {100 * row['score'] / row['games']:.0f}% | "
                     f"{100 * low:.0f}-{100 * high:.0f}% | {row['games']} | {aim} | "
                     f"{'-' if target is None else verdict(row['score'], row['games'], target)} |")
    return "\n".join(lines)


# -- think time -------------------------------------------------------------------

@functools.lru_cache(maxsize=None)
def beginner_game(name: str, seed: str) -> tuple[tuple[Any, int], ...]:
    """The positions (and the seat to move) of a game of beginner bots, cap
    on, as ``turn_times`` samples them: played once per game and seed."""
    game = registry.get(name).rules
    players = max(game.min_players, min(2, game.max_players))
    state = game.seeded_state(players, None, seed) if game.uses_chance else game.initial_state(players)
    state, _ = settle_from_seed(game, state, seed, 0)
    played, ply = [], 0
    while not game.is_over(state) and ply < 300:
        seat = game.to_move(state)
        if seat is None:
            break
        played.append((state, seat))
        state = game.apply(state, choose(game, game.view(state, seat), seat, "beginner", seed=ply).turn)
        ply += 1
        state, _ = settle_from_seed(game, state, seed, ply)
    return tuple(played)


def turn_times(name: str, level: str, turns: int, seed: str = "ab" * 32, timed: bool = True) -> list[float]:
    """CPU seconds of bot turns at ``level`` on ``turns`` consecutive
    positions from the start, a third and two thirds of the way through a
    game of beginner bots (``beginner_game``); ``timed=False`` drops the
    level's cap, as the strength rows play, so that only its playouts decide."""
    game = registry.get(name).rules
    played = beginner_game(name, seed)
    times = []
    for at in sorted({0, len(played) // 3, 2 * len(played) // 3}):
        for position, seat in played[at:at + turns]:
            start = time.process_time()
            choose(game, game.view(position, seat), seat, level, seed=f"time/{at}", timed=timed)
            times.append(time.process_time() - start)
    return times


def times_table(names: list[str], levels: list[str], turns: int, timed: bool) -> str:
    """CPU seconds per bot turn (``turn_times``) of each game at each level,
    with the level's cap: untimed, a turn over its cap is one the server
    plays with fewer playouts than the strength rows measured."""
    how = "time cap on, as the server plays" if timed else "no time cap, as the strength rows play"
    lines = [f"CPU seconds per bot turn, {how}:",
             "| game | level | turns | median | max | cap |", "|---|---|---|---|---|---|"]
    for name in names:
        for level in levels:
            times = turn_times(name, level, turns, timed=timed)
            played = played_as(registry.get(name).rules, LEVELS[level])  # the default, where a game lacks it
            shown = level if played.name == level else f"{level} (plays as {played.name})"
            cap = played.max_ms
            lines.append(f"| {name} | {shown} | {len(times)} | {statistics.median(times):.2f} | {max(times):.2f} | "
                         + ("none" if cap is None else f"{cap / 1000:g}") + " |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="games wanted per row (default 20)")
    parser.add_argument("--top", default="strongest", choices=ORDER, help="the strongest level to play")
    parser.add_argument("--levels", help="only these levels, comma separated (their rows vs random and below)")
    parser.add_argument("--against", choices=("random", "below"),
                        help="only the rows against random play, or only those against the level below")
    parser.add_argument("--only", action="append", choices=GAMES, help="only these games (repeatable)")
    parser.add_argument("--jobs", type=int, default=1, help="games played at once (processes)")
    parser.add_argument("--seconds", type=float, help="stop after this long, keeping the finished games")
    parser.add_argument("--table", action="store_true", help="print the table from the stored results")
    parser.add_argument("--times", action="store_true",
                        help="time bot turns instead: at the default level, or at --levels")
    parser.add_argument("--turns", type=int, default=3, help="with --times: turns timed at each of 3 places")
    parser.add_argument("--untimed", action="store_true",
                        help="with --times: without the levels' caps, as the strength rows play")
    parser.add_argument("--results", type=Path,
                        help="keep this run's games in this file, not the committed one (begun from a copy of "
                             "it when missing), so that two runs at once do not overwrite each other; "
                             "--merge adds them back")
    parser.add_argument("--merge", type=Path, action="append",
                        help="add the rows another run kept (--results) to the committed results")
    args = parser.parse_args()
    if args.merge:
        results = load()
        for path in args.merge:
            try:
                taken = merge(results, load(path))
            except ValueError as refused:
                parser.exit(2, f"{path}: {refused}; nothing was merged\n")
            print(f"{path}: " + (", ".join(taken) or "nothing new"))
        save(results)
        return
    if args.results and not args.results.exists():
        save(load(), args.results)
    names = args.only or list(GAMES)
    levels = ORDER[:ORDER.index(args.top) + 1]
    if args.levels:
        levels = [lv for lv in levels if lv in args.levels.split(",")]
    if args.table:
        print(table(names, levels, args.results))
    elif args.times:
        timed = [lv for lv in levels if lv != "random"] if args.levels else [DEFAULT_LEVEL]
        print(times_table(names, timed, args.turns, not args.untimed))
    else:
        wanted = [r for r in rows(names, levels)
                  if args.against is None or (r[2] == "random") == (args.against == "random")]
        run(wanted, args.games, args.jobs, args.seconds, args.results)
        print(table(names, levels, args.results))


if __name__ == "__main__":
    main()
