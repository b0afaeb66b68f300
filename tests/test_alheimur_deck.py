"""The deck of the rulings: 40 Element cards, 10 whole, 20 half, 10
quartered; 18 territories and 32 tiles of each element."""

from collections import Counter
from itertools import combinations

from engine.alheimur.deck import DECK, ELEMENTS, census, kind, territories, turned


def test_each_element_has_18_territories_covering_32_tiles():
    assert census() == {e: (18, 32) for e in ELEMENTS}
    assert sum(tiles for _, tiles in census().values()) == 160


def test_the_deck_has_10_whole_20_half_and_10_quartered_cards():
    assert len(DECK) == 40
    assert Counter(kind(c) for c in DECK) == {"whole": 10, "half": 20, "quartered": 10}


def test_each_element_has_two_whole_cards():
    assert Counter(c[0] for c in DECK if kind(c) == "whole") == {e: 2 for e in ELEMENTS}


def test_each_pair_of_elements_is_split_once_across_and_once_down():
    halves = [c for c in DECK if kind(c) == "half"]
    for a, b in combinations(ELEMENTS, 2):
        mine = [c for c in halves if set(c) == {a, b}]
        across = [c for c in mine if c[0] == c[1]]  # top half one element
        down = [c for c in mine if c[0] == c[2]]  # left half one element
        assert len(across) == 1 and len(down) == 1, (a, b, mine)


def test_quartered_cards_show_the_other_four_elements_in_two_arrangements_that_differ_even_turned():
    quartered = [c for c in DECK if kind(c) == "quartered"]
    for missing in ELEMENTS:
        mine = [c for c in quartered if missing not in c]
        assert len(mine) == 2
        first, second = mine
        assert set(first) == set(second) == set(ELEMENTS) - {missing}
        assert second not in (first, turned(first))


def test_no_card_is_another_card_turned_so_a_laid_card_names_its_card():
    names = set(DECK)
    for card in names:
        assert turned(card) == card or turned(card) not in names


def test_territories_of_a_card_group_its_tiles_by_element():
    assert territories("AAAA") == [("A", (0, 1, 2, 3))]
    assert territories("AAEE") == [("A", (0, 1)), ("E", (2, 3))]
    assert territories("AEAE") == [("A", (0, 2)), ("E", (1, 3))]
    assert territories("EFWT") == [("E", (0,)), ("F", (1,)), ("W", (2,)), ("T", (3,))]


def test_the_docs_show_every_card_from_the_deck_table():
    from pathlib import Path

    from engine.alheimur.deck import deck_table
    doc = (Path(__file__).resolve().parent.parent / "notation" / "alheimur" / "guide.md").read_text()
    assert deck_table() in doc
