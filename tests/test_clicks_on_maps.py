"""Taiga and Alheimur are played on their maps: the clicks of their turns
that name a place (Taiga's drawn tile and the place it goes, a truck's
tile; Alheimur's territories and the mover's ships) are clickable areas of
the board picture, named as the notation names them, and a territory of
several tiles is clickable on each of them."""

from __future__ import annotations

import itertools

from alheimur_helpers import WHOLE, position, world

from engine.base import settle_from_seed
from notation import registry
from notation.clicks import lazy_turns
from notation.drawing import regions as diagram_regions

SEED = "5eed" * 16


def areas(notation, state) -> tuple[set[str], list[str]]:
    found = diagram_regions.regions(notation.diagram(state))
    return set(found["regions"]), [name for name, _ in found["more"]]


def test_a_taiga_tile_is_clicked_then_its_place_on_the_map():
    kind = registry.get("taiga")
    rules, notation = kind.rules, kind.notation
    state = settle_from_seed(rules, rules.seeded_state(2, {}, SEED), SEED, 0)[0]
    drawn, _ = areas(notation, state)
    for turn in rules.legal_turns(state):
        clicks = notation.turn_clicks(state, turn)
        assert clicks[0] == state.drawn and clicks[0] in drawn
        assert clicks[1] == f"{turn.x},{turn.y}" and clicks[1] in drawn  # an empty place beside the map
        if turn.truck:
            assert f"{turn.truck[0]},{turn.truck[1]}" in drawn
    assert notation.click_options(state, ()).next == (state.drawn,)


def test_alheimur_territories_and_ships_are_clicked_on_the_worlds():
    notation = registry.get("alheimur").notation
    state = position(world("1", WHOLE, on="a4=1:2", orbit="1F2 1T3+1 2F2"), world("2", on="d1=2:3", orbit="2F1"),
                     space="1T2")
    drawn, more = areas(notation, state)
    assert {"1a4", "ship 1F2", "ship 1T3+1", "ship ST2"} <= drawn
    assert more.count("1a4") == 3  # a whole card: four tiles, one territory
    # another player's ship: not the mover's to click, labelled with its owner (p2F2), never as a move names
    # a ship (2F2: a fighter of 2 in the orbit of world 2)
    assert "ship 2F2" not in drawn and "p2F2" in drawn and "2F2" not in drawn
    clicked = {tuple(notation.turn_clicks(state, t)) for t in itertools.islice(lazy_turns(notation, state), 5000)}
    assert ("1a4", "=1") in clicked and ("ship 1F2", ">S") in clicked and ("ship 1T3+1", "!", "1a4") in clicked
    for clicks in clicked:
        # a territory is always on its world; a turn's first ship too (a ship changed earlier in the turn,
        # a transport whose marine landed, is not drawn yet: a button names it)
        assert all(c in drawn for c in clicks if c[:1].isdigit() and c[1:2].isalpha()), clicks
        assert clicks[0] in drawn or clicks[0] == "pass", clicks


def test_the_preview_outlines_the_place_where_a_taiga_tile_is_laid():
    """A place keeps its name once a tile is laid there (its clickable area
    is the same): the preview outlines it because it is drawn differently,
    and leaves alone the tiles that only moved as the map grew."""
    kind = registry.get("taiga")
    rules, notation = kind.rules, kind.notation
    state = settle_from_seed(rules, rules.seeded_state(2, {}, SEED), SEED, 0)[0]
    for ply, turn in enumerate(itertools.islice(rules.legal_turns(state), 3)):
        after = settle_from_seed(rules, rules.apply(state, turn), SEED, 1)[0]
        marks = diagram_regions.changed(notation.diagram(state), notation.diagram(after))
        place = diagram_regions.regions(notation.diagram(after))["regions"][f"{turn.x},{turn.y}"]
        assert tuple(place) in {tuple(m) for m in marks}, (ply, turn)
        start = diagram_regions.regions(notation.diagram(after))["regions"]["0,0"]
        assert tuple(start) not in {tuple(m) for m in marks}  # the start tile only moved, if at all
