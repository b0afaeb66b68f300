"""The Martian Greenhouse solver: on small deals an exhaustive search over
every breeding proves that what it reports is the optimum; its lines play
legally; the budget is kept."""

import random
from dataclasses import replace

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
