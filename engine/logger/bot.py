"""Logger's bot hooks: an evaluation, an alpha-beta search for two
players, and for more players a tree search guided by the evaluation.

Searched with the defaults, a Logger bot judged a cut-off playout only by
who was ahead on points (0.75 or 0.25, nothing for by how much or for the
trees about to fall), after 16 plies of uniformly random turns that
chopped only by chance; and a position's turns (up to a couple of
hundred) were tried in random order, so that a beginner's 40 playouts and
an easy bot's 150 judged most turns on one or two random playouts each.
Both levels played nearly at random among the turns they tried, and easy
beat beginner in only 60% of games.

Two players (no chance, nothing hidden) are now searched as Ataxx is
(``engine.bots.alphabeta``: 1 turn ahead for a beginner, 2 for easy, 3 for
medium...), judged by ``evaluate``: a position of Logger turns on trees
that one reply can chop, which a full-width look ahead sees and a handful
of playouts does not. With three or four players the tree search decides,
with these hooks:

- ``evaluate``: each player's points, plus what their logger could chop
  on its next turn (a move of 1 or 2 squares, the growth there, then the
  longest ray of mature trees next to it; the player to move counts most
  of it, the others less, since the mover may chop or protest first),
  plus a little for protesters in supply (they break ties and guard
  trees), against the others', smoothly.
- ``playout_turn``: the playouts take the longest chop there is most of
  the time, else a random turn (random play almost never chopped, so a
  playout said little about who would score).
- ``order_turns``: the search tries a position's turns best first by a
  glance (the mover's evaluation after it, its points scored included) and
  widens to the others as the position's visits grow, instead of
  spreading a small budget over every turn.
"""

from __future__ import annotations

import math
import random
from typing import Any

from engine.base import Rules
from engine.bots.alphabeta import chooser
from engine.bots.hooks import Hooks
from engine.errors import PbemError
from engine.logger.board import LINES, MATURE, MATURE_TREES, NEIGHBOURS, ray
from engine.logger.growth import GROW
from engine.logger.state import Chop, LoggerState, LoggerTurn, Turn

SCALE = 3.0  # points ahead for ~76% (tanh(1))
MOVER_THREAT = 0.8  # share of the player to move's best next chop counted as theirs
WAITING_THREAT = 0.4  # the same for a player who must first let the others move
PROTESTER = 0.3  # a protester in supply, in points
GREEDY = 0.75  # a playout takes the longest chop this often


def _reach(board: str, start: int) -> list[int]:
    """The squares a logger on ``start`` may end its movement on (staying
    included)."""
    first = [n for n in NEIGHBOURS[start] if board[n] == "."]
    found = {start, *first}
    for square in first:
        found.update(n for n in NEIGHBOURS[square] if board[n] == ".")
    return list(found)


def best_chop(board: str, logger: int) -> int:
    """The most trees the logger on ``logger`` could chop on its next turn:
    for each square it may move to, the trees of that rank and file grow,
    then the longest ray of mature trees starting at an unprotested mature
    tree next to it (spawns are left out: they add seedlings only)."""
    best = 0
    for square in _reach(board, logger):
        cells = list(board)
        if square != logger:
            cells[square], cells[logger] = cells[logger], "."
        for line in LINES[square]:
            if cells[line] in GROW:
                cells[line] = GROW[cells[line]]
        for n in NEIGHBOURS[square]:
            if cells[n] == MATURE:
                length = 0
                for s in ray(square, n):
                    if cells[s] not in MATURE_TREES:
                        break
                    length += 1
                best = max(best, length)
    return best


def worth(state: LoggerState) -> list[float]:
    """Each player's points, with the chop their logger threatens and their
    protesters in supply (see the module's notes)."""
    values = []
    for player in range(state.players):
        value = state.scores[player] + PROTESTER * state.supplies[player]
        logger = state.logger_square(player)
        if logger is not None and state.to_move is not None:
            share = MOVER_THREAT if player == state.to_move else WAITING_THREAT
            value += share * best_chop(state.board, logger)
        values.append(value)
    return values


def evaluate(game: Rules[LoggerState, Turn], state: LoggerState) -> tuple[float, ...]:
    """A cut-off playout's worth to each player, 0 to 1: their ``worth``
    against the best of the others', smoothly (two players: summing to 1)."""
    values = worth(state)
    n = len(values)
    if n < 2:
        return (0.5,)
    result = []
    for player, value in enumerate(values):
        rival = max(v for p, v in enumerate(values) if p != player)
        result.append(0.5 + 0.5 * math.tanh((value - rival) / SCALE))
    if n == 2:
        return (result[0], 1.0 - result[0])
    return tuple(result)


def _chopped(game: Rules[LoggerState, Turn], state: LoggerState, turn: Any) -> int:
    """The points ``turn`` scores (0 for a turn that chops nothing)."""
    if not isinstance(turn, LoggerTurn) or not isinstance(turn.action, Chop):
        return 0
    try:
        after = game.apply(state, turn)
    except PbemError:
        return 0
    mover = state.to_move
    assert mover is not None  # a turn of a game that goes on
    return after.scores[mover] - state.scores[mover]


def playout_turn(game: Rules[LoggerState, Turn], state: LoggerState, turns: list[Any], rng: random.Random) -> Any:
    """Mostly the turn that chops the most trees, else a random turn."""
    chops = [t for t in turns if isinstance(t, LoggerTurn) and isinstance(t.action, Chop)]
    if chops and rng.random() < GREEDY:
        gains = [_chopped(game, state, t) for t in chops]
        most = max(gains)
        return rng.choice([t for t, g in zip(chops, gains) if g == most])
    return rng.choice(turns)


def order_turns(game: Rules[LoggerState, Turn], state: LoggerState, turns: list[Any], rng: random.Random) -> list[Any]:
    """``turns`` best first at a glance: the mover's evaluation after each
    (its points scored included), ties in ``rng``'s order."""
    mover = state.to_move
    assert mover is not None  # the turns of a game that goes on
    shuffled = list(turns)
    rng.shuffle(shuffled)
    glance = []
    for turn in shuffled:
        try:
            glance.append(evaluate(game, game.apply(state, turn))[mover])
        except PbemError:
            glance.append(-1.0)
    order = sorted(range(len(shuffled)), key=lambda i: -glance[i])
    return [shuffled[i] for i in order]


HOOKS = Hooks(evaluate=evaluate, playout_turn=playout_turn, order_turns=order_turns, playout_plies=6,
              exploration=0.5, choose=chooser(evaluate), version=2)
