"""Diagrams beyond a grid of pieces: stacks in a row, piles, hands, dice,
tiles on a growing map and small boards, each drawn in text, SVG and PNG as
a player would see them; and pieces drawn in their own colour."""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET

import pytest
from PIL import Image

from notation.base import Card, Diagram, Die, Piece, Stack, Tile, Zone, render_text
from notation.drawing import render as diagrams
from notation.drawing import zones as diagram_zones

SVG = "{http://www.w3.org/2000/svg}"
PURPLE, RED, WHITE, TEAL = "#6a1b9a", "#c62828", "#fafafa", "#00acc1"


def pyramid(gene: str, css: str) -> Piece:
    return Piece("pyramid", gene, size=int(gene[0]), colour=css)


FLOWERS = Zone("Greenhouse", "stacks", (
    Stack("#1", (pyramid("1P", PURPLE), pyramid("3R", RED), pyramid("2W", WHITE),
                 pyramid("1P", PURPLE), pyramid("2R", RED), pyramid("3W", WHITE))),
    Stack("#2", (pyramid("2C", TEAL),) * 6, "sibling of #3"),
    Stack("#3", (pyramid("3R", RED),) * 6),
))


def only(*zones: Zone, caption=("Turn 3",)) -> Diagram:
    return Diagram(0, 0, {}, caption, zones=zones)


def svg_of(diagram: Diagram) -> ET.Element:
    return ET.fromstring(diagrams.render_svg(diagram))


def titles(root: ET.Element) -> list[str]:
    return [t.text for t in root.iter(f"{SVG}title")]


def texts(root: ET.Element) -> list[str]:
    return [t.text for t in root.iter(f"{SVG}text")]


def png_colours(diagram: Diagram) -> set[str]:
    image = Image.open(io.BytesIO(diagrams.render_png(diagram))).convert("RGB")
    root = svg_of(diagram)
    assert image.size == (int(root.get("width")), int(root.get("height")))
    return {"#%02x%02x%02x" % rgb for _, rgb in image.getcolors(maxcolors=1 << 20)}


def test_a_row_of_stacks_shows_each_stack_top_first_in_the_pieces_own_colours():
    diagram = only(FLOWERS)
    root = svg_of(diagram)
    assert "#1: 1P 3R 2W 1P 2R 3W (top first)" in titles(root)
    assert "#2: 2C 2C 2C 2C 2C 2C (top first); sibling of #3" in titles(root)
    stacks = [g for g in root.iter(f"{SVG}g") if g.find(f"{SVG}title").text.startswith("#")]
    assert [len(g.findall(f"{SVG}polygon")) for g in stacks] == [6, 6, 6]
    first = [p.get("fill") for p in stacks[0].findall(f"{SVG}polygon")]
    assert first == [PURPLE, RED, WHITE, PURPLE, RED, WHITE]
    tops = [float(p.get("points").split()[2].split(",")[1]) for p in stacks[0].findall(f"{SVG}polygon")]
    assert tops == sorted(tops), "the first piece is drawn at the top"
    assert {"#1", "#2", "#3", "Greenhouse", "sibling of #3"} <= set(texts(root))
    assert {PURPLE, RED, TEAL} <= png_colours(diagram)
    text = render_text(diagram)
    assert text.splitlines()[:3] == ["Greenhouse:", " #1   #2   #3", " 1P   2C   3R"]
    assert "#2: sibling of #3" in text


def test_a_zone_beside_another_is_drawn_to_its_right():
    orders = Zone("Orders", "stacks", (Stack("O1", (pyramid("1P", PURPLE),) * 6),), beside=True)
    root = svg_of(only(FLOWERS, orders))
    x = {t.text: float(t.get("x")) for t in root.iter(f"{SVG}text")}
    y = {t.text: float(t.get("y")) for t in root.iter(f"{SVG}text")}
    assert x["Orders"] > x["#3"] and y["Orders"] == y["Greenhouse"]
    assert render_text(only(FLOWERS, orders)).splitlines()[1].endswith("|   O1")


def test_a_pile_shows_how_many_cards_lie_face_down_and_its_face_up_top():
    diagram = only(Zone("Draw pile", "pile", (Card("7", colour=TEAL),), count=23))
    root = svg_of(diagram)
    assert "23 face down" in texts(root) and "23" in texts(root) and "7" in texts(root)
    assert "a pile of 23 face down" in titles(root)
    assert TEAL in png_colours(diagram)
    assert "23 face down; on top: [7]" in render_text(diagram)
    empty = only(Zone("Draw pile", "pile", count=0))
    assert "0 face down" in texts(svg_of(empty))


def test_a_hand_shows_face_up_cards_and_hides_the_rest():
    diagram = only(Zone("Bob's hand", "hand", (Card("2B"), Card(face_up=False), Card("X", player=4))))
    root = svg_of(diagram)
    assert titles(root) == ["Turn 3", "card 2B", "a face-down card", "card X"]
    assert {"2B", "X"} <= set(texts(root))
    assert diagrams.colour(4) in png_colours(diagram)
    assert "[2B] [?] [X]" in render_text(diagram)
    with pytest.raises(ValueError, match="face-down"):
        Card("3R", face_up=False)


def test_dice_show_their_values_as_pips_or_numbers():
    diagram = only(Zone("Dice", "dice", (Die(3), Die(5, player=1), Die(11, 12))))
    root = svg_of(diagram)
    groups = [g for g in root.iter(f"{SVG}g")]
    assert [g.find(f"{SVG}title").text for g in groups] == ["a d6 showing 3", "a d6 showing 5", "a d12 showing 11"]
    assert [len(g.findall(f"{SVG}circle")) for g in groups] == [3, 5, 0]
    assert "11" in texts(root)
    assert diagrams.colour(1) in png_colours(diagram)
    assert "[3] [5] [11]" in render_text(diagram)


def test_tiles_sit_on_a_map_that_grows_in_every_direction():
    diagram = only(Zone("Map", "tiles", (Tile((0, 0), "sea", "#90caf9"), Tile((1, 1), "forest", "#a5d6a7",
                                                                                Piece("stone", "s", 2)),
                                         Tile((-1, 0), "hill"))))
    root = svg_of(diagram)
    corner = {}
    for group in root.iter(f"{SVG}g"):
        rect = group.find(f"{SVG}rect")
        corner[group.find(f"{SVG}title").text] = (float(rect.get("x")), float(rect.get("y")))
    sea, forest, hill = corner["tile sea at 0,0"], corner["tile forest at 1,1"], corner["tile hill at -1,0"]
    assert hill[0] < sea[0] < forest[0] and forest[1] < sea[1] == hill[1]
    assert {"#90caf9", "#a5d6a7", diagrams.colour(2)} <= png_colours(diagram)
    assert render_text(diagram).splitlines()[1:3] == ["  .   . for", "hil sea   ."]


def test_a_tile_that_names_its_click_is_clicked_by_it_on_each_of_its_tiles():
    """A tile's clickable area is named by its ``click`` (several tiles of
    one click, a territory, are each clickable as it); the picture is the
    same pixels with or without clicks."""
    from notation.drawing import regions as diagram_regions

    plain = (Tile((0, 0), "a4", "#90caf9"), Tile((1, 0), "W", "#90caf9"), Tile((0, -1), "b3", "#a5d6a7"))
    named = tuple(Tile(t.at, t.label, t.colour, click=c) for t, c in zip(plain, ("1a4", "1a4", "1b3")))
    found = diagram_regions.regions(only(Zone("World 1", "tiles", named)))
    assert set(found["regions"]) == {"1a4", "1b3"}
    assert [name for name, _ in found["more"]] == ["1a4"]
    first, more = found["regions"]["1a4"], found["more"][0][1]
    assert more[0] > first[0] and more[1] == first[1]  # the territory's second tile, east of its first
    assert "tile a4 at 0,0" in set(diagram_regions.regions(only(Zone("World 1", "tiles", plain)))["regions"])
    assert diagrams.render_png(only(Zone("W", "tiles", named))) == diagrams.render_png(only(Zone("W", "tiles", plain)))


def test_a_grid_zone_is_a_small_board_of_its_own():
    board = Diagram(2, 2, {(0, 0): Piece("stone", "x", 0)})
    diagram = only(Zone("Board", "grid", (board,)))
    root = svg_of(diagram)
    assert "a1: stone x" in titles(root)
    assert diagrams.colour(0) in png_colours(diagram)
    assert "1 x ." in render_text(diagram)


def test_zones_follow_a_board_and_come_before_its_caption():
    board = Diagram(2, 1, {(0, 0): Piece("stone", "x", 0)}, ("Player 1 to move",),
                    zones=(Zone("Dice", "dice", (Die(4),)),))
    root = svg_of(board)
    y = {t.text: float(t.get("y")) for t in root.iter(f"{SVG}text")}
    assert y["a"] < y["Dice"] < y["Player 1 to move"]
    lines = render_text(board).splitlines()
    assert lines.index("Dice:") < lines.index("Player 1 to move")


def test_a_piece_with_its_own_colour_is_drawn_in_it_on_a_board():
    diagram = Diagram(2, 1, {(0, 0): Piece("stone", "x", 0, colour="#123456"),
                             (1, 0): Piece("pyramid", "p", 1, 2, colour="#654321")})
    fills = {e.get("fill") for e in svg_of(diagram).iter() if e.get("fill")}
    assert {"#123456", "#654321"} <= fills and diagrams.colour(0) not in fills
    assert {"#123456", "#654321"} <= png_colours(diagram)




def test_zone_mistakes_are_refused_naming_the_kinds():
    with pytest.raises(ValueError, match="grid, stacks, pile, hand, dice, tiles"):
        Zone("x", "wheel")
    with pytest.raises(ValueError, match="dice zone holds Die"):
        Zone("x", "dice", (Card("1"),))


def _map_width(columns: int) -> float:
    zone = Zone("Map", "tiles", tuple(Tile((x, 0), f"{x},0", "#a5d6a7") for x in range(columns)))
    return diagram_zones.layout([zone], diagrams.colour, diagrams._shapes).width


def test_a_large_map_is_drawn_with_smaller_tiles_down_to_a_least_size():
    assert _map_width(11) == 11 * diagram_zones.TILE  # up to 11 tiles across: full size
    assert _map_width(14) == 14 * (diagram_zones.MAP_SPAN // 14) < 14 * diagram_zones.TILE
    assert _map_width(30) == 30 * diagram_zones.MIN_TILE  # never smaller than MIN_TILE
    tall = Zone("Map", "tiles", tuple(Tile((0, y), f"0,{y}") for y in range(16)))
    block = diagram_zones.layout([tall], diagrams.colour, diagrams._shapes)
    assert block.width == diagram_zones.MAP_SPAN // 16  # a tall map shrinks too
    labels = [op for op in block.ops if op[0] == "text" and op[1][2] == "0,3"]
    assert labels and 8 <= labels[0][1][3] < diagram_zones.TILE_TEXT
