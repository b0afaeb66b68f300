"""How much of a Taiga game between two bot levels the camp tiles decide.

    .venv/bin/python benchmarks/taiga_camp_luck.py --levels strongest,strongest --games 60 --jobs 2
    .venv/bin/python benchmarks/taiga_camp_luck.py --levels strongest,beginner --games 24 --jobs 2

A completed forest scores $3 at the end for each camp of a player that a
road reaches it from (rulings 8 and 19), and a camp is kept only by the
player who lays its tile (ruling 5: a meeple goes on the tile just laid);
the set has six camp tiles, drawn at random.  This plays ``--games`` games
of the first level against the second (seats alternating, untimed, as
Taiga's strength rows are played: ``engine.bots.match.play_game``) and
counts the camps each player keeps at the end.  Reported: how often the
two kept as many camps, how often the player with more camps won, the
first level's score with more, as many and fewer camps than the other, and
the **ceiling**: the score of a player who wins every game in which it
keeps as many camps or more and none in which it keeps fewer, with camps
dealt as in these games.  When the player with more camps nearly always
wins, no level can beat one below it by more than about that ceiling
unless it wins games with fewer camps (docs/bots.md, "Taiga's camps").
"""

from __future__ import annotations

import argparse
import collections
import multiprocessing
import sys
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.bots.hooks import level_for
from engine.bots.match import interval, play_game, seated
from engine.errors import OptionError
from notation import registry


@dataclass(frozen=True)
class Game:
    index: int
    points: float  # the first level's: 1 won, 0.5 drawn, 0 lost
    camps: int  # camps the first level keeps at the end
    theirs: int  # camps the second level keeps
    scores: tuple[int, int]  # final money, the first level's first
    cpu: float


def play(task: tuple[str, str, str, int]) -> Game:
    """Game ``index`` of the match (the first level in seat ``index % 2``)."""
    first, second, seed, index = task
    start = time.process_time()
    seat, levels = seated(first, second, index)
    rules = registry.get("taiga").rules
    played = play_game(rules, levels, (seed, index))
    kept = collections.Counter(p.player for p in played.state.pieces if p.role == "keeper")
    scores = rules.scores(played.state)
    return Game(index, played.payoffs[seat], kept[seat], kept[1 - seat], (scores[seat], scores[1 - seat]),
                time.process_time() - start)


def report(first: str, second: str, games: list[Game]) -> str:
    """The match's figures (see the module's docstring), of one game or more."""
    n = len(games)
    more = [g for g in games if g.camps > g.theirs]
    equal = [g for g in games if g.camps == g.theirs]
    fewer = [g for g in games if g.camps < g.theirs]
    unequal = more + fewer
    decided = sum(g.points for g in more) + sum(1 - g.points for g in fewer)

    def score(part: list[Game]) -> str:
        if not part:
            return "none"
        got = sum(g.points for g in part)
        return f"{got:g} of {len(part)} ({100 * got / len(part):.0f}%)"

    total = sum(g.points for g in games)
    low, high = interval(total, n)
    ceiling = (len(more) + len(equal)) / n
    symmetric = (1 + len(equal) / n) / 2
    lines = [
        f"taiga {first} against {second}: {n} games, {total:g} points "
        f"({100 * total / n:.0f}%, 95% interval {100 * low:.0f}-{100 * high:.0f}%), "
        f"{sum(g.cpu for g in games):.0f} s of CPU",
        f"camps kept: as many as the other in {len(equal)} ({100 * len(equal) / n:.0f}%); "
        f"of the {len(unequal)} others, the player with more camps won {decided:g} "
        f"({100 * decided / len(unequal):.0f}%)" if unequal else "camps kept: always as many as the other",
        f"{first} with more camps: {score(more)}; as many: {score(equal)}; fewer: {score(fewer)}",
        f"ceiling (every game with as many camps or more won, none with fewer): {100 * ceiling:.0f}% "
        f"here, {100 * symmetric:.0f}% with the camps dealt evenly between the seats",
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--levels", default="strongest,strongest", help="the two levels, the measured one first")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--seed", default="camps")
    parser.add_argument("--verbose", action="store_true", help="print each game as it ends")
    args = parser.parse_args(argv)
    levels = [lv.strip() for lv in args.levels.split(",")]
    if len(levels) != 2 or args.games < 1 or args.jobs < 1:
        parser.error("give two levels (--levels strongest,beginner), and at least one game and one job")
    for name in levels:
        try:
            level_for(registry.get("taiga").rules, name)
        except OptionError as error:
            parser.error(str(error))
    first, second = levels
    tasks = [(first, second, args.seed, index) for index in range(args.games)]
    games: list[Game] = []
    with multiprocessing.Pool(args.jobs) as pool:
        for game in pool.imap_unordered(play, tasks):
            games.append(game)
            if args.verbose:
                print(f"game {game.index}: {game.points:g}, camps {game.camps} to {game.theirs}, "
                      f"money {game.scores[0]} to {game.scores[1]}, {game.cpu:.0f} s", flush=True)
    print(report(first, second, sorted(games, key=lambda g: g.index)))


if __name__ == "__main__":
    main()
