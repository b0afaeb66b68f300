"""The deadline sweep's reminders cost a fixed number of statements per
chunk of due games, not per game: counted with an SQLAlchemy
``before_cursor_execute`` listener, so a change that adds a statement per
game (or per chunk) fails here without timing anything.  The set-based pass
queues the same mail, byte for byte, as the per-game path, and a chunk whose
transaction fails is done again one game at a time, with nothing lost or
doubled."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest
from sqlalchemy import delete, update
from sqlmodel import Session, select
from statement_counts import counting
from test_schedule_sweep_locks import make_due_games

from pbem.models import Game, OutboxMessage, Player, Seat
from pbem.models.clock import ReminderSent
from pbem.services import sweep as sweeping
from pbem.services import sweep_reminders

CHUNK = 50
#: the statements of one chunk of reminders: SELECT games; SELECT the movers'
#: seats, players and reminder hours; SELECT reminders sent; SELECT refusals;
#: UPDATE ... RETURNING (the claim); INSERT reminders_sent; INSERT outbox
#: (PostgreSQL: one more, the SELECT ... FOR NO KEY UPDATE SKIP LOCKED)
PER_CHUNK = {"sqlite": 7, "postgresql": 8}
#: the sweep's reads of the due games: one per batch of 500, and the last,
#: short one
DUE_READS = 1




def swept_with_statements(app, count: int) -> tuple[int, list[str]]:
    engine = app.extensions["pbem_engine"]
    now = datetime.now(timezone.utc)
    make_due_games(engine, now, count)
    with app.app_context(), counting(engine) as (statements, _commits):
        done = sweeping.sweep(engine, now, chunk=CHUNK)
    return done.reminders, statements


@pytest.mark.parametrize("chunks", [1, 2, 4])
def test_a_sweeps_statements_grow_by_a_constant_per_chunk_not_per_game(app, chunks):
    count = chunks * CHUNK
    sent, statements = swept_with_statements(app, count)
    dialect = app.extensions["pbem_engine"].dialect.name
    assert sent == count
    assert len(statements) == DUE_READS + chunks * PER_CHUNK[dialect], "\n".join(statements)


def test_a_chunk_of_one_game_costs_the_same_statements(app):
    sent, statements = swept_with_statements(app, 1)
    assert sent == 1
    assert len(statements) == DUE_READS + PER_CHUNK[app.extensions["pbem_engine"].dialect.name]


def test_the_bulk_pass_queues_the_same_mail_as_the_per_game_path(app, monkeypatch):
    engine = app.extensions["pbem_engine"]
    now = datetime.now(timezone.utc)
    ids, _ = make_due_games(engine, now, 6)
    before = _checks(engine)
    with app.app_context():
        sweeping.sweep(engine, now, chunk=4)
    bulk = _written(engine)
    one_by_one = _swept_again_one_game_at_a_time(app, monkeypatch, before, now, chunk=4)
    assert len(bulk["mail"]) == 6 and len(bulk["reminders"]) == 6
    assert bulk == one_by_one


def test_each_reminder_of_a_chunk_is_written_in_its_recipients_language(app, monkeypatch):
    """Recipients who read French and English alternate in a chunk (and
    one who set no language reads English): each reminder is in its
    recipient's language, as the per-game path writes it."""
    engine = app.extensions["pbem_engine"]
    now = datetime.now(timezone.utc)
    ids, players = make_due_games(engine, now, 6)
    with Session(engine) as session:
        # odd games: the players' seats swapped, so the French reader is to move there
        odd = Seat.game_id.in_(ids[1::2])
        session.execute(update(Seat).where(odd).values(number=5 - Seat.number))  # 0, 1 -> 5, 4 -> 1, 0
        session.execute(update(Seat).where(odd).values(number=Seat.number - 4))
        session.execute(update(Player).where(Player.id == players[1].id).values(language="fr"))
        session.execute(update(Player).where(Player.id == players[0].id).values(language=""))
        session.commit()
    before = _checks(engine)
    with app.app_context():
        sweeping.sweep(engine, now, chunk=6)
    bulk = _written(engine)
    subjects = {to: {subject.split(": ", 1)[1].split(",")[0] for sent_to, subject, *_ in bulk["mail"] if sent_to == to}
                for to in (players[0].email, players[1].email)}
    assert subjects == {players[0].email: {"reminder: your turn"}, players[1].email: {"rappel : à vous de jouer"}}
    assert len(bulk["mail"]) == 6
    assert _swept_again_one_game_at_a_time(app, monkeypatch, before, now, chunk=6) == bulk


def _swept_again_one_game_at_a_time(app, monkeypatch, before: dict, now: datetime, chunk: int) -> dict:
    """Undo the sweep (its mail and reminders gone, each game's check as
    ``before``), sweep again with every game taken by the per-game path,
    and give what that wrote (``_written``)."""
    engine = app.extensions["pbem_engine"]
    with Session(engine) as session:
        session.execute(delete(OutboxMessage))
        session.execute(delete(ReminderSent))
        for game_id, check in before.items():
            session.execute(update(Game).where(Game.id == game_id).values(next_check_at=check))
        session.commit()
    monkeypatch.setattr(sweeping, "remind_many", lambda _bind, game_ids, _now: ({}, list(game_ids)))
    with app.app_context():
        sweeping.sweep(engine, now, chunk=chunk)
    return _written(engine)


def _checks(engine) -> dict:
    with Session(engine) as session:
        return {game.id: game.next_check_at for game in session.exec(select(Game))}


def _written(engine) -> dict:
    """The mail queued (all but its id and time), the reminders recorded and
    each game's next check."""
    with Session(engine) as session:
        mail = sorted((m.to_addr, m.subject, m.body, m.html, m.game_id, m.ply, m.kind, m.attempts, m.outages,
                       m.sent_at, m.message_id) for m in session.exec(select(OutboxMessage)))
        reminders = sorted((r.game_id, r.ply, r.hours, r.player_id, r.sent_at)
                           for r in session.exec(select(ReminderSent)))
    return {"mail": mail, "reminders": reminders, "checks": _checks(engine)}


def test_a_chunk_that_fails_is_done_again_one_game_at_a_time(app, monkeypatch, caplog):
    engine = app.extensions["pbem_engine"]
    now = datetime.now(timezone.utc)
    ids, _ = make_due_games(engine, now, 5)
    real = sweep_reminders.outbox_row

    def broken_mail(to, game, *rest):
        row = real(to, game, *rest)
        if game.id == ids[-1]:
            row["to_addr"] = None  # NOT NULL: the chunk's INSERT fails, after its claim
        return row

    monkeypatch.setattr(sweep_reminders, "outbox_row", broken_mail)
    with app.app_context():
        done = sweeping.sweep(engine, now, chunk=5)
        again = sweeping.sweep(engine, now, chunk=5)
    assert (done.reminders, again.reminders) == (5, 0)
    assert "a chunk of 5 reminders failed; one game at a time instead" in caplog.text
    with Session(engine) as session:
        assert sorted(r.game_id for r in session.exec(select(ReminderSent))) == ids
        mail = [m.game_id for m in session.exec(select(OutboxMessage))]
    assert sorted(mail) == ids
