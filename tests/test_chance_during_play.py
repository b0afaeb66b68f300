"""Chance during play on the server: a game that draws after its turns
(Hands, ``tests/hands_game.py``: cards dealt and drawn by chance events) has
each outcome decided from its secret seed when the turn (or the start, or a
forfeited turn) happens, stored with the turn, and written in the record as
it happened, so the finished record replays without the seed and
``pbem record check`` verifies every outcome against the revealed seed; a
preview never decides chance (it would show the next card)."""

from __future__ import annotations

import random
from datetime import datetime, timedelta, timezone

import pytest
from hands_game import ANIMALS, register_hands
from sqlmodel import select

from engine import chance
from engine.base import settle
from engine.errors import RecordError
from notation import record as records
from pbem import db, models
from pbem.models import Game, Turn
from pbem.services import games, sweep, turns
from pbem.services import records as stored_records
from pbem.services.stored import state_of

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=timezone.utc)


@pytest.fixture
def hands(monkeypatch):
    return register_hands(monkeypatch)


@pytest.fixture
def seeded(monkeypatch):
    """Games get seeds 'aa...', 'ab...', ... (the door still commits and reveals them)."""
    made = iter(f"{n:064x}" for n in range(0xaa00, 0xab00))
    monkeypatch.setattr(games, "NEW_SEED", lambda: next(made))


def fresh(session, game):
    session.expire_all()
    return session.get(Game, game.id)


def stored(session, game):
    return list(session.exec(select(Turn).where(Turn.game_id == game.id).order_by(Turn.ply)))


def test_the_deal_and_every_draw_come_from_the_seed_and_are_stored_as_they_happen(
        session, make_players, start_game, hands, seeded):
    alice, bob = make_players("alice", "bob")
    game = start_game(alice, bob, kind="hands")
    seed = game.seed
    dealt = state_of(game)
    # four cards dealt, two each, by four draws decided from the seed (ply 0)
    assert [len(hand) for hand in dealt.hands] == [2, 2] and len(dealt.pile) == len(ANIMALS) - 4
    assert [e["values"][0] for e in game.start_chance] == [
        chance.decide(seed, hands.rules.chance(s), 0, k)[0] for k, s in enumerate(_dealing(hands, 2, game))]
    assert [e["seen_by"] for e in game.start_chance] == [[0], [1], [0], [1]]
    # a preview shows the card played and no draw: the next card stays unknown
    card = dealt.hands[0][0]
    preview = turns.preview_turn(session, game.id, alice, f"play {card}")
    assert hands.rules.chance(preview.state) is not None and len(preview.state.pile) == len(dealt.pile)
    turns.submit_turn(session, game.id, alice, f"play {card}", 0, "web")
    game = fresh(session, game)
    turn = stored(session, game)[-1]
    drawn = chance.decide(seed, hands.rules.chance(preview.state), 1, 0)
    assert turn.chance == [{"purpose": "draw", "kind": "draw", "values": list(drawn), "seen_by": [0]}]
    assert drawn[0] in state_of(game).hands[0] and card not in state_of(game).hands[0]
    assert turn.position == game.position  # the position stored is the one after the draw


def _dealing(hands, players, game):
    """The states the deal passed through, before each of its draws."""
    rules, state = hands.rules, hands.rules.initial_state(players)
    for event in game.start_chance:
        yield state
        state = rules.apply_chance(state, tuple(event["values"]))


def test_a_finished_game_s_record_replays_without_the_seed_and_verifies_against_it(
        session, make_players, start_game, hands, seeded):
    alice, bob, carol = make_players("alice", "bob", "carol")
    players = [alice, bob, carol]
    game = start_game(alice, bob, carol, kind="hands")
    rng = random.Random(3)
    while game.status == "active":
        state = state_of(game)
        mover = hands.rules.to_move(state)
        turns.submit_turn(session, game.id, players[mover], rng.choice(hands.notation.legal_texts(state)),
                          game.ply, "web")
        game = fresh(session, game)
    assert game.result != "*" and game.ply == len(ANIMALS)
    text = stored_records.text(session, game)
    assert text.count("{draw ") == len(ANIMALS)  # every card's draw is in the record
    assert f'[Seed "{game.seed}"]' in text
    played = records.check(records.read(text))
    assert hands.notation.format_position(played.final) == game.position
    records.check(records.read(stored_records.json_text(session, game)))
    # a draw changed in the record no longer matches the seed
    first = next(line for line in text.splitlines() if line.startswith("1. "))
    drawn = first.split("{draw ")[1].split("}")[0]
    other = next(line for line in text.splitlines() if line.startswith("0. ")).split("{draw ")[1].split("}")[0]
    swapped = text.replace(f"{{draw {drawn}}}", "{draw TMP}").replace(f"{{draw {other}}}", f"{{draw {drawn}}}", 1) \
        .replace("{draw TMP}", f"{{draw {other}}}")
    with pytest.raises(RecordError, match="does not give the recorded outcome"):
        records.check(records.read(swapped))


def test_a_forfeited_turn_is_followed_by_its_draw(app, session, make_players, hands, seeded, monkeypatch):
    class Now:
        now = T0

    monkeypatch.setattr(models, "CLOCK", lambda: Now.now)
    alice, bob = make_players("alice", "bob")
    game = games.create_game(session, alice, "hands", [alice.email, bob.email],
                             time_control={"hours_per_turn": 24, "on_timeout": "forfeit"})
    games.accept(session, game.id, bob)
    game = fresh(session, game)
    pile = len(state_of(game).pile)
    with app.app_context():
        assert sweep.sweep(db.engine(), game.deadline + timedelta(minutes=1)).timeouts == 1
    game = fresh(session, game)
    turn = stored(session, game)[-1]
    assert (turn.source, turn.canonical) == ("clock", "--")
    assert turn.chance and turn.chance[0]["seen_by"] == [0] and len(state_of(game).pile) == pile - 1
    start = _before(hands, game)
    event = hands.rules.chance(hands.rules.forfeit_turn(start))
    assert turn.chance[0]["values"] == list(chance.decide(game.seed, event, 1, 0))


def _before(hands, game):
    """The dealt start: the stored deal applied to the game's initial state."""
    state = hands.rules.initial_state(2)
    for event in game.start_chance:
        state = hands.rules.apply_chance(state, tuple(event["values"]))
    return state


def test_the_command_line_settles_draws_from_a_seed_as_the_server_does(hands):
    from click.testing import CliRunner

    from pbem.cli import main

    seed = "7c" * 32
    started = CliRunner().invoke(main, ["position", "start", "hands", "2", "--seed", seed])
    assert started.exit_code == 0, started.output
    start = started.stdout.strip()
    assert "chance after turn 0: {draw " in started.stderr
    state = hands.notation.parse_position(start)
    expected, _ = settle(
        hands.rules, hands.rules.initial_state(2), lambda e, k: chance.decide(seed, e, 0, k))
    assert state == expected
    card = state.hands[0][0]
    waiting = CliRunner().invoke(main, ["position", "apply", "hands", start, f"play {card}"])
    assert waiting.exit_code == 0 and "chance decides next (draw 'draw')" in waiting.stderr
    drawn = CliRunner().invoke(main, ["position", "apply", "hands", start, f"play {card}", "--seed", seed])
    assert drawn.exit_code == 0, drawn.output
    after = hands.notation.parse_position(drawn.stdout.strip())
    assert len(after.hands[0]) == 2 and "chance after turn 1: {draw " in drawn.stderr
