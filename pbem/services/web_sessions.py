"""Signed-in browser sessions kept on the server.

Signing in makes a random session id; the browser's signed cookie holds it
and the ``web_sessions`` table its SHA-256 digest.  A session is good while
it is not revoked and has been seen within ``PERMANENT_SESSION_LIFETIME``;
signing out revokes it, so a copied cookie stops working, and signing out
everywhere revokes every session of the player.
"""

from __future__ import annotations

import functools
import hashlib
import secrets
from datetime import timedelta
from typing import Any

from flask import current_app, g
from flask import session as cookie_session
from sqlalchemy import bindparam, update
from sqlmodel import Session, col, select
from sqlmodel.sql.expression import Select

from pbem.db import get_session
from pbem.models import Player, utcnow
from pbem.models.auth import WebSession
from pbem.services.accounts import cancel_sign_in_links
from pbem.services.errors import NotFound
from pbem.services.stored import Seated, load_seated

#: the key of the session id in Flask's signed session cookie
COOKIE_KEY = "sid"
#: how stale ``last_seen_at`` may get before a request writes it again
SEEN_EVERY = timedelta(hours=1)


def _digest(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def start(session: Session, player: Player) -> str:
    """A new session for ``player``; returns the id to keep in the cookie; commits."""
    secret = secrets.token_urlsafe(32)
    assert player.id is not None  # a stored player
    session.add(WebSession(digest=_digest(secret), player_id=player.id))
    session.commit()
    return secret


def _lifetime() -> timedelta:
    return current_app.permanent_session_lifetime


@functools.cache
def _session_statement() -> Select[WebSession, Player]:
    """``player_for``'s statement, built once (its cache key too)."""
    return select(WebSession, Player).where(WebSession.digest == bindparam("digest"), WebSession.player_id == Player.id)


def player_for(session: Session, secret: object) -> Player | None:
    """The player of a live session with id ``secret``, or None."""
    if not isinstance(secret, str) or not secret or len(secret) > 200:
        return None
    found = session.exec(_session_statement(), params={"digest": _digest(secret)}).first()
    now = utcnow()
    if found is None:
        return None
    row, player = found  # the session and its player in one statement
    if row.revoked_at is not None or row.last_seen_at < now - _lifetime():
        return None
    if row.last_seen_at < now - SEEN_EVERY:
        session.execute(update(WebSession).where(col(WebSession.id) == row.id).values(last_seen_at=now))
        session.commit()
    return player


#: the web session read with the game a turn is played in (``play.load_seated``)
_SESSION_CREDENTIAL = select(WebSession.player_id, WebSession.revoked_at, WebSession.last_seen_at).where(
    WebSession.digest == bindparam("digest"))


def seated_by(session: Session, game_id: Any, secret: object) -> tuple[Player, Seated] | None:
    """The player of the live session ``secret`` and the game ``game_id``
    with its seats, read in one statement, when the session is live, its
    player has a seat in the game and its ``last_seen_at`` needs no
    update; else None (the caller asks ``player_for``, then reads the game)."""
    if not isinstance(secret, str) or not secret or len(secret) > 200:
        return None
    try:
        seated = load_seated(session, game_id, credential=_SESSION_CREDENTIAL, params={"digest": _digest(secret)})
    except NotFound:
        return None
    found, now = seated.credential, utcnow()
    if found is None or found["revoked_at"] is not None or found["last_seen_at"] < now - min(SEEN_EVERY, _lifetime()):
        return None
    player = seated.player(found["player_id"])
    return None if player is None else (player, seated)


def read_with_game(game_id: Any) -> None:
    """Before a page that plays in game ``game_id``: read the signed-in
    player with the game in one statement (``seated_by``), keeping them as
    ``current_player()`` and the game as ``g.seated``; when that cannot
    answer, nothing is read here and ``current_player()`` reads as usual."""
    if "player" in g:
        return
    found = seated_by(get_session(), game_id, cookie_session.get(COOKIE_KEY))
    if found is not None:
        g.player, g.seated = found


def end(session: Session, secret: object) -> None:
    """Revoke the session with id ``secret`` (if any); commits."""
    if isinstance(secret, str) and secret:
        session.execute(update(WebSession).where(col(WebSession.digest) == _digest(secret),
                                                 col(WebSession.revoked_at).is_(None)).values(revoked_at=utcnow()))
        session.commit()


def end_all(session: Session, player: Player) -> int:
    """Revoke every live session of ``player`` and cancel their unused
    sign-in links; the number of sessions ended; commits."""
    ended = session.exec(update(WebSession).where(col(WebSession.player_id) == player.id,
                                                  col(WebSession.revoked_at).is_(None)).values(revoked_at=utcnow()))
    cancel_sign_in_links(session, player)
    session.commit()
    return ended.rowcount


def current_player() -> Player | None:
    """The player signed in by this request's session cookie, or None (for
    the pages and, on GET, the API alike)."""
    if "player" not in g:
        g.player = player_for(get_session(), cookie_session.get(COOKIE_KEY))
    player: Player | None = g.player
    return player
