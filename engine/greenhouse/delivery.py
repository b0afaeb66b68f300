"""Martian Greenhouse delivery (ruling 6), the breedable pairs and a
breeding applied without checking: the pieces of the rules that the
solver (and its ``leftovers``) need too, kept apart from
``engine.greenhouse.rules`` so that the rules can offer the solver's par
(``GreenhouseGame.par``) without an import cycle."""

from __future__ import annotations

from dataclasses import replace
from itertools import combinations

from engine.greenhouse.flowers import Breed, Flower, GreenhouseState


def breedable(state: GreenhouseState) -> list[tuple[Flower, Flower]]:
    """The pairs of flowers that may be bred (not siblings), by number."""
    return [(f, g) for f, g in combinations(state.flowers, 2) if not state.are_siblings(f.number, g.number)]


def deliver(state: GreenhouseState) -> GreenhouseState:
    """Ruling 6: each unfilled order, in list order, takes the lowest
    numbered flower that matches it exactly; delivered flowers leave."""
    flowers = list(state.flowers)
    filled = list(state.filled)
    for index, order in enumerate(state.orders):
        if filled[index]:
            continue
        match = next((f for f in flowers if f.genes == order), None)
        if match is not None:
            filled[index] = match.number
            flowers.remove(match)
    if filled == list(state.filled):
        return state
    left = {f.number for f in flowers}
    siblings = tuple(p for p in state.siblings if p[0] in left and p[1] in left)
    return replace(state, flowers=tuple(flowers), filled=tuple(filled), siblings=siblings)


def bred(state: GreenhouseState, turn: Breed) -> GreenhouseState:
    """``state`` after ``turn``, delivered, without checking it (for the
    solver, which only makes legal breedings)."""
    one, two = state.next_number, state.next_number + 1
    flowers = tuple(f for f in state.flowers if f.number not in (turn.a, turn.b))
    flowers += (Flower(one, turn.first), Flower(two, turn.second))
    siblings = tuple(p for p in state.siblings if turn.a not in p and turn.b not in p) + ((one, two),)
    return deliver(GreenhouseState(flowers, siblings, state.orders, state.filled, two + 1, state.breedings + 1))
