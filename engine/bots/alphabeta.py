"""Alpha-beta search for two-player games with no chance and no hidden
information, through the engine interface: a game's bot hooks may use it
instead of the tree search where a short full-width look ahead plays
better (Ataxx and Attactics, whose positions turn on counting pieces).

Negamax with alpha-beta pruning and iterative deepening: depth 1, 2, ...
up to ``max_depth``, each ordered by the previous depth's best turn first,
then by the children's static evaluation (the game's ``evaluate`` hook),
so that pruning cuts the most.  A depth that runs out of its node budget
(or of time, when a deadline is given) is abandoned and the deepest
completed one decides.  Values are the mover's payoff, 0 to 1; a finished
game is worth its payoff (``payoff.final``), a little more the sooner a
win and the later a loss.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import Any, Callable, Iterable

from engine.base import Rules
from engine.bots import payoff
from engine.bots.budget import Budget

#: the share of the turn's CPU cap (from the start of the turn) the search
#: may use: it stops at the first position past it
DEADLINE_SHARE = 0.8


class _OutOfBudget(Exception):
    pass


@dataclass(frozen=True)
class Found:
    turn: Any
    value: float  # the mover's payoff after best play to the depth searched, 0 to 1
    depth: int  # the deepest depth completed
    nodes: int


def search(game: Rules[Any, Any], state: Any, evaluate: Callable[[Rules[Any, Any], Any], tuple[float, ...]], max_depth: int,
           max_nodes: int, deadline: float | None = None, rng: random.Random | None = None,
           remember: bool = False) -> Found:
    """The best turn for the player to move in ``state`` (two players, no
    chance, nothing hidden), looking ``max_depth`` turns ahead at most
    within ``max_nodes`` positions (and before ``deadline``, a
    ``time.process_time()`` value, when given: CPU seconds, checked at
    every position and once its children are found).  Below the root, a
    position's children are ``game.next_states`` (their turns are not
    needed, and naming them can cost most of a search).  Turns of equal worth are
    taken in ``rng``'s order (shuffled), so a seeded bot varies its play
    where the search sees no difference.  With ``remember`` each position's
    evaluation is kept for the rest of the search (positions must be
    hashable): each depth sorts again the children the one before sorted,
    so a dear evaluation is worth keeping; the same turn is found."""
    seat = game.to_move(state)
    turns = game.legal_turns(state)
    if seat is None or not turns:
        raise ValueError("there is no turn to search")
    counter = [0]
    if remember:
        evaluate = _remembering(evaluate)

    def out_of_time() -> None:
        if deadline is not None and time.process_time() > deadline:
            raise _OutOfBudget

    def value_for(mover: int, position: Any, depth: int, alpha: float, beta: float, ply: int) -> float:
        counter[0] += 1
        if counter[0] > max_nodes:
            raise _OutOfBudget
        out_of_time()
        if game.is_over(position):
            worth = payoff.final(game, position)[mover]
            return worth + (0.001 / ply if worth > 0.5 else -0.001 / ply if worth < 0.5 else 0.0)
        if depth == 0:
            return evaluate(game, position)[mover]
        nxt = game.to_move(position)
        assert nxt is not None  # not over, and these games have no chance: someone moves
        children: Iterable[Any] = game.next_states(position)  # found as they are needed: a cut-off spares the rest
        if depth > 1:  # the most promising first: more cut-offs
            children = sorted(children, key=lambda child: -evaluate(game, child)[nxt])
            out_of_time()
        seen = False
        if nxt == mover:  # a player who moves again (a pass is a turn, so rarely)
            best = -1.0
            for child in children:
                seen = True
                best = max(best, value_for(mover, child, depth - 1, alpha, beta, ply + 1))
                alpha = max(alpha, best)
                if alpha >= beta:
                    break
            return best if seen else evaluate(game, position)[mover]
        best, their_alpha, their_beta = -1.0, 1.0 - beta, 1.0 - alpha  # negamax: payoffs add up to 1
        for child in children:
            seen = True
            best = max(best, value_for(nxt, child, depth - 1, their_alpha, their_beta, ply + 1))
            their_alpha = max(their_alpha, best)
            if their_alpha >= their_beta:
                break
        return 1.0 - best if seen else evaluate(game, position)[mover]

    order = list(range(len(turns)))
    if rng is not None:
        rng.shuffle(order)
    order.sort(key=lambda i: -evaluate(game, game.apply(state, turns[i]))[seat])
    found = Found(turns[order[0]], evaluate(game, game.apply(state, turns[order[0]]))[seat], 0, 0)
    for depth in range(1, max_depth + 1):
        try:
            best_index, best_value, alpha = order[0], -1.0, -1.0
            for i in order:
                worth = value_for(seat, game.apply(state, turns[i]), depth - 1, alpha, 2.0, 1)
                if worth > best_value:
                    best_index, best_value = i, worth
                    alpha = max(alpha, worth)
        except _OutOfBudget:
            break
        found = Found(turns[best_index], best_value, depth, counter[0])
        order.remove(best_index)
        order.insert(0, best_index)
        if best_value >= 1.0:  # a forced win: no need to look further
            break
    return Found(found.turn, found.value, found.depth, counter[0])


def _remembering(evaluate: Callable[[Rules[Any, Any], Any], tuple[float, ...]]) -> Callable[[Rules[Any, Any], Any], tuple[float, ...]]:
    """``evaluate``, each position's value kept once found."""
    known: dict[Any, tuple[float, ...]] = {}

    def remembered(game: Rules[Any, Any], position: Any) -> tuple[float, ...]:
        worth = known.get(position)
        if worth is None:
            worth = known[position] = evaluate(game, position)
        return worth

    return remembered


def depth_for(playouts: int) -> int:
    """How many turns ahead a level looks, from its playout budget."""
    return 1 if playouts < 100 else 2 if playouts < 300 else 3 if playouts < 1000 else 4 if playouts < 5000 else 5


def chooser(evaluate: Callable[[Rules[Any, Any], Any], tuple[float, ...]], nodes_per_playout: int = 40,
            remember: bool = False) -> Callable[..., Any]:
    """A ``choose`` bot hook that searches two-player positions with
    ``evaluate`` (looking ``depth_for(level.playouts)`` turns ahead within
    ``nodes_per_playout`` positions a playout of the level, and 80% of the turn's CPU cap; ``remember``:
    as ``search``), and leaves other positions (more players) to the tree search."""

    def choose(game: Rules[Any, Any], view: Any, seat: int, level: Any, rng: random.Random, budget: Budget) -> Any:
        from engine.bots.player import Choice

        if game.players(view) != 2 or game.chance(view) is not None:
            return None
        deadline = budget.deadline(DEADLINE_SHARE)
        found = search(game, view, evaluate, depth_for(level.playouts), nodes_per_playout * level.playouts, deadline,
                       rng, remember)
        return Choice(found.turn, min(1.0, max(0.0, found.value)), playouts=found.nodes,
                      why=f"alpha-beta, {found.depth} turns ahead")

    return choose
