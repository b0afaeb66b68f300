"""Mail waiting to be sent.  Services queue messages here inside their own
transaction, so a message exists exactly when the change it reports does.
``pbem.mailrobot.outgoing.drain`` sends and marks them; the embedded default
shows them at /dev/mail.

An address that refused all mail (``pbem.services.refusals``) gets none,
nor does an address of the computer opponents' domain
(``pbem.services.bot_seats.BOT_DOMAIN``): ``queue`` is the one place every
outgoing mail passes, and it drops mail to such an address (the row is
returned but never stored, so never sent)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlmodel import Session, col, select

from pbem import wake
from pbem.db import PendingRow
from pbem.models import OutboxMessage, table_of, utcnow
from pbem.services.bot_seats import is_bot_address
from pbem.services.refusals import refuses


def queue(
    session: Session,
    to: str,
    subject: str,
    body: str,
    *,
    html: str | None = None,
    game_id: int | None = None,
    ply: int | None = None,
    kind: str | None = None,
    seat: int | None = None,
    after_board: str = "",
    refused: set[str] | None = None,
    pending: list[Any] | None = None,
) -> OutboxMessage | None:
    """Add a message to the outbox (committed with the caller's transaction).
    ``kind`` names what it is (``your_turn``, ``game_over``, ``invitation``,
    ``reply``...); the mail sender (``pbem.mailrobot.outgoing``) composes it.
    Mail to an address that refused all mail, or of the bots' domain, is
    not stored: the row returned is not in the session.

    A mail about a started game gets the board at ``ply`` drawn at send
    time, as ``seat`` (the recipient's 0-based seat, None when not seated)
    may see it, between ``body`` and ``after_board``: the row holds the
    words, never a drawn board.

    ``refused``: a caller queueing several mails at once may check their
    addresses in one statement (``refusals.refusing``) and pass the result
    (the addresses that refuse), so this does not check each one again;
    and may collect the messages in ``pending`` instead of adding them to
    the session, to INSERT them at once (``pbem.db.insert_rows``): then they
    are collected as the row's values (``PendingRow``), and None is
    returned."""
    values: dict[str, Any] = {"to_addr": to, "subject": subject, "body": body, "html": html, "game_id": game_id, "ply": ply,
              "kind": kind, "seat": seat, "after_board": after_board}
    dropped = is_bot_address(to) or (refuses(session, to) if refused is None else bool(refusing_among(refused, to)))
    if not dropped:
        wake.on_commit(session, "outbox")  # the sender wakes when this commits (pbem.wake)
    if pending is not None:  # the row's values only: no model object is built (a turn's mail)
        if not dropped:
            pending.append(PendingRow(table_of(OutboxMessage), new_row(values, utcnow())))
        return None
    message = OutboxMessage(**values)
    if not dropped:
        session.add(message)
    return message


def new_row(values: dict[str, Any], now: datetime) -> dict[str, Any]:
    """A new outbox row's values for an INSERT without a model object:
    ``values`` (the message's fields) with the defaults a new message has."""
    return {**values, "created_at": now, "attempts": 0, "outages": 0}


def refusing_among(refused: set[str], to: str) -> bool:
    """Is ``to`` one of ``refused`` (as ``refusals.refusing`` names them)?"""
    return bool(refused) and to.strip().lower() in refused


def recent(session: Session, limit: int = 100) -> list[OutboxMessage]:
    return list(session.exec(select(OutboxMessage).order_by(col(OutboxMessage.id).desc()).limit(limit)))
