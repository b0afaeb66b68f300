"""Monte Carlo tree search through the engine interface, for any game.

Open-loop information-set MCTS: the tree is keyed by turns only, and each
iteration replays them from a fresh *determinization* of the bot's view
(``hooks.determinize``; by default the view itself), settling every chance
event on the way with a random outcome of the event.  So one search copes
with several players (each node is chosen for the player to move there,
by that player's payoff), chance nodes and hidden information, and the bot
never sees more than its view.  A position the view cannot play on (no
legal turn, or a turn the view refuses) ends the playout there and is
scored by ``hooks.evaluate``.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field
from itertools import islice
from typing import Any, Hashable

from engine.base import ChanceEvent, Rules
from engine.bots import payoff
from engine.bots.budget import Budget
from engine.bots.hooks import Hooks
from engine.errors import PbemError


@dataclass
class Node:
    visits: int = 0
    totals: list[float] = field(default_factory=list)  # per player
    children: dict[Hashable, "Node"] = field(default_factory=dict)
    order: list[Any] | None = None  # the turns in the game's order_turns, when it has one
    #: the set of the last list of turns the node was read with, and that
    #: list: the root's list is the same every iteration, and hashing its
    #: thousands of turns again each time was a third of an Alheimur search
    legal: tuple[list[Any], frozenset[Any]] | None = None

    def legal_set(self, turns: list[Any]) -> frozenset[Any]:
        """``turns`` as a set, kept while the node is read with the same list."""
        if self.legal is None or self.legal[0] is not turns:
            self.legal = (turns, frozenset(turns))
        return self.legal[1]

    def mean(self, player: int) -> float:
        return self.totals[player] / self.visits if self.visits else 0.0


@dataclass(frozen=True)
class SearchResult:
    turn: Any
    value: float  # the bot's expected payoff after its turn, 0 to 1
    visits: int
    playouts: int
    stats: tuple[tuple[Any, int, float], ...]  # (turn, visits, mean) for each root turn, most visited first


def chance_outcome(event: ChanceEvent, rng: random.Random) -> tuple[str, ...]:
    """A random outcome of ``event``, each equally likely as the rules say."""
    if event.kind == "roll":
        return tuple(str(rng.randint(1, event.sides)) for _ in range(event.count))
    return tuple(rng.sample(list(event.items), event.count))


def settle_randomly(game: Rules[Any, Any], state: Any, rng: random.Random) -> Any:
    """``state`` with every chance event it waits for given a random outcome."""
    event = game.chance(state)
    for _ in range(10_000):
        if event is None:
            return state
        state = game.apply_chance(state, chance_outcome(event, rng))
        event = game.chance(state)
    raise RuntimeError(f"{game.name}: more than 10,000 chance events in a row")


#: at most this many legal turns are considered in one position: a game with
#: an ``iter_turns`` (Martian Greenhouse has millions of turns) is read
#: lazily up to it
MAX_TURNS = 3000


#: in a playout, a game that lists its turns lazily is read up to this many
#: (its first, smallest turns): a playout is a rough guess, and reading
#: thousands of turns at every ply of every playout cost minutes a turn
PLAYOUT_TURNS = 100


def turns_of(game: Rules[Any, Any], state: Any, limit: int = MAX_TURNS, deadline: float | None = None) -> list[Any]:
    """The legal turns the bot considers (the first ``limit`` when the game
    lists them lazily with ``iter_turns``, fewer when reading them reaches
    ``deadline``, a ``time.process_time()`` value such as
    ``Budget.deadline``); none when the position (a view) cannot say."""
    try:
        lazily = getattr(game, "iter_turns", None)
        if lazily is None:
            return game.legal_turns(state)
        if deadline is None:
            return list(islice(lazily(state), limit))
        turns: list[Any] = []
        for turn in lazily(state):
            turns.append(turn)
            if len(turns) >= limit or time.process_time() >= deadline:
                break
        return turns
    except PbemError:
        return []


def turn_limit(playouts: int) -> int:
    """How many turns of a lazily listed game a search of ``playouts``
    considers in a position: ten a playout, at least 200, at most
    ``MAX_TURNS`` (a beginner looks at fewer turns than a strong bot)."""
    return min(MAX_TURNS, max(200, 10 * playouts))


def _remembered(known: dict[Any, list[Any]], game: Rules[Any, Any], state: Any, limit: int = MAX_TURNS) -> list[Any]:
    """``turns_of`` a position, read once per search for positions met
    again (the root, above all); positions that cannot be hashed are read
    each time."""
    try:
        found = known.get(state)
    except TypeError:
        return turns_of(game, state, limit)
    if found is None:
        found = known[state] = turns_of(game, state, limit)
    return found


#: the share of the turn's cap the tree search leaves unused: an
#: iteration can take much longer than any before it (a full garbage
#: collection of a large process took 0.1 to 0.16 s of a Taiga turn and
#: overran the medium level's 1.5 s cap by 0.08 s)
RESERVE = 0.1


def search(game: Rules[Any, Any], view: Any, seat: int, playouts: int, rng: random.Random, hooks: Hooks,
           budget: Budget | None = None, root_turns: list[Any] | None = None) -> SearchResult:
    """Search from ``view`` (what ``seat`` sees, its turn to move) for
    ``playouts`` iterations (fewer if the turn's CPU ``budget`` runs out
    first, counted from the start of the turn, not of the search: the
    search stops when one more iteration, as long as the longest so far,
    would overrun it less its ``RESERVE``; an Alheimur playout can take a
    fifth of a second).
    It always makes one iteration, so that it has a turn to answer.
    ``root_turns``: the view's turns (``turns_of`` with ``turn_limit``),
    when the caller has read them already: the root's turns in every
    determinization (the bot chooses among the turns its view allows;
    read again for each determinization, an Alheimur position of play took
    a third of a second an iteration before any playout)."""
    players = game.players(view)
    root = Node(totals=[0.0] * players)
    last = time.process_time()
    longest = 0.0  # CPU seconds of the longest iteration so far
    done = 0
    known: dict[Any, list[Any]] = {}
    limit = turn_limit(playouts)
    below = limit if hooks.order_turns is None else min(limit, hooks.below_root)
    for done in range(1, playouts + 1):
        state = hooks.determinize(game, view, seat, rng)
        node, path = root, [root]
        depth = 0
        # selection and expansion
        while True:
            state = settle_randomly(game, state, rng)
            mover = game.to_move(state)
            if mover is None:
                break
            if node is root and root_turns is not None:
                turns = root_turns
            else:
                turns = _remembered(known, game, state, limit if node is root else below)
            if not turns:
                break
            if hooks.order_turns is None:
                untried = [t for t in turns if t not in node.children]
                expand = rng.choice(untried) if untried else None
                candidates = turns
            else:  # the most promising untried turn, while the node may widen
                expand, candidates = _widen(game, state, node, turns, rng, hooks)
                untried = [expand] if expand is not None else []
            if expand is not None:
                turn = expand
                child = Node(totals=[0.0] * players)
                node.children[turn] = child
            else:
                log_n = math.log(node.visits + 1)
                turn = max(candidates, key=lambda t: node.children[t].mean(mover)
                           + hooks.exploration * math.sqrt(log_n / (node.children[t].visits + 1e-9)))
                child = node.children[turn]
            try:
                state = game.apply(state, turn)
            except PbemError:
                break
            node = child
            path.append(node)
            depth += 1
            if untried:
                break
        pay = playout(game, state, rng, hooks, seat)
        for n in path:
            n.visits += 1
            for p in range(players):
                n.totals[p] += pay[p]
        if budget is not None and budget.capped:
            now = time.process_time()
            if done > 1:  # the first also ordered the root's turns
                longest = max(longest, now - last)
            last = now
            if budget.would_overrun(longest + RESERVE * (budget.seconds or 0.0)):
                break
    ranked = sorted(root.children.items(), key=lambda item: (item[1].visits, item[1].mean(seat)), reverse=True)
    if not ranked:
        raise ValueError("the bot found no legal turn to search")
    best, node = ranked[0]
    return SearchResult(best, node.mean(seat), node.visits, done,
                        tuple((t, n.visits, n.mean(seat)) for t, n in ranked))


def _widen(game: Rules[Any, Any], state: Any, node: Node, turns: list[Any], rng: random.Random,
           hooks: Hooks) -> tuple[Any, list[Any]]:
    """Progressive widening by the game's ``order_turns``: the turn to add
    to ``node`` (the first of its order not yet a child, while the node has
    fewer than ``1 + widening * sqrt(visits)`` children), else None; and
    the children legal here to choose among."""
    if node.order is None:
        assert hooks.order_turns is not None  # search widens only for a game with order_turns
        node.order = hooks.order_turns(game, state, turns, rng)
    legal = node.legal_set(turns)  # a determinization may have turns another has not
    here = [t for t in node.children if t in legal]
    if not here or len(node.children) < 1 + hooks.widening * math.sqrt(node.visits):
        for turn in node.order:
            if turn not in node.children and turn in legal:
                return turn, here
        for turn in turns:  # a turn this determinization has that the order has not
            if turn not in node.children:
                return turn, here
    return None, here


def playout(game: Rules[Any, Any], state: Any, rng: random.Random, hooks: Hooks, seat: int,
            chance: random.Random | None = None) -> tuple[float, ...]:
    """Play random turns (or the hook's policy) to the end or the cutoff:
    ``hooks.playout_plies`` turns, then on to the bot's own turn, so that
    every cut-off position is judged with the same player to move (a game
    like Ataxx, where the side that just moved is always ahead, would
    otherwise be judged by the parity of the playout).  Chance is settled
    with ``chance`` (default: ``rng``, which chooses the turns)."""
    chance = rng if chance is None else chance
    players = game.players(state)
    for ply in range(hooks.playout_plies + players):
        state = settle_randomly(game, state, chance)
        mover = game.to_move(state)
        if mover is None or (ply >= hooks.playout_plies and mover == seat):
            break
        turn = None if hooks.random_turn is None else hooks.random_turn(game, state, rng)
        if turn is None:
            turns = turns_of(game, state, PLAYOUT_TURNS)
            if not turns:
                break
            turn = hooks.playout_turn(game, state, turns, rng)
        try:
            state = game.apply(state, turn)
        except PbemError:
            break
    state = settle_randomly(game, state, chance)
    if game.is_over(state):
        return payoff.final(game, state)
    return hooks.evaluate(game, state)
