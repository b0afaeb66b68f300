"""PostgreSQL: a request's reads start no transaction; its first write does.

A request's session (``pbem.db.get_session``) is bound, on PostgreSQL, to
the engine in the driver's autocommit mode with the ``LATE_BEGIN`` option.
Then a plain ``SELECT`` runs on its own: no ``BEGIN`` before it and no
``COMMIT`` after.  The first statement that is anything else (an INSERT, an
UPDATE, a DELETE, a ``SELECT ... FOR UPDATE`` or an advisory lock, a
``SAVEPOINT``, a ``WITH`` clause) first sends ``BEGIN``, so from there on
the session's writes are one transaction, which the session commits or
rolls back as before (psycopg commits, or rolls back, a transaction the
server reports open even in autocommit mode).  Reads that come before the
first write see what is committed when each runs, as they would inside a
READ COMMITTED transaction (PostgreSQL's default, and ours).

A statement executed with the ``LONE_WRITE`` option is the whole of its
transaction (one statement is atomic on its own) and sends no ``BEGIN``:
a turn, read in one SELECT and written in one data-modifying WITH
statement (``pbem.services.gamestate.advance``), is two round trips to the
server instead of four.

SQLite is left as it is: its driver begins a transaction itself before the
first write."""

from __future__ import annotations

import re
from typing import Any

from sqlalchemy import Engine, event

#: the execution option that makes an engine's connections begin late
LATE_BEGIN = "pbem_late_begin"
#: the execution option of a statement that is a whole transaction by itself
LONE_WRITE = "pbem_lone_write"

_PLAIN_READ = re.compile(r"\s*SELECT\b", re.IGNORECASE)
_LOCKING = re.compile(r"\bFOR\s+(NO\s+KEY\s+UPDATE|UPDATE|KEY\s+SHARE|SHARE)\b|\bpg_advisory", re.IGNORECASE)


def session_bind(engine: Engine) -> Engine:
    """What a request's session is bound to: on PostgreSQL, ``engine`` with
    late BEGIN (it shares the engine's pool); elsewhere ``engine`` itself."""
    if engine.dialect.name != "postgresql":
        return engine
    late = getattr(engine, _MADE, None)  # made once per engine: making one runs the engine's option events
    if late is None:
        late = engine.execution_options(isolation_level="AUTOCOMMIT", **{LATE_BEGIN: True})
        setattr(engine, _MADE, late)  # kept on the engine, so it goes with it
    return late


_MADE = "_pbem_late_begin"


def install(engine: Engine) -> None:
    """Listen on ``engine`` (PostgreSQL) for the statements that need the
    BEGIN their connection did not send."""
    if engine.dialect.name == "postgresql":
        event.listen(engine, "before_cursor_execute", _begin_before_writes)


def needs_transaction(statement: str) -> bool:
    """Whether SQL ``statement`` must run inside a transaction: anything
    but a plain SELECT (a locking one included)."""
    return not _PLAIN_READ.match(statement) or bool(_LOCKING.search(statement))


def _begin_before_writes(connection: Any, cursor: Any, statement: str, _parameters: Any, context: Any,
                         _executemany: bool) -> None:
    options = context.execution_options if context is not None else connection.get_execution_options()
    if not options.get(LATE_BEGIN) or options.get(LONE_WRITE) or not needs_transaction(statement):
        return
    from psycopg.pq import TransactionStatus

    if cursor.connection.info.transaction_status == TransactionStatus.IDLE:
        cursor.execute("BEGIN")
