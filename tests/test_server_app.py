"""The app factory: configuration, the database made on first run, and the
migrations matching the models."""

from __future__ import annotations

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect
from sqlmodel import SQLModel

from pbem import create_app
from pbem.db import engine


def test_a_fresh_sqlite_file_is_created_and_migrated_on_first_run(tmp_path):
    path = tmp_path / "new.sqlite3"
    app = create_app({"TESTING": True, "SECRET_KEY": "x", "DATABASE_URL": f"sqlite:///{path}"})
    assert path.exists()
    with app.app_context():
        tables = set(inspect(engine()).get_table_names())
    assert {"players", "games", "seats", "turns", "api_tokens", "outbox", "alembic_version"} <= tables
    # starting again on the same file is fine
    create_app({"TESTING": True, "SECRET_KEY": "x", "DATABASE_URL": f"sqlite:///{path}"})


def test_the_migrations_give_exactly_the_models_schema(app):
    with app.app_context(), engine().connect() as connection:
        differences = compare_metadata(MigrationContext.configure(connection), SQLModel.metadata)
    assert differences == []


def test_environment_variables_configure_the_app(monkeypatch, tmp_path):
    url = f"sqlite:///{tmp_path / 'env.sqlite3'}"
    monkeypatch.setenv("DATABASE_URL", url)
    monkeypatch.setenv("PBEM_SECRET_KEY", "from-the-environment")
    monkeypatch.setenv("PBEM_BASE_URL", "https://games.example.org")
    app = create_app()
    assert app.config["DATABASE_URL"] == url
    assert app.config["SECRET_KEY"] == "from-the-environment"
    assert app.config["BASE_URL"] == "https://games.example.org"
