"""Martian Greenhouse notation: forgiving turn input, canonical output,
position strings, diagrams, and random self-play keeping the game's own
invariants (the parsers' fuzzing, round trips and every legal turn
re-parsing are in ``test_game_contract.py``)."""

import random
from collections import Counter
from itertools import islice

import pytest
from greenhouse_helpers import RULES, SEED, example_start
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import MalformedTurnError, PbemError, PositionError
from engine.greenhouse import Breed, GiveUp, breeding
from engine.greenhouse.flowers import split_genes, stash_pyramids
from notation.greenhouse import NOTATION

CANONICAL = "#1 x #2 -> 1P 1B 2P 2B 3P 3R / 2B 2C 1C 1R 3R 1B"


@pytest.mark.parametrize("text", [
    CANONICAL,
    "#1 X #2 → 1p 1b 2p 2b 3p 3r / 2b 2c 1c 1r 3r 1b",
    "1 x 2 -> 1P1B2P2B3P3R/2B2C1C1R3R1B",
    "#2 * #1 > 1P, 1B, 2P, 2B, 3P, 3R | 2B, 2C, 1C, 1R, 3R, 1B",
    "  #1x#2=>1P 1B 2P 2B 3P 3R ; 2B 2C 1C 1R 3R 1B  ",
    "#1 × #2 : 1P 1B 2P 2B 3P 3R / 2B 2C 1C 1R 3R 1B",
])
def test_turns_are_read_forgivingly_and_written_canonically(text):
    state = example_start()
    turn = NOTATION.parse_turn(state, text)
    assert NOTATION.format_turn(state, turn) == CANONICAL


@pytest.mark.parametrize("text", ["give up", "Give Up", "giveup", "resign", "I give up."])
def test_giving_up_is_written_give_up(text):
    state = example_start()
    assert NOTATION.parse_turn(state, text) == GiveUp()
    assert NOTATION.format_turn(state, GiveUp()) == "give up"


@pytest.mark.parametrize("text, words", [
    ("", "empty"),
    ("#1 x #2", "not a breeding"),
    ("#1 x #2 -> 1P 1B 2P / 2B 2C 1C 1R 3R 1B", "first child has 3 chromosomes"),
    ("#1 x #2 -> 1P 1B 2P 2B 3P 3R / 2B 2C 1C 1R 3R", "second child has 5"),
    ("#1 x #2 -> 1P 1B 2P 2B 3P 4R / 2B 2C 1C 1R 3R 1B", "not a chromosome"),
    ("#1 x #2 -> 1P 1B 2P 2B 3P 3Q / 2B 2C 1C 1R 3R 1B", "3Q names no colour"),
])
def test_malformed_turns_say_what_is_wrong(text, words):
    with pytest.raises(MalformedTurnError, match=words):
        NOTATION.parse_turn(example_start(), text)


def test_legal_turns_of_two_plain_flowers_are_all_their_children():
    state = RULES.start([split_genes("1R1R1R1B1B1B"), split_genes("2R2R2R2B2B2B")], [split_genes("1R2R1R2R1R2R")])
    turns = RULES.legal_turns(state)
    assert turns[-1] == GiveUp()
    breedings = turns[:-1]
    # child one takes k reds then 3-k blues of #1 (k = 0..3), the same of #2,
    # and any of the 20 interleavings (no chromosome of #1 equals one of #2);
    # child two likewise from the rest: 4 * 4 * 20 * 20 distinct breedings
    assert len(breedings) == 6400
    for turn in breedings[::97]:
        assert NOTATION.parse_turn(state, NOTATION.format_turn(state, turn)) == turn
    assert Breed(1, 2, split_genes("1R2R1R2R1R2R"), split_genes("1B2B1B2B1B2B")) in breedings
    assert len(breedings) == len(set(breedings))


def test_position_strings_round_trip_and_name_what_is_wrong():
    state = RULES.seeded_state(1, {}, SEED)
    text = NOTATION.format_position(state)
    assert NOTATION.parse_position(text) == state
    flowers, orders, *rest = text.split()
    with pytest.raises(PositionError, match="six fields"):
        NOTATION.parse_position(flowers)
    with pytest.raises(PositionError, match="every pyramid of the stashes"):
        NOTATION.parse_position(" ".join([flowers.replace("3R", "3B", 1), orders, *rest]))
    with pytest.raises(PositionError, match="options ask for 4 orders"):
        NOTATION.parse_position(" ".join([flowers, orders.split("/")[0], *rest]))
    with pytest.raises(PositionError, match="siblings"):
        NOTATION.parse_position(" ".join([flowers, orders, "1-99", *rest[1:]]))
    with pytest.raises(PositionError, match="status"):
        NOTATION.parse_position(" ".join([flowers, orders, *rest[:-1], "won"]))


def test_positions_after_play_round_trip():
    state = RULES.apply(example_start(), NOTATION.parse_turn(example_start(), CANONICAL))
    text = NOTATION.format_position(state)
    assert text.split()[2:] == ["11-12", "13", "1", "-"]
    assert NOTATION.parse_position(text, {"orders": "1P1P2P2P3P3P"}) == state


def test_text_diagram_shows_each_flower_top_down_and_the_orders_beside():
    state = example_start()
    lines = NOTATION.text_diagram(state).splitlines()
    assert lines[0].split()[:3] == ["#1", "#2", "#3"] and lines[0].split()[-1] == "O1"
    assert lines[1].split()[:3] == ["2B", "2C", "3P"] and lines[1].split()[-1] == "1P"
    assert lines[6].split()[:3] == ["3R", "3P", "3P"]
    assert "0 of 1 orders filled" in NOTATION.text_diagram(state)


def test_picture_diagram_stacks_pyramids_in_their_colours():
    state = example_start()
    diagram = NOTATION.diagram(state)
    flowers, orders = diagram.zones
    assert (flowers.kind, orders.kind, orders.beside) == ("stacks", "stacks", True)
    assert [s.label for s in flowers.items] == [f"#{f.number}" for f in state.flowers]
    assert [s.label for s in orders.items] == ["O1"]
    top = flowers.items[0].pieces[0]
    assert (top.kind, top.label, top.size, top.colour) == ("pyramid", "2B", 2, "#1f4fbf")
    assert diagram.caption == ("0 breedings so far; 0 of 1 orders filled",)
    after = RULES.apply(state, NOTATION.parse_turn(state, CANONICAL))
    assert "Siblings (never bred together): #11 and #12" in NOTATION.diagram(after).caption


def _invariants(state, pyramids):
    held = Counter(g for f in state.flowers for g in f.genes) + Counter(
        g for o, n in zip(state.orders, state.filled) if n for g in o)
    assert held == pyramids
    numbers = [f.number for f in state.flowers] + [n for n in state.filled if n]
    assert len(set(numbers)) == len(numbers) and max(numbers, default=0) < state.next_number
    assert all(a in numbers and b in numbers for a, b in state.siblings)


@pytest.mark.parametrize("game", range(3))
def test_random_self_play_keeps_pyramids_numbers_and_siblings(game):
    rng = random.Random(game)
    seed = f"{game + 7:064x}"
    state = RULES.seeded_state(1, {"stashes": "rb", "orders": "2"}, seed)
    pyramids = Counter(stash_pyramids("RB"))
    for _ in range(25):
        _invariants(state, pyramids)
        if RULES.is_over(state):
            break
        pairs = RULES.breedable(state)
        if not pairs:
            state = RULES.apply(state, GiveUp())
            continue
        f, g = rng.choice(pairs)
        children = list(islice(breeding.children(f.genes, g.genes), 500))
        first, second = rng.choice(children)
        state = RULES.apply(state, Breed(f.number, g.number, first, second))
    if not RULES.is_over(state):
        state = RULES.apply(state, GiveUp())
    _invariants(state, pyramids)
    assert RULES.result(state) is not None


def test_the_picture_diagram_renders_with_the_servers_renderers():
    from notation.drawing.render import render_png, render_svg

    diagram = NOTATION.diagram(example_start())
    svg = render_svg(diagram)
    assert svg.startswith("<svg") and svg.count("<polygon") == 6 * (10 + 1)
    assert render_png(diagram).startswith(b"\x89PNG")


@settings(max_examples=80, deadline=None)
@given(st.dictionaries(st.sampled_from(["stashes", "orders", "colour"]), st.text(max_size=30), max_size=3))
def test_any_options_give_options_or_an_option_error(options):
    try:
        normal = RULES.normalize_options(options)
    except PbemError:
        return
    assert RULES.normalize_options(normal) == normal
