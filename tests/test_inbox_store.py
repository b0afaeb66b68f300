"""Storing an incoming message before the listener answers 250 is one
statement: ``INSERT ... ON CONFLICT (key) DO NOTHING`` and its commit, no
SELECT first (counted with an SQLAlchemy ``before_cursor_execute``
listener, so a change that adds a statement fails here).  A message
delivered again (the same message id) stores nothing and is still answered
250; the bytes and envelope are stored as received."""

from __future__ import annotations

import smtplib

import pytest
from sqlmodel import Session, select
from statement_counts import counting
from test_mail_transport import free_port

from mail.receive import start_listener
from pbem.mailrobot.inbox import store_in
from pbem.models.mail import NEW, InboxMessage


def message(n: int, body: str = "b2-c2") -> bytes:
    return (f"From: bob@example.org\r\nTo: play@pbem.test\r\nSubject: turn\r\nMessage-ID: <turn{n}@client.example>\r\n"
            f"\r\n{body}\r\n").encode()




def stored(engine) -> list[InboxMessage]:
    with Session(engine) as session:
        return list(session.exec(select(InboxMessage).order_by(InboxMessage.id)))


def test_storing_a_message_is_one_insert(app):
    engine = app.extensions["pbem_engine"]
    store = store_in(engine)
    store(message(0), "warm@example.org", [])  # the first connection's set-up is not the store's
    with counting(engine) as (statements, _commits):
        store(message(1), "bob@example.org", ["play+a@pbem.test", "play+b@pbem.test"])
    assert len(statements) == 1, statements
    assert statements[0].lstrip().upper().startswith("INSERT INTO INBOX")
    assert "ON CONFLICT" in statements[0].upper()
    row = stored(engine)[-1]
    assert (row.raw, row.envelope_from, row.envelope_to, row.status, row.attempts) == (
        message(1), "bob@example.org", ["play+a@pbem.test", "play+b@pbem.test"], NEW, 0)
    assert row.received_at is not None and row.key == "<turn1@client.example>"


def test_a_message_stored_again_stores_nothing_in_one_statement(app):
    engine = app.extensions["pbem_engine"]
    store = store_in(engine)
    store(message(1), "bob@example.org", [])
    with counting(engine) as (statements, _commits):
        store(message(1, body="a different body, the same message id"), "bob@example.org", [])
    assert len(statements) == 1
    rows = stored(engine)
    assert len(rows) == 1 and rows[0].raw == message(1)


@pytest.mark.parametrize("protocol", ["smtp", "lmtp"])
def test_a_message_delivered_twice_is_answered_250_twice_and_stored_once(app, protocol):
    engine = app.extensions["pbem_engine"]
    port = free_port()
    listener = start_listener(store_in(engine), protocol=protocol, host="127.0.0.1", port=port)
    try:
        client = (smtplib.LMTP if protocol == "lmtp" else smtplib.SMTP)("127.0.0.1", port)
        for _ in range(2):
            assert client.sendmail("bob@example.org", ["play@pbem.test"], message(7)) == {}  # 250 both times
        client.quit()
    finally:
        listener.stop()
    assert [row.key for row in stored(engine)] == ["<turn7@client.example>"]


def test_bad_bytes_and_envelopes_are_stored_not_refused(app):
    engine = app.extensions["pbem_engine"]
    store = store_in(engine)
    raw = b"Message-ID: <\x00odd\xff@x>\r\n\r\n\xff\xfe body"
    store(raw, "bob\x00@example.org", ["a\x00b@pbem.test"] * 200)
    row = stored(engine)[-1]
    assert row.raw == raw and "\x00" not in row.envelope_from and len(row.envelope_to) == 100
    assert "\x00" not in row.key


def _terminate(pids: list[int]) -> None:
    """Close these backends from the server's side, as a restart would."""
    import time

    from conftest import POSTGRES_URL
    from sqlalchemy import text

    from pbem.db import make_engine

    admin = make_engine(POSTGRES_URL)
    with admin.begin() as connection:
        for pid in pids:
            connection.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": pid})
        for _ in range(100):  # the backends take a moment to exit
            if not connection.execute(text("SELECT count(*) FROM pg_stat_activity WHERE pid = ANY(:pids)"),
                                      {"pids": pids}).scalar():
                break
            time.sleep(0.05)
    admin.dispose()


def test_on_postgresql_a_message_is_committed_before_the_store_returns(postgres_config):
    """The store keeps its connection open between messages: each message
    is committed by then all the same (another connection reads it)."""
    from conftest import make_test_app

    app = make_test_app(postgres_config)
    engine = app.extensions["pbem_engine"]
    try:
        store = store_in(engine)
        store(message(1), "bob@example.org", [])
        store(message(2), "bob@example.org", [])
        assert engine.pool.checkedout() == 0
        assert [m.key for m in stored(engine)] == ["<turn1@client.example>", "<turn2@client.example>"]
    finally:
        engine.dispose()


def test_on_postgresql_a_message_is_stored_after_the_server_closed_the_stores_connection(postgres_config):
    """A restart of the server between two messages costs neither: the
    lost connection is replaced and the INSERT run again, once."""
    from conftest import make_test_app
    from sqlalchemy import event

    app = make_test_app(postgres_config)
    engine = app.extensions["pbem_engine"]
    pids: list[int] = []
    event.listen(engine, "connect", lambda dbapi_connection, _record: pids.append(dbapi_connection.info.backend_pid))
    try:
        store = store_in(engine)
        store(message(1), "bob@example.org", [])
        _terminate(list(pids))
        store(message(2), "bob@example.org", [])  # no error: stored on a new connection
        store(message(2), "bob@example.org", [])  # delivered again: stored once
        assert [m.key for m in stored(engine)] == ["<turn1@client.example>", "<turn2@client.example>"]
        assert len(set(pids)) >= 2
    finally:
        engine.dispose()
