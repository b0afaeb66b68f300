"""Players, passwordless sign-in links and API tokens.

A sign-in link carries a token signed with the app's secret key that names
the player's address and expires after ``SIGN_IN_MAX_AGE`` seconds.  API
tokens are random strings; only their SHA-256 digest is stored.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from datetime import timedelta
from typing import Any
from urllib.parse import urlencode

from flask import current_app
from sqlalchemy import func
from itsdangerous import BadSignature, SignatureExpired, URLSafeTimedSerializer
from sqlmodel import Session, select

from pbem import links
from pbem.models import ApiToken, OutboxMessage, Player, utcnow
from pbem.services import outbox, refusals
from pbem.services.errors import BadInput, NotFound, NotSignedIn, ServiceError

class TooMany(ServiceError):
    """Too many requests of one kind (HTTP 429)."""

    status = 429


_EMAIL = re.compile(r"^[^@\s<>\"',;]+@[^@\s<>\"',;]+\.[^@\s<>\"',;.]{2,}$")
TOKEN_PREFIX = "pbem_"


def normalize_email(email: Any) -> str:
    """The address, trimmed and lower-cased; ``BadInput`` if it is not one."""
    if not isinstance(email, str):
        raise BadInput("an email address is text, such as alice@example.org")
    text = email.strip().lower()
    if len(text) > 320 or not _EMAIL.match(text):
        raise BadInput(f"{email.strip()[:80]!r} is not an email address; write one such as alice@example.org")
    return text


def player_for_email(session: Session, email: Any, *, create: bool = True) -> Player:
    address = normalize_email(email)
    player = session.exec(select(Player).where(Player.email == address)).first()
    if player is None:
        if not create:
            raise NotFound(f"nobody has signed in as {address}")
        player = Player(email=address)
        session.add(player)
        session.flush()
    return player


def _serializer() -> URLSafeTimedSerializer:
    return URLSafeTimedSerializer(current_app.config["SECRET_KEY"], salt="pbem-sign-in")


def sign_in_token(email: str) -> str:
    return _serializer().dumps({"email": normalize_email(email)})


def sign_in_link(email: str, next_path: str = "/") -> str:
    query = urlencode({"token": sign_in_token(email), "next": safe_next(next_path)})
    return links.external(f"/auth/verify?{query}")


def safe_next(path: Any) -> str:
    """A local path to go to after signing in; anything else becomes '/'."""
    if isinstance(path, str) and path.startswith("/") and not path.startswith("//") and "\\" not in path:
        return path
    return "/"


def email_from_token(token: Any) -> str:
    """The address a sign-in token names; ``NotSignedIn`` saying why not."""
    if not isinstance(token, str) or not token:
        raise NotSignedIn("the sign-in link has no token; ask for a new link")
    try:
        data = _serializer().loads(token, max_age=current_app.config["SIGN_IN_MAX_AGE"])
    except SignatureExpired:
        raise NotSignedIn("this sign-in link has expired; ask for a new one") from None
    except BadSignature:
        raise NotSignedIn("this sign-in link is not valid (was it copied whole?); ask for a new one") from None
    return normalize_email(data.get("email") if isinstance(data, dict) else None)


SIGN_IN_KIND = "sign_in"
SIGN_IN_PER_HOUR = 3  # sign-in mails to one address in any hour (config SIGN_IN_PER_HOUR)


def _check_sign_in_rate(session: Session, address: str) -> None:
    """``TooMany`` when ``address`` has had its sign-in mails for the hour:
    counted from the outbox rows of kind ``sign_in``."""
    limit = int(current_app.config.get("SIGN_IN_PER_HOUR", SIGN_IN_PER_HOUR))
    since = utcnow() - timedelta(hours=1)
    recent = session.exec(
        select(func.count()).select_from(OutboxMessage).where(
            OutboxMessage.to_addr == address, OutboxMessage.kind == SIGN_IN_KIND, OutboxMessage.created_at >= since)
    ).one()
    if recent >= limit:
        raise TooMany(f"{address} has been sent {limit} sign-in links in the last hour, the most we send; "
                      "use one of those (each is valid for "
                      f"{current_app.config['SIGN_IN_MAX_AGE'] // 60} minutes) or ask again in an hour")


def send_sign_in_link(session: Session, email: Any, next_path: str = "/") -> Player:
    """Mail a sign-in link to ``email``, making the player if new; commits.
    ``TooMany`` when the address has had ``SIGN_IN_PER_HOUR`` links this hour;
    ``RefusesMail`` when it refused all mail from the server."""
    address = normalize_email(email)
    if refusals.refuses(session, address):
        raise refusals.RefusesMail(
            f"{address} refuses all mail from this server (it chose so with the link at the foot of our mail), "
            "so no sign-in link can be sent; to accept mail again, open that link from any mail this server "
            "sent you and press 'Accept mail from this server again'")
    _check_sign_in_rate(session, address)
    player = player_for_email(session, email)
    link = sign_in_link(player.email, next_path)
    minutes = current_app.config["SIGN_IN_MAX_AGE"] // 60
    outbox.queue(
        session,
        player.email,
        "Your pbem sign-in link",
        f"Sign in to pbem with this link (valid for {minutes} minutes):\n\n{link}\n\n"
        "If you did not ask for it, ignore this message.\n",
        kind=SIGN_IN_KIND,
    )
    session.commit()
    return player


def set_name(session: Session, player: Player, name: Any) -> Player:
    if not isinstance(name, str) or len(name.strip()) > 80 or any(c in name for c in "<>\"\n\r"):
        raise BadInput("a name is up to 80 characters, without < > \" or line breaks")
    player.name = name.strip()
    session.add(player)
    session.commit()
    return player


# -- API tokens ------------------------------------------------------------
def _digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def create_api_token(session: Session, player: Player, label: str = "") -> tuple[str, ApiToken]:
    """A new token for ``player``: the secret (shown once) and its row; commits."""
    if not isinstance(label, str) or len(label) > 80:
        raise BadInput("a token label is text of up to 80 characters")
    secret = TOKEN_PREFIX + secrets.token_urlsafe(32)
    row = ApiToken(player_id=player.id, digest=_digest(secret), label=label.strip())
    session.add(row)
    session.commit()
    return secret, row


def player_for_api_token(session: Session, token: str) -> Player | None:
    if not token or len(token) > 200:
        return None
    row = session.exec(select(ApiToken).where(ApiToken.digest == _digest(token))).first()
    if row is None:
        return None
    row.last_used_at = utcnow()
    session.add(row)
    session.commit()
    return session.get(Player, row.player_id)


def tokens_of(session: Session, player: Player) -> list[ApiToken]:
    return list(session.exec(select(ApiToken).where(ApiToken.player_id == player.id).order_by(ApiToken.id)))


def revoke_api_token(session: Session, player: Player, token_id: Any) -> None:
    row = session.get(ApiToken, token_id) if isinstance(token_id, int) else None
    if row is None or row.player_id != player.id:
        raise NotFound(f"you have no API token {token_id!r}")
    session.delete(row)
    session.commit()
