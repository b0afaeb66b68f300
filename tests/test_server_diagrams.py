"""The generic SVG and PNG board renderers: every piece kind, every hosted
game's start position, and the per-position cache."""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET

import pytest
from PIL import Image

from notation import registry
from notation.base import Diagram, Piece
from notation.drawing import render as diagrams
from notation.logger import TREE

ALL_KINDS = Diagram(
    4,
    3,
    {
        (0, 0): Piece("tree", "P", None, 3, marked=True),
        (1, 0): Piece("logger", "2", 1, 2),
        (2, 0): Piece("pyramid", "r", 0, 1),
        (3, 0): Piece("stone", "x", 2),
        (0, 1): Piece("blocked", "#"),
        (1, 1): Piece("mystery", "<&>"),
    },
    caption=("Player 1 to move", "scores <1> & <2>"),
)

SVG = "{http://www.w3.org/2000/svg}"


def test_svg_draws_every_piece_kind_with_a_description_and_escapes_text():
    svg = diagrams.render_svg(ALL_KINDS)
    root = ET.fromstring(svg)  # well-formed, so every label was escaped
    titles = [t.text for t in root.iter(f"{SVG}title")]
    assert "a1: tree P (marked)" in titles
    assert "b1: logger 2 of player 2" in titles
    assert "c1: pyramid r of player 1" in titles
    assert "a2: blocked #" in titles
    assert "b2: mystery <&>" in titles
    texts = [t.text for t in root.iter(f"{SVG}text")]
    assert "scores <1> & <2>" in texts and "<&>" in texts
    assert {"1", "2", "3", "a", "b", "c", "d"} <= set(texts)
    fills = {e.get("fill") for e in root.iter() if e.get("fill")}
    assert diagrams.colour(0) in fills and diagrams.colour(1) in fills and TREE in fills


def test_png_is_an_image_of_the_same_size():
    image = Image.open(io.BytesIO(diagrams.render_png(ALL_KINDS)))
    root = ET.fromstring(diagrams.render_svg(ALL_KINDS))
    assert image.format == "PNG"
    assert image.size == (int(root.get("width")), int(root.get("height")))
    colours = {colour for _, colour in image.getcolors(maxcolors=100000)}
    assert (0xC6, 0x28, 0x28) in colours  # player 1's red pyramid is drawn


@pytest.mark.parametrize("name", registry.names())
def test_every_hosted_games_start_position_renders_in_every_format(name):
    kind = registry.get(name)
    if kind.rules.uses_chance:  # dealt from a seed
        state = kind.rules.seeded_state(kind.rules.min_players, {}, "0" * 63 + "1")
    else:
        state = kind.rules.initial_state(kind.rules.min_players, {})
    position = kind.notation.format_position(state)
    options = kind.rules.normalize_options({})
    svg = diagrams.render(name, options, position, "svg")
    ET.fromstring(svg)
    assert diagrams.render(name, options, position, "png").startswith(b"\x89PNG")
    assert diagrams.render(name, options, position, "txt").strip() == kind.notation.text_diagram(state).strip()


def test_a_position_is_rendered_once_then_served_from_the_cache():
    kind = registry.get("logger")
    position = "....2/...../..s../...../1.... 1 0,0 2,2"
    first = diagrams.render("logger", {"spawn": "seedling"}, position, "svg")
    hits = diagrams.cache_info().hits
    assert diagrams.render("logger", {"spawn": "seedling"}, position, "svg") is first
    assert diagrams.cache_info().hits == hits + 1
    assert kind.notation.parse_position(position)  # the cached one is the real position
