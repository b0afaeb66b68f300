"""The database: one engine per app, one session per request on ``g``, and
the Alembic migrations run on start-up."""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from flask import Flask, current_app, g
from sqlalchemy import Engine, create_engine, event
from sqlmodel import Session

from pbem import tables  # noqa: F401  (every table joins the metadata)

MIGRATIONS = str(Path(__file__).parent / "migrations")


def make_engine(url: str, schema: str | None = None, **options: Any) -> Engine:
    """An engine for ``url``.  SQLite waits for locks instead of failing and
    enforces foreign keys; ``schema`` sets PostgreSQL's search path."""
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"timeout": 30, "check_same_thread": False}, **options)

        @event.listens_for(engine, "connect")
        def _sqlite_pragmas(dbapi_connection, _record):
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.close()

        return engine
    engine = create_engine(url, pool_pre_ping=True, **options)
    if schema:

        @event.listens_for(engine, "connect")
        def _search_path(dbapi_connection, _record):
            cursor = dbapi_connection.cursor()
            cursor.execute(f'SET search_path TO "{schema}"')
            cursor.close()
            dbapi_connection.commit()

    return engine


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
    return current_app.extensions["pbem_engine"]


def get_session() -> Session:
    """The request's session, made on first use."""
    if "db_session" not in g:
        g.db_session = Session(engine(), expire_on_commit=False)
    return g.db_session


def _fresh_session() -> None:
    """Each request gets its own session and signed-in player, even when an
    app context (a test's, a CLI command's) is already pushed around it."""
    g.pop("db_session", None)
    g.pop("player", None)


def _close_session(_error: BaseException | None = None) -> None:
    session = g.pop("db_session", None)
    if session is not None:
        session.close()


def rolls_back(service):
    """Decorate a service whose first argument is the session: whatever the
    service raises, the session is rolled back first, so a failed call
    changes nothing.  Services commit their own work on success."""

    @functools.wraps(service)
    def wrapper(session: Session, *args: Any, **kwargs: Any):
        try:
            return service(session, *args, **kwargs)
        except BaseException:
            session.rollback()
            raise

    return wrapper
