"""The library end to end on loopback: a notification sent through a real SMTP
sink, the player's mail client replying to it (quoting it whole) through our
LMTP listener, the worker reading the turn; the worker killed between storing
and processing; the shunt; and SMTP with STARTTLS, implicit TLS and login."""
from __future__ import annotations

import shutil
import smtplib
import ssl
import subprocess
from email import message_from_bytes, policy
from email.message import EmailMessage

import pytest
from aiosmtpd.controller import Controller
from aiosmtpd.smtp import AuthResult, LoginPassword
from test_mail_transport import SinkHandler, free_port  # noqa: E402 - shared helpers, same folder

from mail.commands import TURN, parse_commands
from mail.compose import compose_notification, game_thread
from mail.errors import SendError
from mail.inbound import parse_message
from mail.keys import message_key
from mail.receive import start_listener
from mail.send import SmtpConfig, SmtpSender
from mail.tokens import make_reply_address, read_reply_address
from mail.worker import Pending, process_pending

SECRET = "roundtrip-secret"
DOMAIN = "pbem.test"
LOOP = "pbem@pbem.test"
BOARD = "    a b c d e\n  5 . . . . .\n  4 . G . . .\n  3 . . S . .\n  2 . . . P .\n  1 . . . . ."


class Inbox:
    """A store callback and the worker's callbacks over a dict: Message-ID dedup, done, shunt."""

    def __init__(self) -> None:
        self.items: dict[str, dict] = {}

    def store(self, raw: bytes, envelope_from, envelope_to) -> None:
        self.items.setdefault(message_key(raw), {"raw": raw, "from": envelope_from, "to": envelope_to,
                                                 "state": "pending", "reason": None})

    def fetch_pending(self):
        return [Pending(key, it["raw"], it["from"], it["to"]) for key, it in self.items.items()
                if it["state"] == "pending"]

    def mark_done(self, key) -> None:
        assert self.items[key]["state"] == "pending"
        self.items[key]["state"] = "done"

    def mark_shunted(self, key, reason, detail) -> None:
        self.items[key].update(state="shunted", reason=reason, detail=detail)


def notify_bob() -> bytes:
    handler = SinkHandler()
    port = free_port()
    controller = Controller(handler, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        msg = compose_notification(
            from_addr="pbem <robot@pbem.test>", to_addr="Bob <bob@example.org>", subject="Game 7: your turn",
            text="Alice played a1-a3 G.\n\nIt is your turn (ply 12). Reply with your turn, e.g.:\nb2-c2 G P:d3\n\n"
                 "Legal turns include:\nresign\nlegal",
            diagram=BOARD, after="Moves: 1. a1 e5  2. a1-a3 G\nDeadline: 2030-01-08 10:00 UTC",
            png=b"\x89PNG\r\n\x1a\n", domain=DOMAIN, loop_id=LOOP, thread=game_thread(7, DOMAIN),
            reply_to=make_reply_address(SECRET, DOMAIN, 7, 2))
        with SmtpSender(SmtpConfig(host="127.0.0.1", port=port)) as sender:
            sender.send(msg)
    finally:
        controller.stop()
    [(_, _, raw)] = handler.messages
    return raw


def client_reply(notification: bytes, turn: str, style: str) -> EmailMessage:
    """What a player's mail client sends when they answer *notification*."""
    note = message_from_bytes(notification, policy=policy.default)
    plain = note.get_body(("plain",)).get_content()
    reply = EmailMessage()
    reply["From"] = "Bob Example <bob@example.org>"
    reply["To"] = note["Reply-To"]
    reply["Subject"] = "Re: " + note["Subject"]
    reply["Message-ID"] = f"<reply-{style}@client.example>"
    reply["In-Reply-To"] = note["Message-ID"]
    reply["References"] = f'{note["References"]} {note["Message-ID"]}'
    quoted = "\n".join("> " + line if line else ">" for line in plain.splitlines())
    if style == "gmail":
        reply.set_content(f"{turn}\n\nOn Mon, 1 Jan 2030 at 10:00, pbem <robot@pbem.test> wrote:\n\n{quoted}\n")
        reply.add_alternative(f'<div dir="ltr">{turn}</div><br><div class="gmail_quote"><blockquote '
                              f'class="gmail_quote">{note.get_body(("html",)).get_content()}</blockquote></div>',
                              subtype="html")
    elif style == "outlook-unquoted":
        reply.set_content(f"{turn}\n\nFrom: pbem <robot@pbem.test>\nSent: Monday\nTo: Bob\n"
                          f"Subject: {note['Subject']}\n\n{plain}")
    elif style == "french-bottom":
        reply.set_content(f"Le lun. 1 janv. 2030 à 10:00, pbem a écrit :\n{quoted}\n\n{turn}\n")
    else:  # an unknown client that pastes the notification unquoted below an odd attribution
        reply.set_content(f"{turn}\n\n*** pbem schreef het volgende ***\n{plain}")
    return reply


@pytest.mark.parametrize("style", ["gmail", "outlook-unquoted", "french-bottom", "unknown-client"])
def test_reply_to_a_notification_through_the_listener(style):
    notification = notify_bob()
    inbox = Inbox()
    port = free_port()
    listener = start_listener(inbox.store, protocol="lmtp", host="127.0.0.1", port=port)
    try:
        reply = client_reply(notification, "b2-c2 G P:d3", style)
        client = smtplib.LMTP("127.0.0.1", port)
        client.send_message(reply)
        client.send_message(reply)  # delivered twice: stored once
        client.quit()
    finally:
        listener.stop()
    assert len(inbox.items) == 1

    seen = []

    def handle(item: Pending) -> None:
        parsed = parse_message(item.raw, envelope_from=item.envelope_from, envelope_to=item.envelope_to,
                               loop_id=LOOP, our_addresses=["robot@pbem.test"])
        assert parsed.ignore_reason is None
        seat = read_reply_address(SECRET, "play+" + parsed.token + "@" + DOMAIN)
        assert seat == (7, 2) and parsed.sender == "bob@example.org"
        seen.append(parse_commands(parsed.lines))

    result = process_pending(inbox.fetch_pending, handle, inbox.mark_done, inbox.mark_shunted)
    assert result.shunted == [], [it["reason"] for it in inbox.items.values()]
    [commands] = seen
    assert [(c.kind, c.argument) for c in commands] == [(TURN, "b2-c2 G P:d3")]


def test_worker_killed_between_storing_and_processing_processes_each_message_once():
    inbox = Inbox()
    port = free_port()
    listener = start_listener(inbox.store, protocol="smtp", host="127.0.0.1", port=port)
    try:
        client = smtplib.SMTP("127.0.0.1", port)
        for n in range(6):
            client.sendmail("bob@example.org", ["play+x@pbem.test"],
                            f"From: bob@example.org\r\nMessage-ID: <k{n}@c>\r\n\r\nturn {n}\r\n".encode())
        client.quit()
    finally:
        listener.stop()
    processed: list[str] = []

    class Killed(BaseException):
        """Stands for the process dying: not an Exception, so nothing catches it."""

    def dying_handle(item: Pending) -> None:
        if len(processed) == 2:
            raise Killed
        processed.append(item.id)

    with pytest.raises(Killed):
        process_pending(inbox.fetch_pending, dying_handle, inbox.mark_done, inbox.mark_shunted)
    assert len(processed) == 2
    # A new worker starts and finds the rest still pending.
    result = process_pending(inbox.fetch_pending, lambda item: processed.append(item.id), inbox.mark_done,
                             inbox.mark_shunted)
    assert len(result.done) == 4
    assert sorted(processed) == sorted(f"<k{n}@c>" for n in range(6))  # each exactly once
    assert process_pending(inbox.fetch_pending, lambda item: processed.append(item.id), inbox.mark_done,
                           inbox.mark_shunted).done == []


def test_a_failing_message_is_shunted_with_its_reason_and_can_be_retried():
    inbox = Inbox()
    for n in range(3):
        inbox.store(f"Message-ID: <s{n}@c>\r\n\r\nbody {n}\r\n".encode(), None, [])

    def handle(item: Pending) -> None:
        if b"body 1" in item.raw:
            raise KeyError("game 99")

    result = process_pending(inbox.fetch_pending, handle, inbox.mark_done, inbox.mark_shunted)
    assert result.done == ["<s0@c>", "<s2@c>"] and result.shunted == ["<s1@c>"]
    shunted = inbox.items["<s1@c>"]
    assert shunted["reason"] == "KeyError: 'game 99'" and "Traceback" in shunted["detail"]
    shunted["state"] = "pending"  # the administrator's retry
    assert process_pending(inbox.fetch_pending, lambda item: None, inbox.mark_done,
                           inbox.mark_shunted).done == ["<s1@c>"]


# --- TLS and login -------------------------------------------------------------------------


@pytest.fixture(scope="module")
def certificate(tmp_path_factory):
    openssl = shutil.which("openssl")
    if openssl is None:
        pytest.skip("openssl is needed to make a test certificate")
    folder = tmp_path_factory.mktemp("tls")
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run([openssl, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key), "-out",
                    str(cert), "-days", "1", "-subj", "/CN=localhost",
                    "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost"],
                   check=True, capture_output=True)
    server = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    server.load_cert_chain(str(cert), str(key))
    client = ssl.create_default_context(cafile=str(cert))
    return server, client


def authenticator(server, session, envelope, mechanism, auth_data):
    ok = isinstance(auth_data, LoginPassword) and auth_data.login == b"robot" and auth_data.password == b"pw"
    return AuthResult(success=ok, handled=False)  # handled=False: aiosmtpd answers 535 itself


def simple_message() -> EmailMessage:
    msg = EmailMessage()
    msg["From"] = "robot@pbem.test"
    msg["To"] = "bob@example.org"
    msg["Subject"] = "tls"
    msg.set_content("hello")
    return msg


def test_starttls_with_login(certificate):
    server_ctx, client_ctx = certificate
    handler = SinkHandler()
    port = free_port()
    controller = Controller(handler, hostname="127.0.0.1", port=port, tls_context=server_ctx,
                            require_starttls=True, authenticator=authenticator, auth_required=True)
    controller.start()
    try:
        config = SmtpConfig(host="127.0.0.1", port=port, security="starttls", username="robot", password="pw",
                            ssl_context=client_ctx, timeout=5)
        with SmtpSender(config) as sender:
            sender.send(simple_message())
        wrong = SmtpConfig(host="127.0.0.1", port=port, security="starttls", username="robot", password="no",
                           ssl_context=client_ctx, timeout=5)
        with pytest.raises(SendError, match="login refused"):
            SmtpSender(wrong).send(simple_message())
        untrusted = SmtpConfig(host="127.0.0.1", port=port, security="starttls", timeout=5)
        with pytest.raises(SendError) as info:
            SmtpSender(untrusted).send(simple_message())  # self-signed: refused by default
        assert info.value.unreachable
    finally:
        controller.stop()
    assert len(handler.messages) == 1


def test_implicit_tls(certificate):
    server_ctx, client_ctx = certificate
    handler = SinkHandler()
    port = free_port()
    controller = Controller(handler, hostname="127.0.0.1", port=port, ssl_context=server_ctx)
    controller.start()
    try:
        with SmtpSender(SmtpConfig(host="127.0.0.1", port=port, security="ssl", ssl_context=client_ctx,
                                   timeout=5)) as sender:
            sender.send(simple_message())
    finally:
        controller.stop()
    assert len(handler.messages) == 1
