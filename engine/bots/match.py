"""Matches between bot levels, and the confidence interval of their score.

``play_game`` plays one game between levels seated in order, each bot
given only its view, chance settled from a seed derived from the match's
seed (as the server settles it: ``engine.base.settle_from_seed``).
``match`` plays ``games`` of them, the levels changing seats each game,
and scores the first level: 1 a win, 0.5 a draw (or a shared win), 0 a
loss; ``interval`` gives the 95% confidence interval of that score.
One-player games play each level on the same deal and compare them by
the game's own score (``solitaire_points``): a level that wins (every
order filled, in Martian Greenhouse) beats one that does not, and of two
that win, the one with the lower score (fewer breedings: a solitaire's
score is golf, as its puzzles' par) wins.
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from engine.base import Rules, settle_from_seed
from engine.bots.levels import Level, level_named
from engine.bots.payoff import final
from engine.bots.player import choose

MAX_PLIES = 300  # a game still going after this many turns counts as a draw (one player: a loss)


def game_seed(seed: Any, index: int) -> str:
    """The 64-hex chance seed of game ``index`` of a match."""
    return hashlib.sha256(f"{seed}/{index}".encode()).hexdigest()


@dataclass(frozen=True)
class Played:
    payoffs: tuple[float, ...]  # per seat, as engine.bots.payoff.final
    plies: int
    state: Any


def play_game(game: Rules[Any, Any], levels: Sequence[Level | str], seed: Any, options: Mapping[str, Any] | None = None,
              timed: bool = False) -> Played:
    """One game, seat ``i`` played by ``levels[i]``."""
    levels = [lv if isinstance(lv, Level) else level_named(lv) for lv in levels]
    chance_seed = game_seed(seed, 0)
    if game.uses_chance:
        state = game.seeded_state(len(levels), options, chance_seed)
    else:
        state = game.initial_state(len(levels), options)
    state, _ = settle_from_seed(game, state, chance_seed, 0)
    ply = 0
    while not game.is_over(state) and ply < MAX_PLIES:
        seat = game.to_move(state)
        if seat is None:
            break
        turn = choose(game, game.view(state, seat), seat, levels[seat], seed=f"{seed}/{ply}", timed=timed).turn
        state = game.apply(state, turn)
        ply += 1
        state, _ = settle_from_seed(game, state, chance_seed, ply)
    if not game.is_over(state):
        return Played((0.0,) if len(levels) == 1 else (0.5,) * len(levels), ply, state)
    return Played(final(game, state), ply, state)


def solitaire_outcome(game: Rules[Any, Any], played: Played) -> tuple[float, float | None]:
    """What a one-player game's comparison reads of it: the payoff (1 won)
    and, when won, the game's score (``Rules.scores``; None without one)."""
    got = played.payoffs[0]
    scores = game.scores(played.state) if got == 1.0 else None
    return got, (scores[0] if scores else None)


def outcome_points(mine: tuple[float, float | None], theirs: tuple[float, float | None]) -> float:
    """Points of one ``solitaire_outcome`` against another on the same deal:
    1 won where the other lost, or both won and ``mine`` with the lower
    score (golf: fewer breedings); 0.5 the same outcome and score; else 0."""
    (got, score), (versus, other) = mine, theirs
    if got != versus:
        return 1.0 if got > versus else 0.0
    if got == 1.0 and score is not None and other is not None and score != other:
        return 1.0 if score < other else 0.0
    return 0.5


def solitaire_points(game: Rules[Any, Any], mine: Played, theirs: Played) -> float:
    """A one-player game's points for ``mine`` against ``theirs`` on the
    same deal (``outcome_points``)."""
    return outcome_points(solitaire_outcome(game, mine), solitaire_outcome(game, theirs))


def seated(first: Any, second: Any, index: int, players: int = 2) -> tuple[int, list[Any]]:
    """Game ``index`` of a match: ``first``'s seat (it takes each seat in
    turn) and the levels by seat, ``second`` in every other seat."""
    seat = index % players
    levels = [second] * players
    levels[seat] = first
    return seat, levels


@dataclass(frozen=True)
class MatchResult:
    levels: tuple[str, str]
    games: int
    score: float  # the first level's points
    wins: int
    draws: int
    losses: int
    low: float  # 95% interval of the first level's score share
    high: float

    @property
    def share(self) -> float:
        return self.score / self.games if self.games else 0.0

    def line(self) -> str:
        return (f"{self.levels[0]} vs {self.levels[1]}: {self.score:g}/{self.games} "
                f"({self.wins} won, {self.draws} drawn, {self.losses} lost), "
                f"{100 * self.share:.0f}% [95% interval {100 * self.low:.0f}-{100 * self.high:.0f}%]")


def interval(score: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson 95% interval of a share ``score / games``."""
    if games == 0:
        return 0.0, 1.0
    p = score / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return max(0.0, centre - half), min(1.0, centre + half)


def match(game: Rules[Any, Any], first: str, second: str, games: int, seed: Any = 0, players: int = 2,
          options: Mapping[str, Any] | None = None, timed: bool = False) -> MatchResult:
    """``games`` games of ``first`` against ``second`` (the rest of the
    seats, in games of more players), ``first`` taking each seat in turn."""
    score, wins, draws, losses = 0.0, 0, 0, 0
    players = max(game.min_players, min(players, game.max_players))
    for index in range(games):
        if players == 1:
            points = solitaire_points(game, play_game(game, [first], (seed, index), options, timed),
                                      play_game(game, [second], (seed, index), options, timed))
        else:
            seat, levels = seated(first, second, index, players)
            points = play_game(game, levels, (seed, index), options, timed).payoffs[seat]
        score += points
        wins += points == 1.0
        losses += points == 0.0
        draws += 0.0 < points < 1.0
    low, high = interval(score, games)
    return MatchResult((first, second), games, score, wins, draws, losses, low, high)
