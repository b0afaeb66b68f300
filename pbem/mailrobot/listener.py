"""The mail listener beside ``pbem serve`` on the embedded default: an SMTP
(or LMTP) listener on a local port that stores each message in the inbox,
and a small thread that then processes the inbox and sends the outbox (and
sends the outbox every 30 seconds anyway), so mail works with nothing else
running.  The thread does a first pass as it starts, so mail stored before
a restart is processed at once; it ends when the listener stops.  (The scheduler runs the same jobs
periodically; running both is safe: messages and outbox rows are claimed.)"""

from __future__ import annotations

import logging
import threading
from typing import Any

from flask import Flask

from mail.receive import Listener, start_listener
from pbem.mailrobot import inbox, jobs

log = logging.getLogger(__name__)

#: seconds between outbox drains when no mail arrives
SEND_EVERY = 30.0


def start(app: Flask, *, protocol: str | None = None, host: str | None = None, port: int | None = None,
          unix_socket: str | None = None, process: bool = True) -> Listener:
    """Start the listener (settings from ``MAIL_LISTENER_*`` unless given);
    with ``process``, each stored message is processed and answered at once."""
    store = inbox.store_in(app.extensions["pbem_engine"])
    wake = threading.Event()

    def store_and_wake(raw: bytes, envelope_from: Any, envelope_to: Any) -> None:
        store(raw, envelope_from, envelope_to)
        wake.set()

    listener = start_listener(
        store_and_wake if process else store,
        protocol=protocol or app.config.get("MAIL_LISTENER_PROTOCOL") or "smtp",
        host=host or app.config.get("MAIL_LISTENER_HOST") or "127.0.0.1",
        port=int(port or app.config.get("MAIL_LISTENER_PORT") or 8025),
        unix_socket=unix_socket,
    )
    if process:
        stopping = threading.Event()
        worker = threading.Thread(target=_work, args=(app, wake, stopping), name="pbem-mail-worker", daemon=True)
        worker.start()
        stop_listening = listener.stop

        def stop() -> None:
            stop_listening()
            stopping.set()
            wake.set()

        listener.stop = stop  # type: ignore[method-assign]  # this listener's stop also ends its worker
    return listener


def _work(app: Flask, wake: threading.Event, stopping: threading.Event) -> None:
    """Process the inbox and send the outbox now (what was stored before a
    restart), then whenever mail arrives or ``SEND_EVERY`` seconds pass."""
    while not stopping.is_set():
        try:
            jobs.process_inbox(app)
            jobs.drain_outbox(app)
        except Exception:  # noqa: BLE001 - keep serving; the next message tries again
            log.exception("processing received mail failed")
        wake.wait(timeout=SEND_EVERY)
        wake.clear()


def start_for_serve(app: Flask) -> str | None:
    """What ``pbem serve`` calls: start the listener unless ``MAIL_LISTENER``
    is off; returns the line to print (None when off)."""
    if not app.config.get("MAIL_LISTENER"):
        return None
    try:
        running = start(app)
    except Exception as exc:  # noqa: BLE001 - the web server still runs
        return f"pbem: no mail listener ({exc.__class__.__name__}: {exc}); set MAIL_LISTENER_PORT to a free port"
    return (f"pbem: mail listener ({running.protocol.upper()}) on {running.address}: "
            "mail delivered there is played; answers are sent at once")
