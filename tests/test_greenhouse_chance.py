"""The checkable chance stream (engine/chance.py): fixed test vectors, the
docs' reference snippet gives the server's deal, seeds and hashes."""

import contextlib
import io
import re
from pathlib import Path

import pytest
from greenhouse_helpers import RULES, SEED
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import chance

DOC = Path(__file__).resolve().parent.parent / "notation" / "greenhouse" / "guide.md"


def test_fixed_vectors_never_change():
    assert chance.ALGORITHM == "pbem-sha256-v1"
    assert chance.commitment(SEED) == "ec4916dd28fc4c10d78e287ca5d9cc51ee1ae73cbfde08c6b37324cbfaac8bc5"
    assert chance.shuffled(SEED, "deal", list(range(10))) == [3, 1, 0, 7, 2, 8, 5, 4, 9, 6]
    state = RULES.seeded_state(1, {}, SEED)
    assert ["".join(f.genes) for f in state.flowers[:3]] == ["3R2P2B2B2P1P", "2R2P2C2B3P1R", "3B1P3R2R3C2C"]
    assert ["".join(o) for o in state.orders] == ["1R2B3P2B1P3R", "2C2C1R2C2R2B", "1B3P1C2P2R2C", "2B2B3B2P3C2R"]
    small = RULES.seeded_state(1, {"stashes": "rb", "orders": "2"}, "ff" * 32)
    assert ["".join(f.genes) for f in small.flowers] == [
        "2R3R1B3R2R2B", "2R2R2B3B3B2R", "1R3B1B3B1R1B", "3R1R1B3R3R3B", "1R1R2B2B1B2B"]
    assert ["".join(o) for o in small.orders] == ["3B2R1B3R1R1R", "2R2B1R2B1B3B"]


def _snippet():
    text = DOC.read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, re.DOTALL)
    assert len(blocks) == 1, "the doc has one Python reference snippet"
    return blocks[0]


@pytest.mark.parametrize("seed, stashes", [(SEED, "rbpc"), ("ff" * 32, "rb"), ("0123456789abcdef" * 4, "rygbkp")])
def test_the_docs_snippet_deals_what_the_server_deals(seed, stashes):
    namespace: dict = {}
    with contextlib.redirect_stdout(io.StringIO()) as printed:
        exec(compile(_snippet(), str(DOC), "exec"), namespace)
    assert printed.getvalue().splitlines()[0] == chance.commitment(SEED)
    assert "#1: 3R 2P 2B 2B 2P 1P" in printed.getvalue()
    state = RULES.seeded_state(1, {"stashes": stashes, "orders": "3"}, seed)
    colours = RULES.normalize_options({"stashes": stashes})["stashes"].upper()
    assert namespace["deal"](seed, colours) == [" ".join(f.genes) for f in state.flowers]
    assert namespace["orders"](seed, 3, colours) == [" ".join(o) for o in state.orders]


def test_seeds_are_fresh_hex_and_bad_seeds_are_refused():
    one, two = chance.new_seed(), chance.new_seed()
    assert one != two and re.fullmatch(r"[0-9a-f]{64}", one)
    for bad in ("", "00" * 31, "zz" * 32, "00" * 33, None):
        with pytest.raises(chance.SeedError, match="64 hex digits"):
            chance.read_seed(bad)
    chance.check_commitment(SEED, chance.commitment(SEED).upper())
    with pytest.raises(chance.SeedError, match="does not match its hash"):
        chance.check_commitment(SEED, chance.commitment("00" * 32))


@settings(max_examples=40, deadline=None)
@given(st.binary(min_size=32, max_size=32), st.integers(1, 1000), st.text(max_size=10))
def test_below_stays_in_range_and_shuffles_keep_every_item(seed, n, purpose):
    stream = chance.Stream(seed.hex(), purpose)
    assert all(0 <= stream.below(n) < n for _ in range(5))
    items = list(range(n % 50))
    assert sorted(chance.shuffled(seed.hex(), purpose, items)) == items


def test_each_purpose_has_its_own_stream():
    assert chance.shuffled(SEED, "deal", range(20)) != chance.shuffled(SEED, "orders", range(20))
