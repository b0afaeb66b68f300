"""A bot's decision: the turn it plays from its view, and whether it
resigns.

``choose`` is given what the seat sees (``Rules.view``) and nothing else.
It plays a winning turn at once when one ends the game in its favour,
otherwise the hook's own decision or the tree search's most visited turn.
It resigns only when the loss is proven: every turn it has lets an
opponent's reply end the game with the bot beaten (two players, no chance
between), which the search's estimate must agree with first.

The level's CPU cap counts from the start of ``choose`` (``Budget``):
reading the position's turns and looking for a win in one come out of it,
not before it.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Any

from engine.base import Rules
from engine.bots import mcts, payoff
from engine.bots.budget import UNCAPPED, Budget
from engine.bots.hooks import hooks_for, played_as
from engine.bots.levels import Level, level_named
from engine.errors import PbemError

#: below this expected payoff the bot checks whether its loss is proven
HOPELESS = 0.05


@dataclass(frozen=True)
class Choice:
    turn: Any
    value: float | None  # expected payoff after the turn, 0 to 1 (None: not searched)
    resign: bool = False
    playouts: int = 0
    why: str = ""


def _rng(seed: Any) -> random.Random:
    return random.Random(str(seed))


def random_turn(game: Rules[Any, Any], view: Any, seed: Any = 0) -> Any:
    """A uniformly random legal turn."""
    turns = mcts.turns_of(game, view)
    if not turns:
        raise ValueError("there is no legal turn to play")
    return _rng(seed).choice(turns)


def choose(game: Rules[Any, Any], view: Any, seat: int, level: Level | str | None = None, seed: Any = 0,
           timed: bool = True) -> Choice:
    """The bot's turn for ``seat`` in ``view`` (``game.view(state, seat)``)
    at ``level`` (one the game does not offer plays as the next it offers
    above, ``hooks.played_as``; a game may give a level other playouts,
    ``Hooks.playouts``); ``seed`` makes it reproducible, and ``timed=False``
    drops the level's time cap so that only the playouts decide.  The cap is
    CPU time counted from here: everything the turn does is in it."""
    if not isinstance(level, Level):
        level = level_named(level)
    level = played_as(game, level)  # a level the game no longer offers (a game made before)
    hooks = hooks_for(game)
    if level.name in hooks.playouts:  # the game spaces its levels otherwise
        level = replace(level, playouts=hooks.playouts[level.name])
    budget = Budget.start(level.max_ms) if timed else UNCAPPED
    if game.to_move(view) != seat:
        raise ValueError(f"it is not seat {seat}'s turn")
    rng = _rng(seed)
    if hooks.choose is not None and level.playouts:
        decided: Choice | None = hooks.choose(game, view, seat, level, rng, budget)  # the cap, timed or not, is the budget
        if decided is not None:
            hopeless = decided.value is not None and decided.value < HOPELESS
            return replace(decided, resign=hopeless and _proven_lost(game, view, seat, mcts.turns_of(game, view)))
    turns = mcts.turns_of(game, view, mcts.turn_limit(level.playouts))
    if not turns:
        raise ValueError("there is no legal turn to play")
    if level.playouts == 0:
        return Choice(rng.choice(turns), None, why="random")
    if len(turns) == 1:
        return Choice(turns[0], None, why="the only legal turn")
    winning = _winning_turn(game, view, seat, turns)
    if winning is not None:
        return Choice(winning, 1.0, why="wins at once")
    found = mcts.search(game, view, seat, level.playouts, rng, hooks, budget, turns)
    resign = found.value < HOPELESS and _proven_lost(game, view, seat, turns)
    return Choice(found.turn, found.value, resign, found.playouts, "search")


def _winning_turn(game: Rules[Any, Any], view: Any, seat: int, turns: list[Any]) -> Any:
    """A turn after which the game is over with ``seat`` the only winner."""
    if len(turns) > 400:
        return None
    for turn in turns:
        try:
            after = game.apply(view, turn)
        except PbemError:
            continue
        if game.chance(after) is None and game.is_over(after):
            result = game.result(after)
            if result is not None and result.winners == (seat,):
                return turn
    return None


def _proven_lost(game: Rules[Any, Any], view: Any, seat: int, turns: list[Any]) -> bool:
    """True when every turn of ``seat`` allows a reply that ends the game
    with ``seat`` last, or ends it so itself: a loss beyond doubt.  Only
    for two players and positions where no chance comes between."""
    if game.players(view) != 2:
        return False
    turns = mcts.turns_of(game, view, 201)  # all of them, or too many to prove anything
    if len(turns) > 200:
        return False

    def lost(state: Any) -> bool:
        return game.is_over(state) and payoff.final(game, state)[seat] == 0.0

    for turn in turns:
        after = game.apply(view, turn)
        if game.chance(after) is not None:
            return False
        if lost(after):
            continue
        if game.is_over(after) or game.to_move(after) == seat:
            return False
        replies = mcts.turns_of(game, after, 401)  # a lazily listed game is never listed whole
        if len(replies) > 400:
            return False
        if not any(game.chance(b := game.apply(after, r)) is None and lost(b) for r in replies):
            return False
    return True
