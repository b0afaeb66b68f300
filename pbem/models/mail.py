"""The mail tables: the durable inbox (raw messages keyed by message key,
with their processing status and the shunt), the IMAP poller's place in each
mailbox, and the log of explanatory replies that limits them to one per
sender per day.  The outbox is ``pbem.models.OutboxMessage``."""

from __future__ import annotations

from datetime import datetime
from typing import Optional

from sqlalchemy import JSON, BigInteger, Column, LargeBinary, Text, UniqueConstraint
from sqlmodel import Field, SQLModel

from pbem.models import UTCTime, utcnow

# inbox status values
NEW = "new"  # stored, waiting for a worker
DONE = "done"  # processed (a turn played, a command answered, an error reply queued)
IGNORED = "ignored"  # deliberately not acted on (auto-generated, bounce, failed sender check)
SHUNTED = "shunted"  # processing failed; kept with the reason for an administrator
INBOX_STATUSES = (NEW, DONE, IGNORED, SHUNTED)


class InboxMessage(SQLModel, table=True):
    """One received message, stored raw before the listener answered 250."""

    __tablename__ = "inbox"

    id: Optional[int] = Field(default=None, primary_key=True)
    key: str = Field(max_length=1000, unique=True)  # mail.keys.message_key
    raw: bytes = Field(sa_column=Column(LargeBinary, nullable=False))
    envelope_from: Optional[str] = Field(default=None, max_length=1000)
    envelope_to: list[str] = Field(default_factory=list, sa_column=Column(JSON, nullable=False))
    status: str = Field(default=NEW, max_length=16, index=True)
    reason: Optional[str] = Field(default=None, sa_column=Column(Text))  # why ignored or shunted
    traceback: Optional[str] = Field(default=None, sa_column=Column(Text))  # for the administrator only
    attempts: int = 0  # processing attempts begun
    received_at: datetime = Field(default_factory=utcnow, sa_type=UTCTime)
    processed_at: Optional[datetime] = Field(default=None, sa_type=UTCTime)


class ImapState(SQLModel, table=True):
    """Where the IMAP poller resumes in one mailbox."""

    __tablename__ = "imap_state"

    mailbox: str = Field(max_length=500, primary_key=True)  # user@host:port/folder
    last_uid: int = Field(default=0, sa_column=Column(BigInteger, nullable=False))
    uidvalidity: Optional[int] = Field(default=None, sa_column=Column(BigInteger))
    last_error: Optional[str] = Field(default=None, sa_column=Column(Text))
    updated_at: datetime = Field(default_factory=utcnow, sa_type=UTCTime)


class MailReplyLog(SQLModel, table=True):
    """An explanatory reply sent to a sender on a day (UTC, ``YYYY-MM-DD``)."""

    __tablename__ = "mail_reply_log"
    __table_args__ = (UniqueConstraint("sender", "day", "kind"),)

    id: Optional[int] = Field(default=None, primary_key=True)
    sender: str = Field(max_length=320)
    day: str = Field(max_length=10)
    kind: str = Field(max_length=40)  # what the reply explained
    created_at: datetime = Field(default_factory=utcnow, sa_type=UTCTime)
