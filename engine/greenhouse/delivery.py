"""Martian Greenhouse delivery (ruling 6) and the breedable pairs: the two
pieces of the rules that the solver needs too, kept apart from
``engine.greenhouse.rules`` so that the rules can offer the solver's par
(``GreenhouseGame.par``) without an import cycle."""

from __future__ import annotations

from dataclasses import replace
from itertools import combinations

from engine.greenhouse.flowers import Flower, GreenhouseState


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
