"""The renderers draw the boards of the grid games (Logger, Attactics,
Ataxx) exactly as they did before diagrams grew zones, more player colours
and per-piece colours: the SVG text and the PNG pixels of a start position
and of a position a few turns in, for every player count, match the
fingerprints in ``tests/fixtures/diagram_renders.json``.

If a change to a board picture is intended, regenerate the fingerprints with
``python tests/test_diagram_renders_unchanged.py > tests/fixtures/diagram_renders.json``
and say so in the commit."""

from __future__ import annotations

import hashlib
import io
import json
import sys
from pathlib import Path

import pytest
from PIL import Image

from notation import registry
from notation.drawing import render as diagrams

FIXTURE = Path(__file__).parent / "fixtures" / "diagram_renders.json"
GRID_GAMES = ("logger", "attactics", "ataxx")


def _all_kinds():
    sys.path.insert(0, str(Path(__file__).parent))
    from test_server_diagrams import ALL_KINDS

    return ALL_KINDS


def cases():
    """(name, diagram) for every grid game and player count: a few turns in,
    so the pieces of every player show."""
    yield "all-kinds", _all_kinds()
    for name in GRID_GAMES:
        kind = registry.get(name)
        for players in range(kind.rules.min_players, kind.rules.max_players + 1):
            state = kind.rules.initial_state(players, {})
            for i in range(6 * players):
                if kind.rules.is_over(state):
                    break
                turns = kind.rules.legal_turns(state)
                state = kind.rules.apply(state, turns[(i * 7) % len(turns)])
            yield f"{name}-{players}", kind.notation.diagram(state)


def fingerprint(diagram) -> dict:
    svg = diagrams.render_svg(diagram)
    png = Image.open(io.BytesIO(diagrams.render_png(diagram)))
    return {"svg": hashlib.sha256(svg.encode()).hexdigest(),
            "png": hashlib.sha256(png.convert("RGB").tobytes()).hexdigest(), "size": list(png.size)}


EXPECTED = json.loads(FIXTURE.read_text())


@pytest.mark.parametrize("name,diagram", list(cases()), ids=lambda v: v if isinstance(v, str) else "")
def test_grid_game_boards_render_exactly_as_before(name, diagram):
    assert fingerprint(diagram) == EXPECTED[name]


def test_every_fingerprinted_board_is_still_checked():
    assert sorted(name for name, _ in cases()) == sorted(EXPECTED)


if __name__ == "__main__":
    print(json.dumps({name: fingerprint(d) for name, d in cases()}, indent=1, sort_keys=True))
