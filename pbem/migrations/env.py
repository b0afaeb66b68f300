"""Alembic environment: runs the migrations on the engine ``pbem.db`` hands
over in ``config.attributes["engine"]`` (or on ``sqlalchemy.url``)."""

from alembic import context
from sqlalchemy import create_engine, text
from sqlmodel import SQLModel

from pbem.models import tables  # noqa: F401  (fills the metadata)

config = context.config
target_metadata = SQLModel.metadata


def run() -> None:
    engine = config.attributes.get("engine")
    if engine is None:
        url = config.get_main_option("sqlalchemy.url")
        if url is None:
            raise SystemExit("pbem migrations need an engine (config.attributes['engine']) or sqlalchemy.url")
        engine = create_engine(url)
    with engine.connect() as connection:
        context.configure(
            connection=connection,
            target_metadata=target_metadata,
            render_as_batch=connection.dialect.name == "sqlite",
        )
        with context.begin_transaction():
            if connection.dialect.name == "postgresql":
                # several gunicorn workers may start at once: one migrates, the others wait
                connection.execute(text("SELECT pg_advisory_xact_lock(70310001)"))
            context.run_migrations()


if context.is_offline_mode():
    raise SystemExit("pbem migrations run online only")
run()
