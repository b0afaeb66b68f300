"""The changes of games, in commit order, for event streams
(``pbem.services.events``, ``docs/api.md``, "Event streams").

A row is written by the database itself, by triggers on ``games``
(migration ``0016``): one for every new game and for every change of a
game's ply, status, result, draw offer, deadline or open seats, in the
same transaction as the change, so no path that changes a game can forget
it and a turn sends no extra statement.  The row copies what the game
became; the turns played in it are those with ``old_ply < ply <= ply``.
The id orders the changes and is what a stream's ``Last-Event-ID`` names.
Rows older than ``EVENT_KEEP_HOURS`` are pruned.

SQLite drops a table's triggers when a migration rebuilds the table
(``batch_alter_table('games')``): such a migration must create them again
(``pbem.migrations.versions.0016_game_events.create_triggers``);
``tests/test_event_streams.py`` checks they are there after every migration.
"""

from __future__ import annotations

from datetime import datetime
from typing import Optional

from sqlalchemy import Index
from sqlmodel import Field, SQLModel

from pbem.models import UTCTime


class GameEvent(SQLModel, table=True):
    """A game as one change left it."""

    __tablename__ = "game_events"
    # ids are never reused (SQLite AUTOINCREMENT), even once the newest rows were pruned
    __table_args__ = (Index("ix_game_events_game_id_id", "game_id", "id"), {"sqlite_autoincrement": True})

    id: Optional[int] = Field(default=None, primary_key=True)
    game_id: int
    old_ply: int  # the ply before the change (a new game: its ply)
    ply: int
    status: str = Field(max_length=16)
    result: str = Field(max_length=40)
    termination: Optional[str] = Field(default=None, max_length=200)
    draw_offer: Optional[str] = Field(default=None, max_length=100)
    deadline: Optional[datetime] = Field(default=None, sa_type=UTCTime)
    open_seats: int = 0
    at: Optional[datetime] = Field(default=None, sa_type=UTCTime)  # when written (pruning only)
