"""The mail jobs: each takes the Flask app, does one pass and returns a
count.  The scheduler calls them periodically; ``pbem mail work``, ``send``
and ``poll`` call them once.

* ``process_inbox(app)`` -- act on every stored message not yet processed;
  returns how many were processed (shunted ones included);
* ``drain_outbox(app)`` -- send the outbox messages that are due; returns how
  many were sent;
* ``poll_imap(app)`` -- store what is new in the IMAP mailbox; returns how
  many messages were stored (0 when IMAP is not configured).
"""

from __future__ import annotations

import logging
import threading

from flask import Flask
from sqlalchemy import Engine
from sqlmodel import Session, select

from mail.imap import ImapConfig
from mail.imap import poll_imap as poll_mailbox
from mail.worker import Pending, process_pending
from pbem.mailrobot import inbox, outgoing, robot
from pbem.mailrobot.settings import imap_config, mail_settings
from pbem.models import utcnow
from pbem.models.mail import ImapState, InboxMessage

log = logging.getLogger(__name__)

#: a message whose processing was begun this often without finishing (the
#: worker died each time) is shunted instead of tried again
MAX_ATTEMPTS = 3

_inbox_lock = threading.Lock()


def _engine(app: Flask) -> Engine:
    engine: Engine = app.extensions["pbem_engine"]
    return engine


def process_inbox(app: Flask) -> int:
    """Process the stored messages once; returns how many were processed."""
    engine = _engine(app)
    settings = mail_settings(app.config)

    def handle(item: Pending) -> None:
        attempts = inbox.begin_attempt(engine, item.id)
        if attempts is None:
            return  # another worker finished it
        if attempts > MAX_ATTEMPTS:
            raise RuntimeError(f"processing was begun {attempts - 1} times and never finished (did it stop the worker?)")
        with app.app_context(), Session(engine, expire_on_commit=False) as session:
            row = session.get(InboxMessage, item.id)
            assert row is not None  # begin_attempt counted it: stored, and inbox rows are never deleted
            outcome = robot.process(session, settings, row)
            log.info("inbox message %s: %s", item.id, outcome)

    with _inbox_lock:  # one pass at a time in this process; other processes are kept apart by the claims
        result = process_pending(
            lambda: [Pending(i, b"") for i in inbox.pending_ids(engine)],
            handle,
            lambda _id: None,  # handle committed it, with its effects
            lambda message_id, reason, detail: inbox.shunt(engine, message_id, reason, detail),
        )
    return len(result.done) + len(result.shunted)


def drain_outbox(app: Flask) -> int:
    """Send the outbox messages that are due; returns how many went out."""
    with app.app_context():
        result = outgoing.drain(app, _engine(app))
    if result.stopped:
        log.warning("mail sending stopped: %s", result.stopped)
    return len(result.sent)


def _mailbox_name(config: ImapConfig) -> str:
    return f"{config.username}@{config.host}:{config.port or ''}/{config.folder}"[:500]


def poll_imap(app: Flask) -> int:
    """Store what is new in the configured IMAP mailbox; 0 when none is configured."""
    config = imap_config(app.config)
    if config is None:
        return 0
    engine = _engine(app)
    name = _mailbox_name(config)
    with Session(engine) as session:
        state = session.get(ImapState, name) or ImapState(mailbox=name)
        last_uid, validity = state.last_uid, state.uidvalidity
    error: str | None
    try:
        result = poll_mailbox(config, inbox.store_in(engine), last_uid, validity)
    except Exception as exc:  # noqa: BLE001 - the server is down or refuses us: try again next time
        log.warning("IMAP poll of %s failed: %s", name, exc)
        error = f"{exc.__class__.__name__}: {exc}"
        stored, last_uid = [], last_uid
    else:
        error, stored, last_uid, validity = result.error, result.stored, result.last_uid, result.uidvalidity
    with Session(engine) as session:
        state = session.get(ImapState, name) or ImapState(mailbox=name)
        state.last_uid, state.uidvalidity, state.last_error, state.updated_at = last_uid, validity, error, utcnow()
        session.add(state)
        session.commit()
    return len(stored)


def shunted_count(app: Flask) -> int:
    with Session(_engine(app)) as session:
        return len(list(session.exec(select(InboxMessage.id).where(InboxMessage.status == "shunted"))))
