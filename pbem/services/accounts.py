"""Players, passwordless sign-in links and API tokens.

A sign-in link carries a random token, stored as its SHA-256 digest with the
player and the path to go to; it signs in once, within ``SIGN_IN_MAX_AGE``
seconds.  API tokens are random strings; only their digest is stored too.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import re
import secrets
from datetime import timedelta
from typing import Any
from urllib.parse import quote, urlencode

from flask import current_app
from sqlalchemy import and_, bindparam, or_, update
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, select
from sqlmodel.sql.expression import Select

from pbem import links
from pbem.i18n import gettext
from pbem.models import ApiToken, OutboxMessage, Player, utcnow
from pbem.models.auth import SignInLink
from pbem.services import bot_seats, outbox, refusals
from pbem.services.errors import BadInput, NotFound, NotSignedIn, ServiceError
from pbem.services.stored import Seated, load_seated


class TooMany(ServiceError):
    """Too many requests of one kind (HTTP 429)."""

    status = 429


_EMAIL = re.compile(r"^[^@\s<>\"',;]+@[^@\s<>\"',;]+\.[^@\s<>\"',;.]{2,}$")
TOKEN_PREFIX = "pbem_"


def normalize_email(email: Any) -> str:
    """The address, trimmed and lower-cased; ``BadInput`` if it is not one."""
    if not isinstance(email, str):
        raise BadInput(gettext('an email address is text, such as alice@example.org'))
    text = email.strip().lower()
    if len(text) > 320 or not _EMAIL.match(text):
        raise BadInput(gettext('%(value)s is not an email address; write one such as alice@example.org', value=repr(email.strip()[:80])))
    return text


def player_for_email(session: Session, email: Any, *, create: bool = True) -> Player:
    address = normalize_email(email)
    player = session.exec(select(Player).where(Player.email == address)).first()
    if player is None:
        if not create:
            raise NotFound(gettext('nobody has signed in as %(address)s', address=address))
        bot_seats.refuse_bot_address(address)  # a bot's row is made by bot_seats.bot_player only
        try:
            with session.begin_nested():  # another request may make the same player at the same moment
                player = Player(email=address)
                session.add(player)
                session.flush()
        except IntegrityError:
            player = session.exec(select(Player).where(Player.email == address)).one()
    return player


def sign_in_link(session: Session, player: Player, next_path: str = "/") -> str:
    """A new single-use sign-in link for ``player`` that leads to ``next_path``
    (made safe) once used; stored (as a digest) in the session, not committed."""
    token = secrets.token_urlsafe(32)
    assert player.id is not None  # a stored player
    session.add(SignInLink(digest=_digest(token), player_id=player.id, next_path=safe_next(next_path)))
    session.flush()
    return links.external("/auth/verify?" + urlencode({"token": token}))


_STRIPPED = "".join(chr(code) for code in range(0x21))  # C0 controls and space
_KEPT = "".join(chr(code) for code in range(0x21, 0x7F))  # printable ASCII, not escaped
MAX_NEXT = 2000


def safe_next(path: Any) -> str:
    """A path on this site to go to after signing in; anything else becomes '/'.

    Decided on the text a browser would see: as WHATWG URL parsing does,
    leading and trailing C0 controls and spaces are stripped, tabs and line
    breaks removed anywhere, and a backslash counts as a slash, so the
    result must be a single '/' followed by anything but '/' or '\\'.
    Other controls, spaces and non-ASCII are percent-encoded."""
    if not isinstance(path, str) or len(path) > MAX_NEXT:
        return "/"
    text = re.sub(r"[\t\n\r]", "", path.strip(_STRIPPED))
    if not text.startswith("/") or text[1:2] in ("/", "\\"):
        return "/"
    return quote(text, safe=_KEPT, errors="replace")


class LinkRefused(NotSignedIn):
    """A sign-in link that cannot be used; ``email`` names its player when known."""

    status = 400

    def __init__(self, message: str, email: str = "") -> None:
        super().__init__(message)
        self.email = email


def _link_row(session: Session, token: Any) -> tuple[SignInLink, Player]:
    if not isinstance(token, str) or not token:
        raise LinkRefused("the sign-in link has no token (was it copied whole?); ask for a new link")
    row = None
    if len(token) < 200:
        row = session.exec(select(SignInLink).where(SignInLink.digest == _digest(token))).first()
    if row is None:
        raise LinkRefused("this sign-in link is not valid (was it copied whole?); ask for a new one")
    player = session.get(Player, row.player_id)
    assert player is not None  # the link's foreign key holds a player
    return row, player


def _oldest_valid() -> Any:
    return utcnow() - timedelta(seconds=int(current_app.config["SIGN_IN_MAX_AGE"]))


def _refusal(row: SignInLink, player: Player) -> LinkRefused | None:
    if bot_seats.is_bot_address(player.email):  # a link made before the bots' addresses were reserved
        return LinkRefused(gettext("this sign-in link is for a computer opponent's address, where nobody signs in"))
    if row.used_at is not None:
        return LinkRefused("this sign-in link has already been used (each link signs in once); "
                           "ask for a new one below", player.email)
    if row.created_at < _oldest_valid():
        minutes = int(current_app.config["SIGN_IN_MAX_AGE"]) // 60
        return LinkRefused(f"this sign-in link has expired (links are valid for {minutes} minutes); "
                           "ask for a new one below", player.email)
    return None


def check_sign_in_link(session: Session, token: Any) -> tuple[Player, str, LinkRefused | None]:
    """What a sign-in link would do, without using it up: its player, the
    path it leads to, and why it cannot be used (None when it can).
    ``LinkRefused`` when it is no link at all."""
    row, player = _link_row(session, token)
    return player, safe_next(row.next_path), _refusal(row, player)


def use_sign_in_link(session: Session, token: Any) -> tuple[Player, str]:
    """Use up a sign-in link: its player and the path to go to; commits.
    Only one of any number of simultaneous uses succeeds (the others get
    ``LinkRefused``)."""
    row, player = _link_row(session, token)
    if (refusal := _refusal(row, player)) is not None:
        raise refusal
    used = session.exec(
        update(SignInLink)
        .where(col(SignInLink.id) == row.id, col(SignInLink.used_at).is_(None),
               col(SignInLink.created_at) >= _oldest_valid())
        .values(used_at=utcnow())
    )
    session.commit()
    if used.rowcount != 1:
        session.refresh(row)
        raise _refusal(row, player) or LinkRefused("this sign-in link has already been used; ask for a new one",
                                                   player.email)
    return player, safe_next(row.next_path)


def cancel_sign_in_links(session: Session, player: Player) -> None:
    """Use up every unused sign-in link of ``player``; not committed."""
    session.execute(update(SignInLink).where(col(SignInLink.player_id) == player.id, col(SignInLink.used_at).is_(None))
                    .values(used_at=utcnow()))


SIGN_IN_KIND = "sign_in"
SIGN_IN_PER_HOUR = 3  # sign-in mails to one address in any hour (config SIGN_IN_PER_HOUR)


def mailbox(address: str) -> str:
    """The address without its ``+detail``: ``bob+games@x`` -> ``bob@x``
    (most mail services deliver both to bob's mailbox)."""
    local, at, domain = address.rpartition("@")
    base = local.partition("+")[0]
    return f"{base}@{domain}" if at and base else address


def _check_sign_in_rate(session: Session, address: str) -> None:
    """``TooMany`` when the mailbox of ``address`` (it and its
    ``+sub-addresses``) has had its sign-in mails for the hour: counted from
    the outbox rows of kind ``sign_in``."""
    limit = int(current_app.config.get("SIGN_IN_PER_HOUR", SIGN_IN_PER_HOUR))
    since = utcnow() - timedelta(hours=1)
    box = mailbox(address)
    local, _, domain = box.rpartition("@")
    sent = session.exec(
        select(OutboxMessage.to_addr).where(
            or_(col(OutboxMessage.to_addr) == box,
                and_(col(OutboxMessage.to_addr).startswith(local + "+", autoescape=True),
                     col(OutboxMessage.to_addr).endswith("@" + domain, autoescape=True))),
            OutboxMessage.kind == SIGN_IN_KIND, OutboxMessage.created_at >= since)
    ).all()
    recent = sum(1 for to in sent if mailbox(to) == box)
    if recent >= limit:
        raise TooMany(f"{address} has been sent {limit} sign-in links in the last hour, the most we send; "
                      "use one of those (each works once, within "
                      f"{current_app.config['SIGN_IN_MAX_AGE'] // 60} minutes) or ask again in an hour")


def send_sign_in_link(session: Session, email: Any, next_path: str = "/") -> Player:
    """Mail a sign-in link to ``email``, making the player if new; commits.
    ``TooMany`` when the address has had ``SIGN_IN_PER_HOUR`` links this hour;
    ``RefusesMail`` when it refused all mail from the server; ``BotAddress``
    for an address of the computer opponents' domain, nobody's to sign in with."""
    address = normalize_email(email)
    bot_seats.refuse_bot_address(address)
    if refusals.refuses(session, address):
        raise refusals.RefusesMail(
            f"{address} refuses all mail from this server (it chose so with the link at the foot of our mail), "
            "so no sign-in link can be sent; to accept mail again, open that link from any mail this server "
            "sent you and press 'Accept mail from this server again'")
    _check_sign_in_rate(session, address)
    player = player_for_email(session, email)
    link = sign_in_link(session, player, next_path)
    minutes = current_app.config["SIGN_IN_MAX_AGE"] // 60
    from pbem.i18n import for_player

    # in the player's language; without a setting, in the language of the page that asked for the link
    with for_player(player) if player.language else contextlib.nullcontext():
        subject = gettext("Your pbem sign-in link")
        body = gettext("Sign in to pbem with this link (it works once, within %(minutes)s minutes):\n\n%(link)s\n\n"
                       "If you did not ask for it, ignore this message.\n", minutes=minutes, link=link)
    outbox.queue(session, player.email, subject, body, kind=SIGN_IN_KIND)
    session.commit()
    return player


def set_name(session: Session, player: Player, name: Any) -> Player:
    if not isinstance(name, str) or len(name.strip()) > 80 or any(c in name for c in "<>\"\n\r"):
        raise BadInput(gettext('a name is up to 80 characters, without < > " or line breaks'))
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
        raise BadInput(gettext('a token label is text of up to 80 characters'))
    secret = TOKEN_PREFIX + secrets.token_urlsafe(32)
    assert player.id is not None  # a stored player
    row = ApiToken(player_id=player.id, digest=_digest(secret), label=label.strip())
    session.add(row)
    session.commit()
    return secret, row


#: how stale a token's ``last_used_at`` may get before a request writes it
#: again: the tokens page shows it to the minute, but writing (and
#: committing) it on every API request would double a turn's cost
LAST_USED_GRAIN = timedelta(minutes=10)


@functools.cache
def _token_statement() -> Select[ApiToken, Player]:
    """``player_for_api_token``'s statement, built once (its cache key too)."""
    return select(ApiToken, Player).where(ApiToken.digest == bindparam("digest"), ApiToken.player_id == Player.id)


def player_for_api_token(session: Session, token: str) -> Player | None:
    """The player whose API token this is (None: no such token), read in one
    statement; the token's ``last_used_at`` is brought up to date when it is
    more than ``LAST_USED_GRAIN`` old (one conditional UPDATE, committed)."""
    if not token or len(token) > 200:
        return None
    found = session.exec(_token_statement(), params={"digest": _digest(token)}).first()
    if found is None:
        return None
    row, player = found
    now = utcnow()
    if row.last_used_at is None or row.last_used_at < now - LAST_USED_GRAIN:
        session.execute(update(ApiToken).where(
            col(ApiToken.id) == row.id,
            or_(col(ApiToken.last_used_at).is_(None), col(ApiToken.last_used_at) < now - LAST_USED_GRAIN),
        ).values(last_used_at=now).execution_options(synchronize_session=False))
        session.commit()
    return player


#: the API token read with the game a turn is played in (``play.load_seated``)
_TOKEN_CREDENTIAL = select(ApiToken.id, ApiToken.player_id, ApiToken.last_used_at).where(
    ApiToken.digest == bindparam("digest"))


def seated_by_api_token(session: Session, game_id: Any, token: str) -> tuple[Player, Seated] | None:
    """The token's player and the game ``game_id`` with its seats, read in
    one statement, when the token is valid, its player has a seat in the
    game and its ``last_used_at`` needs no update; else None, and the
    caller asks ``player_for_api_token`` and ``play.load_seated`` one after
    the other (which say what is wrong: no such token, no such game, not
    your game)."""
    if not token or len(token) > 200:
        return None
    try:
        seated = load_seated(session, game_id, credential=_TOKEN_CREDENTIAL, params={"digest": _digest(token)})
    except NotFound:
        return None
    found = seated.credential
    if found is None or found["last_used_at"] is None or found["last_used_at"] < utcnow() - LAST_USED_GRAIN:
        return None
    player = seated.player(found["player_id"])
    return None if player is None else (player, seated)


def tokens_of(session: Session, player: Player) -> list[ApiToken]:
    return list(session.exec(select(ApiToken).where(ApiToken.player_id == player.id).order_by(col(ApiToken.id))))


def revoke_api_token(session: Session, player: Player, token_id: Any) -> None:
    row = session.get(ApiToken, token_id) if isinstance(token_id, int) and 0 < token_id < 2**31 else None
    if row is None or row.player_id != player.id:
        shown = repr(token_id)
        raise NotFound(gettext('you have no API token %(value)s', value=shown if len(shown) <= 20 else shown[:20] + '…'))
    session.delete(row)
    session.commit()


def set_language(session: Session, player: Player, language: Any) -> Player:
    """Set the player's language ("en", "fr", or "" for the browser's);
    ``BadInput`` names the choices; commits."""
    from pbem.i18n import LANGUAGES, gettext, setting_of

    text = str(language or "").strip().lower()
    if text and not setting_of(text):
        raise BadInput(gettext("the language is one of %(choices)s, or empty for the browser's; not %(value)r",
                               choices=", ".join(LANGUAGES), value=text[:20]))
    player.language = text
    session.add(player)
    session.commit()
    return player
