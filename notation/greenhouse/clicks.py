"""Martian Greenhouse played by clicking: the first parent's stack, the
second's, then the chromosomes of the first child one by one, top first,
then the second child's (or the "give up" button).

A pair of flowers can have some hundred thousand pairs of children, so
``click_options`` answers directly from the breeding rules instead of
scanning every legal turn; ``turn_clicks`` says the same of one turn, and
the contract suite checks that the two agree.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Sequence

from engine.greenhouse import Breed, GiveUp, GreenhouseState
from engine.greenhouse.breeding import SELECTIONS, interleavings, rest
from engine.greenhouse.delivery import breedable
from engine.greenhouse.flowers import GENES, Genes
from notation.clicks import ClickOptions

GIVE_UP = "give up"


def turn_clicks(turn: Breed | GiveUp) -> tuple[str, ...]:
    """The clicks of one turn."""
    if isinstance(turn, GiveUp):
        return (GIVE_UP,)
    return (f"#{turn.a}", f"#{turn.b}", *turn.first, *turn.second)


@lru_cache(maxsize=64)
def _firsts(a: Genes, b: Genes) -> dict[Genes, frozenset[tuple[Genes, Genes]]]:
    """Every first child of ``a`` and ``b``, with the chromosomes each
    parent has left for the second child (each way it can be made)."""
    found: dict[Genes, set[tuple[Genes, Genes]]] = {}
    for sa in SELECTIONS:
        xa, ya = tuple(a[i] for i in sa), tuple(a[i] for i in rest(sa))
        for sb in SELECTIONS:
            xb, yb = tuple(b[i] for i in sb), tuple(b[i] for i in rest(sb))
            for first in interleavings(xa, xb):
                found.setdefault(first, set()).add((ya, yb))
    return {first: frozenset(left) for first, left in found.items()}


def _seconds(a: Genes, b: Genes, first: Genes) -> set[Genes]:
    return {second for ya, yb in _firsts(a, b).get(first, ()) for second in interleavings(ya, yb)}


def _text(a: int, b: int | None, genes: Sequence[str]) -> str:
    if b is None:
        return f"#{a} x"
    text = f"#{a} x #{b} ->"
    if genes:
        text += " " + " ".join(genes[:GENES])
    if len(genes) >= GENES:
        text += " /" + "".join(" " + g for g in genes[GENES:])
    return text


def click_options(state: GreenhouseState, prefix: Sequence[str]) -> ClickOptions:
    """What may be clicked after ``prefix``, from the breeding rules."""
    prefix = tuple(prefix)
    if state.over:
        return ClickOptions()
    pairs = breedable(state)
    if not prefix:
        nexts = dict.fromkeys(f"#{f.number}" for f, _ in pairs)
        return ClickOptions((*nexts, GIVE_UP), (), "", len(pairs) + 1, cut=True)
    if prefix == (GIVE_UP,):
        return ClickOptions((), (GIVE_UP,), GIVE_UP, 1)
    firsts = [(f, g) for f, g in pairs if f"#{f.number}" == prefix[0]]
    if len(prefix) == 1:
        if not firsts:
            return ClickOptions()
        return ClickOptions(tuple(f"#{g.number}" for _, g in firsts), (), _text(firsts[0][0].number, None, ()),
                            len(firsts), cut=True)
    chosen = [(f, g) for f, g in firsts if f"#{g.number}" == prefix[1]]
    if not chosen:
        return ClickOptions()
    f, g = chosen[0]
    genes = prefix[2:]
    text = _text(f.number, g.number, genes)
    if len(genes) < GENES:
        children = [c for c in _firsts(f.genes, g.genes) if c[:len(genes)] == genes]
    else:
        first = tuple(genes[:GENES])
        children = [c for c in _seconds(f.genes, g.genes, first) if c[:len(genes) - GENES] == genes[GENES:]]
    if not children:
        return ClickOptions()
    if len(genes) == 2 * GENES:
        canonical = f"#{f.number} x #{g.number} -> {' '.join(genes[:GENES])} / {' '.join(genes[GENES:])}"
        return ClickOptions((), (canonical,), canonical, 1)
    at = len(genes) % GENES  # fewer than 2 * GENES here: no child is longer
    nexts = dict.fromkeys(sorted({c[at] for c in children}))
    return ClickOptions(tuple(nexts), (), text, len(children), cut=len(genes) < GENES)

