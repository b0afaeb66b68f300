"""A request's session on PostgreSQL (``pbem.late_begin``): reads start no
transaction, the first write begins one, and what follows is atomic as
before; locking reads hold their locks until the commit."""

from __future__ import annotations

import pytest
from sqlalchemy import select, text
from sqlalchemy.exc import DBAPIError, IntegrityError

from pbem.db import get_session
from pbem.late_begin import needs_transaction
from pbem.models import Player


@pytest.fixture
def pg_app(app):
    if app.extensions["pbem_engine"].dialect.name != "postgresql":
        pytest.skip("late BEGIN is PostgreSQL's (set PBEM_TEST_POSTGRES_URL)")
    return app


def _open(session) -> bool:
    from psycopg.pq import TransactionStatus

    return session.connection().connection.dbapi_connection.info.transaction_status != TransactionStatus.IDLE


def test_reads_leave_no_transaction_open(pg_app):
    with pg_app.test_request_context():
        session = get_session()
        session.execute(select(Player.id)).all()
        assert not _open(session)


def test_writes_after_reads_are_one_transaction_that_a_failure_undoes(pg_app):
    with pg_app.test_request_context():
        session = get_session()
        session.execute(select(Player.id)).all()
        session.add(Player(email="first@example.org", display_name="first"))
        session.flush()
        assert _open(session)
        session.add(Player(email="first@example.org", display_name="again"))  # the same address: refused
        with pytest.raises(IntegrityError):
            session.flush()
        session.rollback()
        assert session.execute(select(Player.id)).all() == []  # the first INSERT went with the second


def test_a_locking_read_holds_its_lock_until_the_commit(pg_app):
    engine = pg_app.extensions["pbem_engine"]
    with pg_app.test_request_context():
        session = get_session()
        session.add(Player(email="held@example.org", display_name="held"))
        session.commit()
        session.execute(select(Player.id).with_for_update()).all()
        assert _open(session)
        with engine.connect() as other:
            with pytest.raises(DBAPIError):
                other.execute(text("SELECT id FROM players FOR UPDATE NOWAIT")).all()
            other.rollback()
            session.commit()
            assert len(other.execute(text("SELECT id FROM players FOR UPDATE NOWAIT")).all()) == 1


@pytest.mark.parametrize("statement, needed", [
    ("SELECT id FROM games", False), ("  select 1", False),
    ("SELECT id FROM games FOR UPDATE", True), ("SELECT id FROM games FOR NO KEY UPDATE SKIP LOCKED", True),
    ("SELECT pg_advisory_xact_lock(1)", True), ("INSERT INTO games VALUES (1)", True),
    ("WITH claimed AS (UPDATE games SET ply = 1) SELECT count(*) FROM claimed", True),
    ("SAVEPOINT sa_savepoint_1", True), ("UPDATE games SET ply = 2", True),
])
def test_which_statements_need_a_transaction(statement, needed):
    assert needs_transaction(statement) is needed
