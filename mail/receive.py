"""Receiving mail: LMTP/SMTP listeners and pipe delivery, all feeding one ``store``.

Modelled on GNU Mailman 3: the listener does nothing but hand the raw message
to the caller's ``store(raw, envelope_from, envelope_to)`` callback, which must
commit it durably (keyed by :func:`message_key`, so a second delivery of the
same message does nothing).  Only when ``store`` returns does the listener
answer ``250``; if it raises, the answer is ``451`` and the sending MTA keeps
the message and retries later.  Parsing and acting on the message is the
workers' job, never the listener's.

``store`` is called from a worker thread (it may block on a database); it is
called once per message, whatever the number of recipients.
"""
from __future__ import annotations

import asyncio
import logging
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, BinaryIO

from aiosmtpd.controller import Controller, UnixSocketController
from aiosmtpd.lmtp import LMTP
from aiosmtpd.smtp import SMTP

from mail.keys import message_key

log = logging.getLogger(__name__)
__all__ = ["Listener", "Store", "StoreHandler", "ingest", "ingest_stream", "message_key", "start_listener"]

#: ``store(raw, envelope_from, envelope_to)``: commit the message or raise.
Store = Callable[[bytes, "str | None", "list[str]"], None]

#: Largest message accepted by the listeners (bytes).
DEFAULT_MAX_SIZE = 25 * 1024 * 1024

def ingest(store: Store, raw: bytes, envelope_from: str | None = None, envelope_to: Sequence[str] = ()) -> None:
    """Pipe delivery: store one raw message (errors propagate to the caller)."""
    store(bytes(raw), envelope_from, list(envelope_to))


def ingest_stream(store: Store, stream: BinaryIO | None = None, envelope_from: str | None = None,
                  envelope_to: Sequence[str] = ()) -> None:
    """Read a whole message from *stream* (default: standard input) and store it.

    A leading mbox ``From `` line, which some MTAs' pipe delivery adds, is
    dropped (its address becomes the envelope sender if none was given).
    """
    data = (stream or sys.stdin.buffer).read()
    if data.startswith(b"From "):
        first, _, rest = data.partition(b"\n")
        if envelope_from is None:
            parts = first.split()
            envelope_from = parts[1].decode("utf-8", "replace") if len(parts) > 1 else None
        data = rest
    ingest(store, data, envelope_from, envelope_to)


class StoreHandler:
    """aiosmtpd handler: store the message, then answer 250 (or 451 if storing failed)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    async def handle_DATA(self, server: SMTP, session: Any, envelope: Any) -> str:  # noqa: N802 - aiosmtpd's name
        raw = envelope.original_content or envelope.content or b""
        if isinstance(raw, str):
            raw = raw.encode("utf-8", "surrogateescape")
        mail_from = envelope.mail_from
        if mail_from is not None:
            mail_from = mail_from.strip("<>")
        rcpt = list(envelope.rcpt_tos)
        lmtp = isinstance(server, LMTP)
        try:
            await asyncio.get_running_loop().run_in_executor(None, self.store, bytes(raw), mail_from, rcpt)
        except Exception:  # noqa: BLE001 - any failure means "try again later"
            log.exception("storing an incoming message failed; answered 451")
            answer = "451 4.3.0 Could not store the message; try again later"
        else:
            answer = "250 2.0.0 Message accepted for delivery"
        if lmtp:
            # RFC 2033: one reply per accepted recipient.
            return "\r\n".join([answer] * max(1, len(rcpt)))
        return answer


class _LMTPController(Controller):
    def factory(self) -> SMTP:
        return LMTP(self.handler, **self.SMTP_kwargs)


class _LMTPUnixController(UnixSocketController):
    def factory(self) -> SMTP:
        return LMTP(self.handler, **self.SMTP_kwargs)


@dataclass
class Listener:
    """A running listener; call :meth:`stop` to shut it down."""

    controller: Any
    protocol: str
    address: str

    def stop(self) -> None:
        """Stop accepting connections and end the listener's thread."""
        self.controller.stop()


def start_listener(
    store: Store,
    *,
    protocol: str = "lmtp",
    host: str = "127.0.0.1",
    port: int = 8024,
    unix_socket: str | None = None,
    max_size: int = DEFAULT_MAX_SIZE,
    server_hostname: str | None = None,
) -> Listener:
    """Start an LMTP (default) or SMTP listener in a background thread.

    Listens on *host*:*port*, or on the Unix socket *unix_socket* when given.
    Returns once it accepts connections.
    """
    protocol = protocol.lower()
    if protocol not in {"lmtp", "smtp"}:
        raise ValueError(f"protocol must be 'lmtp' or 'smtp', not {protocol!r}")
    handler = StoreHandler(store)
    kwargs: dict[str, Any] = {"data_size_limit": max_size}
    if server_hostname:
        kwargs["server_hostname"] = server_hostname
    if unix_socket:
        unix_cls = _LMTPUnixController if protocol == "lmtp" else UnixSocketController
        controller: UnixSocketController | Controller = unix_cls(handler, unix_socket=unix_socket, **kwargs)
        address = unix_socket
    else:
        cls = _LMTPController if protocol == "lmtp" else Controller
        controller = cls(handler, hostname=host, port=port, **kwargs)
        address = f"{host}:{port}"
    controller.start()
    return Listener(controller=controller, protocol=protocol, address=address)
