"""The Taiga tile set: one data file (``engine/taiga/tiles.txt``) that the
rules, the renderer and the docs read; checked for consistency, turned on
the map, drawn by the project's renderer, and tabled in the docs."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest
from PIL import Image

from engine.taiga.tiles import KINDS, TileDataError, read_tiles, turned, turns_of
from notation.taiga.pictures import CAMP, HARDWOOD, ROAD, SOFTWOOD, SPECIES_COLOURS

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "scripts"))
import taiga_tiles  # noqa: E402 - importable once scripts/ is on the path


def colours(png: bytes) -> set[str]:
    image = Image.open(io.BytesIO(png)).convert("RGB")
    return {"#%02x%02x%02x" % c for _, c in image.getcolors(1 << 16)}


def test_the_docs_table_and_pictures_are_made_from_the_tile_data():
    assert taiga_tiles.stale() == [], "run scripts/taiga_tiles.py"
    doc = taiga_tiles.DOC.read_text(encoding="utf-8")
    for code, kind in KINDS.items():
        assert f"| ![{code}](taiga-tiles/{code}.png) | **{code}** | {kind.count} |" in doc


@pytest.mark.parametrize("code, wanted", [("S0", {SOFTWOOD}), ("H8", {HARDWOOD}), ("MA", {HARDWOOD,
                                          SPECIES_COLOURS["maple"]}), ("C1", {CAMP, ROAD}), ("X1", {SOFTWOOD, HARDWOOD}),
                                          ("R4", {ROAD})])
def test_each_tile_is_drawn_from_its_data(code, wanted):
    assert wanted <= colours(taiga_tiles.picture(code))


def test_a_tile_turned_shows_each_side_a_quarter_turn_on():
    s2 = turned("S2", 1)  # softwood edge, road east-west, turned 90: forest east, road north-south
    assert s2.edges == "RSRG" and s2.forest_spots == ("e",) and s2.road_spots == ("n",)
    assert s2.spot_of(2) == "n" and s2.spot_of(3) == ""
    assert turns_of("R4") == (0,) and turns_of("R1") == (0, 1) and turns_of("S1") == (0, 1, 2, 3)


@pytest.mark.parametrize("line, complaint", [
    ("Z1 1 SGGG - - - 0 a forest edge in no area", "every forest edge is in exactly one forest area"),
    ("Z1 1 RGGG - - - 0 a road edge in no road", "every road edge is in exactly one road segment"),
    ("Z1 1 SHGG ne - - 0 a mixed area", "all softwood or all hardwood"),
    ("Z1 1 SGGR n w camp 0 a camp with a forest", "a camp tile has one road and no forest"),
    ("Z1 1 HHGH new - oak 0 oak on three sides", "a species symbol is on a full hardwood tile"),
    ("Z1 1 QGGG - - - 0 a bad edge", "edges are four of"),
    ("Z1 1 GGGG", "eight fields"),
])
def test_tile_data_that_says_something_impossible_is_refused_naming_the_line(line, complaint):
    with pytest.raises(TileDataError, match=complaint) as error:
        read_tiles("# a comment\n" + line)
    assert "line 2" in str(error.value)
