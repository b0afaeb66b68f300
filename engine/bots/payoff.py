"""What a finished (or cut-off) game is worth to each player, from 0 to 1.

A finished game pays by the game's own ranking: a player gets the share of
the other players ranked below them, ties counting half (two players: win
1, draw 0.5, loss 0).  A one-player game pays 1 for a win, 0 otherwise.
A playout cut off before the end is worth what the game's ``evaluate``
hook says, else a cautious guess from ``Rules.scores`` (ahead 0.75, behind
0.25), else an even share.
"""

from __future__ import annotations

from typing import Any

from engine.base import Rules, standings


def from_ranking(ranking: list[tuple[int, ...]], players: int) -> tuple[float, ...]:
    """Each player's share of the players ranked below them, ties half."""
    if players == 1:
        return (1.0,) if ranking and ranking[0] == (0,) else (0.0,)
    pay = [0.0] * players
    below = players
    for group in ranking:
        below -= len(group)
        for p in group:
            pay[p] = (below + 0.5 * (len(group) - 1)) / (players - 1)
    return tuple(pay)


def final(game: Rules[Any, Any], state: Any) -> tuple[float, ...]:
    """The payoff of a finished game."""
    players = game.players(state)
    if players == 1:
        result = game.result(state)
        return (1.0,) if result is not None and 0 in result.winners else (0.0,)
    return from_ranking(game.ranking(state), players)


def guess(game: Rules[Any, Any], state: Any) -> tuple[float, ...]:
    """The generic worth of an unfinished position: by ``scores`` when the
    game keeps them (higher is better), pulled halfway to an even share."""
    players = game.players(state)
    scores = game.scores(state)
    if players < 2 or len(scores) != players:
        return (0.5,) * players
    pay = from_ranking(standings(list(scores)), players)
    return tuple(0.25 + 0.5 * p for p in pay)
