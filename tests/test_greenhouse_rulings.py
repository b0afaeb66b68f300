"""Martian Greenhouse: every ruling of notation/greenhouse/guide.md,
and the rules' own example played as written."""

from collections import Counter

import pytest
from greenhouse_helpers import EXAMPLE, PURE_PURPLE, RULES, SEED, example_start

from engine.errors import GameOverError, IllegalTurnError, OptionError
from engine.greenhouse import Breed, GiveUp
from engine.greenhouse.flowers import split_genes
from notation.greenhouse import NOTATION


def play(state, *texts):
    for text in texts:
        state = RULES.apply(state, NOTATION.parse_turn(state, text))
    return state


def test_the_rules_example_plays_as_written():
    state = example_start()
    assert [f.genes for f in state.flowers[:3]] == EXAMPLE
    state = play(state, "#1 x #2 -> 1P 1B 2P 2B 3P 3R / 2B 2C 1C 1R 3R 1B")
    assert state.flower(11).genes == split_genes("1P1B2P2B3P3R")
    assert state.flower(12).genes == split_genes("2B2C1C1R3R1B")
    assert state.flower(1) is None and state.flower(2) is None
    # the half-purple offspring and the greenhouse flower fill the order;
    # the other child is the remaining 1B 2B 3R and 3P 2P 3R interleaved
    state = play(state, "#11 x #3 -> 1P 1P 2P 2P 3P 3P / 1B 2B 3R 3P 2P 3R")
    assert state.filled == (13,)
    assert state.flower(13) is None and state.flower(14).genes == split_genes("1B2B3R3P2P3R")
    assert RULES.is_over(state)
    assert RULES.result(state).winners == (0,) and RULES.scores(state) == (2,)


def test_default_stashes_are_red_blue_purple_cyan_and_make_ten_flowers():
    state = RULES.seeded_state(1, {}, SEED)
    assert RULES.normalize_options({}) == {"stashes": "rbpc", "orders": "4"}
    assert len(state.flowers) == 10
    assert Counter(g for f in state.flowers for g in f.genes) == Counter(
        {s + c: 5 for s in "123" for c in "RBPC"})


@pytest.mark.parametrize("stashes, flowers", [("rb", 5), ("KW", 5), ("rygbkpcowx", 25), ("bgry", 10)])
def test_any_even_number_of_stashes_in_any_colours(stashes, flowers):
    state = RULES.seeded_state(1, {"stashes": stashes, "orders": "1"}, SEED)
    assert len(state.flowers) == flowers
    assert {g[1] for f in state.flowers for g in f.genes} <= set(stashes.upper())


@pytest.mark.parametrize("stashes, words", [("rbp", "even number"), ("rr", "twice"), ("rq", "colour letters"),
                                            ("", "colour letters")])
def test_bad_stashes_are_refused_saying_what_is_allowed(stashes, words):
    with pytest.raises(OptionError, match=words):
        RULES.normalize_options({"stashes": stashes})


def test_orders_may_be_given_and_never_need_more_than_five_of_one_chromosome():
    given = RULES.seeded_state(1, {"orders": "1P1P2P2P3P3P/2B2C1C1R3R1B"}, SEED)
    assert given.orders == (PURE_PURPLE, split_genes("2B2C1C1R3R1B"))
    with pytest.raises(OptionError, match="6 1P in total"):
        RULES.normalize_options({"orders": "1P1P1P2P3P3P/1P1P1P2B2B2B"})
    with pytest.raises(OptionError, match="no yellow stash"):
        RULES.normalize_options({"orders": "1Y1P2P2P3P3P"})
    with pytest.raises(OptionError, match="six chromosomes"):
        RULES.normalize_options({"orders": "1P1P2P"})
    with pytest.raises(OptionError, match="1 to 10"):
        RULES.normalize_options({"orders": "11"})


@pytest.mark.parametrize("number", range(12))
def test_drawn_orders_never_need_more_than_five_of_one_chromosome(number):
    seed = f"{number:064x}"
    state = RULES.seeded_state(1, {"orders": "10"}, seed)
    assert len(state.orders) == 10
    assert max(Counter(g for o in state.orders for g in o).values()) <= 5


def test_the_same_seed_and_orders_give_the_same_greenhouse_and_another_seed_another():
    one = RULES.seeded_state(1, {"orders": "3"}, SEED)
    assert one == RULES.seeded_state(1, {"orders": "3"}, SEED)
    assert one.flowers != RULES.seeded_state(1, {"orders": "3"}, "00" * 31 + "02").flowers
    assert [f.number for f in one.flowers] == list(range(1, 11))


def test_a_game_of_chance_needs_its_seed():
    with pytest.raises(OptionError, match="seed"):
        RULES.initial_state(1, {})
    with pytest.raises(OptionError, match="64 hex digits"):
        RULES.seeded_state(1, {}, "not a seed")
    with pytest.raises(OptionError, match="for 1 player, not 2"):
        RULES.seeded_state(2, {}, SEED)


def test_new_flowers_get_the_next_unused_numbers_even_after_deliveries():
    state = play(example_start(), "#1 x #2 -> 1P 1B 2P 2B 3P 3R / 2B 2C 1C 1R 3R 1B",
                 "#11 x #3 -> 1P 1P 2P 2P 3P 3P / 1B 2B 3R 3P 2P 3R")
    assert state.next_number == 15


def test_siblings_are_never_bred_together_even_much_later():
    state = RULES.start([f.genes for f in example_start().flowers],
                        [split_genes("1R1R1R1R1R3C")])
    state = play(state, "#1 x #2 -> 1P 1B 2P 2B 3P 3R / 2B 2C 1C 1R 3R 1B")
    with pytest.raises(IllegalTurnError, match="#11 and #12 are siblings"):
        NOTATION.parse_turn(state, "#11 x #12 -> 1P 1B 2P 2B 2C 1C / 3P 3R 1R 3R 1B 2B")
    state = play(state, "#4 x #5 -> " + " ".join(state.flower(4).genes[:3] + state.flower(5).genes[:3])
                 + " / " + " ".join(state.flower(4).genes[3:] + state.flower(5).genes[3:]))
    with pytest.raises(IllegalTurnError, match="siblings"):
        RULES.apply(state, Breed(11, 12, split_genes("1P1B2P2B2C1C"), split_genes("3P3R1R3R1B2B")))
    assert state.siblings == ((11, 12), (13, 14))


def test_a_breeding_must_use_exactly_the_parents_chromosomes():
    state = example_start()
    with pytest.raises(IllegalTurnError, match="the children hold 2 3P but the parents only 1"):
        NOTATION.parse_turn(state, "#1 x #2 -> 1P 1B 2P 2B 3P 3P / 2B 2C 1C 1R 3R 1B")


def test_each_parent_keeps_its_order_in_each_child():
    state = example_start()
    # 1B 1P 2P ... would be fine, but 3R before 2P breaks #1's order (it gives 1B 2P 3R)
    with pytest.raises(IllegalTurnError, match="no interleaving gives the first child"):
        NOTATION.parse_turn(state, "#1 x #2 -> 3R 2P 1B 1P 2B 3P / 2B 2C 1C 1R 3R 1B")
    with pytest.raises(IllegalTurnError, match="not both from one breeding"):
        NOTATION.parse_turn(state, "#1 x #2 -> 1P 1B 2P 2B 3P 3R / 2B 2C 1C 1R 1B 3R")


def test_unknown_and_repeated_flowers_are_refused():
    state = example_start()
    with pytest.raises(IllegalTurnError, match="no #42 in the greenhouse"):
        NOTATION.parse_turn(state, "#42 x #2 -> 1P 1B 2P 2B 3P 3R / 2B 2C 1C 1R 3R 1B")
    with pytest.raises(IllegalTurnError, match="with itself"):
        RULES.apply(state, Breed(2, 2, EXAMPLE[1], EXAMPLE[1]))


def test_delivery_happens_at_setup():
    state = RULES.seeded_state(1, {"orders": "1"}, SEED)
    first = "".join(state.flowers[0].genes)
    dealt = RULES.seeded_state(1, {"orders": first}, SEED)
    assert dealt.filled == (1,) and dealt.flower(1) is None and RULES.is_over(dealt)
    assert RULES.scores(dealt) == (0,)


def test_delivery_takes_the_lowest_numbered_match_and_one_flower_per_order():
    flower = split_genes("1R1R1R2R2R2R")
    other = split_genes("3R3R3R3R3R2R")
    state = RULES.start([other, flower, flower, other], [flower, flower, flower])
    assert state.filled == (2, 3, 0)
    assert [f.number for f in state.flowers] == [1, 4]


def test_both_children_can_fill_orders_in_one_breeding():
    state = RULES.start([split_genes("1R1R1R1B1B1B"), split_genes("2R2R2R2B2B2B")],
                        [split_genes("1R1R1R2R2R2R"), split_genes("1B1B1B2B2B2B")])
    state = play(state, "#1 x #2 -> 1R 1R 1R 2R 2R 2R / 1B 1B 1B 2B 2B 2B")
    assert state.filled == (3, 4) and state.flowers == () and RULES.is_over(state)


def test_giving_up_ends_the_game_unfinished():
    state = play(example_start(), "#1 x #2 -> 1P 1B 2P 2B 3P 3R / 2B 2C 1C 1R 3R 1B", "give up")
    assert state.given_up and RULES.is_over(state)
    result = RULES.result(state)
    assert result.winners == () and "gave up after 1 breeding" in result.reason
    with pytest.raises(GameOverError):
        NOTATION.parse_turn(state, "#3 x #4 -> 1P 1B 2P 2B 3P 3R / 2B 2C 1C 1R 3R 1B")
    with pytest.raises(GameOverError):
        RULES.apply(state, GiveUp())


def test_a_stuck_greenhouse_can_still_give_up():
    state = RULES.start([split_genes("1R1R1R1B1B1B"), split_genes("2R2R2R2B2B2B"), split_genes("3R3R3R3B3B3B")],
                        [split_genes("3R3R3R3B3B3B"), split_genes("1R1R1R1R1R1R")])
    assert RULES.legal_turns(state)[-1] == GiveUp()
    state = play(state, "#1 x #2 -> 1R 1R 1R 2R 2R 2R / 1B 1B 1B 2B 2B 2B")
    assert RULES.legal_turns(state) == [GiveUp()]  # only the two siblings are left


def test_the_rules_interleaving_examples_are_all_possible():
    from engine.greenhouse.breeding import interleavings

    made = interleavings(("1R", "2R", "3R"), ("1B", "2B", "3B"))
    for text in ("1R 2R 3R 1B 2B 3B", "1R 1B 2R 3R 2B 3B", "1B 1R 2B 2R 3B 3R", "1B 2B 1R 2R 3R 3B"):
        assert tuple(text.split()) in made
    assert len(made) == 20 and ("2R", "1R", "3R", "1B", "2B", "3B") not in made
