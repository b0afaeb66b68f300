"""Chance outcomes in records, as a reader of a record meets them: written
after the turn they followed, read back from text and JSON, and a record
that gives too few, too many, impossible or hidden outcomes is refused
saying which and where."""

from __future__ import annotations

import pytest
from hands_game import KIND, register_hands

from engine import chance
from engine.base import settle
from engine.errors import RecordError
from notation import record as records

SEED = "5e" * 32


@pytest.fixture
def finished(monkeypatch):
    """A whole game of Hands for two, as its finished record's text."""
    register_hands(monkeypatch)
    rules, notation = KIND.rules, KIND.notation
    record = records.seeded_record("hands", ["Ann", "Bob"], {}, SEED)
    state, happened = settle(rules, rules.seeded_state(2, {}, SEED), lambda e, k: chance.decide(SEED, e, 0, k))
    record.chance = [[records.Outcome(e.purpose, v) for e, v in happened]]
    while not rules.is_over(state):
        turn = rules.legal_turns(state)[-1]  # always the best card
        record.turns.append(notation.format_turn(state, turn))
        ply = len(record.turns)
        state, happened = settle(rules, rules.apply(state, turn), lambda e, k: chance.decide(SEED, e, ply, k))
        record.chance.append([records.Outcome(e.purpose, v) for e, v in happened])
    record.result = rules.result(state).tag()
    record.tags[records.SEED] = SEED
    return records.write_text(record)


def test_outcomes_are_written_after_their_turn_and_read_back_from_text_and_json(finished):
    lines = finished.splitlines()
    deal = next(line for line in lines if line.startswith("0. "))
    assert deal.count("{draw ") == 4 and "|" not in deal
    assert next(line for line in lines if line.startswith("1. ")).count("{draw ") == 2
    record = records.read(finished)
    assert records.write_text(record) == finished
    assert records.write_text(records.read(records.write_json(record))) == finished
    records.check(record)


def test_a_missing_outcome_is_refused_naming_the_turn(finished):
    first = next(line for line in finished.splitlines() if line.startswith("1. "))
    cut = first.split(" {draw ")[0] + " |" + first.split("|")[1]
    with pytest.raises(RecordError, match=r"turn 1 \(round 1, player 1\).*gives no outcome after it; write it as \{draw"):
        records.replay(records.read(finished.replace(first, cut)))


def test_an_outcome_where_the_game_draws_nothing_is_refused(finished):
    last = [line for line in finished.splitlines() if line[:1].isdigit() and ". " in line][-1]
    with pytest.raises(RecordError, match="waits for no chance event there"):
        records.replay(records.read(finished.replace(last, last + " {draw ant}")))


def test_an_impossible_outcome_is_refused_listing_what_was_left(finished):
    deal = next(line for line in finished.splitlines() if line.startswith("0. "))
    card = deal.split("{draw ")[1].split("}")[0]
    twice = deal.replace(deal.split("{draw ")[2].split("}")[0] + "}", card + "}", 1)
    with pytest.raises(RecordError, match=f"{{draw {card}}} is not a possible outcome: 1 drawn from what is left"):
        records.replay(records.read(finished.replace(deal, twice)))


@pytest.mark.parametrize("bad, message", [
    ("{draw", "chance outcomes are written"), ("{Draw! ant}", "names its purpose"), ("{draw}", "names its purpose .* and what it gave")])
def test_a_malformed_outcome_is_refused_saying_how_to_write_one(finished, bad, message):
    deal = next(line for line in finished.splitlines() if line.startswith("0. "))
    with pytest.raises(RecordError, match=message):
        records.read(finished.replace(deal, deal + " " + bad))


def test_a_player_s_view_is_refused_for_replay_saying_it_is_a_view(finished):
    record = records.read(finished)
    record.tags.pop(records.SEED)
    record.result = "*"
    view = records.write_text(record, viewer=1)
    assert "{draw ?}" in view
    with pytest.raises(RecordError, match="player's view of a game still going on"):
        records.check(records.read(view))


def test_a_game_without_chance_refuses_outcomes():
    text = '[Game "logger"]\n[Player1 "A"]\n[Player2 "B"]\n\n1. a1 {draw ant} | e5\n*\n'
    with pytest.raises(RecordError, match="waits for no chance event"):
        records.replay(records.read(text))
