"""Worlds: territories and their names, adjacency at edges and points,
regions along edges across cards, the placements world building allows
(the 2 x 2 rectangle, half turns, the forced-region rule) and the
playability check."""

from alheimur_helpers import GRID, WHOLE

from engine.alheimur.setup import place_text
from engine.alheimur.worlds import finish, geometry, placements, playable

HALVES = ("AAEE", "AEAE", "FFFF", "WWTT")


def test_territories_are_named_by_their_first_tile_in_reading_order():
    geo = geometry(HALVES)
    assert geo.names() == ("a4", "c4", "d4", "a3", "a2", "c2", "c1")
    assert geo.territory("c4").element == "A" and len(geo.territory("c4").tiles) == 2
    assert geo.territory("a2").element == "F" and len(geo.territory("a2").tiles) == 4


def test_adjacency_counts_edges_and_points():
    geo = geometry(GRID)
    assert geo.adjacent["a4"] == {"b4", "a3", "b3"}  # a corner tile
    assert geo.adjacent["b3"] == {"a4", "b4", "c4", "a3", "c3", "a2", "b2", "c2"}
    # the earth half a3-b3 touches c2 only at a point
    assert "c2" in geometry(HALVES).adjacent["a3"]


def test_regions_join_one_element_along_edges_across_cards_but_not_at_points():
    geo = geometry(HALVES)
    assert geo.region_of("a4") == {"a4", "c4"}  # air along the top, two cards
    assert geo.tiles_in(geo.region_of("a4")) == 4
    assert geo.region_of("a3") == {"a3"}  # earth a3-b3 and d4-d3 do not touch
    grid = geometry(GRID)
    assert grid.region_of("b3") == {"b3", "c3"}  # ether on two cards, edge to edge
    assert grid.region_of("a4") == {"a4"}  # earth a4 and c4 are apart


def test_a_world_is_playable_when_a_territory_has_four_neighbours():
    assert playable(GRID)
    assert playable(HALVES)  # a3 touches a4, c4, a2 and c2
    assert not playable(WHOLE)  # each card touches only three


def test_the_second_card_may_go_on_any_side_turned_or_not():
    options = placements(((0, 0, "AAAA"),), "EEFF")
    assert sorted(place_text(*o) for o in options) == sorted(["n", "n~", "s", "s~", "e", "e~", "w", "w~"])


def test_a_card_that_can_form_a_region_must_be_placed_so():
    options = placements(((0, 0, "AAAA"),), "AEAE")
    assert sorted(place_text(*o) for o in options) == sorted(["e", "w~", "n", "n~", "s", "s~"])


def test_a_whole_card_is_not_offered_turned():
    options = placements(((0, 0, "AAAA"),), "EEEE")
    assert sorted(place_text(*o) for o in options) == ["e", "n", "s", "w"]


def test_the_third_card_completes_a_two_by_two_rectangle():
    options = placements(((0, 0, "AAAA"), (1, 0, "EEEE")), "FFFF")
    assert sorted(place_text(*o) for o in options) == ["n", "ne", "s", "se"]


def test_the_fourth_card_fills_the_last_slot():
    cards = ((0, 0, "AAAA"), (1, 0, "EEEE"), (0, -1, "FFFF"))
    assert {place_text(*o)[:2] for o in placements(cards, "WWTT")} == {"ne"}
    assert finish(cards + ((1, -1, "WWTT"),)) == ("FFFF", "WWTT", "AAAA", "EEEE")
