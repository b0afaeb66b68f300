"""A game walked through its clock: reminders, a vacation, a deadline
passing under each policy, the claim, the digest, the calendar, and a turn
racing its timeout.  Time is injected (``pbem.models.CLOCK`` and the sweep's
``now``).

Every test reads its mail where a player would get it: the outbox is sent
by the real sender (``pbem.mailrobot.jobs.drain_outbox``) over SMTP to an
aiosmtpd sink on loopback, and the tests read the messages that arrive.
"""

from __future__ import annotations

import email
import email.policy
import socket
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone

import pytest
from aiosmtpd.controller import Controller
from flask import current_app
from sqlmodel import select

from notation import record as records_format
from pbem import db, models
from pbem.mailrobot import jobs
from pbem.models import Game, Turn
from pbem.models.clock import Timeout
from pbem.services import digest, games, records, turns, vacations
from pbem.services import sweep as sweeping
from pbem.services.clock.deadlines import mover_seat
from pbem.services.errors import BadInput, Conflict
from pbem.services.stored import kind_of

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=timezone.utc)  # a Monday, 09:00 UTC
H = timedelta(hours=1)
M = timedelta(minutes=1)


@pytest.fixture
def clock(monkeypatch):
    class Now:
        now = T0

    now = Now()
    monkeypatch.setattr(models, "CLOCK", lambda: now.now)
    return now


@pytest.fixture
def pair(session, make_players, start_game, clock):
    alice, bob = make_players("alice", "bob")

    def start(**control):
        control = {"hours_per_turn": 72, **control}
        game = start_game(alice, bob, time_control=control)
        return game

    return alice, bob, start


def sweep(app, now):
    with app.app_context():
        return sweeping.sweep(db.engine(), now)


@dataclass
class Delivered:
    """A message as the SMTP sink received it."""

    to_addr: str
    subject: str
    body: str  # the plain-text part
    reply_to: str
    has_board_image: bool


@pytest.fixture(autouse=True)
def sink(app):
    """An SMTP server on loopback that the app sends its mail to."""
    received: list[Delivered] = []

    class Handler:
        async def handle_DATA(self, server, smtp_session, envelope):
            message = email.message_from_bytes(envelope.content, policy=email.policy.default)
            received.append(Delivered(
                to_addr=str(message["To"]),
                subject=str(message["Subject"]),
                body=message.get_body(("plain",)).get_content(),
                reply_to=str(message["Reply-To"] or ""),
                has_board_image=any(part.get_content_type() == "image/png" for part in message.walk()),
            ))
            return "250 OK"

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    controller = Controller(Handler(), hostname="127.0.0.1", port=port)
    controller.start()
    app.config.update(SMTP_HOST="127.0.0.1", SMTP_PORT=port, SMTP_SECURITY="none", MAIL_FROM="pbem@pbem.test")
    app.extensions["test_sink"] = received
    yield received
    controller.stop()


def mail(session, to=None, after=0):
    """Send what is queued, then the messages the sink has received since
    ``after`` (a count from ``last_id``), to ``to`` when given."""
    app = current_app._get_current_object()  # the session fixture's app context
    jobs.drain_outbox(app)
    received = app.extensions["test_sink"]
    return [m for m in received[after:] if to is None or m.to_addr == to]


def last_id(session):
    return len(mail(session))


def fresh(session, game):
    session.expire_all()
    return session.get(Game, game.id)


def test_reminders_come_at_24_and_1_hour_before_the_deadline_each_once(app, session, pair, clock):
    alice, bob, start = pair
    game = start()
    assert game.deadline == T0 + 72 * H
    mark = last_id(session)
    assert sweep(app, T0 + 47 * H).reminders == 0
    assert sweep(app, T0 + 48 * H + M).reminders == 1
    assert sweep(app, T0 + 48 * H + 2 * M).reminders == 0  # run again: nothing more
    sent = mail(session, after=mark)
    assert [m.to_addr for m in sent] == [alice.email]
    assert "reminder" in sent[0].subject and "about 24 hours" in sent[0].body
    assert sent[0].has_board_image  # the PNG board
    assert "3 . . s . ." in sent[0].body and "Setup: player 1 places their logger" in sent[0].body  # the text board
    assert sent[0].reply_to.startswith("play+")
    assert "Reply to this mail with your turn" in sent[0].body
    assert sweep(app, T0 + 71 * H + M).reminders == 1
    assert sweep(app, T0 + 71 * H + 2 * M).reminders == 0
    assert len(mail(session, after=mark)) == 2
    # after a long outage both are due at once: one mail, not two
    clock.now = T0 + 71 * H + 30 * M
    turns.submit_turn(session, game.id, alice, "a1", 0, "web")
    game = fresh(session, game)
    assert game.deadline == clock.now + 72 * H
    mark = last_id(session)
    assert sweep(app, clock.now + 71 * H + M).reminders == 1
    assert len(mail(session, to=bob.email, after=mark)) == 1


def test_each_player_chooses_their_reminder_hours(app, session, pair, clock):
    alice, bob, start = pair
    digest.set_preferences(session, alice, reminder_hours="6")
    start()
    mark = last_id(session)
    assert sweep(app, T0 + 60 * H).reminders == 0
    assert sweep(app, T0 + 66 * H + M).reminders == 1
    assert "about 6 hours" in mail(session, to=alice.email, after=mark)[0].body
    with pytest.raises(BadInput, match="whole hours before the deadline"):
        digest.set_preferences(session, alice, reminder_hours="soon")


def test_a_vacation_stops_the_clock_and_ending_it_gives_days_back(app, session, pair, clock):
    alice, bob, start = pair
    game = start()
    clock.now = T0 + 10 * H
    done = vacations.take(session, alice, 5)
    assert done.used == 5 and done.left == 25
    game = fresh(session, game)
    assert game.deadline == T0 + 72 * H + timedelta(days=5)
    assert sweep(app, T0 + 72 * H + H).timeouts == 0  # the old deadline passes harmlessly
    with pytest.raises(BadInput, match="vacation days left this year"):
        vacations.take(session, alice, 31)  # replacing the current one: 30 at most
    clock.now = T0 + 34 * H  # home a day early
    done = vacations.take(session, alice, 0)
    assert done.current is None and done.used == 1
    assert fresh(session, game).deadline == T0 + 72 * H + 24 * H
    with pytest.raises(Conflict, match="not on vacation"):
        vacations.take(session, alice, 0)
    with pytest.raises(BadInput, match="whole number of days"):
        vacations.take(session, alice, -2)


def test_weekends_do_not_count_when_the_game_says_so(session, pair):
    alice, bob, start = pair
    game = start(hours_per_turn=24 * 5, weekends=False)  # Monday 09:00 + 5 working days
    assert game.deadline == T0 + timedelta(days=7)


def test_claim_policy_the_game_waits_and_the_opponent_claims_the_win(app, session, pair, clock, client):
    alice, bob, start = pair
    game = start(on_timeout="claim")
    with pytest.raises(Conflict, match="you may claim the win only after that"):
        sweeping.claim_win(session, game.id, bob, now=T0 + H)
    mark = last_id(session)
    assert sweep(app, T0 + 72 * H + M).timeouts == 1
    assert sweep(app, T0 + 72 * H + 2 * M).timeouts == 0
    sent = mail(session, after=mark)
    assert {m.to_addr for m in sent} == {alice.email, bob.email}
    assert any("may claim the win" in m.body for m in sent if m.to_addr == bob.email)
    assert fresh(session, game).status == "active"
    with pytest.raises(Conflict, match="your own turn"):
        sweeping.claim_win(session, game.id, alice, now=T0 + 73 * H)
    clock.now = T0 + 73 * H
    mark = last_id(session)
    game = sweeping.claim_win(session, game.id, bob)
    game = fresh(session, game)
    assert game.status == "finished" and game.result == "2"
    assert {m.to_addr for m in mail(session, after=mark) if "claimed the win" in m.body} == {alice.email, bob.email}
    assert "ran out of time" in game.termination and "claimed the win" in game.termination
    record = records_format.read(records.text(session, game))
    records_format.check(record)


def test_claim_policy_a_late_turn_before_the_claim_still_counts(app, session, pair, clock):
    alice, bob, start = pair
    game = start(on_timeout="claim")
    sweep(app, T0 + 73 * H)
    clock.now = T0 + 74 * H
    turns.submit_turn(session, game.id, alice, "a1", 0, "web")
    with pytest.raises(Conflict, match="only after that"):
        sweeping.claim_win(session, game.id, alice, now=T0 + 75 * H)


def test_forfeit_policy_passes_the_turn_and_the_record_still_checks(app, session, pair, clock):
    alice, bob, start = pair
    game = start(on_timeout="forfeit")
    mark = last_id(session)
    assert sweep(app, T0 + 72 * H + M).timeouts == 1
    game = fresh(session, game)
    assert game.ply == 1 and game.status == "active"
    told = mail(session, after=mark)
    assert [m.to_addr for m in told if "your turn" in m.subject] == [bob.email]
    assert all("ran out of time" in m.body for m in told)
    forfeited = session.exec(select(Turn).where(Turn.game_id == game.id)).one()
    assert forfeited.source == "clock" and forfeited.canonical == "--"  # the record format's forfeited turn
    assert forfeited.position.split()[0].endswith("/1....")  # the logger went on the first free corner
    assert game.deadline == T0 + 72 * H + M + 72 * H  # bob's turn, from the timeout
    with pytest.raises(Conflict, match="no win to claim"):
        sweeping.claim_win(session, game.id, alice, now=game.deadline + H)
    # bob places, alice plays one real turn, then times out mid-game: a turn no notation writes
    clock.now = game.deadline - H
    turns.submit_turn(session, game.id, bob, "e5", 1, "web")
    clock.now += H
    turns.submit_turn(session, game.id, alice, _any_legal(session, game, alice), 2, "web")
    game = fresh(session, game)
    assert sweep(app, game.deadline + M).timeouts == 1
    game = fresh(session, game)
    assert game.ply == 4
    text = records.text(session, game)
    assert "Forfeited" in text
    assert "1. -- | e5\n2. " in text and text.rstrip().endswith("| --\n*")
    played = records_format.check(records_format.read(text))
    assert kind_of(game).notation.format_position(played.final) == game.position
    records_format.check(records_format.read(records.json_text(session, game)))


def _any_legal(session, game, player):
    from pbem.services import present

    return present.detail(session, fresh(session, game), player)["legal_turns"][0]


def test_forfeit_falls_back_to_waiting_in_games_without_a_forfeited_turn(app, session, pair, monkeypatch):
    from notation import registry

    alice, bob, start = pair
    rules = registry.get("logger").rules

    def cannot(state):
        raise NotImplementedError("no forfeited turn")

    monkeypatch.setattr(rules, "forfeit_turn", cannot)
    game = start(on_timeout="forfeit")
    mark = last_id(session)
    assert sweep(app, T0 + 73 * H).timeouts == 1
    assert fresh(session, game).ply == 0
    assert any("has no forfeited turn, so instead the game waits" in m.body for m in mail(session, after=mark))
    game = sweeping.claim_win(session, game.id, bob, now=T0 + 74 * H)
    assert fresh(session, game).result == "2"


def test_out_policy_with_two_players_the_opponent_wins(app, session, pair):
    alice, bob, start = pair
    game = start(on_timeout="out")
    mark = last_id(session)
    assert sweep(app, T0 + 73 * H).timeouts == 1
    game = fresh(session, game)
    assert game.status == "finished" and game.result == "2" and "ran out of time" in game.termination
    assert {m.to_addr for m in mail(session, after=mark)} == {alice.email, bob.email}
    records_format.check(records_format.read(records.text(session, game)))
    assert sweep(app, T0 + 74 * H).timeouts == 0


def test_a_turn_and_its_timeout_never_both_apply(app, session, pair, clock):
    alice, bob, start = pair
    game = start(on_timeout="forfeit")
    clock.now = T0 + 72 * H
    with app.app_context():
        from sqlmodel import Session

        with Session(db.engine(), expire_on_commit=False) as sweeper:
            stale = sweeper.get(Game, game.id)  # the sweep read the game...
            turns.submit_turn(session, game.id, alice, "a1", 0, "web")  # ...then the turn landed
            seat = mover_seat(sweeper, stale)
            assert sweeping.timeout(sweeper, stale, seat, T0 + 72 * H) is None
            sweeper.rollback()
    game = fresh(session, game)
    assert game.ply == 1
    assert session.exec(select(Timeout)).all() == []
    assert [t.source for t in session.exec(select(Turn).where(Turn.game_id == game.id))] == ["web"]


def test_a_time_bank_grows_and_is_spent(app, session, pair, clock):
    alice, bob, start = pair
    game = start(hours_per_turn=24, bank_hours=10, bank_increment_hours=2, bank_cap_hours=11)
    assert game.deadline == T0 + 34 * H
    clock.now = T0 + 30 * H  # 6 hours of the bank used: 4 left, +2 = 6
    turns.submit_turn(session, game.id, alice, "a1", 0, "web")
    clock.now = T0 + 31 * H  # bob used 1 hour: 10 + 2 = 12, capped at 11
    turns.submit_turn(session, game.id, bob, "e5", 1, "web")
    game = fresh(session, game)
    assert game.deadline == clock.now + 24 * H + 6 * H
    seats = {s.number: s.bank_seconds for s in session.exec(select(models.Seat).where(models.Seat.game_id == game.id))}
    assert seats == {0: 6 * 3600, 1: 11 * 3600}


def test_the_digest_replaces_your_turn_mails_and_comes_once_a_day(app, session, pair, clock):
    alice, bob, start = pair
    digest.set_preferences(session, bob, digest=True)
    game = start()
    clock.now = T0 + H
    mark = last_id(session)
    turns.submit_turn(session, game.id, alice, "a1", 0, "web")
    assert mail(session, to=bob.email, after=mark) == []  # held back
    with app.app_context():
        assert digest.send_digests(db.engine(), now=datetime(2026, 3, 3, 6, 0, tzinfo=timezone.utc)) == 0
        assert digest.send_digests(db.engine(), now=datetime(2026, 3, 3, 7, 30, tzinfo=timezone.utc)) == 1
        assert digest.send_digests(db.engine(), now=datetime(2026, 3, 3, 9, 0, tzinfo=timezone.utc)) == 0
    (sent,) = mail(session, to=bob.email, after=mark)
    assert "1 game waiting" in sent.subject
    assert f"Game {game.id} (Logger) with Alice: turn 2, deadline 2026-03-05 10:00 UTC" in sent.body


def test_bad_time_controls_are_refused_with_a_message(session, make_players):
    alice, bob = make_players("alice", "bob")
    for control, words in (
        ({"on_timeout": "panic"}, "when time runs out must be one of"),
        ({"hours_per_turn": 0}, "from 1 hour to 365 days"),
        ({"speed": 3}, "the time control has no speed"),
        ({"days_per_turn": 2, "hours_per_turn": 3}, "not both"),
    ):
        with pytest.raises(BadInput, match=words):
            games.create_game(session, alice, "logger", [bob.email], time_control=control)
    assert session.exec(select(Game)).all() == []
