"""The par of a Martian Greenhouse deal: the fewest breedings the solver can
find within a budget, and a lower bound on the true optimum.

Method (``notation/greenhouse/guide.md``, "The solver and par"):
iterative deepening on the number of breedings, from an admissible lower
bound up, exhaustive (``engine.greenhouse.exact``): flowers reduced to the
chromosomes the orders use, every breeding whose children can still take
part in a line of that length, children that cannot represented by one;
so every depth it finishes raises the lower bound, and ``optimal`` is
proven.  Heuristics only order the search.  Positions reached twice are
searched once per depth.

The plan that fills the orders one at a time (``plan``, ``_fill``, the
bots) uses a quicker search instead (``candidates``, ``solve(prune=True)``):
a breeding that fills an order has two parents that each hold three of the
order's chromosomes in its order (a *half*), so it keeps only breedings
with a child that holds a half or is delivered, and keeps one
representative of the children that hold none.  With at most two
breedings left this loses nothing; deeper it can miss the shortest line,
so it proves nothing past ``EXACT_DEPTH``.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations
from typing import Iterator

from engine.greenhouse import breeding, exact, leftovers
from engine.greenhouse.delivery import bred, breedable
from engine.greenhouse.flowers import Breed, Flower, Genes, GreenhouseState

#: depths up to which the quick search's pruning (``candidates``) loses nothing
EXACT_DEPTH = 2


@dataclass(frozen=True)
class Par:
    """What the solver found for a position.

    ``found``: the fewest breedings of a solution it found (None: none within
    the budget); ``line``: those breedings, playable in order from the
    position; ``lower_bound``: no solution has fewer breedings
    (``exact.NEVER`` when the orders need chromosomes the greenhouse lacks:
    none has); ``optimal``: ``found == lower_bound``; ``cut_short``: the
    budget ran out."""

    found: int | None
    lower_bound: int
    line: tuple[Breed, ...]
    nodes: int
    seconds: float
    cut_short: bool

    @property
    def optimal(self) -> bool:
        return self.found is not None and self.found == self.lower_bound


class _OutOfBudget(Exception):
    pass


def distance_from_par(par: Par, breedings: int) -> str:
    """What to tell a player who filled every order in ``breedings``."""
    if par.found is None:
        return f"{breedings} breedings; the solver found no solution within its budget (at least {par.lower_bound})"
    diff = breedings - par.found
    if diff == 0:
        return f"{breedings} breedings: par"
    if diff < 0:
        return f"{breedings} breedings: {-diff} under par ({par.found}), better than the solver found"
    return f"{breedings} breedings: {diff} over par ({par.found})"


@lru_cache(maxsize=4096)
def _halves(orders: tuple[Genes, ...]) -> frozenset[Genes]:
    return frozenset().union(*(breeding.triples(o) for o in orders)) if orders else frozenset()


def lower_bound(state: GreenhouseState) -> int:
    """``ceil(k / 2)`` for ``k`` unfilled orders, plus one when no pair of
    the greenhouse can give any unfilled order in one breeding."""
    unfilled = state.unfilled
    if not unfilled:
        return 0
    bound = (len(unfilled) + 1) // 2
    pairs = breedable(state)
    if not any(breeding.can_make(f.genes, g.genes, o) for f, g in pairs for o in set(unfilled)):
        bound += 1
    return bound


#: a position as the search remembers it (``_key``): the children's genes,
#: the siblings' genes and the unfilled orders, each sorted
_Key = tuple[tuple[Genes, ...], tuple[tuple[Genes, ...], ...], tuple[Genes, ...]]


def _key(state: GreenhouseState) -> _Key:
    genes = {f.number: f.genes for f in state.flowers}
    return (tuple(sorted(genes.values())),
            tuple(sorted(tuple(sorted((genes[a], genes[b]))) for a, b in state.siblings)),
            tuple(sorted(state.unfilled)))


def _complete(a: Genes, b: Genes, child: Genes) -> Genes | None:
    """A second child for parents that can give ``child``, or None."""
    for sa in breeding.SELECTIONS:
        for sb in breeding.SELECTIONS:
            x, y = tuple(a[i] for i in sa), tuple(b[i] for i in sb)
            if breeding.is_interleaving(x, y, child):
                return tuple(a[i] for i in breeding.rest(sa)) + tuple(b[i] for i in breeding.rest(sb))
    return None


def finish_in_one(state: GreenhouseState) -> Breed | None:
    """A breeding that fills every unfilled order at once, or None."""
    unfilled = state.unfilled
    if not unfilled or len(unfilled) > 2:
        return None
    both = sorted(unfilled[0] + unfilled[-1])
    for f, g in breedable(state):
        if len(unfilled) == 2 and (sorted(f.genes + g.genes) != both
                                   or not breeding.can_make(f.genes, g.genes, unfilled[0])):
            continue
        if len(unfilled) == 1:
            if breeding.can_make(f.genes, g.genes, unfilled[0]):
                second = _complete(f.genes, g.genes, unfilled[0])
                assert second is not None  # parents that can give the order give a second child with it
                return Breed(f.number, g.number, unfilled[0], second)
        elif breeding.why_not(f.genes, g.genes, unfilled[0], unfilled[1]) is None:
            return Breed(f.number, g.number, unfilled[0], unfilled[1])
    return None


def _subsequence(part: Genes, genes: Genes) -> bool:
    it = iter(genes)
    return all(g in it for g in part)


def _within_child(part: Genes, a: Genes, b: Genes) -> bool:
    """Can some child of ``a`` and ``b`` hold ``part`` (three chromosomes) in
    order?  Yes when ``part`` splits into a subsequence of ``a`` and one of
    ``b`` (each parent's extra chromosomes can always be placed around it)."""
    for mask in range(8):
        mine = tuple(g for i, g in enumerate(part) if mask >> i & 1)
        theirs = tuple(g for i, g in enumerate(part) if not mask >> i & 1)
        if _subsequence(mine, a) and _subsequence(theirs, b):
            return True
    return False


def _splits(order: Genes) -> list[tuple[Genes, Genes]]:
    """The (half, other half) splits of an order: three of its positions and
    the other three, each in order."""
    return list(breeding.splits(order))


def _halves_for(state: GreenhouseState, f: Flower, g: Flower, left: int) -> frozenset[Genes]:
    """The halves a child of ``f`` and ``g`` should hold.  With two breedings
    left, the last one breeds that child with a flower ``r`` already in the
    greenhouse (not a parent, not the sibling), so only halves whose other
    half ``r`` holds count; deeper, every half of an unfilled order."""
    unfilled = tuple(sorted(set(state.unfilled)))
    if left != 2:
        return _halves(unfilled)
    others = [r.genes for r in state.flowers if r.number not in (f.number, g.number)]
    return frozenset(half for order in unfilled for half, other in _splits(order)
                     if any(_subsequence(other, r) for r in others))


def candidates(state: GreenhouseState, left: int = 3, rng: random.Random | None = None) -> Iterator[Breed]:
    """The breedings the search tries with ``left`` breedings to go: each
    unordered pair of children once, only those with a child that is
    delivered or holds a half of an unfilled order (``_halves_for``),
    children holding none represented by one of them (``rng``: the pairs
    in a random order, so that another try finds other lines first)."""
    unfilled = set(state.unfilled)
    pairs = breedable(state)
    if rng is not None:
        rng.shuffle(pairs)
    for f, g in pairs:
        a, b = f.genes, g.genes
        halves = _halves_for(state, f, g, left)
        delivers = any(breeding.can_make(a, b, o) for o in unfilled)
        if not delivers and not any(_within_child(h, a, b) for h in halves):
            continue

        def useful(genes: Genes) -> bool:
            # a child is rarely met twice: its triples read in C, not cached
            return genes in unfilled or not halves.isdisjoint(combinations(genes, 3))

        seen: set[tuple[Genes, Genes]] = set()
        for sa in breeding.SELECTIONS:
            xa, ra = tuple(a[i] for i in sa), tuple(a[i] for i in breeding.rest(sa))
            for sb in breeding.SELECTIONS:
                xb, rb = tuple(b[i] for i in sb), tuple(b[i] for i in breeding.rest(sb))
                ones = sorted(breeding.interleavings(xa, xb))
                twos = sorted(breeding.interleavings(ra, rb))
                good_ones = [c for c in ones if useful(c)]
                good_twos = [c for c in twos if useful(c)]
                if not good_ones and not good_twos:
                    continue
                junk_one = next((c for c in ones if not useful(c)), None)
                junk_two = next((c for c in twos if not useful(c)), None)
                twins = [(c, d) for c in good_ones for d in good_twos]
                if junk_two is not None:
                    twins += [(c, junk_two) for c in good_ones]
                if junk_one is not None:
                    twins += [(junk_one, d) for d in good_twos]
                for c, d in twins:
                    pair = (c, d) if c <= d else (d, c)
                    if pair not in seen:
                        seen.add(pair)
                        yield Breed(f.number, g.number, c, d)


def _greedy(state: GreenhouseState, max_nodes: int, deadline: float | None) -> tuple[Breed, ...] | None:
    """A quick solution, not always the shortest: fill one order at a time,
    each time the order the search can fill soonest (``deadline``: a
    ``time.process_time()`` value, or None)."""
    line: tuple[Breed, ...] = ()
    node = state
    while node.unfilled:
        best = None
        for depth in range(1, 5):  # the orders quickest to fill first
            for order in dict.fromkeys(node.unfilled):
                alone = GreenhouseState(node.flowers, node.siblings, (order,), (0,), node.next_number, node.breedings)
                seconds = None if deadline is None else deadline - time.process_time()
                if seconds is not None and seconds <= 0:
                    return None
                par = solve(alone, max_depth=depth, max_nodes=max_nodes, max_seconds=seconds, greedy=False,
                            prune=True)
                if par.found is not None and (best is None or par.found < len(best)):
                    best = par.line
            if best is not None:
                break
        if best is None:
            return None
        for turn in best:
            node = bred(node, turn)
        line += best
    return line


def _fill(node: GreenhouseState, order: Genes, max_nodes: int, deadline: float | None,
          rng: random.Random | None = None, cap: int | None = None) -> tuple[tuple[Breed, ...] | None, int]:
    """The fewest breedings (at most 4) that fill ``order`` alone from
    ``node``, or None, and the nodes the search took; ``_OutOfBudget`` when
    ``max_nodes`` or the ``deadline`` (``time.process_time()``) ran out.
    ``cap``: at most that many nodes for this order, None (left for later,
    another order filled first) when it takes more."""
    alone = GreenhouseState(node.flowers, node.siblings, (order,), (0,), node.next_number, node.breedings)
    seconds = None if deadline is None else deadline - time.process_time()
    if max_nodes <= 0 or (seconds is not None and seconds <= 0):
        raise _OutOfBudget
    limit = max_nodes if cap is None else min(cap, max_nodes)
    capped = limit < max_nodes  # cap is not None and cap < max_nodes
    par = solve(alone, max_depth=4, max_nodes=limit, max_seconds=seconds, greedy=False,
                rng=rng, prune=True)
    if par.cut_short:
        if capped and (deadline is None or time.process_time() < deadline):
            return None, par.nodes
        raise _OutOfBudget
    return (par.line if par.found is not None else None), par.nodes


def plan(state: GreenhouseState, sequences: int, max_nodes: int = 200_000,
         max_seconds: float | None = None, reshape: bool = False,
         rng: random.Random | None = None, fill_nodes: int | None = None,
         fill_first: str = "quickest") -> tuple[Breed, ...] | None:
    """The shortest solution found by filling the orders one at a time in
    up to ``sequences`` different orders of filling, each order filled by
    the fewest breedings that fill it alone (``_fill``).  The first
    sequence is the greedy one (each time the order quickest to fill: the
    ``_greedy`` line); the others are tried depth first, quickest orders
    first, skipping any that cannot beat the best found (branch and bound).
    More sequences never give a longer solution; None when not even the
    first was completed within ``max_nodes`` and ``max_seconds`` of CPU.
    With ``reshape``, each fill's unused children are re-chosen to help
    the orders still unfilled (``leftovers.reshape``) before the next
    order is filled.  ``rng`` makes another try of the plan: the fills'
    search meets the pairs in a random order and the leftovers' ties are
    broken at random.  ``fill_nodes``: an order whose fill takes the
    search more nodes than that is left for later (``_fill``'s cap), so
    that a try is quick.  ``fill_first``: which order's fill each sequence
    tries first, "quickest" (the greedy choice), "listed" (the first in the
    order list that can be filled) or "random" (in ``rng``'s order)."""
    deadline = None if max_seconds is None else time.process_time() + max_seconds
    fills: dict[tuple[tuple[Flower, ...], tuple[tuple[int, int], ...], tuple[Genes, ...], Genes],
                tuple[Breed, ...] | None] = {}
    used = 0
    best: tuple[Breed, ...] | None = None
    tried = 0

    def fill(node: GreenhouseState, order: Genes) -> tuple[Breed, ...] | None:
        nonlocal used
        key = (node.flowers, node.siblings, node.unfilled, order)  # the flowers' numbers too: the line names them
        if key not in fills:
            found, nodes = _fill(node, order, max_nodes - used, deadline, rng, fill_nodes)
            fills[key] = leftovers.reshape(node, found, rng) if reshape and found else found
            used += nodes
        return fills[key]

    def visit(node: GreenhouseState, line: tuple[Breed, ...]) -> None:
        nonlocal best, tried
        if not node.unfilled:
            tried += 1
            if best is None or len(line) < len(best):
                best = line
            return
        if best is not None and (tried >= sequences or len(line) + lower_bound(node) >= len(best)):
            return
        found = [f for f in (fill(node, order) for order in dict.fromkeys(node.unfilled)) if f]
        for part in _first(found, fill_first, rng):
            child = node
            for turn in part:
                child = bred(child, turn)
            visit(child, line + part)
            if tried >= sequences:
                return

    try:
        visit(state, ())
    except _OutOfBudget:
        pass
    return best


def _first(fills: list[tuple[Breed, ...]], fill_first: str, rng: random.Random | None) -> list[tuple[Breed, ...]]:
    """The orders' fills in the order ``plan`` tries them (``fill_first``);
    sorting is stable: the first of the quickest is the greedy choice."""
    if fill_first == "listed":
        return fills
    if fill_first == "random":
        return (rng or random.Random(0)).sample(fills, len(fills))
    return sorted(fills, key=len)


def solve(state: GreenhouseState, max_depth: int = 8, max_nodes: int = 200_000,
          max_seconds: float | None = 10.0, greedy: bool = True, first: tuple[Breed, ...] | None = None,
          rng: random.Random | None = None, prune: bool = False) -> Par:
    """Search for the fewest breedings that fill every order from ``state``
    (breedings already made are not counted), within ``max_nodes`` expanded
    positions and ``max_seconds`` of CPU (``time.process_time``, as the
    bots' caps; None: no time limit, so that the nodes alone decide and
    the answer depends only on the position).

    With ``greedy``, a quick solution filling one order at a time
    (``_greedy``, half the budget) is found first and the searches look
    only for shorter ones; ``first`` (a solution from ``state``, such as
    ``plan`` found) is taken instead of that quick one.  Then, with more
    than one order to fill, the quick deepening search (``candidates``,
    ``rng``: it meets the pairs in a random order) looks for shorter lines
    with half of what is left, and the exhaustive one
    (``engine.greenhouse.exact``) takes the rest: every depth it finishes
    raises the lower bound, and a line it finds is the shortest.  With one
    order to fill, the exhaustive search alone is as quick: no quick
    solution, no quick search.

    With ``prune``, only the quick deepening search runs (after the greedy
    solution): the plan fills orders with it.  It proves nothing past
    ``EXACT_DEPTH`` breedings (children holding no half of an order are
    left out from three breedings to go, so it can miss the shortest
    line)."""
    started = time.process_time()
    deadline = None if max_seconds is None else started + max_seconds
    nodes = 0
    best: tuple[Breed, ...] | None = () if not state.unfilled else None
    several = len(state.unfilled) > 1
    if first and best is None:
        best = tuple(first)
    elif greedy and best is None and (prune or several):
        best = _greedy(state, max_nodes // 2, None if max_seconds is None else started + max_seconds / 2)
    bound = lower_bound(state)
    cap, until = max_nodes, deadline  # the budget of the search running

    def check() -> None:
        if nodes > cap or (until is not None and time.process_time() > until):
            raise _OutOfBudget

    def search(node: GreenhouseState, left: int, seen: dict[_Key, int], quick: bool) -> tuple[Breed, ...] | None:
        nonlocal nodes
        if not node.unfilled:
            return ()
        nodes += 1
        check()
        if left == 1:
            turn = finish_in_one(node) if quick else exact.finish(node)
            return None if turn is None else (turn,)
        if left <= 0 or (lower_bound(node) if quick else exact.lower_bound(node)) > left:
            return None
        key = _key(node)
        if seen.get(key, -1) >= left:
            return None
        seen[key] = left
        if quick:
            for turn in candidates(node, left, rng):
                line = search(bred(node, turn), left - 1, seen, quick)
                if line is not None:
                    return (turn,) + line
            return None
        for turn in exact.breedings(node, left, check):
            line = search(exact.after(node, turn), left - 1, seen, quick)
            if line is not None:
                return (turn,) + line
        return None

    def deepen(quick: bool) -> bool:
        """Search depth by depth for a line shorter than ``best``; False
        when the budget ran out."""
        nonlocal best, bound
        root = state if quick else exact.reduce(state)
        depth = bound if quick else max(bound, exact.lower_bound(root))
        bound = depth
        while depth <= max_depth and (best is None or depth < len(best)):
            try:
                line = search(root, depth, {}, quick)
            except _OutOfBudget:
                return False
            if line is not None:
                best = line if quick else exact.realise(state, line)
                return True
            if not quick or depth <= EXACT_DEPTH:
                bound = max(bound, depth + 1)
            depth += 1
        return True

    if prune:
        cut = not deepen(True)
    else:
        if several:
            now = time.process_time()
            cap, until = max_nodes // 2, None if deadline is None else now + (deadline - now) / 2
            deepen(True)  # shorter lines, quickly; out of its budget, the exhaustive search goes on
            cap, until = max_nodes, deadline
        cut = not deepen(False)
    seconds = time.process_time() - started
    return Par(None if best is None else len(best), bound, best or (), nodes, seconds, cut)
