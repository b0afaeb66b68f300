"""Outgoing mail given up for good (a 5xx refusal, ``MAIL_MAX_ATTEMPTS``
refusals, or failing for ``MAIL_QUEUE_LIFETIME``): listed beside the
incoming shunt by ``pbem mail shunt`` and queued again by ``pbem mail retry
--outgoing``, except mail to an address that refused all mail from the
server (``pbem.services.refusals``): that stays given up."""

from __future__ import annotations

from collections.abc import Iterable

from sqlmodel import Session, col, select

from pbem.models import OutboxMessage
from pbem.services import refusals


def given_up(session: Session) -> list[OutboxMessage]:
    """Outgoing mail given up for good, oldest first (``pbem mail shunt``)."""
    return list(session.exec(select(OutboxMessage).where(col(OutboxMessage.failed_at).is_not(None))
                             .order_by(col(OutboxMessage.id))))


def retry_given_up(session: Session, ids: Iterable[int] | None) -> list[int]:
    """Queue given-up outgoing mail again (all of it when ``ids`` is None),
    with its attempts and outages reset and the same Message-ID; returns the
    ids.  Mail to an address that refused all mail stays given up: left out
    of all of it, and ``ValueError`` when named.  ``ValueError`` names any
    id that is not given-up outgoing mail, and then nothing changes."""
    if ids is None:
        rows = [row for row in given_up(session) if not refusals.refuses(session, row.to_addr)]
    else:
        rows = []
        for row_id in ids:
            row = session.get(OutboxMessage, row_id)
            if row is None:
                raise ValueError(f"there is no outgoing message {row_id}")
            if row.failed_at is None:
                state = "sent" if row.sent_at is not None else "still queued"
                raise ValueError(f"outgoing message {row_id} is {state}, not given up; only given-up mail is retried")
            if refusals.refuses(session, row.to_addr):
                raise ValueError(f"outgoing message {row_id} is to {row.to_addr.lower()}, which refused all mail "
                                 "from this server; it is never sent (its owner can accept mail again with the "
                                 "link at the foot of any of our mail)")
            rows.append(row)
    for row in rows:
        row.failed_at = row.next_attempt_at = row.failing_since = row.uncertain_at = row.lease = None
        row.attempts = row.outages = 0
        row.last_error = None
        session.add(row)
    session.commit()
    return [row.id for row in rows if row.id is not None]  # stored rows: never None


def refused(session: Session) -> list[OutboxMessage]:
    """Given-up outgoing mail to addresses that refused all mail (never retried)."""
    return [row for row in given_up(session) if refusals.refuses(session, row.to_addr)]
