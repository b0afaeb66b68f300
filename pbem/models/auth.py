"""The sign-in tables: each mailed sign-in link (single use) and each
signed-in browser session, so that links are used up and signing out ends a
session on the server.  Only SHA-256 digests of the secrets are stored."""

from __future__ import annotations

from datetime import datetime
from typing import Optional

from sqlalchemy import Column, Text
from sqlmodel import Field, SQLModel

from pbem.models import UTCTime, utcnow


class SignInLink(SQLModel, table=True):
    """A mailed sign-in link: valid once, for ``SIGN_IN_MAX_AGE`` seconds."""

    __tablename__ = "sign_in_links"

    id: Optional[int] = Field(default=None, primary_key=True)
    digest: str = Field(max_length=64, unique=True)  # sha256 of the link's token
    player_id: int = Field(foreign_key="players.id", index=True)
    next_path: str = Field(default="/", sa_column=Column(Text, nullable=False))  # where to go after
    created_at: datetime = Field(default_factory=utcnow, sa_type=UTCTime)
    used_at: Optional[datetime] = Field(default=None, sa_type=UTCTime)  # also set when cancelled


class WebSession(SQLModel, table=True):
    """A signed-in browser: its signed cookie holds the secret whose digest
    is stored here; revoked by signing out (or out everywhere)."""

    __tablename__ = "web_sessions"

    id: Optional[int] = Field(default=None, primary_key=True)
    digest: str = Field(max_length=64, unique=True)  # sha256 of the cookie's session id
    player_id: int = Field(foreign_key="players.id", index=True)
    created_at: datetime = Field(default_factory=utcnow, sa_type=UTCTime)
    last_seen_at: datetime = Field(default_factory=utcnow, sa_type=UTCTime)
    revoked_at: Optional[datetime] = Field(default=None, sa_type=UTCTime)
