"""Games ended by the players (resignation, agreed draw) store a Result tag
that the record format reads, for every game, whatever its notation calls
the players (Ataxx calls them x and o)."""

import pytest

from notation import record as records_format
from pbem.services import games, records


@pytest.mark.parametrize("kind", ["logger", "ataxx", "attactics"])
def test_a_resignation_gives_a_record_that_checks(session, make_players, start_game, kind):
    alice, bob = make_players("alice", "bob")
    game = start_game(alice, bob, kind=kind)
    games.resign(session, game.id, alice)
    session.refresh(game)
    assert game.result == "2"
    record = records_format.read(records.text(session, game))
    records_format.check(record)
    assert record.result == "2" and "resigned" in record.tags["Termination"]


@pytest.mark.parametrize("kind", ["logger", "ataxx"])
def test_an_agreed_draw_gives_a_record_that_checks(session, make_players, start_game, kind):
    alice, bob = make_players("alice", "bob")
    game = start_game(alice, bob, kind=kind)
    games.offer_draw(session, game.id, alice)
    games.offer_draw(session, game.id, bob)
    session.refresh(game)
    assert game.result == "1=2"
    records_format.check(records_format.read(records.json_text(session, game)))
