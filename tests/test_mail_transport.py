"""Mail transport against real servers on loopback: our sender into an aiosmtpd
sink, smtplib into our SMTP/LMTP listener, the outbox drain with the sink down
and then up, and the IMAP poller against a real pymap server."""
from __future__ import annotations

import io
import shutil
import smtplib
import socket
import subprocess
import sys
import threading
from datetime import datetime, timedelta, timezone
from email import message_from_bytes, policy
from email.message import EmailMessage
from pathlib import Path

import pytest
from aiosmtpd.controller import Controller

from mail.compose import compose_notification, game_thread
from mail.drain import Backoff, Outgoing, drain
from mail.errors import SendError
from mail.imap import ImapConfig, poll_imap
from mail.keys import message_key
from mail.receive import ingest, ingest_stream, start_listener
from mail.send import EmlFolderSink, SmtpConfig, SmtpSender, wait_for_port

DOMAIN = "pbem.test"
LOOP = "pbem@pbem.test"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class SinkHandler:
    """An SMTP sink: keeps every message it accepts; refuses recipients at
    refuse.test for good (550) and at busy.test for now (450)."""

    def __init__(self) -> None:
        self.messages: list[tuple[str, list[str], bytes]] = []
        self.lock = threading.Lock()

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):  # noqa: N802 - aiosmtpd's hook name
        if address.endswith("@refuse.test"):
            return "550 5.1.1 No such user"
        if address.endswith("@busy.test"):
            return "450 4.2.1 Mailbox busy, try later"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):  # noqa: N802 - aiosmtpd's hook name
        with self.lock:
            self.messages.append((envelope.mail_from, list(envelope.rcpt_tos), envelope.original_content))
        return "250 OK"


@pytest.fixture
def sink():
    handler = SinkHandler()
    port = free_port()
    controller = Controller(handler, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield handler, port
    finally:
        controller.stop()


def notification(n: int, to: str = "bob@example.org") -> EmailMessage:
    return compose_notification(
        from_addr="pbem <robot@pbem.test>", to_addr=to, subject=f"Game 7: ply {n}",
        text=f"Alice played turn {n}.\n\nYour move.", diagram="  a b c\n1 . G .", after="1. a1 e5",
        png=b"\x89PNG\r\n\x1a\nnot really", domain=DOMAIN, loop_id=LOOP,
        reply_to="play+abc@pbem.test", thread=game_thread(7, DOMAIN),
    )


# --- sending -------------------------------------------------------------------------------


def test_sender_delivers_a_notification_to_a_real_sink(sink):
    handler, port = sink
    with SmtpSender(SmtpConfig(host="127.0.0.1", port=port)) as sender:
        sender.send(notification(1))
        sender.send(notification(2, to="carol@example.org"))
    assert len(handler.messages) == 2
    mail_from, rcpts, raw = handler.messages[0]
    assert mail_from == "robot@pbem.test" and rcpts == ["bob@example.org"]
    msg = message_from_bytes(raw, policy=policy.default)
    assert msg["Auto-Submitted"] == "auto-generated"
    assert msg["X-Loop"] == LOOP
    assert msg["In-Reply-To"] == "<game-7@pbem.test>"
    assert msg["Reply-To"] == "play+abc@pbem.test"
    types = [p.get_content_type() for p in msg.walk()]
    assert types == ["multipart/alternative", "text/plain", "multipart/related", "text/html", "image/png"]
    png = [p for p in msg.walk() if p.get_content_type() == "image/png"][0]
    html = msg.get_body(("html",)).get_content()
    assert f"cid:{png['Content-ID'][1:-1]}" in html
    assert png.get_content() == b"\x89PNG\r\n\x1a\nnot really"
    assert "1 . G ." in msg.get_body(("plain",)).get_content()


class MemoryOutbox:
    """The three drain callbacks over a list, with a clock the test moves."""

    def __init__(self, messages: list[EmailMessage]) -> None:
        self.clock = datetime(2030, 1, 1, tzinfo=timezone.utc)
        self.items = {i: {"msg": m, "attempts": 0, "outages": 0, "since": None, "due": self.clock, "sent": False,
                          "error": None} for i, m in enumerate(messages)}

    def now(self) -> datetime:
        return self.clock

    def fetch_due(self):
        return [Outgoing(i, it["msg"], it["attempts"], it["outages"], it["since"]) for i, it in self.items.items()
                if not it["sent"] and it["due"] is not None and it["due"] <= self.clock]

    def mark_sent(self, item_id) -> None:
        assert not self.items[item_id]["sent"], "marked sent twice"
        self.items[item_id]["sent"] = True

    def mark_failed(self, item_id, failure) -> None:
        item = self.items[item_id]
        item["attempts" if failure.counts else "outages"] += 1
        item["since"] = item["since"] or self.clock
        item["error"] = failure.error
        item["due"] = failure.retry_at


def test_drain_with_the_sink_down_then_up_delivers_every_message_once():
    port = free_port()
    outbox = MemoryOutbox([notification(n) for n in range(6)])
    ids = {it["msg"]["Message-ID"] for it in outbox.items.values()}
    config = SmtpConfig(host="127.0.0.1", port=port, timeout=2)
    backoff = Backoff(base=60, max_attempts=5)

    result = drain(outbox.fetch_due, outbox.mark_sent, outbox.mark_failed, SmtpSender(config),
                   backoff=backoff, now=outbox.now)
    assert result.sent == [] and result.stopped and "cannot connect" in result.stopped
    assert len(result.retry) == 1  # the round stops at the first unreachable failure
    assert not any(it["sent"] for it in outbox.items.values())
    # Not due yet for the failed one; the others are still due but the server is still down.
    result = drain(outbox.fetch_due, outbox.mark_sent, outbox.mark_failed, SmtpSender(config),
                   backoff=backoff, now=outbox.now)
    assert result.sent == []

    handler = SinkHandler()
    controller = Controller(handler, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        outbox.clock += timedelta(hours=1)
        result = drain(outbox.fetch_due, outbox.mark_sent, outbox.mark_failed, SmtpSender(config),
                       backoff=backoff, now=outbox.now)
        assert sorted(result.sent) == list(range(6))
        outbox.clock += timedelta(days=1)
        again = drain(outbox.fetch_due, outbox.mark_sent, outbox.mark_failed, SmtpSender(config),
                      backoff=backoff, now=outbox.now)
        assert again.sent == [] and again.retry == []
    finally:
        controller.stop()
    received = [message_from_bytes(raw)["Message-ID"] for _, _, raw in handler.messages]
    assert sorted(received) == sorted(ids)  # every one, each exactly once


def _retry_delays(outbox: MemoryOutbox, sender, backoff: Backoff, rounds: int) -> list[float]:
    """Drain ``rounds`` times, each when the item is due; the delays it was given until it was given up."""
    delays = []
    for _ in range(rounds):
        before = outbox.clock
        drain(outbox.fetch_due, outbox.mark_sent, outbox.mark_failed, sender, backoff=backoff, now=outbox.now)
        due = outbox.items[0]["due"]
        if due is None:
            break
        delays.append((due - before).total_seconds())
        outbox.clock = due
    return delays


def test_refusals_back_off_and_give_up_after_max_attempts(sink):
    _, port = sink
    outbox = MemoryOutbox([notification(1, to="bob@busy.test")])
    backoff = Backoff(base=10, factor=2, cap=35, max_attempts=4)
    delays = _retry_delays(outbox, SmtpSender(SmtpConfig(host="127.0.0.1", port=port)), backoff, 10)
    assert delays == [10, 20, 35]
    assert outbox.items[0]["due"] is None and outbox.items[0]["attempts"] == 4
    assert "450" in outbox.items[0]["error"] and "given up after 4" in outbox.items[0]["error"]


def test_an_outage_does_not_use_up_attempts_and_gives_up_only_after_the_queue_lifetime():
    outbox = MemoryOutbox([notification(1)])
    config = SmtpConfig(host="127.0.0.1", port=free_port(), timeout=2)
    backoff = Backoff(base=10, factor=2, cap=3600, max_attempts=4, lifetime=5 * 86400)
    delays = _retry_delays(outbox, SmtpSender(config), backoff, 200)
    item = outbox.items[0]
    assert delays[:4] == [10, 20, 40, 80] and max(delays) == 3600
    assert item["due"] is None and item["attempts"] == 0 and item["outages"] == len(delays) + 1
    assert sum(delays) >= 5 * 86400 > sum(delays[:-1])  # retried for five days, then given up
    assert "cannot connect" in item["error"] and "given up: failing since 2030-01-01" in item["error"]


def test_drain_gives_up_on_a_permanent_refusal_and_sends_the_rest(sink):
    handler, port = sink
    outbox = MemoryOutbox([notification(1), notification(2, to="nobody@refuse.test"), notification(3)])
    result = drain(outbox.fetch_due, outbox.mark_sent, outbox.mark_failed,
                   SmtpSender(SmtpConfig(host="127.0.0.1", port=port)), now=outbox.now)
    assert result.sent == [0, 2] and result.gave_up == [1]
    assert outbox.items[1]["due"] is None and "550" in outbox.items[1]["error"]
    assert len(handler.messages) == 2


def test_sender_refuses_a_message_without_recipients():
    msg = EmailMessage()
    msg["From"] = "robot@pbem.test"
    msg.set_content("x")
    with pytest.raises(SendError) as info:
        SmtpSender(SmtpConfig(host="127.0.0.1", port=free_port())).send(msg)
    assert info.value.permanent


def test_sender_reconnects_after_the_server_restarts():
    port = free_port()
    handler = SinkHandler()
    controller = Controller(handler, hostname="127.0.0.1", port=port)
    controller.start()
    sender = SmtpSender(SmtpConfig(host="127.0.0.1", port=port, timeout=2))
    try:
        sender.send(notification(1))
    finally:
        controller.stop()
    controller = Controller(handler, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        sender.send(notification(2))  # the kept connection is dead: reconnect once
        sender.close()
    finally:
        controller.stop()
    assert len(handler.messages) == 2


def test_eml_folder_sink_keeps_sent_mail(tmp_path):
    sink_dir = tmp_path / "instance" / "mail"
    sink = EmlFolderSink(sink_dir)
    outbox = MemoryOutbox([notification(1), notification(2)])
    result = drain(outbox.fetch_due, outbox.mark_sent, outbox.mark_failed, sink, now=outbox.now)
    assert result.sent == [0, 1]
    stored = sink.messages()
    assert [m["Subject"] for _, m in stored] == ["Game 7: ply 1", "Game 7: ply 2"]
    assert all(name.endswith(".eml") for name, _ in stored)
    assert not list(sink_dir.glob(".*.tmp"))


# --- receiving -----------------------------------------------------------------------------


class Store:
    """A store callback that dedups by message key, and can be told to fail."""

    def __init__(self) -> None:
        self.calls: list[tuple[bytes, str | None, list[str]]] = []
        self.by_key: dict[str, bytes] = {}
        self.fail_next = 0
        self.lock = threading.Lock()

    def __call__(self, raw: bytes, envelope_from, envelope_to) -> None:
        with self.lock:
            if self.fail_next:
                self.fail_next -= 1
                raise RuntimeError("database is down")
            self.calls.append((raw, envelope_from, envelope_to))
            self.by_key.setdefault(message_key(raw), raw)


def raw_message(n: int, message_id: bool = True) -> bytes:
    mid = f"Message-ID: <m{n}@client.example>\r\n" if message_id else ""
    return (f"From: Bob <bob@example.org>\r\nTo: play+tok@pbem.test\r\nSubject: turn {n}\r\n{mid}\r\n"
            f"b2-c2 G\r\n.leading dot survives\r\n").encode()


@pytest.mark.parametrize("protocol", ["smtp", "lmtp"])
def test_listener_stores_each_message_once(protocol):
    store = Store()
    port = free_port()
    listener = start_listener(store, protocol=protocol, host="127.0.0.1", port=port)
    try:
        client = (smtplib.LMTP if protocol == "lmtp" else smtplib.SMTP)("127.0.0.1", port)
        for n in range(5):
            assert client.sendmail("bob@example.org", ["play+tok@pbem.test"], raw_message(n)) == {}
        client.quit()
    finally:
        listener.stop()
    assert len(store.calls) == 5
    assert [message_key(raw) for raw, _, _ in store.calls] == [f"<m{n}@client.example>" for n in range(5)]
    raw, envelope_from, envelope_to = store.calls[0]
    assert envelope_from == "bob@example.org" and envelope_to == ["play+tok@pbem.test"]
    assert b"\r\n.leading dot survives\r\n" in raw


@pytest.mark.parametrize("protocol", ["smtp", "lmtp"])
def test_failing_store_answers_451_and_a_retry_stores_it(protocol):
    store = Store()
    store.fail_next = 1
    port = free_port()
    listener = start_listener(store, protocol=protocol, host="127.0.0.1", port=port)
    try:
        client = (smtplib.LMTP if protocol == "lmtp" else smtplib.SMTP)("127.0.0.1", port)
        with pytest.raises(smtplib.SMTPDataError) as info:
            client.sendmail("bob@example.org", ["play+tok@pbem.test"], raw_message(1))
        assert info.value.smtp_code == 451
        assert store.calls == []
        client.rset()
        assert client.sendmail("bob@example.org", ["play+tok@pbem.test"], raw_message(1)) == {}
        client.quit()
    finally:
        listener.stop()
    assert len(store.calls) == 1 and "<m1@client.example>" in store.by_key


def test_lmtp_answers_once_per_recipient_and_stores_once():
    store = Store()
    port = free_port()
    listener = start_listener(store, protocol="lmtp", host="127.0.0.1", port=port)
    try:
        client = smtplib.LMTP("127.0.0.1", port)
        client.ehlo_or_helo_if_needed()
        assert client.mail("bob@example.org")[0] == 250
        assert client.rcpt("play+a@pbem.test")[0] == 250
        assert client.rcpt("play+b@pbem.test")[0] == 250
        code, _ = client.data(raw_message(9))
        assert code == 250
        assert client.getreply()[0] == 250  # the second recipient's reply (RFC 2033)
        client.quit()
    finally:
        listener.stop()
    assert len(store.calls) == 1
    assert store.calls[0][2] == ["play+a@pbem.test", "play+b@pbem.test"]


def test_lmtp_over_a_unix_socket(tmp_path):
    store = Store()
    path = str(tmp_path / "lmtp.sock")
    listener = start_listener(store, protocol="lmtp", unix_socket=path)
    try:
        client = smtplib.LMTP(path)
        assert client.sendmail("bob@example.org", ["play+tok@pbem.test"], raw_message(3)) == {}
        client.quit()
    finally:
        listener.stop()
    assert list(store.by_key) == ["<m3@client.example>"]


def test_pipe_ingest_and_keys():
    store = Store()
    ingest(store, raw_message(1))
    ingest_stream(store, io.BytesIO(b"From bob@example.org Mon Jan  1 00:00:00 2024\n" + raw_message(2, False)))
    assert store.calls[1][1] == "bob@example.org"
    assert message_key(store.calls[1][0]).startswith("sha256:")
    # The same message without Message-ID, delivered again (even with other line endings), has one key.
    assert message_key(raw_message(2, False)) == message_key(raw_message(2, False).replace(b"\r\n", b"\n"))
    assert message_key(raw_message(2, False)) != message_key(raw_message(3, False))
    assert message_key(b"Message-ID:\r\n  <folded@x>\r\n\r\nbody") == "<folded@x>"


# --- IMAP ----------------------------------------------------------------------------------


@pytest.fixture
def imap_server():
    pymap = shutil.which("pymap", path=str(Path(sys.executable).parent))
    if pymap is None:
        pytest.skip("pymap (a pure-Python IMAP server, a test dependency) is not installed")
    port = free_port()
    proc = subprocess.Popen([pymap, "--host", "127.0.0.1", "--port", str(port), "--no-tls", "dict"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        assert wait_for_port("127.0.0.1", port, timeout=15), "pymap did not start"
        yield ImapConfig(host="127.0.0.1", port=port, username="demouser", password="demopass",
                         security="none", timeout=10)
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def test_imap_poller_resumes_by_uid(imap_server):
    from imap_tools import MailBoxUnencrypted

    def append(n: int) -> None:
        with MailBoxUnencrypted(imap_server.host, imap_server.port).login("demouser", "demopass") as box:
            box.append(raw_message(n), "INBOX")

    store = Store()
    first = poll_imap(imap_server, store, 0)
    assert first.stored == [] and first.last_uid == 0 and first.uidvalidity is not None
    for n in range(3):
        append(n)
    second = poll_imap(imap_server, store, first.last_uid, first.uidvalidity)
    assert len(second.stored) == 3 and second.last_uid == max(second.stored)
    assert list(store.by_key) == [f"<m{n}@client.example>" for n in range(3)]
    # Nothing new: "UID n:*" also matches the last message, which must not come back.
    third = poll_imap(imap_server, store, second.last_uid, second.uidvalidity)
    assert third.stored == [] and third.last_uid == second.last_uid
    # A failing store stops the poll at the last stored UID; the next poll resumes there.
    append(3)
    append(4)
    store.fail_next = 1
    failed = poll_imap(imap_server, store, third.last_uid, third.uidvalidity)
    assert failed.stored == [] and failed.error and failed.last_uid == third.last_uid
    resumed = poll_imap(imap_server, store, failed.last_uid, failed.uidvalidity)
    assert len(resumed.stored) == 2
    assert len(store.calls) == 5 and len(store.by_key) == 5
    # A changed UIDVALIDITY starts over; deduplication by Message-ID keeps it harmless.
    over = poll_imap(imap_server, store, resumed.last_uid, (resumed.uidvalidity or 0) + 1)
    assert len(over.stored) == 5 and len(store.by_key) == 5
    assert b"b2-c2 G" in store.calls[0][0]
    # The raw bytes are the message as appended, byte for byte.
    assert store.calls[0][0] == raw_message(0)
