"""Server-rendered pages: sign-in, my games, a game, a new game, API tokens,
and the local mailbox at /dev/mail."""

from __future__ import annotations

from flask import Flask


def init_app(app: Flask) -> None:
    pass
