"""The stored tables: players, games, seats (invitations), turns, tokens
and the mail outbox.  Times are aware UTC datetimes.  The other tables are
in ``pbem.models_*`` (which import this module); ``pbem.models.tables`` gathers
them all."""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Any, Callable, Optional

from sqlalchemy import JSON, Column, DateTime, Dialect, Index, Table, Text, TypeDecorator, UniqueConstraint
from sqlmodel import Field, SQLModel

#: the current time, as an aware UTC datetime; tests may replace it
CLOCK: Callable[[], datetime] = lambda: datetime.now(timezone.utc)  # noqa: E731 - a name tests can replace


def utcnow() -> datetime:
    return CLOCK()


def table_of(model: type[SQLModel]) -> Table:
    """A table model's Core ``Table`` (``model.__table__``), for statements
    that go past the ORM."""
    table: Table = model.__table__  # type: ignore[attr-defined]  # set by SQLModel's metaclass; not declared
    return table


class UTCTime(TypeDecorator[datetime]):
    """A point in time: stored in UTC, read back as an aware UTC datetime
    (SQLite keeps no zone, PostgreSQL uses timestamptz)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            value = value.replace(tzinfo=timezone.utc)
        value = value.astimezone(timezone.utc)
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            return value.replace(tzinfo=timezone.utc)
        return value.astimezone(timezone.utc)


# game status values
INVITING = "inviting"  # waiting for invited players to accept
ACTIVE = "active"
FINISHED = "finished"
ABANDONED = "abandoned"
CANCELLED = "cancelled"  # an invitation was declined before the start
OPEN_STATUSES = (INVITING, ACTIVE)

# seat status values
INVITED = "invited"
ACCEPTED = "accepted"
DECLINED = "declined"

SOURCES = ("web", "api", "email", "cli", "bot")


class Player(SQLModel, table=True):
    __tablename__ = "players"

    id: Optional[int] = Field(default=None, primary_key=True)
    email: str = Field(max_length=320, unique=True, index=True)
    name: str = Field(default="", max_length=80)
    created_at: datetime = Field(default_factory=utcnow, sa_type=UTCTime)
    # the player's language setting ("en", "fr"); empty: the browser's, else English (mail: English)
    language: str = Field(default="", max_length=8, sa_column_kwargs={"server_default": ""})

    @property
    def display_name(self) -> str:
        """The name shown to the player and to those who invited them by
        address: the name they chose, else the part of the address before the @."""
        return self.name or self.email.split("@", 1)[0]

    @property
    def public_name(self) -> str:
        """The name shown to strangers (visitors, the lobby, players' pages,
        leaderboards): the name they chose, else "player #12", never a part
        of the address."""
        return self.name.strip() if self.name and self.name.strip() else f"player #{self.id}"


class Game(SQLModel, table=True):
    __tablename__ = "games"
    # the sweep's query (active games whose check is due) reads only the games due
    __table_args__ = (Index("ix_games_status_next_check_at", "status", "next_check_at"),)

    id: Optional[int] = Field(default=None, primary_key=True)
    kind: str = Field(max_length=40)  # the game's registry name
    options: dict[str, Any] = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))
    status: str = Field(default=INVITING, max_length=16, index=True)
    random_order: bool = False  # shuffle the seats at the start
    position: Optional[str] = Field(default=None, sa_column=Column(Text))  # notation's position string
    ply: int = 0  # turns played so far
    hours_per_turn: Optional[int] = None
    deadline: Optional[datetime] = Field(default=None, sa_type=UTCTime)
    time_control: Optional[dict[str, Any]] = Field(default=None, sa_column=Column(JSON))  # timecontrol.TimeControl
    turn_started_at: Optional[datetime] = Field(default=None, sa_type=UTCTime)  # the current turn's start
    next_check_at: Optional[datetime] = Field(default=None, sa_type=UTCTime, index=True)  # next reminder or timeout
    creator_id: int = Field(foreign_key="players.id")
    created_at: datetime = Field(default_factory=utcnow, sa_type=UTCTime)
    started_at: Optional[datetime] = Field(default=None, sa_type=UTCTime)
    finished_at: Optional[datetime] = Field(default=None, sa_type=UTCTime)
    result: str = Field(default="*", max_length=40)  # record Result tag
    termination: Optional[str] = Field(default=None, max_length=200)
    draw_offer: Optional[str] = Field(default=None, max_length=100)  # comma list of seats agreeing
    # an open challenge (the lobby): seats not yet taken, which any signed-in player may join
    # (``pbem.services.lobby``); taking one is a conditional UPDATE through ``gamestate.take_open_seat``
    open_seats: int = Field(default=0, sa_column_kwargs={"server_default": "0"})
    # games whose rules use chance: the secret seed (64 hex digits) and its
    # SHA-256 commitment, shown from the start; the seed is shown once the
    # game is over (pbem.services.present, pbem.services.records)
    seed: Optional[str] = Field(default=None, max_length=64)
    seed_hash: Optional[str] = Field(default=None, max_length=64)
    # the chance events settled before the first turn, as ``pbem.services.stored.events_data``
    # writes them (None: there were none)
    start_chance: Optional[list[dict[str, Any]]] = Field(default=None, sa_column=Column(JSON))


class Seat(SQLModel, table=True):
    """A player's place in a game; also the invitation."""

    __tablename__ = "seats"
    __table_args__ = (UniqueConstraint("game_id", "player_id"),)

    id: Optional[int] = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="games.id", index=True)
    player_id: int = Field(foreign_key="players.id", index=True)
    number: int  # 0-based turn order
    status: str = Field(default=INVITED, max_length=16)
    invited_at: datetime = Field(default_factory=utcnow, sa_type=UTCTime)
    answered_at: Optional[datetime] = Field(default=None, sa_type=UTCTime)
    bank_seconds: Optional[int] = None  # the player's time bank, in games that have one
    out_after: Optional[int] = None  # turns played when the player was put out on time (the out policy)
    #: settings the player changed outside their turn, not yet in a turn (JSON text: name -> value;
    #: ``pbem.services.seat_settings``); folded into the next turn played, then cleared
    pending_settings: Optional[str] = Field(default=None, sa_type=Text)


class Turn(SQLModel, table=True):
    __tablename__ = "turns"
    __table_args__ = (UniqueConstraint("game_id", "ply"),)

    id: Optional[int] = Field(default=None, primary_key=True)
    game_id: int = Field(foreign_key="games.id", index=True)
    ply: int  # 1 for the first turn
    seat: int
    player_id: int = Field(foreign_key="players.id")
    text: str = Field(sa_column=Column(Text, nullable=False))  # as written
    canonical: str = Field(sa_column=Column(Text, nullable=False))
    position: str = Field(sa_column=Column(Text, nullable=False))  # after the turn
    source: str = Field(max_length=8)
    created_at: datetime = Field(default_factory=utcnow, sa_type=UTCTime)
    # the chance events settled right after this turn (a draw, a roll), as
    # ``pbem.services.stored.events_data`` writes them; None: there were none
    chance: Optional[list[dict[str, Any]]] = Field(default=None, sa_column=Column(JSON))


class ApiToken(SQLModel, table=True):
    __tablename__ = "api_tokens"

    id: Optional[int] = Field(default=None, primary_key=True)
    player_id: int = Field(foreign_key="players.id", index=True)
    digest: str = Field(max_length=64, unique=True)  # sha256 of the token
    label: str = Field(default="", max_length=80)
    created_at: datetime = Field(default_factory=utcnow, sa_type=UTCTime)
    last_used_at: Optional[datetime] = Field(default=None, sa_type=UTCTime)


class OutboxMessage(SQLModel, table=True):
    """Mail to send.  The mail issue's sender picks these up; until then the
    embedded default shows them at /dev/mail."""

    __tablename__ = "outbox"

    id: Optional[int] = Field(default=None, primary_key=True)
    to_addr: str = Field(max_length=320, index=True)
    subject: str = Field(max_length=300)
    body: str = Field(sa_column=Column(Text, nullable=False))
    html: Optional[str] = Field(default=None, sa_column=Column(Text))
    game_id: Optional[int] = Field(default=None, foreign_key="games.id")
    ply: Optional[int] = None  # the position a diagram attachment shows
    created_at: datetime = Field(default_factory=utcnow, sa_type=UTCTime)
    sent_at: Optional[datetime] = Field(default=None, sa_type=UTCTime)
    # delivery (pbem.mailrobot.outgoing): what the message is, how it threads, how sending went
    kind: Optional[str] = Field(default=None, max_length=40)  # your_turn, game_over, invitation, reply, ...
    message_id: Optional[str] = Field(default=None, max_length=300)  # fixed at the first attempt
    in_reply_to: Optional[str] = Field(default=None, max_length=1000)  # the player's mail this answers
    thread_refs: Optional[str] = Field(default=None, sa_column=Column(Text))  # References, space separated
    position: Optional[str] = Field(default=None, sa_column=Column(Text))  # a board not stored (a preview)
    attempts: int = 0  # failed delivery attempts that count towards MAIL_MAX_ATTEMPTS (refusals, uncertain)
    next_attempt_at: Optional[datetime] = Field(default=None, sa_type=UTCTime)  # not before; also a lease
    last_error: Optional[str] = Field(default=None, sa_column=Column(Text))
    failed_at: Optional[datetime] = Field(default=None, sa_type=UTCTime)  # gave up for good
    outages: int = 0  # tries that found the SMTP server unavailable (not counted as attempts)
    failing_since: Optional[datetime] = Field(default=None, sa_type=UTCTime)  # first failure; MAIL_QUEUE_LIFETIME
    uncertain_at: Optional[datetime] = Field(default=None, sa_type=UTCTime)  # body out, no answer (yet)
    lease: Optional[str] = Field(default=None, max_length=32)  # who holds next_attempt_at's lease
    # structured game mail (migration 0011): ``body`` holds the words before the board, ``after_board``
    # the words after it; the board is drawn at send time for ``seat`` (the recipient's 0-based seat,
    # None for anyone not seated).  Rows queued before 0011 have after_board NULL: their body is whole.
    seat: Optional[int] = None
    after_board: Optional[str] = Field(default=None, sa_column=Column(Text))

