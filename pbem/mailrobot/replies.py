"""Answers to a player's mail, queued in the outbox in the caller's
transaction, threaded under the mail they answer; and the limit of one
explanatory reply per sender per day."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, select

from mail.compose import reply_subject
from mail.inbound import InboundMessage
from pbem.mailrobot.inbox import clean
from pbem.models import Game, OutboxMessage, utcnow
from pbem.models.mail import MailReplyLog
from pbem.services import outbox


def queue_reply(
    session: Session,
    msg: InboundMessage,
    text: str,
    *,
    game: Game | None = None,
    ply: int | None = None,
    position: str | None = None,
    kind: str = "reply",
    seat: int | None = None,
) -> OutboxMessage:
    """Queue ``text`` as the answer to ``msg``.  With a ``game``, the board at
    ``ply`` (or ``position``, a board not stored: give it as ``seat`` may see
    it) goes with it, drawn at send time as ``seat`` (the sender's 0-based
    seat; None: not seated) may see it."""
    subject = msg.subject or (f"Game {game.id}" if game is not None else "")
    row = outbox.queue(
        session, clean(msg.sender, 320), clean(reply_subject(subject), 300), text,
        game_id=game.id if game is not None else None, ply=ply, kind=kind, seat=seat,
    )
    assert row is not None  # queue hands back the row unless given ``pending``
    row.position = position
    if msg.message_id:
        row.in_reply_to = clean(msg.message_id, 1000)
    refs = [r for r in msg.references if r] + ([msg.message_id] if msg.message_id else [])
    row.thread_refs = clean(" ".join(refs[-20:]), 20000) or None
    return row


def once_a_day(session: Session, sender: str, kind: str, now: datetime | None = None) -> bool:
    """True the first time this day (UTC) we explain ``kind`` to ``sender``
    (and note it, in the caller's transaction); False after that."""
    sender = clean(sender.lower(), 320)
    day = (now or utcnow()).strftime("%Y-%m-%d")
    seen = session.exec(select(MailReplyLog.id).where(
        MailReplyLog.sender == sender, MailReplyLog.day == day, MailReplyLog.kind == kind)).first()
    if seen is not None:
        return False
    try:
        with session.begin_nested():
            session.add(MailReplyLog(sender=sender, day=day, kind=kind))
    except IntegrityError:  # another worker noted it at the same moment
        return False
    return True
