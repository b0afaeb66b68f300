"""Martian Greenhouse records: the order list given as an option, bad turns
and deals named, and ``pbem record check`` verifying the revealed seed.
That a record carries the seed's hash from the start, replays without the
seed and is verified against it is checked for every game of chance in
``test_game_contract.py``."""

import pytest

from engine.errors import RecordError
from engine.greenhouse.flowers import split_genes
from notation import record as records
from notation import registry

SEED = "5eed" * 16
OPTIONS = {"stashes": "rb", "orders": "1"}


def finished_record(seed: str = SEED) -> records.Record:
    """Two stashes, one order; breed #1 and #2 keeping their halves, then
    give up (a finished game)."""
    record = records.seeded_record("greenhouse", ["Ann <ann@example.org>"], OPTIONS, seed, date="2026.11.23")
    state = records.initial_state(record)
    a, b = state.flowers[0].genes, state.flowers[1].genes
    record.turns = [f"#1 x #2 -> {' '.join(a[:3] + b[:3])} / {' '.join(a[3:] + b[3:])}", "give up"]
    record.result = "="
    record.tags[records.SEED] = seed
    return record


def test_a_record_with_the_order_list_given_replays():
    order = "1R1R2R2R3R3R"
    record = records.seeded_record("greenhouse", ["Ann"], {"stashes": "rb", "orders": order}, SEED)
    assert records.replay(record).final.orders == (split_genes(order),)
    assert "orders=1R1R2R2R3R3R stashes=rb" in records.write_text(record)


def test_a_bad_breeding_in_a_record_is_named_by_number():
    record = finished_record()
    record.turns[0] = "#1 x #1 -> 1R 1R 1R 1R 1R 1R / 1B 1B 1B 1B 1B 1B"
    with pytest.raises(records.BadTurn, match="turn 1"):
        records.replay(record)


def test_the_server_offers_the_game():
    assert "greenhouse" in registry.names()
    assert registry.get("greenhouse") is registry.get_any("greenhouse")
    assert registry.get("greenhouse").rules.title == "Martian Greenhouse"


def test_pbem_record_check_verifies_the_revealed_seed(tmp_path):
    from click.testing import CliRunner

    from pbem.cli import main

    good = tmp_path / "good.pgn"
    good.write_text(records.write_text(finished_record()), encoding="utf-8")
    result = CliRunner().invoke(main, ["record", "check", str(good)])
    assert result.exit_code == 0, result.output
    bad = tmp_path / "bad.pgn"
    bad.write_text(good.read_text(encoding="utf-8").replace(SEED, "00" * 32), encoding="utf-8")
    result = CliRunner().invoke(main, ["record", "check", str(bad)])
    assert result.exit_code != 0 and "does not match its hash" in result.output


def test_a_record_without_its_deal_or_with_a_broken_one_says_so():
    record = finished_record()
    record.start = None
    with pytest.raises(RecordError, match="deals its greenhouse from a seed"):
        records.replay(record)
    record = finished_record()
    record.start = record.start.replace("1:", "1:9Z", 1)
    with pytest.raises(RecordError, match="cannot set up the game"):
        records.replay(record)
