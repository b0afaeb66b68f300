"""Sending mail: an SMTP sender, an ``.eml`` folder sink, and the outbox drain loop.

The server writes outgoing mail into its outbox table in the same transaction
as the change that caused it; :func:`drain` then delivers what is due through a
:class:`Sender` and reports each outcome through callbacks, so the outbox can
live anywhere:

* ``fetch_due()`` -> the :class:`Outgoing` items due now, oldest first (it
  may be a generator that reserves each item just before yielding it);
* ``before_body(id)`` (optional) -> True to go on: called just before the
  message's body goes out (after the server said "354"), so the outbox can
  check it still holds the item and note that it is in flight; False
  withdraws the message (nothing sent, nothing recorded);
* ``mark_sent(id)`` -- delivered: never send it again;
* ``mark_failed(id, failure)`` -- not delivered (:class:`Failure`: the error,
  when to try again or ``None`` when it gave up for good, and what kind of
  failure it was).

Failures come in kinds (RFC 5321 §4.5.4):

* ``outage``: the server could not be reached, or said it is not available
  (4xx on connecting, 421), or refused our login.  Nothing about the message:
  it does not use up one of its ``max_attempts``; it is retried with backoff
  until it has been failing for ``lifetime`` (five days by default, an MTA's
  queue lifetime), and the round stops so the rest wait too;
* ``refused``: a 4xx answer to the message; counts as an attempt;
* ``uncertain``: the whole message went out but no answer to its end came
  within ``SmtpConfig.data_timeout`` (ten minutes by default, RFC 5321
  §4.5.3.2.6).  The server may well have accepted it, so it is not sent again
  at once (§6.1) but after ``Backoff.uncertain_delay`` (hours), with the same
  Message-ID; counts as an attempt;
* ``permanent``: a 5xx refusal: given up at once.

While the SMTP server is down nothing is lost (items stay in the outbox with a
later ``retry_at``); once it is back, the next drain delivers every item, and
each one once (an item is marked sent right after the server accepted it).

:class:`EmlFolderSink` is the embedded default's sender: it stores each message
as an ``.eml`` file in a folder (``instance/mail/`` for instance).
"""
from __future__ import annotations

import os
import re
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

from mail.errors import SendError, SendWithdrawn


class Sender(Protocol):
    """Anything that can deliver a message: :class:`SmtpSender`, :class:`EmlFolderSink`.

    A sender whose ``send`` takes a ``before_body`` callback (to call just
    before the body goes out) says so with ``checks_before_body = True``;
    for others :func:`drain` calls it just before ``send``.
    """

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
    timeout: float = 30.0  # connecting and each command's answer
    data_timeout: float = 600.0  # the answer to the end of the message (RFC 5321 §4.5.3.2.6: 10 minutes)
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


def _is_outage(code: int) -> bool:
    """421: the service is not available (shutting down, too busy): not about the message."""
    return code == 421


class _CarefulData:
    """The end of smtplib's DATA command, with care: ``before_body`` is asked
    just before the body goes out (after "354"), ``body_sent`` tells whether
    it did, and the answer to its end is awaited ``data_timeout`` seconds."""

    data_timeout: float = 600.0
    before_body: Callable[[], None] | None = None
    body_sent: bool = False

    def data(self, msg: bytes | str) -> tuple[int, bytes]:  # smtplib.SMTP.data, three steps added
        self.body_sent = False
        self.putcmd("data")  # type: ignore[attr-defined]
        code, repl = self.getreply()  # type: ignore[attr-defined]
        if code != 354:
            raise smtplib.SMTPDataError(code, repl)
        if isinstance(msg, str):
            msg = re.sub(r"(?:\r\n|\n|\r(?!\n))", "\r\n", msg).encode("ascii")
        data = re.sub(rb"(?m)^\.", b"..", msg)
        if data[-2:] != b"\r\n":
            data += b"\r\n"
        data += b".\r\n"
        if self.before_body is not None:
            try:
                self.before_body()
            except BaseException:
                self.close()  # type: ignore[attr-defined] - mid-DATA: the server drops the partial message
                raise
        self.send(data)  # type: ignore[attr-defined]
        self.body_sent = True
        sock = getattr(self, "sock", None)
        if sock is not None:
            sock.settimeout(self.data_timeout)
        code, answer = self.getreply()  # type: ignore[attr-defined]
        sock = getattr(self, "sock", None)
        if sock is not None:
            sock.settimeout(self.timeout)  # type: ignore[attr-defined]
        return code, answer


class _SMTP(_CarefulData, smtplib.SMTP):
    pass


class _SMTP_SSL(_CarefulData, smtplib.SMTP_SSL):  # noqa: N801
    pass


class SmtpSender:
    """Deliver messages over SMTP, reusing one connection until :meth:`close`.

    A message whose body went out is never sent again by this sender: with
    no answer to its end it raises ``SendError(uncertain=True)``; only a
    connection found dead before that is reopened and the message sent on it.
    """

    checks_before_body = True

    def __init__(self, config: SmtpConfig) -> None:
        self.config = config
        self._smtp: _CarefulData | None = None

    def _connect(self) -> smtplib.SMTP:
        cfg = self.config
        security = cfg.security.lower()
        context = cfg.ssl_context or ssl.create_default_context()
        try:
            if security == "ssl":
                smtp: smtplib.SMTP = _SMTP_SSL(cfg.host, cfg.resolved_port(), timeout=cfg.timeout,
                                               local_hostname=cfg.local_hostname, context=context)
            elif security in {"starttls", "none"}:
                smtp = _SMTP(cfg.host, cfg.resolved_port(), timeout=cfg.timeout,
                             local_hostname=cfg.local_hostname)
                if security == "starttls":
                    smtp.starttls(context=context)
                    smtp.ehlo()
            else:
                raise SendError(f"unknown SMTP security {cfg.security!r}", permanent=True)
            if cfg.username:
                smtp.login(cfg.username, cfg.password or "")
        except smtplib.SMTPAuthenticationError as exc:  # our settings, not the message: every one would fail
            raise SendError(f"SMTP login refused: {exc.smtp_code}", unreachable=True) from exc
        except (OSError, smtplib.SMTPException, ssl.SSLError) as exc:
            raise SendError(f"cannot connect to SMTP server {cfg.host}:{cfg.resolved_port()}: {exc}",
                            unreachable=True) from exc
        smtp.data_timeout = cfg.data_timeout  # type: ignore[attr-defined]
        return smtp  # type: ignore[return-value]

    def send(self, message: EmailMessage, before_body: Callable[[], None] | None = None) -> None:
        """Send one message; raise :class:`SendError` (``permanent`` for 5xx
        refusals, ``unreachable`` for outages, ``uncertain`` when the body went
        out unanswered).  ``before_body`` is called just before the body goes
        out; whatever it raises (:class:`SendWithdrawn`) stops the message."""
        recipients = _recipients(message)
        if not recipients:
            raise SendError("message has no recipient", permanent=True)
        sender_addr = getaddresses([str(message.get("Return-Path") or message.get("From") or "")])
        envelope_from = sender_addr[0][1] if sender_addr else ""
        for attempt in (1, 2):
            if self._smtp is None:
                self._smtp = self._connect()
            smtp = self._smtp
            smtp.before_body, smtp.body_sent = before_body, False
            try:
                refused = smtp.send_message(message, from_addr=envelope_from, to_addrs=recipients)  # type: ignore[attr-defined]
            except SendWithdrawn:
                self._drop()
                raise
            except smtplib.SMTPRecipientsRefused as exc:
                codes = [code for code, _ in exc.recipients.values()]
                if any(_is_outage(c) for c in codes):
                    self._drop()
                    raise SendError(f"server not available: {codes}", unreachable=True) from exc
                raise SendError(f"all recipients refused: {codes}", permanent=all(c >= 500 for c in codes)) from exc
            except (smtplib.SMTPSenderRefused, smtplib.SMTPDataError) as exc:
                if _is_outage(exc.smtp_code):
                    self._drop()
                    raise SendError(f"server not available: {exc.smtp_code} {exc.smtp_error!r}",
                                    unreachable=True) from exc
                raise SendError(f"refused: {exc.smtp_code} {exc.smtp_error!r}",
                                permanent=exc.smtp_code >= 500) from exc
            except (smtplib.SMTPServerDisconnected, ConnectionError, socket.timeout, OSError,
                    smtplib.SMTPException) as exc:
                self._drop()
                if smtp.body_sent:  # the server may have it: never again at once (RFC 5321 §6.1)
                    raise SendError(f"delivery uncertain: no answer to the end of the message "
                                    f"within {self.config.data_timeout:g} s ({exc})", uncertain=True) from exc
                if isinstance(exc, (smtplib.SMTPServerDisconnected, ConnectionError, socket.timeout)):
                    if attempt == 1:
                        continue  # a stale kept-open connection: reconnect once
                    raise SendError(f"connection lost: {exc}", unreachable=True) from exc
                if isinstance(exc, smtplib.SMTPException):
                    raise SendError(f"SMTP error: {exc}") from exc
                raise SendError(f"connection lost: {exc}", unreachable=True) from exc
            finally:
                smtp.before_body = None
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
    """One outbox item: its id (opaque to us), the message, how often it
    failed already (``attempts``: refusals and uncertain deliveries, which
    count towards ``max_attempts``; ``outages``: tries that found the server
    unavailable, which do not), and since when it has been failing."""

    id: Any
    message: EmailMessage | bytes
    attempts: int = 0
    outages: int = 0
    failing_since: datetime | None = None


@dataclass
class Backoff:
    """Retry delays: ``base * factor**failures`` seconds, capped at ``cap``.

    Give up after ``max_attempts`` refusals, or once an item has been failing
    for ``lifetime`` seconds (outages included); an uncertain delivery is
    retried after ``uncertain_delay`` seconds.
    """

    base: float = 60.0
    factor: float = 2.0
    cap: float = 6 * 3600.0
    max_attempts: int = 12
    lifetime: float = 5 * 24 * 3600.0
    uncertain_delay: float = 2 * 3600.0

    def delay(self, attempts: int) -> float:
        return min(self.cap, self.base * self.factor ** max(0, attempts))


#: failure kinds (see the module docstring)
OUTAGE, REFUSED, UNCERTAIN, PERMANENT = "outage", "refused", "uncertain", "permanent"


@dataclass
class Failure:
    """How one item failed: the error, when to try again (``None``: given up
    for good), and the kind; ``counts`` says whether it uses up an attempt."""

    error: str
    retry_at: datetime | None
    kind: str

    @property
    def counts(self) -> bool:
        return self.kind != OUTAGE

    @property
    def gave_up(self) -> bool:
        return self.retry_at is None


def failure_of(item: Outgoing, exc: SendError, backoff: Backoff, now: datetime) -> Failure:
    """What a :class:`SendError` means for ``item``: its kind, and when (if
    ever) to try again."""
    if exc.permanent:
        return Failure(str(exc), None, PERMANENT)
    kind = OUTAGE if exc.unreachable else UNCERTAIN if exc.uncertain else REFUSED
    since = item.failing_since or now
    attempts = item.attempts + (kind != OUTAGE)
    if attempts >= backoff.max_attempts:
        return Failure(f"{exc} (given up after {attempts} failed attempts)", None, kind)
    if (now - since).total_seconds() >= backoff.lifetime:
        return Failure(f"{exc} (given up: failing since {since:%Y-%m-%d %H:%M} UTC)", None, kind)
    delay = backoff.uncertain_delay if kind == UNCERTAIN else backoff.delay(item.attempts + item.outages)
    return Failure(str(exc), now + timedelta(seconds=delay), kind)


@dataclass
class DrainResult:
    """What one :func:`drain` call did (ids per outcome)."""

    sent: list[Any] = field(default_factory=list)
    retry: list[Any] = field(default_factory=list)
    gave_up: list[Any] = field(default_factory=list)
    withdrawn: list[Any] = field(default_factory=list)
    stopped: str | None = None


def _as_message(item: EmailMessage | bytes) -> EmailMessage:
    if isinstance(item, EmailMessage):
        return item
    return BytesParser(policy=policy.default).parsebytes(bytes(item))  # type: ignore[return-value]


def _check(before_body: Callable[[Any], bool] | None, item_id: Any) -> Callable[[], None]:
    def check() -> None:
        if before_body is None:
            return
        try:
            go_on = before_body(item_id)
        except Exception as exc:  # noqa: BLE001 - cannot record it: do not send it
            raise SendWithdrawn(f"could not record the send: {exc.__class__.__name__}: {exc}", stop=True) from exc
        if not go_on:
            raise SendWithdrawn("another sender has it")

    return check


def drain(
    fetch_due: Callable[[], Iterable[Outgoing]],
    mark_sent: Callable[[Any], None],
    mark_failed: Callable[[Any, Failure], None],
    sender: Sender,
    *,
    backoff: Backoff | None = None,
    now: Callable[[], datetime] = lambda: datetime.now(timezone.utc),
    limit: int | None = 500,
    before_body: Callable[[Any], bool] | None = None,
) -> DrainResult:
    """Send the due outbox items once each and record the outcomes.

    Items are taken from ``fetch_due()`` one at a time, each sent before the
    next is asked for.  An outage stops the round after marking that one
    item, so the rest wait for the next round instead of each timing out.  A
    permanent refusal, the ``max_attempts``-th refusal or a ``lifetime`` of
    failing gives up (``retry_at=None``).  The sender is closed at the end.
    """
    backoff = backoff or Backoff()
    result = DrainResult()
    try:
        for count, item in enumerate(fetch_due()):
            if limit is not None and count >= limit:
                break
            check = _check(before_body, item.id)
            try:
                message = _as_message(item.message)
                if getattr(sender, "checks_before_body", False):
                    sender.send(message, before_body=check)  # type: ignore[call-arg]
                else:
                    check()
                    sender.send(message)
            except SendWithdrawn as exc:
                result.withdrawn.append(item.id)
                if exc.stop:
                    result.stopped = str(exc)
                    break
                continue
            except SendError as exc:
                failure = failure_of(item, exc, backoff, now())
                mark_failed(item.id, failure)
                (result.gave_up if failure.gave_up else result.retry).append(item.id)
                if exc.unreachable:
                    result.stopped = str(exc)
                    break
                continue
            except Exception as exc:  # noqa: BLE001 - a broken message must not block the outbox
                mark_failed(item.id, Failure(f"cannot send: {exc.__class__.__name__}: {exc}", None, PERMANENT))
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
