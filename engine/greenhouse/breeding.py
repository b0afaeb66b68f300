"""Breeding: which children two parents can have, and why not.

Child one takes three chromosomes from each parent, each parent's three
keeping their relative order, interleaved in any way; child two takes the
remaining six by the same rule.  A *selection* is the set of three positions
(0-5, top down) a parent gives to child one.
"""

from __future__ import annotations

from collections import Counter
from functools import lru_cache
from itertools import combinations
from typing import Iterator

from engine.greenhouse.flowers import Genes
from engine.i18n import _

#: the 20 ways to choose 3 of 6 positions, as sorted tuples
SELECTIONS: tuple[tuple[int, ...], ...] = tuple(combinations(range(6), 3))
#: the 20 ways to place a 3-chromosome part among 6 slots
_PLACES = SELECTIONS


def rest(selection: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(i for i in range(6) if i not in selection)


@lru_cache(maxsize=200_000)
def interleavings(x: Genes, y: Genes) -> frozenset[Genes]:
    """Every distinct flower made of ``x`` and ``y`` (three each), each
    keeping its order."""
    found = set()
    for places in _PLACES:
        xs, ys = iter(x), iter(y)
        found.add(tuple(next(xs) if i in places else next(ys) for i in range(6)))
    return frozenset(found)


def is_interleaving(x: Genes, y: Genes, child: Genes) -> bool:
    """Is ``child`` ``x`` and ``y`` interleaved, each keeping its order?"""
    if len(x) + len(y) != len(child):
        return False
    reach = {(0, 0)}
    for gene in child:
        reach = {(i + 1, j) for i, j in reach if i < len(x) and x[i] == gene} | {
            (i, j + 1) for i, j in reach if j < len(y) and y[j] == gene}
        if not reach:
            return False
    return True


@lru_cache(maxsize=200_000)
def triples(genes: Genes) -> frozenset[Genes]:
    """Every three chromosomes the flower can give, in its order."""
    return frozenset(combinations(genes, 3))  # the SELECTIONS' chromosomes, in C


@lru_cache(maxsize=20_000)
def splits(child: Genes) -> tuple[tuple[Genes, Genes], ...]:
    """The 20 ways to cut a flower into three chromosomes and the other
    three, each in order (distinct ones only)."""
    return tuple(dict.fromkeys((tuple(child[i] for i in places), tuple(child[i] for i in rest(places)))
                               for places in SELECTIONS))


def can_make(a: Genes, b: Genes, child: Genes) -> bool:
    """Can ``a`` and ``b`` have ``child`` (the other child being anything)?"""
    ta, tb = triples(a), triples(b)
    return any(x in ta and y in tb for x, y in splits(child))


def _ways(a: Genes, b: Genes, child: Genes) -> set[tuple[tuple[int, ...], tuple[int, ...]]]:
    """The selections (of ``a``, of ``b``) that can give ``child``."""
    wanted = sorted(child)
    found = set()
    for sa in SELECTIONS:
        x = tuple(a[i] for i in sa)
        for sb in SELECTIONS:
            y = tuple(b[i] for i in sb)
            if sorted(x + y) == wanted and is_interleaving(x, y, child):
                found.add((sa, sb))
    return found


def why_not(a: Genes, b: Genes, first: Genes, second: Genes, names: tuple[str, str] = ("A", "B")) -> str | None:
    """None when parents ``a`` and ``b`` can have exactly the children
    ``first`` and ``second``; else a sentence saying why not."""
    na, nb = names
    parents, children = Counter(a) + Counter(b), Counter(first) + Counter(second)
    for gene in sorted(set(children) | set(parents)):
        have, want = parents[gene], children[gene]
        if want > have:
            return str(_("the children hold {want} {gene} but the parents only {have} ({a} has {in_a} and {b} has "
                         "{in_b}); children are made of exactly the parents' twelve chromosomes", want=want,
                         gene=gene, have=have, a=na, in_a=Counter(a)[gene], b=nb, in_b=Counter(b)[gene]))
        if have > want:
            return str(_("the parents hold {have} {gene} but the children only {want}; "
                         "children are made of exactly the parents' twelve chromosomes", have=have, gene=gene,
                         want=want))
    one = _ways(a, b, first)
    if not one:
        return str(_("no interleaving gives the first child {child}: it must be three of {a}'s chromosomes in "
                     "{a}'s order ({genes_a}) interleaved with three of {b}'s in {b}'s order ({genes_b})",
                     child=" ".join(first), a=na, genes_a=" ".join(a), b=nb, genes_b=" ".join(b)))
    two = {(rest(sa), rest(sb)) for sa, sb in _ways(a, b, second)}
    if not two:
        return str(_("no interleaving gives the second child {child}: it must be three of {a}'s chromosomes in "
                     "{a}'s order ({genes_a}) interleaved with three of {b}'s in {b}'s order ({genes_b})",
                     child=" ".join(second), a=na, genes_a=" ".join(a), b=nb, genes_b=" ".join(b)))
    if not one & two:
        return str(_("each child could be bred alone, but not both from one breeding: the second child must be "
                     "the six chromosomes the first leaves, each parent's three in that parent's order"))
    return None


def children(a: Genes, b: Genes) -> Iterator[tuple[Genes, Genes]]:
    """Every distinct (first, second) pair of children of ``a`` and ``b``,
    each once, in a stable order."""
    seen: set[tuple[Genes, Genes]] = set()
    for sa in SELECTIONS:
        ra = rest(sa)
        xa, ya = tuple(a[i] for i in sa), tuple(a[i] for i in ra)
        for sb in SELECTIONS:
            rb = rest(sb)
            ones = sorted(interleavings(xa, tuple(b[i] for i in sb)))
            twos = sorted(interleavings(ya, tuple(b[i] for i in rb)))
            for first in ones:
                for second in twos:
                    pair = (first, second)
                    if pair not in seen:
                        seen.add(pair)
                        yield pair
