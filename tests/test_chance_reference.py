"""The reference snippet of ``docs/chance.md`` gives the outcomes the server
decides for draws and rolls during play (``engine.chance.decide``), and the
values it prints are pinned, so the algorithm cannot change silently."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest

from engine import chance
from engine.base import ChanceEvent

DOC = Path(__file__).resolve().parent.parent / "docs" / "chance.md"
SEED = "00" * 31 + "01"


def _snippet_namespace() -> dict:
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.DOTALL)
    assert len(blocks) == 1, "the doc has one Python reference snippet"
    namespace: dict = {}
    with contextlib.redirect_stdout(io.StringIO()) as printed:
        exec(compile(blocks[0], str(DOC), "exec"), namespace)
    namespace["printed"] = printed.getvalue().splitlines()
    return namespace


def test_the_docs_snippet_prints_the_values_the_docs_promise():
    printed = _snippet_namespace()["printed"]
    assert printed == ["['dog', 'cat']", "[3, 4, 1]"]
    assert f"prints `{printed[0]}` and `{printed[1]}`" in DOC.read_text(encoding="utf-8")
    assert chance.decide(SEED, ChanceEvent("draw", "draw", 2, ("ant", "bee", "cat", "dog")), 0, 0) == ("dog", "cat")
    assert chance.decide(SEED, ChanceEvent("roll", "attack", 3), 3, 0) == ("3", "4", "1")


@pytest.mark.parametrize("seed", [SEED, "ff" * 32, "0123456789abcdef" * 4])
def test_the_docs_snippet_decides_what_the_server_decides(seed):
    snippet = _snippet_namespace()
    left = tuple(f"t{n:02d}" for n in range(70))
    for ply, k, count in ((0, 0, 1), (0, 3, 5), (17, 1, 2), (250, 0, 70)):
        event = ChanceEvent("draw", "tile", count, left)
        assert list(chance.decide(seed, event, ply, k)) == snippet["draw"](seed, "tile", ply, k, left, count)
    for ply, k, count, sides in ((1, 0, 1, 6), (9, 2, 4, 6), (33, 0, 3, 20)):
        event = ChanceEvent("roll", "attack", count, sides=sides)
        assert [int(v) for v in chance.decide(seed, event, ply, k)] == \
            snippet["roll"](seed, "attack", ply, k, count, sides)


def test_each_event_has_a_stream_of_its_own():
    event = ChanceEvent("roll", "attack", 8)
    outcomes = {chance.decide(SEED, event, ply, k) for ply in range(3) for k in range(3)}
    assert len(outcomes) == 9  # eight dice each: nine different events give nine different throws
    assert chance.decide(SEED, event, 1, 0) == chance.decide(SEED, event, 1, 0)


@pytest.mark.parametrize("event", [
    dict(kind="deal", purpose="draw"), dict(kind="draw", purpose="Draw!", items=("a",)),
    dict(kind="draw", purpose="draw", count=2, items=("a",)), dict(kind="roll", purpose="roll", sides=1)])
def test_an_impossible_chance_event_is_refused_when_a_game_makes_it(event):
    with pytest.raises(ValueError):
        ChanceEvent(**event)


def test_an_outcome_an_event_cannot_give_is_told_apart():
    draw = ChanceEvent("draw", "draw", 2, ("a", "a", "b"))
    assert draw.allows(("a", "a")) and draw.allows(("b", "a"))
    assert not draw.allows(("b", "b")) and not draw.allows(("a",)) and not draw.allows(("c", "a"))
    roll = ChanceEvent("roll", "roll", 2)
    assert roll.allows(("6", "1")) and not roll.allows(("7", "1")) and not roll.allows(("06", "1"))
    assert not roll.allows(("0", "1"))
