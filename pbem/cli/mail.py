"""``pbem mail``: receive, process and send mail.

    pbem mail serve [--protocol lmtp|smtp] [--host H] [--port P] [--socket PATH]
                                     (or MAIL_SERVE_PROTOCOL, _HOST, _PORT)
    pbem mail ingest < message       (a mail server's pipe delivery)
    pbem mail poll                   (IMAP, from IMAP_* settings)
    pbem mail work                   (process the stored messages once)
    pbem mail send                   (send the outbox once)
    pbem mail retry ID... | --all    (re-queue shunted messages)
    pbem mail retry --outgoing ID... | --outgoing --all   (re-queue given-up outgoing mail)
    pbem mail shunt                  (list shunted messages and given-up outgoing mail, with reasons)
"""

from __future__ import annotations

import sys
import time
from typing import TYPE_CHECKING

import click

from pbem.cli.settings import setting_option

if TYPE_CHECKING:
    from flask import Flask

EX_TEMPFAIL = 75  # sysexits.h: the mail server keeps the message and retries


def _app() -> Flask:
    from pbem import create_app

    return create_app()


@click.group("mail")
def mail() -> None:
    """Email: receive, process and send (docs/mail.md)."""


@mail.command("serve")
@setting_option("MAIL_SERVE_PROTOCOL", "--protocol", type=click.Choice(["lmtp", "smtp"]), help="default: lmtp")
@setting_option("MAIL_SERVE_HOST", "--host", help="default: 127.0.0.1")
@setting_option("MAIL_SERVE_PORT", "--port", type=click.IntRange(1, 65535), help="default: 8024")
@click.option("--socket", "unix_socket", default=None, help="listen on this Unix socket instead of a port")
@click.option("--process/--store-only", default=False,
              help="also process each message and send the answers at once (default: only store; "
                   "the scheduler or 'pbem mail work' processes)")
def serve(unix_socket: str | None, process: bool) -> None:
    """Listen for mail from a mail server (LMTP or SMTP) and store it."""
    from pbem.mailrobot import listener

    app = _app()
    protocol = str(app.config["MAIL_SERVE_PROTOCOL"]).lower()
    host, port = app.config["MAIL_SERVE_HOST"], int(app.config["MAIL_SERVE_PORT"])
    running = listener.start(app, protocol=protocol, host=host, port=port, unix_socket=unix_socket, process=process)
    click.echo(f"pbem: {protocol.upper()} listener on {running.address}; stop with Ctrl-C")
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        pass
    finally:
        running.stop()


@mail.command("ingest")
@click.option("--sender", default=None, help="the envelope sender, if the mail server passes it")
@click.option("--recipient", multiple=True, help="an envelope recipient (repeatable)")
def ingest(sender: str | None, recipient: tuple[str, ...]) -> None:
    """Store one message read from standard input (pipe delivery); exit 75
    (try again later) if it could not be stored."""
    from mail.receive import ingest_stream
    from pbem.mailrobot.inbox import store_in

    try:
        app = _app()
        ingest_stream(store_in(app.extensions["pbem_engine"]), sys.stdin.buffer, sender, recipient)
    except Exception as exc:  # noqa: BLE001 - tell the mail server to retry
        click.echo(f"pbem: could not store the message ({exc.__class__.__name__}: {exc}); try again later", err=True)
        sys.exit(EX_TEMPFAIL)
    click.echo("pbem: message stored")


@mail.command("poll")
def poll() -> None:
    """Store what is new in the IMAP mailbox (IMAP_HOST, IMAP_USERNAME...)."""
    from pbem.mailrobot import jobs
    from pbem.mailrobot.settings import imap_config

    app = _app()
    if imap_config(app.config) is None:
        raise click.ClickException("IMAP is not configured: set IMAP_HOST and IMAP_USERNAME (and IMAP_PASSWORD)")
    click.echo(f"pbem: {jobs.poll_imap(app)} new message(s) stored")


@mail.command("work")
def work() -> None:
    """Process the stored messages once."""
    from pbem.mailrobot import jobs

    app = _app()
    count = jobs.process_inbox(app)
    shunted = jobs.shunted_count(app)
    click.echo(f"pbem: {count} message(s) processed; {shunted} in the shunt" + (" (pbem mail shunt)" if shunted else ""))


@mail.command("send")
def send() -> None:
    """Send the outbox messages that are due, once."""
    from pbem.mailrobot import jobs

    click.echo(f"pbem: {jobs.drain_outbox(_app())} message(s) sent")


@mail.command("retry")
@click.argument("ids", nargs=-1, type=int)
@click.option("--all", "everything", is_flag=True, help="every shunted message (or given-up outgoing message)")
@click.option("--outgoing", is_flag=True, help="outgoing mail that was given up, not incoming messages")
def retry(ids: tuple[int, ...], everything: bool, outgoing: bool) -> None:
    """Put shunted messages back in the queue for the next 'pbem mail work'
    (with --outgoing: given-up outgoing mail, for the next send)."""
    from pbem.db import get_session
    from pbem.mailrobot import given_up, inbox

    flag = " --outgoing" if outgoing else ""
    what = "given-up outgoing messages" if outgoing else "shunted messages"
    if ids and everything:
        raise click.UsageError(f"name the {what} (pbem mail retry{flag} 3 7) or give --all, not both")
    if not ids and not everything:
        raise click.UsageError(f"name the {what} to retry (pbem mail retry{flag} 3 7), or give --all "
                               "for every one ('pbem mail shunt' lists them)")
    app = _app()
    with app.app_context():
        try:
            again = given_up.retry_given_up if outgoing else inbox.retry
            done = again(get_session(), None if everything else list(ids))
        except ValueError as exc:
            raise click.ClickException(f"{exc}; nothing was re-queued (see pbem mail shunt)") from None
        kept = len(given_up.refused(get_session())) if outgoing and everything else 0
    click.echo(f"pbem: {len(done)}{' outgoing' if outgoing else ''} message(s) re-queued"
               + (f": {', '.join(map(str, done))}" if done else ""))
    if kept:
        click.echo(f"pbem: {kept} left given up: their addresses refused all mail from this server")


@mail.command("shunt")
@click.option("--traceback", "show_traceback", is_flag=True, help="show each traceback too")
def shunt(show_traceback: bool) -> None:
    """List the shunted messages and the given-up outgoing mail, with their reasons."""
    from mail.inbound import parse_message
    from pbem.db import get_session
    from pbem.mailrobot import given_up, inbox

    app = _app()
    with app.app_context():
        rows = inbox.shunted(get_session())
        outgoing = given_up.given_up(get_session())
        if not rows and not outgoing:
            click.echo("pbem: the shunt is empty")
            return
        if outgoing:
            click.echo("pbem: outgoing mail given up (pbem mail retry --outgoing ID... | --outgoing --all):")
            for out in outgoing:
                click.echo(f"{out.id}\t{out.failed_at:%Y-%m-%d %H:%M}\t{out.to_addr}\t{out.subject[:60]}\t"
                           f"{out.last_error}")
        if rows:
            click.echo("pbem: incoming messages shunted (pbem mail retry ID... | --all):")
        for row in rows:
            try:
                msg = parse_message(row.raw)
                who, subject = msg.sender or "?", msg.subject
            except Exception:  # noqa: BLE001 - any failure here is handled the same way
                who, subject = "?", "?"
            click.echo(f"{row.id}\t{row.received_at:%Y-%m-%d %H:%M}\t{who}\t{subject[:60]}\t{row.reason}")
            if show_traceback and row.traceback:
                click.echo(row.traceback)
