"""Shared fixtures: a real database per test, the app, its test client and
CLI runner, and small helpers to make players and games.

Tests run on SQLite files by default; with ``PBEM_TEST_POSTGRES_URL`` set the
``app`` fixture uses that PostgreSQL server instead, in a schema made for
this test session (migrated once, emptied before each test, dropped at the
end).  ``sqlite_config`` and ``postgres_config`` ask for one backend
explicitly (the latter skips when no server is configured).
"""

from __future__ import annotations

import os
import secrets
import shutil

import pytest
from sqlalchemy import text
from sqlmodel import SQLModel

from pbem import create_app
from pbem.db import make_engine, migrate
from pbem.models import tables  # noqa: F401  (every table joins SQLModel.metadata)

POSTGRES_URL = os.environ.get("PBEM_TEST_POSTGRES_URL")
#: every table of the models, emptied before each PostgreSQL test; derived
#: from the metadata so that a new table is never forgotten
TABLES = tuple(table.name for table in reversed(SQLModel.metadata.sorted_tables))


class _Postgres:
    def __init__(self, url: str):
        self.url = url
        self.schema = f"pbem_test_{os.getpid()}_{secrets.token_hex(3)}"
        admin = make_engine(url)
        with admin.begin() as connection:
            connection.execute(text(f'CREATE SCHEMA "{self.schema}"'))
        admin.dispose()
        self.engine = make_engine(url, self.schema)
        migrate(self.engine)

    def fresh(self) -> dict:
        with self.engine.begin() as connection:
            connection.execute(text(f"TRUNCATE {', '.join(TABLES)} RESTART IDENTITY CASCADE"))
        return {"DATABASE_URL": self.url, "DATABASE_SCHEMA": self.schema}

    def close(self) -> None:
        self.engine.dispose()
        admin = make_engine(self.url)
        with admin.begin() as connection:
            connection.execute(text(f'DROP SCHEMA "{self.schema}" CASCADE'))
        admin.dispose()


@pytest.fixture(scope="session")
def _postgres():
    if not POSTGRES_URL:
        yield None
        return
    server = _Postgres(POSTGRES_URL)
    yield server
    server.close()


@pytest.fixture(scope="session")
def _sqlite_template(tmp_path_factory):
    path = tmp_path_factory.mktemp("sqlite-template") / "template.sqlite3"
    engine = make_engine(f"sqlite:///{path}")
    migrate(engine)
    engine.dispose()
    return path


@pytest.fixture
def sqlite_config(_sqlite_template, tmp_path) -> dict:
    """A migrated SQLite database file of this test's own."""
    path = tmp_path / "pbem.sqlite3"
    shutil.copy(_sqlite_template, path)
    return {"DATABASE_URL": f"sqlite:///{path}"}


@pytest.fixture
def postgres_config(_postgres) -> dict:
    """The test PostgreSQL schema, emptied; skips without a server."""
    if _postgres is None:
        pytest.skip("PBEM_TEST_POSTGRES_URL is not set, so there is no PostgreSQL server to test on")
    return _postgres.fresh()


@pytest.fixture
def database_config(request) -> dict:
    """PostgreSQL when ``PBEM_TEST_POSTGRES_URL`` is set, else SQLite."""
    return request.getfixturevalue("postgres_config" if POSTGRES_URL else "sqlite_config")


def make_test_app(database: dict, **extra):
    config = {
        "TESTING": True,
        "SECRET_KEY": "test-secret-key",
        "AUTO_MIGRATE": False,
        "BASE_URL": "http://pbem.test",
        "PUZZLE_SOLVER_SECONDS": 0.2,  # shared puzzles: a tiny solver budget
        **database,
        **extra,
    }
    return create_app(config)


@pytest.fixture
def app(database_config):
    app = make_test_app(database_config)
    yield app
    app.extensions["pbem_engine"].dispose()


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def runner(app):
    return app.test_cli_runner()


@pytest.fixture
def session(app):
    """A database session inside an app context, for calling services.
    Tests that also make requests with ``client`` should push their own
    short ``app.app_context()`` instead: a pushed context is shared with
    the requests (and so is ``g``)."""
    from pbem.db import get_session

    with app.app_context():
        session = get_session()
        yield session
        session.close()  # a request may have replaced it in ``g``: close it here, ending any transaction


@pytest.fixture
def make_players(session):
    """``make_players("alice", "bob")`` -> Player rows for alice@example.org..."""
    from pbem.services.accounts import player_for_email

    def make(*names: str):
        players = [player_for_email(session, f"{name}@example.org") for name in names]
        for player, name in zip(players, names):
            player.name = name.capitalize()
            session.add(player)
        session.commit()
        return players

    return make


@pytest.fixture
def start_game(session):
    """``start_game(creator, *others, kind="logger")`` -> a started game in
    that turn order (everyone accepted)."""
    from pbem.services import games

    def start(creator, *others, kind: str = "logger", **options):
        game = games.create_game(session, creator, kind, [creator.email] + [p.email for p in others], **options)
        for player in others:
            games.accept(session, game.id, player)
        session.refresh(game)
        return game

    return start
