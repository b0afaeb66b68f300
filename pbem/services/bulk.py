"""Many rows in one short statement: the sweep's reminders, their mail and
their claims, a chunk of games at a time.

On PostgreSQL the rows go as one array per column, read back as a table
by ``unnest``: the statement's text is the same whatever the number of
rows, so psycopg converts and prepares it once and the server plans it
once, where a list of rows is one execution per row (the driver's
``executemany``) or a text that grows with the rows.  Elsewhere (SQLite)
the rows go as the driver's ``executemany``, which costs little there.
"""

from __future__ import annotations

import functools
from typing import Any, Sequence

from sqlalchemy import Connection, Table, bindparam, func, insert, select


def on_postgresql(connection: Connection) -> bool:
    return connection.dialect.name == "postgresql"


def rows_table(columns: Sequence[Any], name: str = "rows") -> Any:
    """A table of rows given as one array per column (``columns``: the
    columns whose types the arrays' items have), named ``name``, its
    columns ``c0``, ``c1``...; bound as ``name_c0``, ``name_c1``...
    (``arrays``).  PostgreSQL only."""
    from sqlalchemy.dialects.postgresql import ARRAY

    arrays = [bindparam(f"{name}_c{i}", type_=ARRAY(column.type)) for i, column in enumerate(columns)]
    return func.unnest(*arrays).table_valued(*[f"c{i}" for i in range(len(columns))]).render_derived(name=name)


def arrays(rows: Sequence[Sequence[Any]], name: str = "rows") -> dict[str, list[Any]]:
    """The parameters of ``rows_table(..., name)`` for ``rows`` (tuples in
    the order of its columns)."""
    return {f"{name}_c{i}": list(values) for i, values in enumerate(zip(*rows))}


def insert_many(connection: Connection, table: Table, rows: list[dict[str, Any]]) -> None:
    """INSERT ``rows`` (dicts of values, every one with the same keys) into
    ``table``, in the connection's transaction: one INSERT ... SELECT FROM
    ``unnest`` on PostgreSQL, the driver's ``executemany`` elsewhere."""
    if not rows:
        return
    if not on_postgresql(connection):
        connection.execute(insert(table), rows)
        return
    keys = tuple(rows[0])
    connection.execute(_insert_from_arrays(table, keys), arrays([tuple(row[key] for key in keys) for row in rows]))


@functools.cache
def _insert_from_arrays(table: Table, keys: tuple[str, ...]) -> Any:
    """The INSERT of ``keys`` into ``table`` from one array per key, built
    once for each table and set of keys."""
    source = rows_table([table.c[key] for key in keys])
    return insert(table).from_select(list(keys), select(*source.c))
