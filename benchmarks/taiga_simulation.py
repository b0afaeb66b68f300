"""Taiga simulation: thousands of games between random and greedy players,
2 to 5 players, with the figures the tile set was tuned to
(``notation/taiga/guide.md``, "The tile set, checked by simulation").

    .venv/bin/python benchmarks/taiga_simulation.py            # 2,000 games
    .venv/bin/python benchmarks/taiga_simulation.py --games 400 --jobs 2
    .venv/bin/python benchmarks/taiga_simulation.py --jobs 1 --seconds 1800   # at most half an hour

Three kinds of game are played for each player count: every player random (a
random place for a random tile, then at random nothing, a meeple or a truck:
``random_turn``), one greedy player (seat rotating) against random ones, and
every player greedy (two fifths, two fifths and one fifth of the games).  The greedy player tries each tile placement with each meeple,
keeper or truck it allows and keeps the turn that leaves the best estimate
of its final money (``estimate``), which plans for logging (a forest its
camps reach promises logging to a surveyor or lumberjack in it, and a truck
on its camps' roads is worth the logging it makes possible).  Chance is
drawn from per-game seeds, as the server draws it.

Reported: every game finishes; the share of drawn tiles that fit nowhere;
forests completed and logged per game; the spread of final scores (mean,
spread between best and worst, games with every score tied); how often the
greedy player wins against random players.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import random
import signal
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.base import settle_from_seed
from engine.taiga import TaigaGame
from engine.taiga import board as maps
from engine.taiga.scoring import camp_reach, token_value
from engine.taiga.state import TRUCK_COST, Discard, Place, TaigaState

GAME = TaigaGame()
#: a game that has not ended after this many turns has failed to finish
TURN_BOUND = 1000

#: what the tile set was tuned to reach
TARGETS = {
    "finished": "every game finishes",
    "unplaceable": "under 3% of drawn tiles fit nowhere",
    "completed": "at least 6 forests completed a game when every player is greedy",
    "logged": "at least 1 forest logged a game when every player is greedy",
    "greedy": "the greedy player wins most games against random players (over 50%)",
    "tied": "under 5% of the games with a greedy player end with every score tied",
}


#: camp reaches already worked out: (map, keepers, player) -> camp_reach's
#: answer; the greedy player asks for the same few many times a turn
_REACHES: dict = {}
#: what a truck on a camp's roads is worth before the logging it promises
TRUCK_KEPT = 3


def reaches_of(state: TaigaState, board: maps.Map, player: int) -> list[tuple[set, set]]:
    """``camp_reach`` of ``player``, remembered for the map and its keepers."""
    keepers = tuple(sorted((p.x, p.y, p.player) for p in state.pieces if p.role == "keeper"))
    key = (state.placed, keepers, player)
    found = _REACHES.get(key)
    if found is None:
        if len(_REACHES) > 20000:
            _REACHES.clear()
        found = _REACHES[key] = camp_reach(state, board, player)
    return found


def _species_worth(tokens: tuple[str, ...], forest: maps.Forest) -> int:
    """What the species tokens of ``forest`` would add to ``tokens``."""
    gained = tokens + tuple(s for _, _, s in forest.species)
    return token_value(gained) - token_value(tokens)


def estimate(state: TaigaState, player: int) -> float:
    """What ``player`` may end with: money and tokens, plus a share of what
    their surveyors, lumberjacks, camps and trucks promise.  Logging is
    planned for: a forest a camp of the player's reaches by road promises
    more to a surveyor (it may become a lumberjack and be logged) and to a
    lumberjack (a truck on the route logs it), and a truck on a camp's
    roads is worth the logging it makes possible."""
    board = maps.analyse(state.placed)
    money = state.money[player]
    value = float(money) + token_value(state.tokens[player])
    reaches = reaches_of(state, board, player)
    reached: set = set()
    served: set = set()
    for segments, forests in reaches:
        reached |= segments
        served |= forests
        value += 2 + 3 * sum(1 for f in forests if board.forests[f].complete) + 0.7 * len(forests)
    trucks = sum(1 for p in state.pieces if p.role == "truck" and p.player == player
                 and (p.x, p.y, p.spot) in reached)
    prospects = 0.0  # the logging a truck on the camps' roads would make possible
    for piece in state.pieces:
        if piece.player != player:
            continue
        if piece.role == "surveyor":
            forest = board.forest_at((piece.x, piece.y, piece.spot))
            value += 0.7 * forest.size - 0.2 * forest.open
            if forest.key in served:  # it may be logged once completed
                value += 0.5 * forest.size
                prospects += forest.size
        elif piece.role == "lumberjack":
            forest = board.forest_at((piece.x, piece.y, piece.spot))
            worth = 2 * forest.size + forest.value + _species_worth(state.tokens[player], forest)
            if forest.key in served:  # a truck on the route logs it at once
                # (a truck bought for it stays, worth TRUCK_KEPT at least)
                value += worth - (0 if trucks else TRUCK_COST - TRUCK_KEPT) if money >= TRUCK_COST or trucks \
                    else 0.7 * worth
                prospects += 2 * forest.size
            else:
                value += (0.5 if board.served_by.get(forest.key) else 0.3) * worth
    if trucks:
        value += min(TRUCK_COST + 3, TRUCK_KEPT + prospects)
    return value + 0.4 * state.meeples_left(player)


def greedy_turn(state: TaigaState, rng: random.Random):
    """The legal turn that leaves the best ``estimate`` for the mover
    (trucks only where a camp of theirs reaches; ties broken at random)."""
    player = GAME.to_move(state)
    board = maps.analyse(state.placed)
    reached = set()
    for segments, _ in reaches_of(state, board, player):
        reached |= segments
    best, best_value = [], None
    for turn in GAME.iter_turns(state):
        if isinstance(turn, Place) and turn.truck is not None and turn.truck not in reached:
            continue
        value = estimate(GAME.apply(state, turn), player)
        if best_value is None or value > best_value + 1e-9:
            best, best_value = [turn], value
        elif abs(value - best_value) <= 1e-9:
            best.append(turn)
    return rng.choice(best)


def random_turn(state: TaigaState, rng: random.Random):
    """A random player's turn: a tile and place drawn uniformly from every
    place and turn where the drawn tile or a discard fits, then nothing, a
    meeple or a truck (each kind as likely, among those allowed), each
    choice at random."""
    if state.pending or state.drawn is None:
        return rng.choice(GAME.legal_turns(state))
    codes = list(dict.fromkeys((state.drawn,) + state.discards))
    bare = [Place(code, x, y, t) for code in codes for x, y, t in maps.placements(state.placed, code)]
    if not bare:
        return rng.choice(GAME.legal_turns(state))
    turns = list(GAME.turns_at(state, rng.choice(bare)))
    kinds: dict[str, list] = {}
    for turn in turns:
        kinds.setdefault("truck" if turn.truck else "meeple" if turn.meeple else "none", []).append(turn)
    return rng.choice(kinds[rng.choice(sorted(kinds))])


@dataclass
class Outcome:
    players: int
    greedy: int | None  # the greedy seat; -1: every player greedy
    finished: bool
    draws: int = 0
    unplaceable: int = 0
    completed: int = 0
    logged: int = 0
    scores: tuple[int, ...] = ()
    winners: tuple[int, ...] = ()
    turns: int = 0


def play(players: int, greedy: int | None, index: int) -> Outcome:
    seed = hashlib.sha256(f"taiga simulation {players} {greedy} {index}".encode()).hexdigest()
    rng = random.Random(seed)
    state, happened = settle_from_seed(GAME, GAME.seeded_state(players, {}, seed), seed, 0)
    outcome = Outcome(players, greedy, False, draws=len(happened))
    while not GAME.is_over(state):
        if outcome.turns >= TURN_BOUND:
            return outcome
        mover = GAME.to_move(state)
        turn = greedy_turn(state, rng) if greedy in (mover, -1) else random_turn(state, rng)
        if isinstance(turn, Discard):
            outcome.unplaceable += 1
        outcome.turns += 1
        state, happened = settle_from_seed(GAME, GAME.apply(state, turn), seed, outcome.turns)
        outcome.draws += len(happened)
    board = maps.analyse(state.placed)
    outcome.finished = True
    outcome.completed = sum(1 for f in board.forests.values() if f.complete)
    outcome.logged = len(state.logged)
    outcome.scores = GAME.scores(state)
    outcome.winners = GAME.result(state).winners
    return outcome


def _play(args: tuple[int, int | None, int]) -> Outcome:
    return play(*args)


@dataclass
class Summary:
    games: int = 0
    finished: int = 0
    draws: int = 0
    unplaceable: int = 0
    completed: list[int] = field(default_factory=list)
    logged: list[int] = field(default_factory=list)
    scores: list[int] = field(default_factory=list)
    spreads: list[int] = field(default_factory=list)
    tied: int = 0
    greedy_games: int = 0
    greedy_wins: int = 0
    greedy_sole: int = 0
    turns: list[int] = field(default_factory=list)

    def add(self, o: Outcome) -> None:
        self.games += 1
        self.finished += o.finished
        self.draws += o.draws
        self.unplaceable += o.unplaceable
        self.turns.append(o.turns)
        if not o.finished:
            return
        self.completed.append(o.completed)
        self.logged.append(o.logged)
        self.scores.extend(o.scores)
        self.spreads.append(max(o.scores) - min(o.scores))
        self.tied += len(set(o.scores)) == 1
        if o.greedy is not None and o.greedy >= 0:
            self.greedy_games += 1
            self.greedy_wins += o.greedy in o.winners
            self.greedy_sole += o.winners == (o.greedy,)

    def lines(self, label: str) -> list[str]:
        def mean(values):
            return statistics.fmean(values) if values else 0.0

        out = [f"{label}: {self.games} games, {self.finished} finished ({100 * self.finished / max(1, self.games):.1f}%), "
               f"{mean(self.turns):.1f} turns a game",
               f"  drawn tiles that fit nowhere: {self.unplaceable} of {self.draws} "
               f"({100 * self.unplaceable / max(1, self.draws):.2f}%)",
               f"  forests completed a game: {mean(self.completed):.1f}; logged a game: {mean(self.logged):.2f}",
               f"  final scores: mean {mean(self.scores):.1f}, standard deviation "
               f"{statistics.pstdev(self.scores) if self.scores else 0:.1f}, best minus worst {mean(self.spreads):.1f} "
               f"a game; every score tied in {self.tied} games ({100 * self.tied / max(1, self.finished):.1f}%)"]
        if self.greedy_games:
            out.append(f"  greedy player among the winners in {self.greedy_wins} of {self.greedy_games} games "
                       f"({100 * self.greedy_wins / self.greedy_games:.1f}%), alone in {self.greedy_sole} "
                       f"({100 * self.greedy_sole / self.greedy_games:.1f}%)")
        return out


def _mean(values: list[int]) -> float:
    return statistics.fmean(values) if values else 0.0


def _stop(signum, frame) -> None:
    raise KeyboardInterrupt


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="games in all (default 2000)")
    parser.add_argument("--jobs", type=int, default=2, help="processes (default 2)")
    parser.add_argument("--progress", type=int, default=0, help="say every N games how far it is")
    parser.add_argument("--seconds", type=float, default=0,
                        help="stop after this long and report the games played so far (default: no bound)")
    args = parser.parse_args(argv)
    per = max(1, args.games // 20)  # per player count: 2 parts random, 2 one greedy, 1 all greedy
    work = [(n, None, i) for n in range(2, 6) for i in range(2 * per)]
    work += [(n, i % n, i) for n in range(2, 6) for i in range(2 * per)]
    work += [(n, -1, i) for n in range(2, 6) for i in range(per)]
    random.Random(0).shuffle(work)  # the kinds mixed, so that a run cut short is still balanced
    start = time.perf_counter()
    outcomes: list[Outcome] = []
    pool = ProcessPoolExecutor(args.jobs)
    stopped = False
    results = pool.map(_play, work, chunksize=4)  # the workers start here, with the default SIGTERM
    signal.signal(signal.SIGTERM, _stop)  # kill -TERM <this process>: report the games played so far
    try:
        for outcome in results:
            outcomes.append(outcome)
            if args.progress and len(outcomes) % args.progress == 0:
                print(f"... {len(outcomes)} games, {time.perf_counter() - start:.0f} s", file=sys.stderr, flush=True)
            if args.seconds and time.perf_counter() - start > args.seconds and len(outcomes) < len(work):
                raise KeyboardInterrupt  # the bound: report what was played (the kinds are mixed)
    except KeyboardInterrupt:
        print(f"stopped after {len(outcomes)} of {len(work)} games", flush=True)
        stopped = True
        for process in list(getattr(pool, "_processes", {}).values()):  # the games still being played
            process.terminate()
    finally:
        pool.shutdown(wait=False, cancel_futures=True)
    took = time.perf_counter() - start
    print(f"Taiga simulation: {len(outcomes)} games in {took:.0f} s ({args.jobs} processes)")
    kinds = {"random": lambda o: o.greedy is None, "one greedy": lambda o: o.greedy is not None and o.greedy >= 0,
             "all greedy": lambda o: o.greedy == -1}
    parts = {label: Summary() for label in kinds}
    total = Summary()
    for n in range(2, 6):
        for label, chosen in kinds.items():
            part = Summary()
            for o in outcomes:
                if o.players == n and chosen(o):
                    part.add(o)
            print("\n".join(part.lines(f"{n} players, {label}")))
    for o in outcomes:
        total.add(o)
        for label, chosen in kinds.items():
            if chosen(o):
                parts[label].add(o)
    for label, part in parts.items():
        print("\n".join(part.lines(f"all {label} games")))
    print("\n".join(total.lines("all games")))
    purposeful = Summary()
    for o in outcomes:
        if o.greedy is not None:
            purposeful.add(o)
    print("\nTargets:")
    checks = {
        "finished": total.finished == total.games,
        "unplaceable": total.unplaceable < 0.03 * max(1, total.draws),
        "completed": _mean(parts["all greedy"].completed) >= 6,
        "logged": _mean(parts["all greedy"].logged) >= 1,
        "greedy": parts["one greedy"].greedy_wins > 0.5 * max(1, parts["one greedy"].greedy_games),
        "tied": purposeful.tied < 0.05 * max(1, purposeful.finished),
    }
    for key, text in TARGETS.items():
        print(f"  [{'met' if checks[key] else 'NOT MET'}] {text}")
    code = 0 if all(checks.values()) else 1
    if stopped:  # the workers are still busy with games nobody will read: do not wait for them
        sys.stdout.flush()
        os._exit(code)
    return code


if __name__ == "__main__":
    sys.exit(main())
