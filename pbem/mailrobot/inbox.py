"""The durable inbox.  ``store`` is the callback every way in (listener,
pipe, IMAP) hands the raw message to: it commits the message keyed by
``mail.keys.message_key`` before returning, and does nothing when the key is
already stored, so a message delivered twice is processed once.  Messages
whose processing fails are shunted with the reason; ``retry`` puts them back.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from sqlalchemy import Connection, Engine, update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import DBAPIError
from sqlmodel import Session, col, select

from mail.keys import message_key
from pbem import wake
from pbem.models import table_of, utcnow
from pbem.models.mail import NEW, SHUNTED, InboxMessage


def clean(text: Any, limit: int) -> str:
    """Text safe for any database column: no NUL, at most ``limit`` characters."""
    return str(text).replace("\x00", "\ufffd")[:limit]


def storage_key(raw: bytes) -> str:
    key = message_key(raw)
    if len(key) > 1000 or "\x00" in key:
        key = "id-sha256:" + hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()
    return key


def store_in(engine: Engine) -> Callable[[bytes, "str | None", "list[str]"], None]:
    """A ``mail.receive.Store`` callback committing to ``engine``: one
    ``INSERT ... ON CONFLICT (key) DO NOTHING`` and its commit, no SELECT
    first and no ORM object for the bytes.  A message whose key is stored
    already (delivered twice, or by two deliveries at the same moment)
    inserts nothing, and the caller still answers 250.

    On PostgreSQL the INSERT runs in autocommit: the one statement is its own
    transaction, committed (and flushed to the WAL) before it returns, so
    there is no BEGIN and no COMMIT to wait for.  Each thread that stores
    keeps a connection of its own for it (``_Held``), out of the pool and
    in autocommit once: a pooled one was checked out, switched to
    autocommit and back, and reset at every message, a sixth of a store.
    On SQLite the driver's transaction already begins at the INSERT; its
    commit is the one fsync."""
    statement = _insert_for(engine.dialect.name)(table_of(InboxMessage)).on_conflict_do_nothing(index_elements=["key"])
    held = _Held(engine) if engine.dialect.name == "postgresql" else None

    def store(raw: bytes, envelope_from: str | None, envelope_to: Sequence[str]) -> None:
        raw = bytes(raw)
        row = {
            "key": storage_key(raw),
            "raw": raw,
            "envelope_from": None if envelope_from is None else clean(envelope_from, 1000),
            "envelope_to": [clean(a, 1000) for a in list(envelope_to or ())[:100]],
            "status": NEW,
            "attempts": 0,
            "received_at": utcnow(),
        }
        if held is not None:
            held.execute(statement, row)
        else:
            with engine.begin() as connection:
                connection.execute(statement, row)
        wake.publish(engine, {"inbox": set()})  # stored and committed: the inbox worker wakes (pbem.wake)

    return store


class _Held:
    """A connection per thread, detached from the engine's pool (it does
    not hold a place there) and in autocommit, for statements that commit
    themselves.  A connection that fails is closed; when it had been lost
    (the server restarted, a network cut), the statement is run once more
    on a new one: storing is keyed, so running it twice stores once."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self.local = threading.local()

    def _connection(self) -> Connection:
        found = getattr(self.local, "connection", None)
        if found is None or found.closed:
            found = self.engine.connect().execution_options(isolation_level="AUTOCOMMIT")
            found.detach()  # closed for good when dropped, not handed back to the pool
            self.local.connection = found
        return found

    def _drop(self) -> None:
        found = getattr(self.local, "connection", None)
        self.local.connection = None
        if found is not None:
            try:
                found.close()
            except Exception:  # noqa: BLE001 - a lost connection may fail to close; it is dropped anyway
                pass

    def execute(self, statement: Any, row: dict[str, Any]) -> None:
        for attempt in (1, 2):
            try:
                self._connection().execute(statement, row)
                return
            except Exception as error:
                self._drop()  # a connection that failed, the second time too, is never reused
                if attempt == 2 or not (isinstance(error, DBAPIError) and error.connection_invalidated):
                    raise


def _insert_for(dialect: str) -> Callable[[Any], Any]:
    """The dialect's INSERT with ``on_conflict_do_nothing`` (SQLite, PostgreSQL)."""
    if dialect == "postgresql":
        return postgresql.insert
    if dialect == "sqlite":
        return sqlite.insert
    raise ValueError(f"the inbox is stored on SQLite or PostgreSQL, not {dialect}")


def pending_ids(engine: Engine, limit: int = 500) -> list[int]:
    with Session(engine) as session:
        found = session.exec(
            select(InboxMessage.id).where(InboxMessage.status == NEW).order_by(col(InboxMessage.id)).limit(limit))
        return [message_id for message_id in found if message_id is not None]  # primary keys: never None


def begin_attempt(engine: Engine, message_id: int) -> int | None:
    """Count a processing attempt (committed at once, so a message that kills
    the worker is noticed); the attempts so far, or None when it is no longer new.
    One conditional UPDATE ... RETURNING, no SELECT first.  (Each message is
    counted as its processing begins, not a whole pass at once: a worker
    killed by one message must not count attempts against the messages after
    it, which it never began, and so shunt them unread.)"""
    with engine.begin() as connection:
        return connection.execute(
            update(InboxMessage)
            .where(col(InboxMessage.id) == message_id, col(InboxMessage.status) == NEW)
            .values(attempts=col(InboxMessage.attempts) + 1)
            .returning(col(InboxMessage.attempts))
        ).scalar()


def claim(session: Session, message_id: int, status: str, reason: str | None = None) -> bool:
    """Mark a new message processed, in the caller's transaction; False when
    another worker got there first (the row is no longer new)."""
    result = session.exec(
        update(InboxMessage)
        .where(col(InboxMessage.id) == message_id, col(InboxMessage.status) == NEW)
        .values(status=status, reason=None if reason is None else clean(reason, 2000), processed_at=utcnow())
        .execution_options(synchronize_session=False)
    )
    return result.rowcount == 1


def shunt(engine: Engine, message_id: int, reason: str, detail: str) -> None:
    with Session(engine) as session:
        session.execute(
            update(InboxMessage)
            .where(col(InboxMessage.id) == message_id, col(InboxMessage.status) == NEW)
            .values(status=SHUNTED, reason=clean(reason, 2000), traceback=clean(detail, 20000), processed_at=utcnow())
        )
        session.commit()


def shunted(session: Session) -> list[InboxMessage]:
    return list(session.exec(select(InboxMessage).where(InboxMessage.status == SHUNTED).order_by(col(InboxMessage.id))))


def retry(session: Session, ids: Iterable[int] | None) -> list[int]:
    """Put shunted messages back in the queue (all of them when ``ids`` is
    None); returns the ids re-queued.  ``ValueError`` names any id that is not
    a shunted message, and then nothing changes."""
    if ids is None:
        rows = shunted(session)
    else:
        rows = []
        for message_id in ids:
            row = session.get(InboxMessage, message_id)
            if row is None:
                raise ValueError(f"there is no stored message {message_id}")
            if row.status != SHUNTED:
                raise ValueError(f"message {message_id} is {row.status}, not shunted; only shunted messages are retried")
            rows.append(row)
    for row in rows:
        row.status, row.reason, row.traceback, row.attempts, row.processed_at = NEW, None, None, 0, None
        session.add(row)
    session.commit()
    return [row.id for row in rows if row.id is not None]  # stored rows: never None
