"""Martian Greenhouse records: they carry the seed's hash from the start and
the dealt position, replay without the seed, and are verified against the
seed once it is revealed."""

import pytest

from engine import chance
from engine.errors import RecordError
from engine.greenhouse.flowers import split_genes
from notation import record as records
from notation import registry
from notation.greenhouse import NOTATION

RULES = NOTATION.game
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


def test_a_new_record_shows_the_hash_and_the_deal_but_not_the_seed():
    record = records.seeded_record("greenhouse", ["Ann"], OPTIONS, SEED)
    text = records.write_text(record)
    assert f'[SeedHash "{chance.commitment(SEED)}"]' in text
    assert '[Chance "pbem-sha256-v1"]' in text
    assert SEED not in text
    dealt = RULES.seeded_state(1, OPTIONS, SEED)
    assert f'[Start "{NOTATION.format_position(dealt)}"]' in text


def test_a_finished_record_replays_without_the_seed_and_verifies_with_it():
    record = finished_record()
    text = records.write_text(record)
    assert f'[Seed "{SEED}"]' in text
    again = records.read_text(text)
    assert records.write_text(again) == text
    without = records.read_text(text.replace(f'[Seed "{SEED}"]\n', ""))
    played = records.replay(without)
    assert played.final.given_up and played.final.breedings == 1
    records.check(again)
    json_again = records.read_json(records.write_json(record))
    records.check(json_again)


def test_a_wrong_seed_is_detected():
    record = finished_record()
    record.tags[records.SEED] = "00" * 32
    with pytest.raises(RecordError, match="does not match its hash"):
        records.check(record)


def test_a_seed_that_deals_another_start_is_detected():
    other = "00" * 32
    record = finished_record()
    record.tags[records.SEED] = other
    record.tags[records.SEED_HASH] = chance.commitment(other)
    with pytest.raises(RecordError, match="does not deal the recorded start"):
        records.check(record)


def test_a_finished_game_of_chance_must_reveal_its_seed():
    record = finished_record()
    del record.tags[records.SEED]
    with pytest.raises(RecordError, match="reveals no seed"):
        records.check(record)


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
