"""Tables of the clock: per-player schedule preferences (reminders, digest,
calendar token), vacations, reminders sent and timeouts handled.

The sweep (``pbem.services.sweep``) inserts into ``reminders_sent`` and
``timeouts`` in the same transaction as the mail it queues; their unique
keys make a second insert for the same game and ply fail, so nothing is sent
or timed out twice even if two sweeps race past every other guard.
"""

from __future__ import annotations

from datetime import datetime
from typing import Optional

from sqlalchemy import UniqueConstraint
from sqlmodel import Field, SQLModel

from pbem.models import UTCTime, utcnow

DEFAULT_REMINDER_HOURS = "24,1"


class Preferences(SQLModel, table=True):
    """A player's schedule settings; players without a row get the defaults."""

    __tablename__ = "preferences"

    player_id: int = Field(foreign_key="players.id", primary_key=True, sa_column_kwargs={"autoincrement": False})
    reminder_hours: str = Field(default=DEFAULT_REMINDER_HOURS, max_length=100)  # hours before the deadline
    digest: bool = False  # one daily mail instead of a mail per move
    digest_sent_on: Optional[str] = Field(default=None, max_length=10)  # YYYY-MM-DD of the last digest
    calendar_token: Optional[str] = Field(default=None, max_length=64, unique=True)


class Vacation(SQLModel, table=True):
    """A period in which the player's clocks stop."""

    __tablename__ = "vacations"

    id: Optional[int] = Field(default=None, primary_key=True)
    player_id: int = Field(foreign_key="players.id", index=True)
    starts_at: datetime = Field(sa_type=UTCTime)
    ends_at: datetime = Field(sa_type=UTCTime)
    created_at: datetime = Field(default_factory=utcnow, sa_type=UTCTime)


class ReminderSent(SQLModel, table=True):
    """A reminder mailed for one turn (game and ply) at one offset."""

    __tablename__ = "reminders_sent"
    __table_args__ = (UniqueConstraint("game_id", "ply", "hours"),)

    id: Optional[int] = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="games.id")
    ply: int
    hours: int  # how long before the deadline
    player_id: int = Field(foreign_key="players.id")
    sent_at: datetime = Field(default_factory=utcnow, sa_type=UTCTime)


class Timeout(SQLModel, table=True):
    """A turn whose time ran out, and what the policy did about it."""

    __tablename__ = "timeouts"
    __table_args__ = (UniqueConstraint("game_id", "ply"),)

    id: Optional[int] = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="games.id")
    ply: int  # turns played when time ran out
    seat: int
    policy: str = Field(max_length=8)  # claim, forfeit or out
    outcome: str = Field(max_length=16)  # waiting, forfeited, out
    created_at: datetime = Field(default_factory=utcnow, sa_type=UTCTime)
