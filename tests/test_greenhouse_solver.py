"""The Martian Greenhouse solver: on small deals an exhaustive search over
every breeding proves that what it reports is the optimum; its lines play
legally; the budget is kept."""

import random
from collections import Counter
from dataclasses import replace
from functools import lru_cache
from itertools import combinations

import pytest
from greenhouse_helpers import RULES, SEED, example_start
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.greenhouse import breeding, leftovers, solver
from engine.greenhouse.flowers import Flower, split_genes
from engine.greenhouse.rules import deliver


def deal(flowers, orders):
    return RULES.start([split_genes(f) for f in flowers], [split_genes(o) for o in orders])


def fills_in_one(state) -> bool:
    """Can one breeding fill every unfilled order (any breedable pair)?"""
    un = state.unfilled
    for f, g in RULES.breedable(state):
        if len(un) == 1 and breeding.can_make(f.genes, g.genes, un[0]):
            return True
        if len(un) == 2 and sorted(f.genes + g.genes) == sorted(un[0] + un[1]) \
                and breeding.why_not(f.genes, g.genes, un[0], un[1]) is None:
            return True
    return False


def bred(state, f, g, first, second):
    """The state after a breeding known to be legal (listed by ``children``)."""
    one, two = state.next_number, state.next_number + 1
    flowers = tuple(x for x in state.flowers if x not in (f, g)) + (Flower(one, first), Flower(two, second))
    siblings = tuple(p for p in state.siblings if f.number not in p and g.number not in p) + ((one, two),)
    return deliver(replace(state, flowers=flowers, siblings=siblings, next_number=two + 1))


def brute_force(state) -> int | None:
    """The optimum if it is at most 2, else None: every breeding of every
    pair, then whether one more breeding fills what is left."""
    if not state.unfilled:
        return 0
    if fills_in_one(state):
        return 1
    for f, g in RULES.breedable(state):
        for first, second in breeding.children(f.genes, g.genes):
            after = bred(state, f, g, first, second)
            if not after.unfilled or fills_in_one(after):
                return 2
    return None


def plays(state, line):
    for turn in line:
        state = RULES.apply(state, turn)  # the rules check every breeding
    return state


SMALL = [
    (["1B1R2B2R2R3R", "3B3B3R2R1R3B", "1R2B2R2B3R3B"], ["2B1R2B3R1R3R"]),
    (["3B3R3B2B3B1B", "2R3R3R2R1R2R", "1R2B2B1B3B1B"], ["1R3B3B1B1B3R"]),
    (["1B2R1R1B1B1R", "2R2B2B3B1B2B", "3B3R2B3B2R3R"], ["2B2B1B2R2R3R"]),
    (["2R2B3B1B1R2R", "2B3R3R1B3B1B", "1R3R3B3B1R1R"], ["1R1R2R3B1R2B"]),
    (["2B1B3B3R3B1R", "3R2R2B2B2R1B", "1R2R1R1B3R3B"], ["3B2R3R2B1B1R", "2R1B3B3R3B2R"]),
    (["1R1R1R2R2R2R", "3B3B3B1B1B1B", "2B2B2B3R3R3R"], ["1R1R1R3B3B3B"]),
]


@pytest.mark.parametrize("flowers, orders", SMALL)
def test_on_small_deals_the_solver_reports_the_proven_optimum(flowers, orders):
    state = deal(flowers, orders)
    optimum = brute_force(state)
    par = solver.solve(state, max_seconds=20)
    assert par.found == optimum and par.lower_bound == optimum and par.optimal and not par.cut_short
    assert plays(state, par.line).done


def test_a_deal_needing_three_breedings_is_proven_to_need_three():
    state = deal(["1R2B1R2R3R3B", "1B2R2B1B3R3R", "2B1R1B2R3B3B"], ["2B3B1B1B1B3R", "3R1R2R1R3B2B"])
    assert brute_force(state) is None  # no way in two breedings
    par = solver.solve(state, max_seconds=20)
    assert (par.found, par.lower_bound) == (3, 3) and plays(state, par.line).done


def test_a_finished_deal_needs_nothing_and_the_rules_example_needs_two():
    state = deal(["1R1R1R2R2R2R", "3B3B3B1B1B1B"], ["1R1R1R2R2R2R"])
    assert solver.solve(state).found == 0
    par = solver.solve(example_start(), max_seconds=20)
    assert par.found == 2 and par.optimal and plays(example_start(), par.line).done


def test_the_budget_is_kept_and_said():
    state = RULES.seeded_state(1, {"orders": "4"}, SEED)
    par = solver.solve(state, max_nodes=50, max_seconds=5)
    assert par.cut_short and par.lower_bound >= 2
    assert par.found is None or plays(state, par.line).done


def test_lower_bound_counts_orders_and_breedings_that_cannot_fill_one():
    assert solver.lower_bound(deal(["1R1R1R2R2R2R", "3B3B3B1B1B1B", "2B2B2B3R3R3R"], ["1R1R1R3B3B3B"])) == 1
    # no pair holds three 3R with one 3B above them: at least two breedings
    assert solver.lower_bound(deal(["1R1R1R2R2R2R", "3B3B3B1B1B1B", "2B2B2B3R3R3R"], ["3B3R3R3R1R1R"])) == 2


def test_distance_from_par_tells_the_player():
    par = solver.Par(3, 3, (), 1, 0.0, False)
    assert solver.distance_from_par(par, 3) == "3 breedings: par"
    assert solver.distance_from_par(par, 5) == "5 breedings: 2 over par (3)"
    assert "under par" in solver.distance_from_par(solver.Par(4, 2, (), 1, 0.0, True), 3)


GENE = st.sampled_from(["1R", "2R", "3R", "1B", "2B"])


@settings(max_examples=25, deadline=None)
@given(st.tuples(*[GENE] * 6), st.tuples(*[GENE] * 6), st.tuples(*[GENE] * 6))
def test_can_make_agrees_with_listing_every_child(a, b, child):
    listed = any(child in pair for pair in breeding.children(a, b))
    assert breeding.can_make(a, b, child) == listed


def _default_deal(index: int):
    """Deal ``index`` of the bots' strength rows (the default deal: four
    stashes, four orders), as ``engine.bots.match`` deals it."""
    from engine.base import settle_from_seed
    from engine.bots.match import game_seed

    seed = game_seed(("exp", index), 0)
    options = RULES.normalize_options({"stashes": "rbpc", "orders": "4"})
    return settle_from_seed(RULES, RULES.seeded_state(1, options, seed), seed, 0)[0]


@pytest.mark.parametrize("index", [6, 9])
def test_a_plan_of_more_sequences_of_orders_beats_filling_the_quickest_first(index):
    state = _default_deal(index)
    greedy = solver.plan(state, 1)
    assert greedy == solver._greedy(state, 100_000, None)  # one sequence: each time the quickest order
    three = solver.plan(state, 3)
    assert len(three) < len(greedy) and plays(state, three).done
    assert len(solver.plan(state, 20)) <= len(three)  # more sequences never do worse


def test_a_plan_out_of_budget_gives_what_it_found_or_none():
    state = _default_deal(6)
    assert solver.plan(state, 3, max_nodes=5) is None
    found = solver.plan(state, 50, max_seconds=0.05)
    assert found is None or plays(state, found).done


def test_a_leftover_that_is_another_order_is_chosen_and_delivered_with_the_first():
    state = deal(["1R1R1R2B2B2B", "3C3C3C1P1P1P", "2R2R2R3B3B3B"],
                 ["1R1R1R3C3C3C", "2B1P2B1P2B1P"])
    a, b = (f.number for f in state.flowers[:2])
    line = (solver.Breed(a, b, split_genes("1R1R1R3C3C3C"), split_genes("2B2B2B1P1P1P")),)
    assert not plays(state, line).done  # the line as the one-order search found it fills one order
    reshaped = leftovers.reshape(state, line)
    assert reshaped[0].second == split_genes("2B1P2B1P2B1P")
    assert plays(state, reshaped).done


@pytest.mark.parametrize("index", [0, 1, 2, 3])
def test_reshaped_leftovers_keep_a_fill_playable_and_never_worth_less(index):
    state = _default_deal(index)
    order = state.unfilled[0]
    line, _ = solver._fill(state, order, 100_000, None)
    assert line
    for rng in (None, random.Random(index)):
        reshaped = leftovers.reshape(state, line, rng)
        after = plays(state, reshaped)
        assert order not in after.unfilled
        node = state
        for old, new in zip(line, reshaped):
            assert (old.a, old.b) == (new.a, new.b)
            assert old.first == new.first or old.second == new.second
            held = set().union(*(breeding.triples(f.genes) for f in node.flowers if f.number not in (old.a, old.b)))
            orders = set(node.unfilled)
            spare_old = old.second if old.first == new.first else old.first
            spare_new = new.second if old.first == new.first else new.first
            kept = new.first if old.first == new.first else new.second
            assert leftovers.worth(spare_new, orders - {kept}, held) >= leftovers.worth(spare_old, orders - {kept}, held)
            node = RULES.apply(node, new)


@pytest.mark.parametrize("index", [1, 4])
def test_a_plan_that_reshapes_its_leftovers_fills_every_order_in_fewer_breedings(index):
    state = _default_deal(index)
    plain = solver.plan(state, 1)
    reshaped = solver.plan(state, 1, reshape=True)
    assert len(reshaped) < len(plain) and plays(state, reshaped).done


def test_a_quick_random_try_of_a_plan_plays_legally_and_leaves_slow_orders_for_later():
    state = _default_deal(7)
    for seed in range(3):
        line = solver.plan(state, 8, reshape=True, rng=random.Random(seed), fill_nodes=40)
        assert line is None or plays(state, line).done
    order = state.unfilled[1]
    full, nodes = solver._fill(state, order, 100_000, None)
    assert len(full) == 3 and nodes == 9  # three breedings, found in 9 nodes
    assert solver._fill(state, order, 100_000, None, cap=9)[0] == full
    assert solver._fill(state, order, 100_000, None, cap=2)[0] is None  # left for later, not out of budget


def _first_filled(state, line):
    """The order the first delivery of ``line`` fills."""
    node = state
    for turn in line:
        after = RULES.apply(node, turn)
        filled = [o for o in node.unfilled if o not in after.unfilled]
        if filled:
            return filled[0]
        node = after
    return None


def test_a_plan_fills_the_orders_as_listed_or_in_a_random_order_when_asked():
    state = _default_deal(3)
    listed = solver.plan(state, 1, fill_first="listed")
    assert plays(state, listed).done
    first_fillable = next(o for o in state.unfilled if solver._fill(state, o, 100_000, None)[0])
    assert _first_filled(state, listed) == first_fillable
    firsts = set()
    for seed in range(6):
        line = solver.plan(state, 1, fill_first="random", rng=random.Random(seed))
        assert plays(state, line).done
        firsts.add(_first_filled(state, line))
    assert len(firsts) > 1  # not always the same order first


# -- an exhaustive search of our own -----------------------------------------
#
# Plain breadth first over every breeding, written from the rules, not from
# the solver.  It looks at the order's chromosomes alone (the others, spares,
# never count: a flower is the order only if it holds none, and a parent's
# spares only fill up the three it gives), which keeps it small enough for
# hundreds of deals; ``test_the_exhaustive_search_agrees_with_every_breeding``
# checks that against every breeding of the full flowers.

@lru_cache(maxsize=None)
def _gives(genes):
    """What a parent holding ``genes`` (order chromosomes only, its spares
    left out) gives its two children: some of them in order to the first,
    the rest to the second, at most three each (spares make up the rest)."""
    n = len(genes)
    return {(tuple(genes[i] for i in chosen), tuple(genes[i] for i in range(n) if i not in chosen))
            for k in range(n + 1) if k <= 3 and n - k <= 3 for chosen in combinations(range(n), k)}


@lru_cache(maxsize=None)
def _mixes(x, y):
    """Every child made of ``x`` and ``y``, each in its own order."""
    n = len(x) + len(y)
    found = set()
    for places in combinations(range(n), len(x)):
        xs, ys = iter(x), iter(y)
        found.add(tuple(next(xs) if i in places else next(ys) for i in range(n)))
    return found


@lru_cache(maxsize=None)
def _kids(a, b):
    return frozenset((c, d) for xa, ra in _gives(a) for xb, rb in _gives(b)
                     for c in _mixes(xa, xb) for d in _mixes(ra, rb))


def _settle(flowers, sibs, unfilled):
    """Deliveries (each unfilled order takes the first flower equal to it),
    then the chromosomes no unfilled order uses dropped."""
    flowers, unfilled, gone = list(flowers), list(unfilled), set()
    for order in list(unfilled):
        match = next((i for i, f in enumerate(flowers) if i not in gone and f == order), None)
        if match is not None:
            gone.add(match)
            unfilled.remove(order)
    if gone:
        index = {i: n for n, i in enumerate(i for i in range(len(flowers)) if i not in gone)}
        sibs = frozenset((index[i], index[j]) for i, j in sibs if i in index and j in index)
        used = {g for o in unfilled for g in o}
        flowers = [tuple(g for g in f if g in used) for i, f in enumerate(flowers) if i not in gone]
    return tuple(flowers), sibs, tuple(unfilled)


def _same(flowers, sibs, unfilled):
    return (tuple(sorted(flowers)), tuple(sorted(tuple(sorted((flowers[i], flowers[j]))) for i, j in sibs)),
            tuple(sorted(unfilled)))


@lru_cache(maxsize=None)
def _threes(genes):
    return frozenset(combinations(genes, 3))


@lru_cache(maxsize=None)
def _halves(order):
    """Three of the order's chromosomes in its order, and the other three."""
    return tuple((tuple(order[k] for k in mine), tuple(order[k] for k in range(6) if k not in mine))
                 for mine in combinations(range(6), 3))


def _fills_in_one(flowers, sibs, order):
    """Can one breeding give ``order``: two flowers, not siblings, one
    holding three of its chromosomes in its order, the other the rest?"""
    halves = _halves(order)
    for i, j in combinations(range(len(flowers)), 2):
        if (i, j) not in sibs:
            for a, b in ((flowers[i], flowers[j]), (flowers[j], flowers[i])):
                if any(x in _threes(a) and y in _threes(b) for x, y in halves):
                    return True
    return False


def optimum(flowers, orders, cap, first=None):
    """The fewest breedings that fill every order, or None when more than
    ``cap``; ``first(c, d)``: which children the first breeding may have."""
    used = {g for o in orders for g in o}
    level = {}
    start = _settle([tuple(g for g in f if g in used) for f in flowers], frozenset(), tuple(orders))
    if not start[2]:
        return 0
    level[_same(*start)] = start
    for depth in range(1, cap + 1):
        if any(len(s[2]) == 1 and _fills_in_one(s[0], s[1], s[2][0]) for s in level.values()):
            return depth
        if depth == cap and all(len(s[2]) == 1 for s in level.values()):
            return None
        after = {}
        for flowers_, sibs, unfilled in level.values():
            n = len(flowers_)
            for i, j in combinations(range(n), 2):
                if (i, j) in sibs:
                    continue
                others = [k for k in range(n) if k not in (i, j)]
                index = {k: t for t, k in enumerate(others)}
                rest = tuple(flowers_[k] for k in others)
                kept = frozenset((index[x], index[y]) for x, y in sibs if x in index and y in index)
                sibs_after = kept | {(n - 2, n - 1)}
                for c, d in _kids(flowers_[i], flowers_[j]):
                    if depth == 1 and first is not None and not first(c, d):
                        continue
                    if c in unfilled or d in unfilled:
                        state = _settle(rest + (c, d), sibs_after, unfilled)
                        if not state[2]:
                            return depth
                    else:
                        state = (rest + (c, d), sibs_after, unfilled)
                    if depth < cap:
                        after.setdefault(_same(*state), state)
        level = after
    return None


RED, BLUE = ("1R", "2R", "3R"), ("1B", "2B", "3B")


def _flower(genes, rng, spare=0.0):
    """``genes`` in their order at random places of a flower, the other
    places blue (or, with chance ``spare``, red too)."""
    places, genes = sorted(rng.sample(range(6), len(genes))), iter(genes)
    return tuple(next(genes) if i in places else rng.choice(RED if rng.random() < spare else BLUE)
                 for i in range(6))


def weak_first_deal(rng):
    """A red order and four flowers: one holds a half of it, and the other
    half lies one chromosome a flower in the other three, so that the short
    lines breed two of those three first, into a child holding only two of
    the order's chromosomes in order (the solver once cut such lines)."""
    order = tuple(rng.choice(RED) for _ in range(6))
    half = sorted(rng.sample(range(6), 3))
    other = rng.sample([i for i in range(6) if i not in half], 3)
    flowers = [_flower([order[i] for i in half], rng, 0.1)] + [_flower([order[i]], rng, 0.1) for i in other]
    rng.shuffle(flowers)
    return flowers, [order]


def sparse_deal(rng):
    """A red order and four flowers holding one or two red chromosomes
    each, as many of each as the order needs at least."""
    while True:
        order = tuple(rng.choice(RED) for _ in range(6))
        flowers = [_flower([rng.choice(RED) for _ in range(rng.randint(1, 2))], rng) for _ in range(4)]
        if not Counter(order) - Counter(g for f in flowers for g in f):
            return flowers, [order]


def two_order_deal(rng):
    """Two orders of small and medium reds and four flowers holding three or
    four of them each, as many of each as the orders need at least."""
    while True:
        orders = [tuple(rng.choice(RED[:2]) for _ in range(6)) for _ in range(2)]
        flowers = [_flower([rng.choice(RED[:2]) for _ in range(rng.randint(3, 4))], rng) for _ in range(4)]
        if not Counter(orders[0]) + Counter(orders[1]) - Counter(g for f in flowers for g in f):
            return flowers, orders


def _strong_first(order):
    """The first breeding gives a child holding three of ``order``'s
    chromosomes in its order (or the order)."""
    halves = {x for x, _ in breeding.splits(order)}
    return lambda c, d: any(not halves.isdisjoint(_threes(child)) for child in (c, d))


def test_the_exhaustive_search_agrees_with_every_breeding():
    """On the small deals above, where ``brute_force`` lists every breeding
    of the full flowers (optimum at most two)."""
    for flowers, orders in SMALL:
        state = deal(flowers, orders)
        assert optimum([f.genes for f in state.flowers], state.unfilled, 2) == brute_force(state)


DEALS = {"weak first": weak_first_deal, "sparse": sparse_deal, "two orders": two_order_deal}


@pytest.mark.parametrize("kind, count, seed", [("weak first", 150, 1), ("sparse", 100, 2), ("two orders", 20, 3)])
def test_the_solver_proves_the_optimum_an_exhaustive_search_finds(kind, count, seed):
    """Hundreds of small deals: the solver's line plays, and the exhaustive
    search finds no line shorter than its lower bound (up to three
    breedings; sparse deals may need more); with one order it proves its
    par optimal (with two it may run out of its budget).  On the "weak first"
    deals, whose short lines may begin with a child holding only two of
    the order's chromosomes in order, it once found nothing or a longer
    line; at least twenty of them have no other short line."""
    rng = random.Random(seed)
    weak_only = 0
    for _ in range(count):
        flowers, orders = DEALS[kind](rng)
        state = RULES.start([split_genes("".join(f)) for f in flowers], orders)
        par = solver.solve(state, max_nodes=20_000, max_seconds=None)
        assert len(orders) > 1 or (par.optimal and not par.cut_short), (flowers, orders, par)
        assert par.found is not None and plays(state, par.line).done
        assert optimum(flowers, orders, min(par.lower_bound - 1, 3)) is None, (flowers, orders)
        if kind == "weak first" and par.found == 3 and weak_only < 20:
            weak_only += optimum(flowers, orders, 3, _strong_first(orders[0])) is None
    if kind == "weak first":
        assert weak_only == 20  # deals whose every line of three breedings begins with a weak child
