"""The test fixtures give every test an empty database: on PostgreSQL the
shared test schema is emptied of every table's rows before each test, so no
row of one test is seen by the next."""

from __future__ import annotations

from datetime import datetime, timezone

from conftest import TABLES
from sqlalchemy import inspect, text
from sqlmodel import Session

from pbem.db import make_engine
from pbem.models import Player
from pbem.models.mail import ImapState, InboxMessage, MailReplyLog


def _tables(engine, schema=None) -> set[str]:
    return set(inspect(engine).get_table_names(schema=schema)) - {"alembic_version"}


def test_the_fixtures_empty_every_table_of_the_migrated_schema(sqlite_config):
    engine = make_engine(sqlite_config["DATABASE_URL"])
    try:
        assert set(TABLES) == _tables(engine)
    finally:
        engine.dispose()


def test_no_row_of_any_table_outlives_a_test_on_postgresql(postgres_config, _postgres):
    now = datetime(2026, 11, 23, tzinfo=timezone.utc)
    with Session(_postgres.engine) as session:
        player = Player(email="leak@example.org", name="Leak")
        session.add(player)
        session.add(InboxMessage(key="leak-key", raw=b"Subject: leak\r\n\r\nleak\r\n", envelope_to=["x@pbem.test"]))
        session.add(ImapState(mailbox="leak@imap.test:993/INBOX", last_uid=7))
        session.add(MailReplyLog(sender="leak@example.org", day="2026-11-23", kind="help", created_at=now))
        session.commit()
    with _postgres.engine.connect() as connection:
        filled = {t for t in _tables(_postgres.engine, _postgres.schema)
                  if connection.execute(text(f'SELECT count(*) FROM "{_postgres.schema}"."{t}"')).scalar()}
    assert {"players", "inbox", "imap_state", "mail_reply_log"} <= filled

    _postgres.fresh()  # what the fixtures do before the next test

    with _postgres.engine.connect() as connection:
        left = {t: n for t in _tables(_postgres.engine, _postgres.schema)
                if (n := connection.execute(text(f'SELECT count(*) FROM "{_postgres.schema}"."{t}"')).scalar())}
    assert left == {}
