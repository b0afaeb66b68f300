"""The database: one engine per app, one session per request on ``g``, and
the Alembic migrations run on start-up."""

from __future__ import annotations

import functools
import select
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Concatenate, ParamSpec, TypeVar, cast

from alembic import command
from alembic.config import Config
from flask import Flask, current_app, g
from sqlalchemy import Engine, create_engine, event, insert
from sqlalchemy.exc import DisconnectionError
from sqlmodel import Session

from pbem import late_begin, wake
from pbem.models import table_of, tables  # noqa: F401  (every table joins the metadata)

P = ParamSpec("P")
R = TypeVar("R")

MIGRATIONS = str(Path(__file__).parent / "migrations")


def make_engine(url: str, schema: str | None = None, **options: Any) -> Engine:
    """An engine for ``url``.  SQLite waits for locks instead of failing and
    enforces foreign keys; ``schema`` sets PostgreSQL's search path."""
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"timeout": 30, "check_same_thread": False}, **options)

        @event.listens_for(engine, "connect")
        def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.close()

        return engine
    options.setdefault("pool_recycle", RECYCLE_SECONDS)
    engine = create_engine(url, **options)
    wake.set_schema(engine, schema)  # its wake-up channel is the schema's (pbem.wake)
    event.listen(engine, "checkout", _check_alive)
    late_begin.install(engine)  # a request's reads send no BEGIN (pbem.late_begin)
    if schema:

        @event.listens_for(engine, "connect")
        def _search_path(dbapi_connection: Any, _record: Any) -> None:
            cursor = dbapi_connection.cursor()
            cursor.execute(f'SET search_path TO "{schema}"')
            cursor.close()
            dbapi_connection.commit()

    return engine


#: a pooled PostgreSQL connection older than this is replaced (before its
#: checkout) rather than reused: it bounds how long a connection whose
#: server went away without a word (a network cut) can linger in the pool
RECYCLE_SECONDS = 1800


def _check_alive(dbapi_connection: Any, _record: Any, _proxy: Any) -> None:
    """Before a pooled PostgreSQL connection is handed out: a connection the
    server closed (a restart, ``pg_terminate_backend``, an idle timeout)
    has a socket that is readable while it sits idle in the pool (the
    server's last words, then the end of the stream), so a zero-timeout
    poll of the socket tells, without a round trip to the server.  Then
    ``DisconnectionError`` makes the pool drop it and check out a fresh
    one, and the request never sees it.  This replaces ``pool_pre_ping``
    (a ``SELECT 1`` round trip on every checkout); ``docs/server.md``,
    "Database connections"."""
    try:
        if getattr(dbapi_connection, "closed", False):
            raise DisconnectionError("the connection is closed")
        readable, _, _ = select.select([dbapi_connection.fileno()], [], [], 0)
    except (OSError, ValueError, AttributeError) as error:
        raise DisconnectionError(f"the connection's socket is gone: {error}") from error
    if readable:  # an idle connection has nothing to read unless the server hung up
        raise DisconnectionError("the server closed the connection")


def alembic_config(engine: Engine) -> Config:
    config = Config()
    config.set_main_option("script_location", MIGRATIONS)
    config.attributes["engine"] = engine
    return config


def migrate(engine: Engine) -> None:
    """Bring the schema up to the newest migration."""
    command.upgrade(alembic_config(engine), "head")


def init_app(app: Flask) -> None:
    url = app.config["DATABASE_URL"]
    engine = make_engine(url, app.config.get("DATABASE_SCHEMA"))
    app.extensions["pbem_engine"] = engine
    if app.config["AUTO_MIGRATE"]:
        migrate(engine)
    app.before_request(_fresh_session)
    app.teardown_request(_close_session)
    app.teardown_appcontext(_close_session)


def engine() -> Engine:
    found: Engine = current_app.extensions["pbem_engine"]
    return found


def get_session() -> Session:
    """The request's session, made on first use (on PostgreSQL its reads
    start no transaction, its first write does: ``pbem.late_begin``)."""
    if "db_session" not in g:
        g.db_session = Session(late_begin.session_bind(engine()), expire_on_commit=False)
    session: Session = g.db_session
    return session


def _fresh_session() -> None:
    """Each request gets its own session and signed-in player, even when an
    app context (a test's, a CLI command's) is already pushed around it:
    that context's session is set aside and given back when the request
    ends (``_close_session``), so it is still there to be closed."""
    outer = g.pop("db_session", None)
    if outer is not None:
        g.setdefault("outer_db_sessions", []).append(outer)
    g.pop("player", None)


def _close_session(_error: BaseException | None = None) -> None:
    session = g.pop("db_session", None)
    if session is not None:
        session.close()
    set_aside = g.get("outer_db_sessions")
    if set_aside:
        g.db_session = set_aside.pop()


def rolls_back(service: Callable[Concatenate[Session, P], R]) -> Callable[Concatenate[Session, P], R]:
    """Decorate a service whose first argument is the session: whatever the
    service raises, the session is rolled back first, so a failed call
    changes nothing.  Services commit their own work on success."""

    @functools.wraps(service)
    def wrapper(session: Session, *args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return service(session, *args, **kwargs)
        except BaseException:
            session.rollback()
            raise

    # the wrapper takes the session as the service does (by position or name); the
    # Concatenate in the signature only says it comes first
    return cast("Callable[Concatenate[Session, P], R]", wrapper)


@dataclass(frozen=True)
class PendingRow:
    """A row to INSERT given by its values alone (no model object built):
    ``insert_rows`` takes these beside model instances."""

    table: Any
    values: dict[str, Any]


def rows_by_table(rows: list[Any]) -> dict[Any, list[dict[str, Any]]]:
    """The values of new ``rows`` (model instances or ``PendingRow``s),
    grouped by table in the order the tables first appear: what
    ``insert_rows`` (or a statement that inserts them itself) writes."""
    by_table: dict[Any, list[dict[str, Any]]] = {}
    for row in rows:
        if isinstance(row, PendingRow):
            by_table.setdefault(row.table, []).append(row.values)
            continue
        table = table_of(type(row))
        values = {column.key: getattr(row, column.key) for column in table.columns
                  if not (column.primary_key and getattr(row, column.key) is None)}
        by_table.setdefault(table, []).append(values)
    return by_table


def insert_rows(session: Session, rows: list[Any]) -> None:
    """INSERT new ``rows`` (model instances, not added to the session, or
    ``PendingRow``s) at once, one statement per table, inside the session's
    transaction: what ``session.add`` and the flush at commit would do,
    without the unit of work's bookkeeping.  The rows stay outside the
    session (their ``id`` is not read back): for rows written once and not
    changed again in the same transaction, such as a turn and its mail."""
    for table, values in rows_by_table(rows).items():
        # one row: a plain INSERT (a list would take the driver's executemany path)
        # on the session's connection, in its transaction, past the ORM's execution layer
        session.connection().execute(_insert(table), values[0] if len(values) == 1 else values)


@functools.cache
def _insert(table: Any) -> Any:
    """The INSERT of ``table``, made once: a statement made anew each time
    computes its cache key anew each time."""
    return insert(table)
