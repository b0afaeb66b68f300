"""The addresses that refused all mail from this server (with the link at
the foot of every mail we send).  ``pbem.services.refusals`` reads and writes
them; ``pbem.services.outbox.queue`` honours them."""

from __future__ import annotations

from datetime import datetime
from typing import Optional

from sqlmodel import Field, SQLModel

from pbem.models import UTCTime, utcnow


class MailRefusal(SQLModel, table=True):
    """An address that gets no mail from the server, of any kind."""

    __tablename__ = "mail_refusals"

    id: Optional[int] = Field(default=None, primary_key=True)
    address: str = Field(max_length=320, unique=True)  # normalized: trimmed, lower-case
    created_at: datetime = Field(default_factory=utcnow, sa_type=UTCTime)
