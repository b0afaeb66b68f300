"""The out timeout policy in games of three and four: the player whose time
runs out is out of the game, which goes on without them; their turns are
forfeited at once (stored as clock turns, ``--`` in the record), they cannot
win, and the last player left wins at once.  With two players the opponent
wins at once.  Time is injected as in ``test_schedule_walkthrough``."""

from __future__ import annotations

import random
from datetime import datetime, timedelta, timezone

import pytest
from sqlmodel import Session, select

from notation import record as records_format
from notation import registry
from pbem import db, models
from pbem.models import Game, OutboxMessage, Seat, Turn
from pbem.models.clock import Timeout
from pbem.services import records, transition, turns
from pbem.services import sweep as sweeping
from pbem.services.clock.deadlines import mover_seat
from pbem.services.errors import GameMovedOn
from pbem.services.stored import state_of

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=timezone.utc)  # a Monday, 09:00 UTC
H = timedelta(hours=1)
M = timedelta(minutes=1)
LOGGER = registry.get("logger")


@pytest.fixture
def clock(monkeypatch):
    class Now:
        now = T0

    now = Now()
    monkeypatch.setattr(models, "CLOCK", lambda: now.now)
    return now


@pytest.fixture
def trio(session, make_players, start_game, clock):
    alice, bob, carol = make_players("alice", "bob", "carol")
    game = start_game(alice, bob, carol, time_control={"hours_per_turn": 72, "on_timeout": "out"})
    return game, [alice, bob, carol]


def sweep(app, now):
    with app.app_context():
        return sweeping.sweep(db.engine(), now)


def fresh(session, game):
    session.expire_all()
    return session.get(Game, game.id)


def last_mail_id(session):
    session.expire_all()
    row = session.exec(select(OutboxMessage).order_by(OutboxMessage.id.desc())).first()
    return row.id if row else 0


def mail_after(session, mark):
    session.expire_all()
    return list(session.exec(select(OutboxMessage).where(OutboxMessage.id > mark).order_by(OutboxMessage.id)))


def mover(game):
    return LOGGER.rules.to_move(state_of(game)) if game.status == "active" else None


def play_one(session, game, players, rng, clock):
    """The player to move plays a random legal turn an hour later."""
    clock.now += H
    text = rng.choice(LOGGER.notation.legal_texts(state_of(game)))
    turns.submit_turn(session, game.id, players[mover(game)], text, game.ply, "web")
    return fresh(session, game)


def stored(session, game):
    return list(session.exec(select(Turn).where(Turn.game_id == game.id).order_by(Turn.ply)))


def seat_of(session, game, number):
    return session.exec(select(Seat).where(Seat.game_id == game.id, Seat.number == number)).one()


def test_a_player_out_on_time_is_skipped_and_the_game_goes_on_to_its_end(app, session, trio, clock):
    game, players = trio
    rng = random.Random(7)
    # play until player 2 (bob) is to move with the lead on points
    while not (mover(game) == 1 and game.ply >= 6 and _leader(game) == 1):
        game = play_one(session, game, players, rng, clock)
        assert game.status == "active" and game.ply < 300
    out_ply, points = game.ply, LOGGER.rules.scores(state_of(game))
    assert points[1] > max(points[0], points[2])  # bob leads when his time runs out
    mark, due = last_mail_id(session), game.deadline
    assert sweep(app, due + M).timeouts == 1
    assert sweep(app, due + 2 * M).timeouts == 0
    game = fresh(session, game)
    assert game.status == "active" and game.ply == out_ply + 1 and mover(game) == 2
    assert seat_of(session, game, 1).out_after == out_ply
    skipped = stored(session, game)[-1]
    assert (skipped.ply, skipped.seat, skipped.source, skipped.canonical) == (out_ply + 1, 1, "clock", "--")
    assert game.deadline == due + M + 72 * H  # carol's turn, from the timeout
    clock.now = due + M
    timeout = session.exec(select(Timeout).where(Timeout.game_id == game.id)).one()
    assert (timeout.ply, timeout.seat, timeout.policy, timeout.outcome) == (out_ply, 1, "out", "out")
    sent = mail_after(session, mark)
    assert {m.to_addr for m in sent} == {p.email for p in players}  # everyone is told who is out
    assert all("Bob) ran out of time" in m.body and "out of the game" in m.body for m in sent)
    # the game goes on; bob is never to move again, his turns are skipped at once
    while game.status == "active":
        assert mover(game) != 1
        game = play_one(session, game, players, rng, clock)
        assert game.ply < 600
    rows = stored(session, game)
    bobs = [t for t in rows if t.seat == 1 and t.ply > out_ply]
    assert bobs and all(t.source == "clock" and t.canonical == "--" and t.text == "(out of the game)" for t in bobs)
    final = state_of(game)
    best = [tuple(p for p in group if p != 1) for group in LOGGER.rules.ranking(final)]
    expected = "=".join(str(p + 1) for p in next(g for g in best if g))
    assert game.result == expected and "2" not in game.result.split("=")
    assert "out on time: player 2" in game.termination
    text = records.text(session, game)
    assert f'[Out "2@{out_ply}"]' in text
    played = records_format.check(records_format.read(text))
    assert LOGGER.notation.format_position(played.final) == game.position
    records_format.check(records_format.read(records.json_text(session, game)))


def _leader(game):
    scores = LOGGER.rules.scores(state_of(game))
    best = max(scores)
    return scores.index(best) if scores.count(best) == 1 else None


def test_the_out_player_cannot_win_even_with_the_most_points(app, session, trio, clock):
    # a finished position in which player 2 leads on points: by the rules
    # they win; with them out, the best placed of the others wins
    game, _ = trio
    state = LOGGER.notation.parse_position("1...2/...../..s../...../3.... - 6,12,6 0,0,1")
    assert LOGGER.rules.result(state).winners == (1,)
    values, skipped = transition.values_after(session, game, state, 30, T0, out={1: 20})
    assert skipped == []
    assert values["status"] == "finished" and values["result"] == "3"  # 6 points each, player 3 has a protester
    assert values["termination"] == "game over: the best placed of the players still in the game (out on time: player 2)"
    values, _ = transition.values_after(session, game, state, 30, T0, out={})
    assert values["result"] == "2"  # nobody out: the rules decide


def test_the_last_player_left_wins_at_once(app, session, trio, clock):
    game, players = trio
    clock.now = T0 + H
    turns.submit_turn(session, game.id, players[0], "a1", 0, "web")
    game = fresh(session, game)
    assert sweep(app, game.deadline + M).timeouts == 1  # bob is out; his setup turn puts his logger on e1
    game = fresh(session, game)
    assert game.ply == 2 and mover(game) == 2
    mark = last_mail_id(session)
    assert sweep(app, game.deadline + M).timeouts == 1  # carol is out too: alice is the last player left
    game = fresh(session, game)
    assert game.status == "finished" and game.result == "1" and game.ply == 2
    assert "player 3 (Carol) ran out of time" in game.termination and "last player left" in game.termination
    assert {m.to_addr for m in mail_after(session, mark)} == {p.email for p in players}
    text = records.text(session, game)
    assert '[Out "2@1 3@2"]' in text and "1. a1 | --\n1\n" in text
    records_format.check(records_format.read(text))
    assert sweep(app, T0 + 1000 * H).timeouts == 0


def test_with_two_players_the_opponent_wins_at_once(app, session, make_players, start_game, clock):
    alice, bob = make_players("alice", "bob")
    game = start_game(alice, bob, time_control={"hours_per_turn": 72, "on_timeout": "out"})
    assert sweep(app, T0 + 73 * H).timeouts == 1
    game = fresh(session, game)
    assert game.status == "finished" and game.result == "2" and game.ply == 0
    assert "Alice) ran out of time" in game.termination
    text = records.text(session, game)
    assert '[Out "1@0"]' in text
    records_format.check(records_format.read(text))


def test_games_without_a_forfeited_turn_still_end_and_the_others_share(app, session, trio, monkeypatch):
    def cannot(state):
        raise NotImplementedError("no forfeited turn")

    monkeypatch.setattr(LOGGER.rules, "forfeit_turn", cannot)
    game, _ = trio
    assert sweep(app, T0 + 73 * H).timeouts == 1
    game = fresh(session, game)
    assert game.status == "finished" and game.result == "2=3" and "ran out of time" in game.termination
    assert seat_of(session, game, 0).out_after is None


def test_a_turn_racing_the_timeout_applies_once_turn_first(app, session, trio, clock):
    game, players = trio
    clock.now = T0 + H
    turns.submit_turn(session, game.id, players[0], "a1", 0, "web")
    game = fresh(session, game)
    clock.now = game.deadline
    with Session(db.engine(), expire_on_commit=False) as sweeper:
        stale = sweeper.get(Game, game.id)  # the sweep read the game...
        turns.submit_turn(session, game.id, players[1], "e5", 1, "web")  # ...then bob's turn landed
        seat = mover_seat(sweeper, stale)
        assert seat.number == 1
        assert sweeping.timeout(sweeper, stale, seat, game.deadline) is None
        sweeper.rollback()
    game = fresh(session, game)
    assert game.ply == 2 and mover(game) == 2
    assert session.exec(select(Timeout)).all() == []
    assert [t.source for t in stored(session, game)] == ["web", "web"]
    assert seat_of(session, game, 1).out_after is None


def test_a_turn_racing_the_timeout_applies_once_timeout_first(app, session, trio, clock):
    game, players = trio
    clock.now = T0 + H
    turns.submit_turn(session, game.id, players[0], "a1", 0, "web")
    game = fresh(session, game)
    deadline = game.deadline
    assert sweep(app, deadline + M).timeouts == 1
    clock.now = deadline + M
    with pytest.raises(GameMovedOn):  # bob saw the game after 1 turn; it has moved on
        turns.submit_turn(session, game.id, players[1], "e5", 1, "web")
    game = fresh(session, game)
    assert game.ply == 2 and [t.source for t in stored(session, game)] == ["web", "clock"]
    assert seat_of(session, game, 1).out_after == 1


def test_skipping_runs_in_the_same_conditional_update_as_the_turn(app, session, make_players, start_game, clock):
    # four players, two out: one submitted turn forfeits both their turns in
    # one step, and a second submission of the same ply changes nothing
    names = make_players("ann", "ben", "cat", "dan")
    game = start_game(*names, time_control={"hours_per_turn": 72, "on_timeout": "out"})
    clock.now = T0 + H
    turns.submit_turn(session, game.id, names[0], "a1", 0, "web")
    game = fresh(session, game)
    assert sweep(app, game.deadline + M).timeouts == 1  # ben is out
    game = fresh(session, game)
    assert game.ply == 2 and mover(game) == 2
    assert sweep(app, game.deadline + M).timeouts == 1  # cat is out: ben and cat skipped, dan to move
    game = fresh(session, game)
    assert game.ply == 3 and mover(game) == 3 and game.status == "active"
    clock.now = game.deadline - H
    turns.submit_turn(session, game.id, names[3], "e5", 3, "web")
    game = fresh(session, game)
    assert mover(game) == 0 and game.ply == 4
    clock.now += H
    text = LOGGER.notation.legal_texts(state_of(game))[0]
    turns.submit_turn(session, game.id, names[0], text, 4, "web")
    game = fresh(session, game)
    assert game.ply == 7 and mover(game) == 3  # ann, then ben and cat skipped
    assert [t.source for t in stored(session, game)][-3:] == ["web", "clock", "clock"]
    with pytest.raises(GameMovedOn):
        turns.submit_turn(session, game.id, names[0], text, 4, "web")
    assert fresh(session, game).ply == 7
    text = records.text(session, game)
    assert '[Out "2@1 3@2"]' in text
    records_format.check(records_format.read(text))
