"""Per-game help for the bots, all optional: every game gets a bot from the
defaults here, which use only the engine interface.

- ``determinize(game, view, seat, rng)``: a full position consistent with
  the view, the hidden parts resampled.  The default plays on the view
  itself (its hidden parts stay hidden; the search stops where they would
  matter), so a game without this hook still gets a bot that sees no more
  than its view.
- ``evaluate(game, state)``: a cut-off playout's worth to each player
  (default: ``payoff.guess``, from the game's scores).
- ``playout_turn(game, state, turns, rng)``: the playout policy (default:
  a uniformly random legal turn).
- ``random_turn(game, state, rng)``: a random legal turn picked without
  listing them all, for the playouts of a game whose list is long to read
  (Taiga: a place, then the pieces at it); None (the hook, or its answer)
  lists them and asks ``playout_turn``.
- ``order_turns(game, state, turns, rng)``: the turns of a position, most
  promising first; with it the search tries a node's turns in that order
  and widens to the next only as the node's visits grow (``widening``:
  a node of ``n`` visits has at most ``1 + widening * sqrt(n)`` children),
  instead of trying every turn once in random order first.
- ``choose(game, view, seat, level, rng, budget)``: a whole decision of
  its own (a solver, an alpha-beta search), or None to fall back to the
  search; ``budget`` (``engine.bots.budget``) is the turn's CPU cap,
  counted from the start of the turn.

A game offers its hooks itself (``Rules.bot_hooks``, e.g. Ataxx's in
``engine/ataxx/bot.py``): the bots never name a game.

``levels``: the levels the game's bot offers players, weakest first
(default: every level of ``engine.bots.levels.LEVELS``).  A game whose
luck leaves no room for five levels that each beat the one below (Taiga,
Alheimur: see docs/bots.md, "Levels a game offers") offers fewer; every
game offers beginner, the default level and strongest.  ``offered``,
``level_for`` (a level asked for, refused with the game's own levels when
it does not offer it) and ``played_as`` (a level it no longer offers, for a
game made before: the next level it offers above) read them.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Mapping, TypeVar

from engine.base import Rules
from engine.bots import payoff
from engine.bots.levels import DEFAULT_LEVEL, LEVELS, Level
from engine.errors import OptionError
from engine.i18n import _


def _view_itself(game: Rules[Any, Any], view: Any, seat: int, rng: random.Random) -> Any:
    return view


def _random_turn(game: Rules[Any, Any], state: Any, turns: list[Any], rng: random.Random) -> Any:
    return rng.choice(turns)


T = TypeVar("T")


def unseen(full: Iterable[T], shown: Iterable[T] | Mapping[T, int]) -> list[T]:
    """What a view does not show, for ``determinize``: the items of ``full``
    (every item of a set, a deck or a pile, repeats included) in its order,
    less one of each item ``shown`` (a list, or counts by item)."""
    left_out = Counter(shown)
    left: list[T] = []
    for item in full:
        if left_out[item]:
            left_out[item] -= 1
        else:
            left.append(item)
    return left


@dataclass(frozen=True)
class Hooks:
    determinize: Callable[[Rules[Any, Any], Any, int, random.Random], Any] = _view_itself
    evaluate: Callable[[Rules[Any, Any], Any], tuple[float, ...]] = payoff.guess
    playout_turn: Callable[[Rules[Any, Any], Any, list[Any], random.Random], Any] = _random_turn
    random_turn: Callable[[Rules[Any, Any], Any, random.Random], Any] | None = None
    order_turns: Callable[[Rules[Any, Any], Any, list[Any], random.Random], list[Any]] | None = None
    widening: float = 2.0  # with order_turns: children of a node of n visits, 1 + widening * sqrt(n)
    #: with order_turns, a position below the root is read (and ordered) up
    #: to this many turns: it only ever widens to a few dozen of them, and
    #: reading and ordering thousands at each new node of a lazily listed
    #: game (Alheimur) took seconds
    below_root: int = 200
    playout_plies: int = 16  # random turns before a playout is cut off and evaluated
    exploration: float = 1.0  # UCT's constant (payoffs are 0 to 1)
    choose: Callable[..., Any] | None = None
    #: the version of the game's bot: raise it when a change to the hooks
    #: (or to the search, for the games it changes) changes how the bot
    #: plays; the strength table (benchmarks/bots_strength.py) counts only
    #: the games of the current version
    version: int = 1
    #: levels that still play as they did at an older version (level name:
    #: that version), so that their rows in the strength table stay counted
    kept: Mapping[str, int] = field(default_factory=dict)
    #: the levels offered to players, weakest first (None: every level but random)
    levels: tuple[str, ...] | None = None
    #: a level's playouts in this game where they are not the level's own (level name: playouts),
    #: for a game whose levels are spaced otherwise (``engine.bots.player.choose`` gives the level
    #: these playouts, its search and its ``choose`` hook alike)
    playouts: Mapping[str, int] = field(default_factory=dict)

    def version_of(self, level: str) -> int:
        """The version at which ``level`` last changed how it plays."""
        return self.kept.get(level, self.version)


DEFAULT = Hooks()


def hooks_for(game: Rules[Any, Any]) -> Hooks:
    """The game's hooks (``Rules.bot_hooks``), or the defaults."""
    found = game.bot_hooks()
    return DEFAULT if found is None else found


def offered(game: Rules[Any, Any]) -> tuple[str, ...]:
    """The levels ``game``'s bot offers players, weakest first."""
    levels = hooks_for(game).levels
    return tuple(name for name in LEVELS if name != "random") if levels is None else levels


def level_for(game: Rules[Any, Any], name: str | None) -> Level:
    """The level called ``name`` of ``game``'s bot (None or "": the
    default, medium, or the level above it that the game offers in its
    place, ``played_as``); ``OptionError`` naming the game's levels when it
    offers no such level ("random", for measuring, is always there)."""
    if not name or not name.strip():  # the default: medium, or the level the game plays it as
        return played_as(game, LEVELS[DEFAULT_LEVEL])
    key = name.strip().lower()
    levels = offered(game)
    if key != "random" and key not in levels:
        raise OptionError(_("{game}'s bot plays at these levels: {levels}; there is no level '{level}'",
                            game=game.title or game.name, levels=", ".join(levels), level=key[:20]))
    return LEVELS[key]


def played_as(game: Rules[Any, Any], level: Level) -> Level:
    """The level that plays for ``level``: itself when ``game`` offers it
    (or it is random play), else the next level the game offers above it,
    else its strongest (a game made before the game stopped offering a
    level keeps a bot at least as strong).  A level of no known name (a
    test's or an experiment's own budget) plays as it is."""
    levels = offered(game)
    if level.name == "random" or level.name in levels or level.name not in LEVELS:
        return level
    order = list(LEVELS)
    above = [name for name in levels if order.index(name) > order.index(level.name)]
    return LEVELS[above[0] if above else levels[-1]]
