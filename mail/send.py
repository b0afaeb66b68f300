"""Sending mail: an SMTP sender and an ``.eml`` folder sink.

:class:`SmtpSender` keeps one connection open for many messages.  It waits
``SmtpConfig.timeout`` for each command's answer but
``SmtpConfig.data_timeout`` (ten minutes by default, RFC 5321 §4.5.3.2.6) for
the answer to the end of a message, and never sends a message again once its
body went out: with no answer it raises ``SendError(uncertain=True)``, since
the server may well have accepted it (§6.1).  An outage (cannot connect, 421,
login refused) raises ``SendError(unreachable=True)``; a 5xx refusal
``SendError(permanent=True)``.

:class:`EmlFolderSink` is the embedded default's sender: it stores each message
as an ``.eml`` file in a folder (``instance/mail/`` for instance).

The outbox loop (``drain``, ``Backoff``, ``Outgoing``...) is :mod:`mail.drain`.
"""
from __future__ import annotations

import os
import re
import smtplib
import socket
import ssl
import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timezone
from email import policy
from email.generator import BytesGenerator
from email.message import EmailMessage, Message
from email.parser import BytesParser
from email.utils import getaddresses
from io import BytesIO
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from mail.compose import POLICY
from mail.errors import SendError, SendWithdrawn

if TYPE_CHECKING:
    from _typeshed import ReadableBuffer


class Sender(Protocol):
    """Anything that can deliver a message: :class:`SmtpSender`, :class:`EmlFolderSink`.

    A sender whose ``send`` takes a ``before_body`` callback (to call just
    before the body goes out) says so with ``checks_before_body = True``;
    for others :func:`drain` calls it just before ``send``.
    """

    def send(self, message: EmailMessage) -> None: ...

    def close(self) -> None: ...


class CarefulSender(Sender, Protocol):
    """A :class:`Sender` whose ``send`` calls ``before_body`` itself (:class:`SmtpSender`)."""

    checks_before_body: bool

    def send(self, message: EmailMessage, before_body: Callable[[], None] | None = None) -> None: ...


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


#: line ends, as ``email.generator`` splits a part's lines at them
_LINE_ENDS = re.compile(r"\r\n|\r|\n")


class _Generator(BytesGenerator):
    """``email.generator.BytesGenerator``, writing a part's lines at once
    rather than one write per line and line end (a PNG board in base64 is
    hundreds of lines): the same bytes, in a fraction of the time."""

    @classmethod
    def _make_boundary(cls, text: str | bytes | None = None) -> str:
        """``email.generator``'s boundary (the same random draw and the
        same result), its regular expression compiled only when the text
        holds the boundary at all: each boundary is new, and compiling its
        expression cost more than the rest of the part."""
        boundary = str(getattr(BytesGenerator, "_make_boundary")())  # noqa: B009 - private: not in typeshed
        if text is None:
            return boundary
        found, counter = boundary, 0
        while _holds_line(text, "--" + found):
            found = f"{boundary}.{counter}"
            counter += 1
        return found

    def _write_lines(self, lines: str) -> None:
        if not lines:
            return
        if "\r" not in lines:  # line ends all "\n" (a part's base64, its text): replaced at once
            end = str(vars(self)["_NL"])
            self.write(lines if end == "\n" else lines.replace("\n", end))
            return
        split = _LINE_ENDS.split(lines)
        if len(split) > 1:
            end = str(vars(self)["_NL"])  # the line end ``flatten`` chose (an attribute of its own, unexported)
            self.write(end.join(split[:-1]) + end)
        if split[-1]:
            self.write(split[-1])


#: ``email.policy.SMTP`` (``policy.default``, "\r\n" line ends) with the
#: headers ``mail.compose`` parsed folded once (``POLICY``): the same bytes
SMTP_POLICY = POLICY.clone(linesep="\r\n")


def _holds_line(text: str | bytes, line: str) -> bool:
    """Whether ``text`` has a line that is ``line``, or ``line`` and "--"
    (as ``email.generator`` looks for a boundary: a BytesGenerator's parts
    are bytes)."""
    if isinstance(text, bytes):
        found = line.encode("ascii")
        return found in text and re.search(b"^" + re.escape(found) + b"(--)?$", text, re.MULTILINE) is not None
    return line in text and re.search("^" + re.escape(line) + "(--)?$", text, re.MULTILINE) is not None


def flatten(message: Message, use: policy.Policy | None = None, linesep: str | None = None) -> bytes:
    """``message.as_bytes(policy=use)`` (the message's own policy when
    ``use`` is None, its line ends ``linesep`` when given): the same bytes,
    written faster (``_Generator``)."""
    out = BytesIO()
    _Generator(out, False, policy=use).flatten(message, linesep=linesep)
    return out.getvalue()


def _recipients(message: Message) -> list[str]:
    values: list[str] = []
    for name in ("To", "Cc", "Bcc"):
        values.extend(str(v) for v in (message.get_all(name) or []))
    return [addr for _, addr in getaddresses(values) if addr]


def _is_outage(code: int) -> bool:
    """421: the service is not available (shutting down, too busy): not about the message."""
    return code == 421


class _CarefulData(smtplib.SMTP):
    """The end of smtplib's DATA command, with care: ``before_body`` is asked
    just before the body goes out (after "354"), ``body_sent`` tells whether
    it did, and the answer to its end is awaited ``data_timeout`` seconds."""

    data_timeout: float = 600.0
    before_body: Callable[[], None] | None = None
    body_sent: bool = False

    def data(self, msg: ReadableBuffer | str) -> tuple[int, bytes]:  # smtplib.SMTP.data, three steps added
        self.body_sent = False
        self.putcmd("data")
        code, repl = self.getreply()
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
                self.close()  # mid-DATA: the server drops the partial message
                raise
        self.send(data)
        self.body_sent = True
        sock = getattr(self, "sock", None)
        if sock is not None:
            sock.settimeout(self.data_timeout)
        code, answer = self.getreply()
        sock = getattr(self, "sock", None)
        if sock is not None:
            sock.settimeout(self.timeout)
        return code, answer


    def send_message(self, msg: Message, from_addr: str | None = None, to_addrs: str | Sequence[str] | None = None,
                     mail_options: Sequence[str] = (), rcpt_options: Sequence[str] = ()) -> Any:
        """``smtplib.SMTP.send_message`` for the envelope ``SmtpSender``
        gives (from and to addresses in ASCII, no Resent- or Bcc headers),
        the message flattened by ``flatten`` (the same bytes); any other
        call goes to smtplib's own."""
        if (from_addr is None or to_addrs is None or msg.get_all("Resent-Date") or msg.get_all("Bcc")
                or msg.get_all("Resent-Bcc")):
            return super().send_message(msg, from_addr, to_addrs, mail_options, rcpt_options)
        recipients = [to_addrs] if isinstance(to_addrs, str) else list(to_addrs)
        if not all(address.isascii() for address in [from_addr, *recipients]):  # SMTPUTF8: smtplib's own way
            return super().send_message(msg, from_addr, to_addrs, mail_options, rcpt_options)
        self.ehlo_or_helo_if_needed()
        return self.sendmail(from_addr, recipients, flatten(msg, linesep="\r\n"), mail_options, rcpt_options)


class _SMTP(_CarefulData):
    pass


class _SMTP_SSL(_CarefulData, smtplib.SMTP_SSL):  # noqa: N801 - named after smtplib.SMTP_SSL
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

    def _connect(self) -> _CarefulData:
        cfg = self.config
        security = cfg.security.lower()
        context = cfg.ssl_context or ssl.create_default_context()
        try:
            if security == "ssl":
                smtp: _CarefulData = _SMTP_SSL(cfg.host, cfg.resolved_port(), timeout=cfg.timeout,
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
        smtp.data_timeout = cfg.data_timeout
        return smtp

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
                refused = smtp.send_message(message, from_addr=envelope_from,
                                            to_addrs=recipients)
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
            except Exception:  # noqa: BLE001 - any failure here is handled the same way
                pass

    def close(self) -> None:
        """Say QUIT and close the connection, if open."""
        smtp, self._smtp = self._smtp, None
        if smtp is not None:
            try:
                smtp.quit()
            except Exception:  # noqa: BLE001 - any failure here is handled the same way
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
            data = flatten(message, SMTP_POLICY)
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
