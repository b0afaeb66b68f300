"""Counting the SQL statements and commits an engine runs while a block
runs (SQLAlchemy ``before_cursor_execute`` and ``commit`` events): the
statement-count tests use it to catch a change that adds work to a hot
path, without timing anything."""

from __future__ import annotations

from contextlib import contextmanager
from typing import Iterator

from sqlalchemy import Engine, event


@contextmanager
def counting(engine: Engine) -> Iterator[tuple[list[str], list[bool]]]:
    """The statements (their SQL) and the commits (one entry each) run on
    ``engine`` while the block runs."""
    statements: list[str] = []
    commits: list[bool] = []

    def count(_conn, _cursor, statement, *_args):
        statements.append(statement)

    def committed(_conn):
        commits.append(True)

    event.listen(engine, "before_cursor_execute", count)
    event.listen(engine, "commit", committed)
    try:
        yield statements, commits
    finally:
        event.remove(engine, "before_cursor_execute", count)
        event.remove(engine, "commit", committed)
