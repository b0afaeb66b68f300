"""Sending mail: an SMTP sender, an ``.eml`` folder sink, and the outbox drain loop.

The server writes outgoing mail into its outbox table in the same transaction
as the change that caused it; :func:`drain` then delivers what is due through a
:class:`Sender` and reports each outcome through callbacks, so the outbox can
live anywhere:

* ``fetch_due()`` -> the :class:`Outgoing` items due now, oldest first;
* ``mark_sent(id)`` -- delivered: never send it again;
* ``mark_failed(id, error, retry_at)`` -- not delivered; ``retry_at`` is when to
  try again (exponential backoff), or ``None`` when it gave up for good.

While the SMTP server is down nothing is lost (items stay in the outbox with a
later ``retry_at``); once it is back, the next drain delivers every item, and
each one once (an item is marked sent right after the server accepted it; only
a crash between those two steps can send it twice -- at-least-once, as with
any SMTP client).

:class:`EmlFolderSink` is the embedded default's sender: it stores each message
as an ``.eml`` file in a folder (``instance/mail/`` for instance).
"""
from __future__ import annotations

import os
import smtplib
import socket
import ssl
import time
import uuid
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from email import policy
from email.message import EmailMessage, Message
from email.parser import BytesParser
from email.utils import getaddresses
from pathlib import Path
from typing import Any, Protocol

from mail.errors import SendError


class Sender(Protocol):
    """Anything that can deliver a message: :class:`SmtpSender`, :class:`EmlFolderSink`."""

    def send(self, message: EmailMessage) -> None: ...

    def close(self) -> None: ...


@dataclass
class SmtpConfig:
    """SMTP server settings.  ``security``: ``"none"``, ``"starttls"`` or ``"ssl"``."""

    host: str = "localhost"
    port: int | None = None
    security: str = "none"
    username: str | None = None
    password: str | None = None
    timeout: float = 30.0
    local_hostname: str | None = None
    ssl_context: ssl.SSLContext | None = None

    def resolved_port(self) -> int:
        if self.port:
            return self.port
        return {"ssl": 465, "starttls": 587}.get(self.security.lower(), 25)


def _recipients(message: Message) -> list[str]:
    values = []
    for name in ("To", "Cc", "Bcc"):
        values.extend(str(v) for v in (message.get_all(name) or []))
    return [addr for _, addr in getaddresses(values) if addr]


class SmtpSender:
    """Deliver messages over SMTP, reusing one connection until :meth:`close`."""

    def __init__(self, config: SmtpConfig) -> None:
        self.config = config
        self._smtp: smtplib.SMTP | None = None

    def _connect(self) -> smtplib.SMTP:
        cfg = self.config
        security = cfg.security.lower()
        context = cfg.ssl_context or ssl.create_default_context()
        try:
            if security == "ssl":
                smtp: smtplib.SMTP = smtplib.SMTP_SSL(cfg.host, cfg.resolved_port(), timeout=cfg.timeout,
                                                      local_hostname=cfg.local_hostname, context=context)
            elif security in {"starttls", "none"}:
                smtp = smtplib.SMTP(cfg.host, cfg.resolved_port(), timeout=cfg.timeout,
                                    local_hostname=cfg.local_hostname)
                if security == "starttls":
                    smtp.starttls(context=context)
                    smtp.ehlo()
            else:
                raise SendError(f"unknown SMTP security {cfg.security!r}", permanent=True)
            if cfg.username:
                smtp.login(cfg.username, cfg.password or "")
        except smtplib.SMTPAuthenticationError as exc:
            raise SendError(f"SMTP login refused: {exc.smtp_code}") from exc
        except (OSError, smtplib.SMTPException, ssl.SSLError) as exc:
            raise SendError(f"cannot connect to SMTP server {cfg.host}:{cfg.resolved_port()}: {exc}",
                            unreachable=True) from exc
        return smtp

    def send(self, message: EmailMessage) -> None:
        """Send one message; raise :class:`SendError` (``permanent`` for 5xx refusals)."""
        recipients = _recipients(message)
        if not recipients:
            raise SendError("message has no recipient", permanent=True)
        sender_addr = getaddresses([str(message.get("Return-Path") or message.get("From") or "")])
        envelope_from = sender_addr[0][1] if sender_addr else ""
        for attempt in (1, 2):
            if self._smtp is None:
                self._smtp = self._connect()
            try:
                refused = self._smtp.send_message(message, from_addr=envelope_from, to_addrs=recipients)
            except smtplib.SMTPRecipientsRefused as exc:
                codes = [code for code, _ in exc.recipients.values()]
                raise SendError(f"all recipients refused: {codes}", permanent=all(c >= 500 for c in codes)) from exc
            except (smtplib.SMTPSenderRefused, smtplib.SMTPDataError) as exc:
                raise SendError(f"refused: {exc.smtp_code} {exc.smtp_error!r}",
                                permanent=exc.smtp_code >= 500) from exc
            except (smtplib.SMTPServerDisconnected, ConnectionError, socket.timeout) as exc:
                self._drop()
                if attempt == 1:
                    continue  # a stale kept-open connection: reconnect once
                raise SendError(f"connection lost: {exc}", unreachable=True) from exc
            except smtplib.SMTPException as exc:
                self._drop()
                raise SendError(f"SMTP error: {exc}") from exc
            except OSError as exc:
                self._drop()
                raise SendError(f"connection lost: {exc}", unreachable=True) from exc
            # Partly refused recipients (``refused``) are not retried: the
            # accepted ones must not get the message twice.
            del refused
            return

    def _drop(self) -> None:
        smtp, self._smtp = self._smtp, None
        if smtp is not None:
            try:
                smtp.close()
            except Exception:  # noqa: BLE001
                pass

    def close(self) -> None:
        """Say QUIT and close the connection, if open."""
        smtp, self._smtp = self._smtp, None
        if smtp is not None:
            try:
                smtp.quit()
            except Exception:  # noqa: BLE001
                smtp.close()

    def __enter__(self) -> "SmtpSender":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class EmlFolderSink:
    """Store each sent message as ``<UTC time>-<random>.eml`` in *folder* (created if missing).

    Files are written to a temporary name and renamed, so a reader never sees
    half a message.
    """

    def __init__(self, folder: str | os.PathLike[str]) -> None:
        self.folder = Path(folder)

    def send(self, message: EmailMessage) -> None:
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            name = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%S%fZ") + "-" + uuid.uuid4().hex[:12]
            tmp = self.folder / f".{name}.tmp"
            data = message.as_bytes(policy=policy.SMTP)
            with open(tmp, "wb") as handle:
                handle.write(data)
                handle.flush()
                os.fsync(handle.fileno())
            os.replace(tmp, self.folder / f"{name}.eml")
        except OSError as exc:
            raise SendError(f"cannot write to {self.folder}: {exc}") from exc

    def close(self) -> None:
        pass

    def messages(self) -> list[tuple[str, EmailMessage]]:
        """Every stored message, oldest first, as ``(file name, message)``."""
        if not self.folder.is_dir():
            return []
        out = []
        for path in sorted(self.folder.glob("*.eml")):
            with open(path, "rb") as handle:
                out.append((path.name, BytesParser(policy=policy.default).parse(handle)))
        return out


@dataclass
class Outgoing:
    """One outbox item: its id (opaque to us), the message, and how often it failed already."""

    id: Any
    message: EmailMessage | bytes
    attempts: int = 0


@dataclass
class Backoff:
    """Retry delays: ``base * factor**attempts`` seconds, capped at ``cap``; give up after ``max_attempts``."""

    base: float = 60.0
    factor: float = 2.0
    cap: float = 6 * 3600.0
    max_attempts: int = 12

    def delay(self, attempts: int) -> float:
        return min(self.cap, self.base * self.factor ** max(0, attempts))


@dataclass
class DrainResult:
    """What one :func:`drain` call did (ids per outcome)."""

    sent: list[Any] = field(default_factory=list)
    retry: list[Any] = field(default_factory=list)
    gave_up: list[Any] = field(default_factory=list)
    stopped: str | None = None


def _as_message(item: EmailMessage | bytes) -> EmailMessage:
    if isinstance(item, EmailMessage):
        return item
    return BytesParser(policy=policy.default).parsebytes(bytes(item))  # type: ignore[return-value]


def drain(
    fetch_due: Callable[[], Iterable[Outgoing]],
    mark_sent: Callable[[Any], None],
    mark_failed: Callable[[Any, str, "datetime | None"], None],
    sender: Sender,
    *,
    backoff: Backoff | None = None,
    now: Callable[[], datetime] = lambda: datetime.now(timezone.utc),
    limit: int = 500,
) -> DrainResult:
    """Send the due outbox items once each and record the outcomes.

    A temporary failure that is about the connection (the server is down)
    stops the round after marking that one item, so the rest wait for the
    next round instead of each timing out.  A permanent refusal, or the
    ``max_attempts``-th failure, gives up (``retry_at=None``).  The sender is
    closed at the end.
    """
    backoff = backoff or Backoff()
    result = DrainResult()
    try:
        for count, item in enumerate(fetch_due()):
            if count >= limit:
                break
            try:
                sender.send(_as_message(item.message))
            except SendError as exc:
                attempts = item.attempts + 1
                if exc.permanent or attempts >= backoff.max_attempts:
                    mark_failed(item.id, str(exc), None)
                    result.gave_up.append(item.id)
                    continue
                retry_at = now() + timedelta(seconds=backoff.delay(item.attempts))
                mark_failed(item.id, str(exc), retry_at)
                result.retry.append(item.id)
                if exc.unreachable:
                    result.stopped = str(exc)
                    break
                continue
            except Exception as exc:  # noqa: BLE001 - a broken message must not block the outbox
                mark_failed(item.id, f"cannot send: {exc.__class__.__name__}: {exc}", None)
                result.gave_up.append(item.id)
                continue
            mark_sent(item.id)
            result.sent.append(item.id)
    finally:
        sender.close()
    return result


def wait_for_port(host: str, port: int, timeout: float = 5.0) -> bool:
    """Return True once *host*:*port* accepts TCP connections (for tests and start-up)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with socket.create_connection((host, port), timeout=0.5):
                return True
        except OSError:
            time.sleep(0.05)
    return False
