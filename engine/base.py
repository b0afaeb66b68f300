"""The one interface every game implements.

A game is a stateless object whose methods are pure functions over immutable
state values.  The server, the mail robot and the command line only ever talk
to games through this interface (and the matching one in ``notation.base``),
so adding a game never touches them.

Players are numbered from 0 in turn order inside the engine; notation and
people number them from 1.
"""

from __future__ import annotations

import functools
import re
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any, Callable, Collection, Generic, Hashable, Iterable, Mapping, Sequence, TypeVar

from engine import chance
from engine.errors import IllegalTurnError, OptionError, PbemError, shown
from engine.i18n import _

S = TypeVar("S", bound=Hashable)  # a game's state type
T = TypeVar("T", bound=Hashable)  # a game's turn type


@dataclass(frozen=True)
class OptionSpec:
    """One game option: its name, allowed values, default and meaning."""

    name: str
    choices: tuple[str, ...]
    default: str
    help: str


@dataclass(frozen=True)
class Result:
    """How a finished game ended.

    ``winners`` holds the 0-based players who won; more than one means they
    drew with each other.  ``scores`` is per player, in turn order.
    """

    winners: tuple[int, ...]
    reason: str
    scores: tuple[int, ...] = ()

    @property
    def is_draw(self) -> bool:
        return len(self.winners) != 1

    def tag(self) -> str:
        """The record's Result tag: ``1`` (player 1 won), ``1=3`` (players 1
        and 3 drew), ``=`` (a draw between nobody in particular)."""
        if not self.winners:
            return "="
        return "=".join(str(p + 1) for p in self.winners)


@functools.lru_cache(maxsize=4096)
def _drawable(item: Any) -> bool:
    """Whether ``item`` may be drawn (a word a record can write), checked
    once per item: a bot's search asks for thousands of events a turn."""
    return isinstance(item, str) and bool(item) and not re.search(r"[\s{}|]", item) \
        and not re.fullmatch(r"\d+\.", item)


@dataclass(frozen=True)
class ChanceEvent:
    """What chance decides next, during play (a draw, a roll), before anyone
    moves again.  ``Rules.chance`` returns one; the server decides it from the
    game's seed (``engine.chance.decide``), writes the outcome in the record
    and applies it with ``Rules.apply_chance``.

    - ``kind`` "draw": ``count`` items drawn one after another without
      putting back, from ``items`` (what is left to draw, each item written
      once per copy, in the stable order the game keeps); every remaining
      item is equally likely at each draw.  The outcome lists the items drawn,
      in the order drawn.
    - ``kind`` "roll": ``count`` dice of ``sides`` faces; the outcome lists
      each die, ``"1"`` to ``str(sides)``, in the order rolled.

    ``purpose`` is a short word naming the event ("draw", "attack"); it is
    part of the stream's label, and the record shows it.  ``seen_by`` names
    the 0-based players who see the outcome as it happens (a card drawn into
    a hand: its owner); None means everyone.  Once the game is over,
    everyone sees every outcome.
    """

    kind: str
    purpose: str
    count: int = 1
    items: tuple[str, ...] = ()
    sides: int = 6
    seen_by: tuple[int, ...] | None = None

    def __post_init__(self) -> None:
        if self.kind not in ("draw", "roll"):
            raise ValueError(_('a chance event is a draw or a roll, not {kind}', kind=repr(self.kind)))
        if not re.fullmatch(r"[a-z][a-z0-9-]{0,19}", self.purpose):
            raise ValueError(_("a chance event's purpose is a short lowercase word, not {purpose}", purpose=repr(self.purpose)))
        if self.count < 1 or (self.kind == "draw" and self.count > len(self.items)) \
                or (self.kind == "roll" and self.sides < 2):
            raise ValueError(_('impossible chance event {self_}', self_=repr(self)))
        # records write them as {draw kiwi}; "2." would start a round there
        if not all(isinstance(item, str) for item in self.items) or not all(map(_drawable, set(self.items))):
            item = next(i for i in self.items if not isinstance(i, str) or not _drawable(i))
            raise ValueError(_("a drawn item is a word without spaces, braces or '|', and not a number and a dot (a round's number in a record); not {item}", item=repr(item)))

    def allows(self, outcome: Sequence[str]) -> bool:
        """True when ``outcome`` is one this event can produce."""
        if len(outcome) != self.count:
            return False
        if self.kind == "roll":
            # ASCII digits only, and no longer than the number of sides: int() takes
            # other digits ("²" passes isdigit but not int) and refuses very long ones
            return all(isinstance(o, str) and re.fullmatch(r"[1-9][0-9]*", o) is not None
                       and len(o) <= len(str(self.sides)) and int(o) <= self.sides for o in outcome)
        left = list(self.items)
        for item in outcome:
            if item not in left:
                return False
            left.remove(item)
        return True

    def visible_to(self, player: int | None) -> bool:
        """True when ``player`` (None: a spectator) sees the outcome while
        the game goes on."""
        return self.seen_by is None or (player is not None and player in self.seen_by)


@dataclass(frozen=True)
class PuzzlePar:
    """A solver's answer for a puzzle (``Rules.par``): ``found``, the lowest
    score of a solution it found (None: none within its budget);
    ``lower_bound``, no solution scores less; ``optimal``, ``found`` is
    proven best."""

    found: int | None
    lower_bound: int
    optimal: bool


#: the most players a game may have (``max_players``); the pages, records,
#: mail and diagrams all cope with this many
MAX_PLAYERS = 8


class Rules(ABC, Generic[S, T]):
    """The rules of one game.  Subclasses set the class attributes below and
    implement the abstract methods; instances hold no state."""

    name: str = ""
    title: str = ""
    min_players: int = 2
    max_players: int = 2
    option_specs: tuple[OptionSpec, ...] = ()
    #: True for games that use chance (a shuffle, a roll).  Such a game is
    #: started with ``seeded_state`` and a seed from ``engine.chance``; every
    #: chance outcome is part of the states it produces (so a record of
    #: positions and turns replays without the seed).  Games without chance
    #: leave it False and never see a seed.
    uses_chance: bool = False

    # -- options -------------------------------------------------------
    def normalize_options(self, options: Mapping[str, Any] | None = None) -> dict[str, str]:
        """Return the full option set, defaults filled in; raise
        ``OptionError`` naming a bad option and the allowed values."""
        specs = {spec.name: spec for spec in self.option_specs}
        result = {spec.name: spec.default for spec in self.option_specs}
        for key, value in (options or {}).items():
            name = str(key).strip().lower()
            if name not in specs:
                known = ", ".join(sorted(specs)) or "none"
                raise OptionError(_('{name} has no option {key}; its options are: {known}', name=self.name, key=shown(key), known=known))
            text = str(value).strip().lower()
            if text not in specs[name].choices:
                raise OptionError(
                    _('option {name}={value} is not allowed for {name2}; choose one of: {join}', name=name, value=shown(value), name2=self.name, join=', '.join(specs[name].choices))
                )
            result[name] = text
        return result

    def check_players(self, players: int) -> None:
        if not self.min_players <= players <= self.max_players:
            count = (f"{self.min_players}" if self.min_players == self.max_players
                     else f"{self.min_players} to {self.max_players}")
            message = (_('{game} is for 1 player, not {players}') if count == "1"
                       else _('{game} is for {count} players, not {players}'))
            raise OptionError(message.format(game=self.title or self.name, count=count, players=players))

    # -- the rules -----------------------------------------------------
    @abstractmethod
    def initial_state(self, players: int, options: Mapping[str, Any] | None = None) -> S:
        """The position before the first turn."""

    def seeded_state(self, players: int, options: Mapping[str, Any] | None, seed: str) -> S:
        """The position before the first turn of a game that uses chance,
        its chance outcomes drawn from ``seed`` (64 hex digits) by the
        streams of ``engine.chance``.  Games without chance ignore the seed."""
        return self.initial_state(players, options)

    @abstractmethod
    def players(self, state: S) -> int:
        """How many players the game in this state has."""

    @abstractmethod
    def to_move(self, state: S) -> int | None:
        """The 0-based player whose turn it is, or None once the game is over."""

    @abstractmethod
    def legal_turns(self, state: S) -> list[T]:
        """Every legal turn, each once, in a stable order."""

    @abstractmethod
    def apply(self, state: S, turn: T) -> S:
        """The state after ``turn``; raise an ``IllegalTurnError`` (or
        ``AmbiguousTurnError``) whose message says what is wrong."""

    def next_states(self, state: S) -> Iterable[S]:
        """The state after each legal turn, in any order, found as they are
        read: how the bots' searches expand a position whose turns they
        need not name (a game that finds the positions while it lists its
        turns may give them without naming the turns)."""
        return (self.apply(state, turn) for turn in self.legal_turns(state))

    def is_over(self, state: S) -> bool:
        return self.to_move(state) is None and self.chance(state) is None

    # -- chance during play --------------------------------------------
    def chance(self, state: S) -> ChanceEvent | None:
        """The chance event this state waits for (a draw, a roll) before
        anyone moves, else None.  Games that use chance only in their deal,
        or not at all, never wait for one.

        A state that waits for chance is never stored or shown: whoever
        applies a turn (or sets up the game) settles it at once with
        ``settle``, the outcomes decided from the game's seed by
        ``engine.chance.decide`` and written in the record.  While a state
        waits, ``to_move`` may be anything and ``legal_turns`` is empty."""
        return None

    def apply_chance(self, state: S, outcome: tuple[str, ...]) -> S:
        """The state after chance gave ``outcome`` to the event
        ``chance(state)`` asked for; raise ``IllegalTurnError`` when the
        event cannot give it (a record that lies)."""
        raise NotImplementedError(_('{name} waits for no chance event', name=self.name))

    @abstractmethod
    def result(self, state: S) -> Result | None:
        """The result once the game is over, else None."""

    def ranking(self, state: S) -> list[tuple[int, ...]]:
        """The standings of a finished game: groups of 0-based players, best
        first, the players of a group tied with each other; every player
        once.  Empty while the game goes on.  The server takes the result
        from it when players were put out on time (the best group that
        has a player still in the game wins).

        This default follows ``result()``: the winners, then everyone else
        in one group (one group of everyone when nobody in particular won).
        Games with a finer order override it."""
        outcome = self.result(state)
        if outcome is None:
            return []
        everyone = range(self.players(state))
        winners = tuple(sorted(outcome.winners))
        rest = tuple(p for p in everyone if p not in winners)
        return [group for group in (winners, rest) if group]

    def forfeit_turn(self, state: S) -> S:
        """The state after the player to move loses their turn because their
        time ran out (the "forfeit" timeout policy).  Games without a way to
        skip a turn raise ``NotImplementedError``; the server then lets the
        game wait instead."""
        raise NotImplementedError(_('{name} has no forfeited turn', name=self.name))

    def view(self, state: S, player: int | None) -> S:
        """What ``player`` (None: a spectator) may see.  Games without hidden
        information return the state unchanged."""
        return state

    def scores(self, state: S) -> tuple[int, ...]:
        """Per-player scores, for games that keep them (else empty)."""
        return ()

    def is_legal(self, state: S, turn: T) -> bool:
        """Whether ``turn`` may be played in ``state``: by default, whether
        ``apply`` takes it (a game whose list of legal turns is long or
        endless, read lazily with ``iter_turns``, is never listed whole)."""
        try:
            self.apply(state, turn)
        except PbemError:
            return False
        return True

    def bot_hooks(self) -> Any:
        """This game's help for the computer opponents (an
        ``engine.bots.hooks.Hooks``: an evaluation, a search of its own,
        a way to fill in hidden parts), or None: the bots' defaults, which
        use only this interface, play every game."""
        return None

    # -- shared puzzles (optional) ---------------------------------------
    # A one-player game that uses chance may offer shared puzzles: a
    # published seed and options that anyone can play, ranked by score,
    # lower being better (like golf: "par").  Games without puzzles keep
    # these defaults.  See docs/games/contract.md, "Shared puzzles".
    def puzzle_options(self) -> dict[str, str] | None:
        """The options of the daily puzzle (normalized), or None (the
        default) when the game offers no puzzles."""
        return None

    def par(self, state: S, max_seconds: float) -> PuzzlePar | None:
        """What a solver finds for the puzzle ``state`` (a position before
        the first turn) within about ``max_seconds``: the lowest score it
        found, a lower bound, whether that is optimal; None when the game
        has no solver."""
        return None

    def distance_from_par(self, par: PuzzlePar, score: int) -> str:
        """What to tell a player who finished a puzzle with ``score``."""
        if par.found is None:
            return f"score {score}; the solver found no solution (at least {par.lower_bound})"
        diff = score - par.found
        if diff == 0:
            return f"score {score}: par"
        return f"score {score}: {abs(diff)} {'under' if diff < 0 else 'over'} par ({par.found})"

    def count_leaves(self, state: S, depth: int) -> int:
        """Perft: the number of leaf nodes of the legal-turn tree ``depth``
        plies deep.  A finished game is a leaf of depth 0 and counts 0 below."""
        if depth == 0:
            return 1
        if self.is_over(state):
            return 0
        turns = self.legal_turns(state)
        if depth == 1:
            return len(turns)
        return sum(self.count_leaves(self.apply(state, t), depth - 1) for t in turns)


def settle(game: Rules[S, T], state: S, decide: Callable[[ChanceEvent, int], Sequence[str]],
           ) -> tuple[S, list[tuple[ChanceEvent, tuple[str, ...]]]]:
    """Resolve every chance event ``state`` waits for: ``decide(event, k)``
    gives the outcome of the ``k``-th (from 0) event settled here (the
    server: ``engine.chance.decide(seed, event, ply, k)``; a record replay:
    the outcomes it wrote).  Returns the settled state and the events with
    their outcomes, in order."""
    happened: list[tuple[ChanceEvent, tuple[str, ...]]] = []
    event = game.chance(state)
    while event is not None:
        outcome = tuple(decide(event, len(happened)))
        if not event.allows(outcome):
            raise IllegalTurnError(_('{kind} {purpose} cannot give {value}', kind=event.kind, purpose=repr(event.purpose), value=' '.join(outcome) or 'nothing'))
        state = game.apply_chance(state, outcome)
        happened.append((event, outcome))
        if len(happened) > 10_000:
            raise RuntimeError(_('{name}: more than 10,000 chance events in a row', name=game.name))
        event = game.chance(state)
    return state, happened


def settle_from_seed(game: Rules[S, T], state: S, seed: str, ply: int,
                     ) -> tuple[S, list[tuple[ChanceEvent, tuple[str, ...]]]]:
    """``settle`` as the server does it: each outcome of the chance events
    that follow turn ``ply`` (0: before the first) decided from ``seed`` by
    ``engine.chance.decide``."""
    return settle(game, state, lambda event, k: chance.decide(seed, event, ply, k))


def standings(keys: Sequence[Any], first: Sequence[int] = ()) -> list[tuple[int, ...]]:
    """A ranking from one sort key per player (greater is better): the
    players in ``first`` as the first group, then the others grouped by
    equal keys, best first, each group in turn order."""
    groups: list[tuple[int, ...]] = [tuple(sorted(first))] if first else []
    rest = sorted((p for p in range(len(keys)) if p not in first), key=lambda p: keys[p], reverse=True)
    for player in rest:
        if groups and len(groups) > (1 if first else 0) and keys[groups[-1][0]] == keys[player]:
            groups[-1] = tuple(sorted(groups[-1] + (player,)))
        else:
            groups.append((player,))
    return groups


def winners_without(game: Rules[S, T], state: S, out: Collection[int]) -> tuple[int, ...] | None:
    """Who won a game some of whose players were put out (on time): the one
    player left when only one is not out, even if the game was not over;
    else, once the game is over, the best group of its ``ranking`` that
    holds players not out (those players).  None while the game goes on."""
    left = [p for p in range(game.players(state)) if p not in out]
    if len(left) == 1:
        return (left[0],)
    for group in game.ranking(state):
        best = tuple(p for p in group if p not in out)
        if best:
            return best
    return None
