"""The pieces of the solver's exhaustive search (``solver.solve``): flowers
reduced to the chromosomes the orders use, lower bounds from the pieces of
the orders the greenhouse holds, and every breeding that can still matter.

*Reduced flowers.*  A chromosome no unfilled order uses (a *spare*) never
counts: a flower is an order only if it holds none, and which spares a
child gets, or where, changes nothing but the spares.  So the search works
on each flower's order chromosomes alone (its *reduced* genes, fewer than
six when it holds spares): a parent with ``n`` of them gives a child ``k``
of them in its order, for any ``k`` from ``max(0, n - 3)`` to
``min(3, n)`` (its spares make up the three), the other child the rest;
each child interleaves its two parts in any way.  Flowers with the same
order chromosomes in the same order are the same to the search, and a line
found this way is played by putting the spares back (``realise``).

*Pieces.*  A piece of an order is a set of its positions (a bit mask of
six bits); a flower holds it when it holds those chromosomes in the
order's order.  The breeding that delivers an order has parents holding
complementary *halves* (three positions each).  Every chromosome of a
delivered order came down from parents to children each holding the
chromosomes it passed on in the order's order: a child that takes part
holds a piece of at most three positions (a parent gives three).

*Lower bound* (``lower_bound``).  ``times``: the fewest breedings before
some flower can hold a piece, at least: none when one holds it; else one
more than its two parts take (a piece is bred from a parent holding one
part and a parent holding the other), and one more again when both take
the same number of breedings (two flowers made by the same last breeding
are siblings, so two such parents need two breedings); never, when no
flower holds one of its chromosomes.  An order then needs one breeding
more than the cheapest pair of complementary halves.  Flowers being used
up, and siblings other than these, are ignored: the bound can only be
low, never high.

*Breedings that matter* (``breedings``).  With ``left`` breedings to go,
a child can take part only by holding a piece that can still grow into a
half and meet the other half in time (``_useful``, with the same times:
a piece a flower of the greenhouse holds is there now, the sibling may
hold any piece a child of these parents can, the rest takes its
``times``).  A child holding no such piece (*spent*) takes part in no line
of ``left`` breedings at all: its chromosomes never reach an order, so any
spent child of the same parents' parts does as well and one stands for
all, and a breeding whose two children are both spent is tried once per
pair of parents.  Only the children are cut this way, never a line that
can still finish: the search is exhaustive.  The order the breedings are
tried in only makes it quicker: children holding the biggest pieces first.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from functools import lru_cache
from itertools import combinations
from typing import Callable, Iterator

from engine.greenhouse import breeding
from engine.greenhouse.delivery import bred, breedable
from engine.greenhouse.flowers import Breed, Flower, Genes, GreenhouseState

#: "never" for ``times``
NEVER = 99
#: every bit mask of six positions
FULL = 63
_POPCOUNT = tuple(bin(m).count("1") for m in range(64))
#: the non-empty pieces of at most three positions, smallest first
_SMALL = tuple(sorted((m for m in range(1, 64) if _POPCOUNT[m] <= 3), key=lambda m: (_POPCOUNT[m], m)))
_HALVES = tuple(m for m in _SMALL if _POPCOUNT[m] == 3)
#: the pieces of each size, as one int with bit ``m`` set for piece ``m``
_OF_SIZE = tuple(sum(1 << m for m in _SMALL if _POPCOUNT[m] == k) for k in range(4))
#: the ways to cut a piece into two non-empty parts (each pair once)
_CUTS = {m: tuple((s, m ^ s) for s in range(1, m) if s & m == s and s < m ^ s) for m in _SMALL}
#: the non-empty sub-pieces of each piece
_SUBS = {m: tuple(s for s in range(1, m + 1) if s & m == s) for m in _SMALL}


def keep(state: GreenhouseState) -> frozenset[str]:
    """The chromosomes the unfilled orders use."""
    return frozenset(g for order in state.unfilled for g in order)


def reduce(state: GreenhouseState) -> GreenhouseState:
    """``state`` with each flower's spares left out (see the module)."""
    used = keep(state)
    flowers = tuple(Flower(f.number, tuple(g for g in f.genes if g in used)) for f in state.flowers)
    return replace(state, flowers=flowers)


def after(node: GreenhouseState, turn: Breed) -> GreenhouseState:
    """A reduced ``node`` after a reduced breeding, reduced again when it
    filled an order (the filled order's chromosomes may now be spares)."""
    child = bred(node, turn)
    return reduce(child) if child.filled != node.filled else child


@lru_cache(maxsize=4096)
def _piece_genes(order: Genes) -> dict[Genes, int]:
    """Each piece's chromosomes -> the masks of the pieces that read so,
    as one int with bit ``m`` set for mask ``m``."""
    found: dict[Genes, int] = {}
    for m in _SMALL:
        genes = tuple(order[i] for i in range(6) if m >> i & 1)
        found[genes] = found.get(genes, 0) | 1 << m
    return found


@lru_cache(maxsize=200_000)
def held(genes: Genes, order: Genes) -> int:
    """The pieces of ``order`` (of at most three positions) that ``genes``
    hold, as one int with bit ``m`` set for piece ``m``."""
    pieces = _piece_genes(order)
    found = 0
    for k in (1, 2, 3):
        for part in set(combinations(genes, k)):
            found |= pieces.get(part, 0)
    return found


@lru_cache(maxsize=200_000)
def _child_can_hold(a: Genes, b: Genes, order: Genes) -> int:
    """The pieces some child of ``a`` and ``b`` can hold: each one part a
    subsequence of ``a``, the rest one of ``b`` (at most three each)."""
    ha, hb = held(a, order) | 1, held(b, order) | 1  # bit 0: the empty part
    found = 0
    for m in _SMALL:
        if any(ha >> s & 1 and hb >> (m ^ s) & 1 for s in (0,) + _SUBS[m]):
            found |= 1 << m
    return found


def times(base: int) -> list[int]:
    """For each piece (by mask), the fewest breedings before a flower can
    hold it, at least, when the flowers hold the pieces ``base``."""
    t = [NEVER] * 64
    for m in _SMALL:
        if base >> m & 1:
            t[m] = 0
            continue
        best = NEVER
        for one, two in _CUTS[m]:
            x, y = t[one], t[two]
            if x < NEVER and y < NEVER:
                best = min(best, 1 + max(x, y) + (x == y > 0))
        t[m] = best
    return t


def _order_bound(state: GreenhouseState, order: Genes) -> int:
    """The fewest breedings that can fill ``order``, at least (``NEVER``:
    a chromosome it needs is nowhere)."""
    holdings = [(f.number, held(f.genes, order)) for f in state.flowers]
    t = times(_or(h for _, h in holdings))
    best = NEVER
    for half in _HALVES:
        other = FULL ^ half
        x, y = t[half], t[other]
        if x >= NEVER or y >= NEVER:
            continue
        if x == y == 0:
            pair = any(f != g and hf >> half & 1 and hg >> other & 1 and not state.are_siblings(f, g)
                       for f, hf in holdings for g, hg in holdings)
            cost = 0 if pair else 1
        else:
            cost = max(x, y) + (x == y > 0)
        best = min(best, 1 + cost)
    return best


def _or(values: Iterator[int] | list[int]) -> int:
    found = 0
    for v in values:
        found |= v
    return found


def lower_bound(state: GreenhouseState) -> int:
    """No line fills every unfilled order of ``state`` (reduced or not) in
    fewer breedings: each order's own bound (``_order_bound``), and
    ``ceil(k / 2)`` for ``k`` orders plus one when none can be filled in
    one breeding.  ``NEVER`` when the orders cannot be filled: the
    flowers lack a chromosome they need (as many times as they need it),
    which no breeding changes."""
    unfilled = state.unfilled
    if not unfilled:
        return 0
    have = Counter(g for f in state.flowers for g in f.genes)
    if Counter(g for order in unfilled for g in order) - have:
        return NEVER  # a chromosome the orders need is not there often enough
    each = [_order_bound(state, order) for order in set(unfilled)]
    return max(max(each), (len(unfilled) + 1) // 2 + (0 if 1 in each else 1))


def _useful(order: Genes, left: int, here: list[int], later: list[int]) -> int:
    """The pieces of ``order`` a child made now may hold to take part in a
    line of ``left`` breedings in all (this one included): ``here``, the
    ``times`` of the greenhouse without the parents (its partner in the
    next breeding is one of those), ``later`` the same with what the
    sibling may hold (any later partner).  A half must meet the other half
    by the last breeding; a smaller piece grows, one breeding at a time,
    with a partner holding another part by then."""
    last = left - 1  # breedings after this one

    def ready(piece: int, at: int, by: int) -> bool:
        """A partner holding ``piece`` for a breeding at ``by`` by a flower made at ``at``."""
        return here[piece] == 0 if at == 0 and by == 1 else later[piece] <= by - 1

    @lru_cache(maxsize=None)
    def grows(piece: int, at: int) -> bool:
        if _POPCOUNT[piece] == 3:
            return any(ready(FULL ^ piece, at, by) for by in range(at + 1, last + 1))
        return any(ready(part, at, by) and grows(piece | part, by)
                   for by in range(at + 1, last) for part in _SMALL
                   if not part & piece and _POPCOUNT[part | piece] <= 3)

    return _or(1 << m for m in _SMALL if grows(m, 0))


def _parts(genes: Genes) -> tuple[tuple[Genes, Genes], ...]:
    """What a parent with these (reduced) genes can give its two children:
    ``k`` of them in order to the first, the rest to the second."""
    n = len(genes)
    found: dict[tuple[Genes, Genes], None] = {}
    for k in range(max(0, n - 3), min(3, n) + 1):
        for chosen in combinations(range(n), k):
            found[(tuple(genes[i] for i in chosen), tuple(genes[i] for i in range(n) if i not in chosen))] = None
    return tuple(found)


_parts_cached = lru_cache(maxsize=50_000)(_parts)


@lru_cache(maxsize=200_000)
def weaves(x: Genes, y: Genes) -> tuple[Genes, ...]:
    """Every distinct interleaving of ``x`` and ``y``, each in its order."""
    n = len(x) + len(y)
    found: dict[Genes, None] = {}
    for places in combinations(range(n), len(x)):
        xs, ys = iter(x), iter(y)
        found[tuple(next(xs) if i in places else next(ys) for i in range(n))] = None
    return tuple(found)


def breedings(node: GreenhouseState, left: int, check: Callable[[], None] | None = None) -> Iterator[Breed]:
    """Every breeding of the reduced ``node`` that can begin a line filling
    every order in ``left`` breedings, children holding spent pieces
    represented as the module says, each unordered pair of children once:
    pair of parents by pair, the children holding the biggest pieces
    first.  ``check`` is called now and then while they are listed (a
    pair of dense flowers has thousands): the solver's budget."""
    unfilled = set(node.unfilled)
    orders = tuple(sorted(unfilled))
    mine = {f.number: tuple(held(f.genes, o) for o in orders) for f in node.flowers}
    spent_pairs: list[Breed] = []
    for f, g in breedable(node):
        tried: list[tuple[int, Breed]] = []
        a, b = f.genes, g.genes
        rest = [mine[h.number] for h in node.flowers if h.number not in (f.number, g.number)]
        useful = []
        for i, order in enumerate(orders):
            base = _or(h[i] for h in rest)
            useful.append(_useful(order, left, times(base), times(base | _child_can_hold(a, b, order))))

        def worth(child: Genes) -> int:
            """0: spent; else how much of an order it holds (delivered: most)."""
            if child in unfilled:
                return 7
            best = 0
            for order, wanted in zip(orders, useful):
                pieces = held(child, order) & wanted
                if pieces:
                    best = max(best, next(k for k in (3, 2, 1) if pieces & _OF_SIZE[k]) + 1)
            return best

        seen: set[tuple[Genes, Genes]] = set()
        spent_pair: Breed | None = None
        for xa, ra in _parts_cached(a):
            if check is not None:
                check()
            for xb, rb in _parts_cached(b):
                ones = [(worth(c), c) for c in weaves(xa, xb)]
                twos = [(worth(d), d) for d in weaves(ra, rb)]
                spent_one = next((c for w, c in ones if not w), None)
                spent_two = next((d for w, d in twos if not w), None)
                good_ones = [(w, c) for w, c in ones if w]
                good_twos = [(w, d) for w, d in twos if w]
                if not good_ones and not good_twos:
                    if spent_pair is None and spent_one is not None and spent_two is not None:
                        spent_pair = Breed(f.number, g.number, spent_one, spent_two)
                    continue
                twins = [(v + w, c, d) for v, c in good_ones for w, d in good_twos]
                if spent_two is not None:
                    twins += [(v, c, spent_two) for v, c in good_ones]
                if spent_one is not None:
                    twins += [(w, spent_one, d) for w, d in good_twos]
                for value, c, d in twins:
                    pair = (c, d) if c <= d else (d, c)
                    if pair not in seen:
                        seen.add(pair)
                        tried.append((value, Breed(f.number, g.number, c, d)))
        if spent_pair is not None and left >= 3:
            spent_pairs.append(spent_pair)
        tried.sort(key=lambda item: -item[0])  # stable: the biggest pieces first
        yield from (turn for _, turn in tried)
    yield from spent_pairs


def finish(node: GreenhouseState) -> Breed | None:
    """A breeding of the reduced ``node`` that fills every unfilled order
    at once, or None."""
    unfilled = node.unfilled
    if not unfilled or len(unfilled) > 2:
        return None
    for f, g in breedable(node):
        a, b = f.genes, g.genes
        if len(unfilled) == 2:
            if len(a) == len(b) == 6 and sorted(a + b) == sorted(unfilled[0] + unfilled[1]) \
                    and breeding.why_not(a, b, unfilled[0], unfilled[1]) is None:
                return Breed(f.number, g.number, unfilled[0], unfilled[1])
            continue
        order = unfilled[0]
        if not breeding.can_make(a, b, order):
            continue
        for x, y in breeding.splits(order):
            for xa, ra in _parts_cached(a):
                if xa != x:
                    continue
                for xb, rb in _parts_cached(b):
                    if xb == y:
                        return Breed(f.number, g.number, order, ra + rb)
    return None


def _labels(x: Genes, y: Genes, child: Genes) -> list[bool] | None:
    """For each chromosome of ``child``, whether it comes from ``x`` (True)
    or ``y``, when ``child`` interleaves them; else None."""
    def walk(i: int, j: int) -> list[bool] | None:
        if i + j == len(child):
            return []
        gene = child[i + j]
        if i < len(x) and x[i] == gene:
            found = walk(i + 1, j)
            if found is not None:
                return [True] + found
        if j < len(y) and y[j] == gene:
            found = walk(i, j + 1)
            if found is not None:
                return [False] + found
        return None

    return walk(0, 0) if len(x) + len(y) == len(child) else None


def _weave_to(x: Genes, y: Genes, target: Genes, used: frozenset[str]) -> Genes | None:
    """A child of parts ``x`` and ``y`` (six chromosomes) whose order
    chromosomes (those in ``used``) read ``target``, spares where they fall."""
    labels = _labels(tuple(g for g in x if g in used), tuple(g for g in y if g in used), target)
    if labels is None:
        return None
    out: list[str] = []
    i = j = 0
    for from_x in labels:
        if from_x:
            while x[i] not in used:
                out.append(x[i])
                i += 1
            out.append(x[i])
            i += 1
        else:
            while y[j] not in used:
                out.append(y[j])
                j += 1
            out.append(y[j])
            j += 1
    return tuple(out) + x[i:] + y[j:]


def realise(state: GreenhouseState, line: tuple[Breed, ...]) -> tuple[Breed, ...]:
    """The reduced ``line`` played on ``state`` itself: each breeding's
    children with their spares put back (some choice of them)."""
    real: list[Breed] = []
    node = state
    for turn in line:
        used = keep(node)
        a, b = node.flower(turn.a), node.flower(turn.b)
        assert a is not None and b is not None  # the reduced line names flowers of the position
        made = _realise(a.genes, b.genes, turn, used)
        assert made is not None  # a reduced breeding always has children with the spares
        real.append(made)
        node = bred(node, made)
    return tuple(real)


def _realise(a: Genes, b: Genes, turn: Breed, used: frozenset[str]) -> Breed | None:
    for sa in breeding.SELECTIONS:
        xa, ra = tuple(a[i] for i in sa), tuple(a[i] for i in breeding.rest(sa))
        for sb in breeding.SELECTIONS:
            xb, rb = tuple(b[i] for i in sb), tuple(b[i] for i in breeding.rest(sb))
            first = _weave_to(xa, xb, turn.first, used)
            second = None if first is None else _weave_to(ra, rb, turn.second, used)
            if first is not None and second is not None:
                return Breed(turn.a, turn.b, first, second)
    return None
