"""Refusing all mail from the server, and accepting it again.

Every mail the server sends carries a link naming its recipient (a token
signed with the app's secret key, its own salt, no expiry): at the foot of
the text and in the ``List-Unsubscribe`` header, with
``List-Unsubscribe-Post: List-Unsubscribe=One-Click`` (RFC 8058).  A POST to
that link stores the address in ``mail_refusals``; from then on
``pbem.services.outbox.queue`` drops every mail to it (invitations,
notifications, reminders, digests, answers to its mail, sign-in links alike),
and mail already queued for it is given up.  The same link's page accepts
mail again.
"""

from __future__ import annotations

from typing import Any, Iterable

from flask import current_app, has_app_context
from itsdangerous import BadSignature, URLSafeSerializer
from sqlalchemy import func, update
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, select

from pbem import links
from pbem.i18n import gettext
from pbem.models import OutboxMessage, utcnow
from pbem.models.refusals import MailRefusal
from pbem.services.errors import BadInput, Forbidden

SALT = "pbem-refuse-mail"
#: the reason written on queued mail given up because its address refused mail
GIVEN_UP = "not sent: the address refused all mail from this server"


class RefusesMail(Forbidden):
    """The address refused all mail from this server (HTTP 403)."""


def _key(address: str) -> str:
    return address.strip().lower()


def _keys(address: str) -> set[str]:
    """The refusals that cover ``address``: its own, and that of the address
    without its ``+detail`` (a refusal of bob@x covers bob+games@x, which
    most mail services deliver to bob's mailbox)."""
    key = _key(address)
    local, at, domain = key.rpartition("@")
    base = local.partition("+")[0]
    return {key, f"{base}@{domain}"} if at and base else {key}


def _serializer() -> URLSafeSerializer:
    return URLSafeSerializer(current_app.config["SECRET_KEY"], salt=SALT)


def token_for(address: str) -> str:
    """The signed token naming ``address`` in its refusal link."""
    return _serializer().dumps({"refuse": _key(address)})


def address_from_token(token: Any) -> str:
    """The address a refusal token names; ``BadInput`` saying why not."""
    try:
        data = _serializer().loads(token) if isinstance(token, str) and len(token) <= 1000 else None
    except BadSignature:
        data = None
    address = data.get("refuse") if isinstance(data, dict) else None
    if not isinstance(address, str) or not address:
        raise BadInput(gettext('this link is not valid (was it copied whole?); use the link at the foot of any mail from this server'))
    return address


def link_for(address: str) -> str:
    """The absolute link that refuses all mail to ``address`` (or accepts it again)."""
    return links.external(f"/mail/refuse/{token_for(address)}")


def mail_link(address: str) -> str | None:
    """The refusal link for a mail being composed: every mail sent by
    ``pbem.mailrobot.jobs.drain_outbox`` (the scheduler, the listener,
    ``pbem mail send``) has the app context that signs it; a bare
    ``outgoing.drain`` outside one (tests of the sender) composes mail
    without it rather than failing."""
    return link_for(address) if has_app_context() else None


def refuses(session: Session, address: str) -> bool:
    """True when ``address`` refused all mail from this server."""
    keys = list(_keys(address))
    return session.exec(select(func.count()).select_from(MailRefusal).where(col(MailRefusal.address).in_(keys))).one() > 0


def refusing(session: Session, addresses: Iterable[str]) -> list[str]:
    """Those of ``addresses`` that refused all mail, in the order given."""
    keys = [_key(a) for a in addresses]
    if not keys:
        return []
    covering = sorted(set().union(*(_keys(k) for k in keys)))
    found = set(session.exec(select(MailRefusal.address).where(col(MailRefusal.address).in_(covering))))
    return [k for k in keys if _keys(k) & found]


def check_accepts_mail(session: Session, addresses: Iterable[str]) -> None:
    """``RefusesMail`` naming each of ``addresses`` that refused all mail."""
    refused = refusing(session, addresses)
    if refused:
        which = " and ".join(refused)
        verb = "does" if len(refused) == 1 else "do"
        raise RefusesMail(f"{which} {verb} not accept mail from this server, so {'it' if len(refused) == 1 else 'they'} "
                          "cannot be invited; nothing was created")


def refuse(session: Session, address: str) -> None:
    """Store the refusal (once) and give up the mail queued for ``address``; commits."""
    key = _key(address)
    if session.exec(select(func.count()).select_from(MailRefusal).where(MailRefusal.address == key)).one() == 0:
        try:
            with session.begin_nested():
                session.add(MailRefusal(address=key))
        except IntegrityError:  # refused at the same moment by another request
            pass
    domain = "@" + key.rpartition("@")[2]
    queued = session.exec(select(OutboxMessage.id, OutboxMessage.to_addr).where(
        func.lower(OutboxMessage.to_addr).endswith(domain, autoescape=True), col(OutboxMessage.sent_at).is_(None),
        col(OutboxMessage.failed_at).is_(None))).all()
    ids = [row_id for row_id, to in queued if key in _keys(to)]  # the address and its sub-addresses
    if ids:
        session.execute(
            update(OutboxMessage)
            .where(col(OutboxMessage.id).in_(ids), col(OutboxMessage.sent_at).is_(None),
                   col(OutboxMessage.failed_at).is_(None))
            .values(failed_at=utcnow(), last_error=GIVEN_UP)
            .execution_options(synchronize_session=False)
        )
    session.commit()


def accept_again(session: Session, address: str) -> None:
    """Remove the refusals covering ``address`` (its own, and that of the
    address without its ``+detail``): it gets mail again from now on; commits."""
    for row in session.exec(select(MailRefusal).where(col(MailRefusal.address).in_(list(_keys(address))))):
        session.delete(row)
    session.commit()
