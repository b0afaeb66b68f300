"""The children a planned line of Martian Greenhouse breedings never uses,
re-chosen to help the orders still to fill.

A line that fills one order (``solver._fill``) uses one child of each
breeding (as a parent later, or delivered) and leaves the other, its
*leftover*, in the greenhouse.  The search that found the line looked at
that order alone, so it took any leftover; but a leftover may be any
child of the same parents that is a twin of the used one (the six
chromosomes the used child leaves, each parent's three in order,
interleaved in any way), and choosing it well makes the next orders
quicker to fill: best a leftover that is an order (delivered at once),
next one that holds a half of an order whose other half a flower in the
greenhouse holds (that order is then one breeding away), then one that
holds a half at all.  Replacing a leftover keeps the line playable,
since nothing in it uses that child.
"""

from __future__ import annotations

import random

from engine.greenhouse import breeding
from engine.greenhouse.delivery import bred
from engine.greenhouse.flowers import Breed, Genes, GreenhouseState

#: what a leftover is worth to an order: it is the order; it holds a half
#: whose other half the greenhouse holds; it holds a half
DELIVERED, ONE_AWAY, HALF = 100, 10, 1


def twins(a: Genes, b: Genes, kept: Genes) -> frozenset[Genes]:
    """Every child that parents ``a`` and ``b`` can have beside ``kept``."""
    found: set[Genes] = set()
    for sa, sb in breeding._ways(a, b, kept):  # the selections that give ``kept``
        found |= breeding.interleavings(tuple(a[i] for i in breeding.rest(sa)),
                                        tuple(b[i] for i in breeding.rest(sb)))
    return frozenset(found)


def worth(child: Genes, orders: set[Genes], held: set[Genes]) -> int:
    """What ``child`` is worth to the unfilled ``orders``, given the triples
    ``held`` by the flowers it could be bred with."""
    if child in orders:
        return DELIVERED
    mine = breeding.triples(child)
    total = 0
    for order in orders:
        best = 0
        for half, other in breeding.splits(order):
            if half in mine:
                if other in held:
                    best = ONE_AWAY
                    break
                best = HALF
        total += best
    return total


def reshape(state: GreenhouseState, line: tuple[Breed, ...],
            rng: random.Random | None = None) -> tuple[Breed, ...]:
    """``line`` (playable from ``state``) with each breeding's unused child
    replaced by the twin most worth to the orders unfilled then (ties: the
    first in sorted order, so the answer depends on the position alone;
    with ``rng``, one of them at random, for a plan tried again)."""
    used = {number for turn in line for number in (turn.a, turn.b)}
    out: list[Breed] = []
    node = state
    for turn in line:
        one, two = node.next_number, node.next_number + 1
        unfilled = set(node.unfilled)
        first_used = one in used or turn.first in unfilled
        second_used = two in used or turn.second in unfilled
        if first_used != second_used:
            kept = turn.first if first_used else turn.second
            orders = unfilled - {kept}
            held: set[Genes] = set()
            for flower in node.flowers:
                if flower.number not in (turn.a, turn.b):
                    held |= breeding.triples(flower.genes)
            parent_a, parent_b = node.flower(turn.a), node.flower(turn.b)
            assert parent_a is not None and parent_b is not None  # the line breeds flowers of the greenhouse
            a, b = parent_a.genes, parent_b.genes
            scored = [(worth(child, orders, held), child) for child in sorted(twins(a, b, kept))]
            top = max(score for score, _ in scored)
            best = [child for score, child in scored if score == top]
            spare = best[0] if rng is None else rng.choice(best)
            turn = Breed(turn.a, turn.b, kept, spare) if first_used else Breed(turn.a, turn.b, spare, kept)
        out.append(turn)
        node = bred(node, turn)
    return tuple(out)
