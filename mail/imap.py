"""IMAP polling of a hosted mailbox, resuming by UID.

:func:`poll_imap` logs in, reads every message whose UID is above the last one
seen (without setting ``\\Seen``), hands each raw message to the ``store``
callback in UID order and returns the new last UID with the folder's
UIDVALIDITY; the caller persists both and passes them back next time.  If the
server's UIDVALIDITY changed, UIDs were renumbered and polling starts over at
0: the store's Message-ID deduplication keeps that from doubling anything.

If ``store`` raises, polling stops there and the result's ``last_uid`` is the
last message actually stored, so the failed one is fetched again next time.
"""
from __future__ import annotations

import imaplib
import re
import ssl
from collections.abc import Callable
from dataclasses import dataclass, field

from imap_tools import MailBox, MailBoxStartTls, MailBoxUnencrypted

from mail.receive import Store


@dataclass
class ImapConfig:
    """Where and how to log in.  ``security`` is ``"ssl"``, ``"starttls"`` or ``"none"``."""

    host: str
    username: str
    password: str
    port: int | None = None
    security: str = "ssl"
    folder: str = "INBOX"
    timeout: float = 30.0
    ssl_context: ssl.SSLContext | None = None


@dataclass
class PollResult:
    """What one poll did: the UID to resume after, the folder's UIDVALIDITY, what was stored."""

    last_uid: int
    uidvalidity: int | None
    stored: list[int] = field(default_factory=list)
    error: str | None = None


def _mailbox(config: ImapConfig) -> MailBox | MailBoxUnencrypted | MailBoxStartTls:
    security = config.security.lower()
    if security == "ssl":
        return MailBox(config.host, config.port or 993, timeout=config.timeout, ssl_context=config.ssl_context)
    if security == "starttls":
        return MailBoxStartTls(config.host, config.port or 143, timeout=config.timeout,
                               ssl_context=config.ssl_context)
    if security == "none":
        return MailBoxUnencrypted(config.host, config.port or 143, timeout=config.timeout)
    raise ValueError(f"security must be 'ssl', 'starttls' or 'none', not {config.security!r}")


def _raw_message(client: imaplib.IMAP4, uid: int) -> bytes | None:
    typ, data = client.uid("FETCH", str(uid), "(BODY.PEEK[])")
    if typ != "OK":
        return None
    for item in data or []:
        if isinstance(item, tuple) and len(item) >= 2 and isinstance(item[1], bytes):
            return item[1]
    return None


def poll_imap(
    config: ImapConfig,
    store: Store,
    last_uid: int = 0,
    uidvalidity: int | None = None,
    *,
    limit: int = 500,
    envelope_to: Callable[[bytes], list[str]] | None = None,
) -> PollResult:
    """Store every message with UID > *last_uid* (at most *limit* per call).

    Connection and login errors propagate (``imaplib``/``imap_tools``
    exceptions, ``OSError``); an error from ``store`` ends the poll and is
    reported in ``PollResult.error``.
    """
    with _mailbox(config).login(config.username, config.password, initial_folder=None) as box:
        box.folder.set(config.folder)
        typ, data = box.client.response("UIDVALIDITY")
        current_validity = None
        if data and data[0]:
            match = re.search(rb"\d+", data[0] if isinstance(data[0], bytes) else str(data[0]).encode())
            current_validity = int(match.group(0)) if match else None
        if uidvalidity is not None and current_validity is not None and current_validity != uidvalidity:
            last_uid = 0
        typ, data = box.client.uid("SEARCH", f"UID {last_uid + 1}:*")  # no charset (imaplib left out a None)
        uids = sorted({int(u) for u in (data[0] or b"").split() if u.isdigit()} if typ == "OK" and data else set())
        # "n:*" always matches the highest UID, even when it is below n.
        uids = [u for u in uids if u > last_uid][:limit]
        result = PollResult(last_uid=last_uid, uidvalidity=current_validity)
        for uid in uids:
            raw = _raw_message(box.client, uid)
            if raw is None:
                result.error = f"could not fetch UID {uid}"
                break
            try:
                store(raw, None, envelope_to(raw) if envelope_to else [])
            except Exception as exc:  # noqa: BLE001 - resume here next time
                result.error = f"store failed at UID {uid}: {exc.__class__.__name__}: {exc}"
                break
            result.last_uid = uid
            result.stored.append(uid)
        return result
