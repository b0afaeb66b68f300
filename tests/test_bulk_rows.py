"""Many rows written in one statement (``pbem.services.bulk``: arrays on PostgreSQL,
the driver's executemany on SQLite) come back exactly as written: text of
every awkward kind, NULLs, moments; and the sweep's bulk claim changes only
the games still as read."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from sqlalchemy import select

from pbem.models import ACTIVE, Game, OutboxMessage
from pbem.services import bulk, gamestate, outbox

AWKWARD = ['plain', '', 'a "quoted" word, {braces}, [brackets]', 'back\\slash and \\"', "NULL", "null",
           "it's", "line one\nline two\r\n\ttabbed", "é ü 日本 🙂", " leading and trailing ", "x" * 5000]


def test_rows_written_in_bulk_read_back_as_written(session):
    now = datetime(2026, 11, 27, 12, 34, 56, 789012, tzinfo=timezone.utc)
    rows = [outbox.new_row({"to_addr": f"p{n}@example.org", "subject": text[:300], "body": text,
                            "html": None if n % 2 else text, "game_id": None, "ply": n if n % 3 else None,
                            "kind": "game", "seat": None if n % 2 else n, "after_board": text[::-1] or None},
                           now + timedelta(microseconds=n)) for n, text in enumerate(AWKWARD)]
    bulk.insert_many(session.connection(), OutboxMessage.__table__, rows)
    session.commit()
    stored = session.exec(select(OutboxMessage).order_by(OutboxMessage.id)).scalars().all()
    assert [(m.to_addr, m.subject, m.body, m.html, m.ply, m.seat, m.after_board, m.created_at, m.attempts,
             m.outages, m.sent_at) for m in stored] == [
        (r["to_addr"], r["subject"], r["body"], r["html"], r["ply"], r["seat"], r["after_board"], r["created_at"],
         0, 0, None) for r in rows]


def test_nothing_to_write_writes_nothing(session):
    bulk.insert_many(session.connection(), OutboxMessage.__table__, [])
    session.commit()
    assert session.exec(select(OutboxMessage)).scalars().all() == []


def test_the_bulk_claim_changes_only_games_still_as_read(session, make_players, start_game):
    alice, bob = make_players("alice", "bob")
    games = [start_game(alice, bob) for _ in range(4)]
    check = datetime(2026, 11, 27, 12, 0, tzinfo=timezone.utc)
    later = check + timedelta(hours=5)
    for game in games:
        game.next_check_at = check
    session.commit()
    ids = [game.id for game in games]
    claims = [(ids[0], games[0].ply, check, later),  # as read: claimed
              (ids[1], games[1].ply + 1, check, later),  # another ply: moved on
              (ids[2], games[2].ply, check - timedelta(seconds=1), later),  # another check: another sweep
              (ids[3], games[3].ply, check, later)]
    session.get(Game, ids[3]).status = "finished"  # over since: not active
    session.commit()
    assert gamestate.claim_many(session, claims, lock=bulk.on_postgresql(session.connection())) == {ids[0]}
    session.commit()
    session.expire_all()
    assert [session.get(Game, i).next_check_at for i in ids] == [later, check, check, check]
    assert session.get(Game, ids[0]).status == ACTIVE
