"""Outgoing mail is never doubled or held up: the server's outbox drain
against a real aiosmtpd sink.  A drain that dies mid-way holds at most the
one mail it was sending; a slow answer to the end of a message gets one
copy, not two; a long SMTP outage does not give mail up, and what is given
up is listed and retried by ``pbem mail shunt`` / ``retry``; a sweep's worth
of mail goes out in one run over one connection; and ``pbem mail serve
--process`` processes what was stored before a restart at once."""

from __future__ import annotations

import asyncio
import threading
import time
from datetime import timedelta

import pytest
from aiosmtpd.controller import Controller
from click.testing import CliRunner
from sqlmodel import Session, select
from test_email_commands import DOMAIN, fresh_mail, mail_app, parse
from test_mail_transport import SinkHandler, free_port

import pbem.models
from mail.send import EmlFolderSink, SmtpSender
from pbem.cli import main
from pbem.mailrobot import jobs, outgoing
from pbem.mailrobot.settings import smtp_config
from pbem.models import OutboxMessage, utcnow
from pbem.models.mail import InboxMessage


class SlowSink(SinkHandler):
    """A sink that keeps each message at once but answers the end of the
    next ``slow`` ones only after ``delay`` seconds; it also counts the
    connections it was given."""

    def __init__(self) -> None:
        super().__init__()
        self.delay = 0.0
        self.slow = 0
        self.sessions: list[object] = []

    async def handle_EHLO(self, server, session, envelope, hostname, responses):  # noqa: N802 - aiosmtpd's hook name
        session.host_name = hostname
        with self.lock:
            if not any(s is session for s in self.sessions):
                self.sessions.append(session)
        return responses

    async def handle_DATA(self, server, session, envelope):  # noqa: N802 - aiosmtpd's hook name
        answer = await super().handle_DATA(server, session, envelope)
        with self.lock:
            slow, self.slow = self.slow > 0, max(0, self.slow - 1)
        if slow:
            await asyncio.sleep(self.delay)
        return answer


@pytest.fixture
def smtp_sink():
    handler = SlowSink()
    port = free_port()
    controller = Controller(handler, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield handler, port
    finally:
        controller.stop()


@pytest.fixture
def clock(monkeypatch):
    """``pbem.models.CLOCK`` made a clock the test moves on (``clock.move(seconds=...)``)."""

    class Clock:
        now = utcnow()

        def __call__(self):
            return self.now

        def move(self, **delta) -> None:
            self.now += timedelta(**delta)

    fake = Clock()
    monkeypatch.setattr(pbem.models, "CLOCK", fake)
    return fake


def queue(app, *addresses: str) -> list[int]:
    from pbem.db import get_session
    from pbem.services import outbox

    with app.app_context():
        session = get_session()
        rows = [outbox.queue(session, to, f"mail {n} to {to}", "text", kind="reply") for n, to in enumerate(addresses)]
        session.commit()
        return [row.id for row in rows]


def outbox_rows(app) -> list[OutboxMessage]:
    with Session(app.extensions["pbem_engine"]) as s:
        return list(s.exec(select(OutboxMessage).order_by(OutboxMessage.id)))


def subjects(handler: SinkHandler) -> list[str]:
    return [str(parse(raw)["Subject"]) for _, _, raw in handler.messages]


class Crash(BaseException):
    """The process dying: nothing catches it."""


class DiesAtSecondMail(SmtpSender):
    """The real SMTP sender, in a process that dies when it comes to its second mail."""

    def __init__(self, config) -> None:
        super().__init__(config)
        self.count = 0

    def send(self, message, before_body=None) -> None:
        self.count += 1
        if self.count == 2:
            raise Crash()
        if before_body is None:
            super().send(message)
        else:
            super().send(message, before_body)


def test_a_drain_that_dies_holds_only_the_mail_it_was_sending_and_briefly(database_config, smtp_sink, clock):
    handler, port = smtp_sink
    app = mail_app(database_config, SMTP_HOST="127.0.0.1", SMTP_PORT=port, SMTP_TIMEOUT=5)
    try:
        queue(app, "a@example.org", "b@example.org", "c@example.org", "d@example.org", "b@example.org")
        with pytest.raises(Crash):
            outgoing.drain(app, app.extensions["pbem_engine"], DiesAtSecondMail(smtp_config(app.config)))
        assert subjects(handler) == ["mail 0 to a@example.org"]
        # The next drain, at once: everything but the mail being sent when it died, and
        # b's later mail, which waits behind it (one address's mail keeps its order).
        assert jobs.drain_outbox(app) == 2
        assert subjects(handler)[1:] == ["mail 2 to c@example.org", "mail 3 to d@example.org"]
        clock.move(seconds=outgoing.reservation(app).total_seconds() + 1)  # seconds, not minutes
        assert outgoing.reservation(app) < timedelta(minutes=2)
        assert jobs.drain_outbox(app) == 2
        assert subjects(handler)[3:] == ["mail 1 to b@example.org", "mail 4 to b@example.org"]
        assert all(row.sent_at is not None for row in outbox_rows(app))
        assert len(handler.messages) == 5  # each once
    finally:
        app.extensions["pbem_engine"].dispose()


class SlowToConnect(SmtpSender):
    """The real SMTP sender, so slow to get going that its reservation runs
    out and another process's drain sends the mail meanwhile."""

    def __init__(self, config, app, clock) -> None:
        super().__init__(config)
        self.app, self.clock = app, clock

    def send(self, message, before_body=None) -> None:
        self.clock.move(seconds=outgoing.reservation(self.app).total_seconds() + 1)
        other = SmtpSender(self.config)  # another process (past this one's lock)
        assert outgoing._drain(self.app, self.app.extensions["pbem_engine"], other, None).sent != []
        super().send(message, before_body)


def test_a_short_reservation_that_runs_out_never_sends_a_mail_twice(database_config, smtp_sink, clock):
    handler, port = smtp_sink
    app = mail_app(database_config, SMTP_HOST="127.0.0.1", SMTP_PORT=port)
    try:
        queue(app, "bob@example.org")
        result = outgoing.drain(app, app.extensions["pbem_engine"], SlowToConnect(smtp_config(app.config), app, clock))
        assert result.sent == [] and len(result.withdrawn) == 1  # checked just before the body: not ours any more
        assert subjects(handler) == ["mail 0 to bob@example.org"]  # once
        assert outbox_rows(app)[0].sent_at is not None
    finally:
        app.extensions["pbem_engine"].dispose()


def test_an_unanswered_end_of_message_is_not_sent_again_at_once(database_config, smtp_sink, clock):
    """The sink takes the message but answers its end only after the wait
    (SMTP_DATA_TIMEOUT) is over: one copy, not a second at once; the row says
    the delivery is uncertain and is tried again, with the same Message-ID,
    only after MAIL_UNCERTAIN_RETRY."""
    handler, port = smtp_sink
    handler.delay, handler.slow = 3.0, 1
    app = mail_app(database_config, SMTP_HOST="127.0.0.1", SMTP_PORT=port, SMTP_TIMEOUT=2, SMTP_DATA_TIMEOUT=1,
                   MAIL_UNCERTAIN_RETRY=3 * 3600)
    try:
        queue(app, "bob@example.org", "bob@example.org", "carol@example.org")
        started = time.monotonic()
        jobs.drain_outbox(app)
        jobs.drain_outbox(app)  # and once more at once
        time.sleep(max(0.0, handler.delay + 0.5 - (time.monotonic() - started)))  # the sink is done with what it was sent
        assert subjects(handler).count("mail 0 to bob@example.org") == 1
        bob = outbox_rows(app)[0]
        assert bob.sent_at is None and bob.failed_at is None and bob.uncertain_at is not None
        assert "delivery uncertain" in bob.last_error
        assert bob.next_attempt_at - clock.now == timedelta(hours=3)
        # Bob's next mail did not wait hours behind it (the server has the first), nor did carol's
        assert subjects(handler).count("mail 1 to bob@example.org") == 1
        assert subjects(handler).count("mail 2 to carol@example.org") == 1
        clock.move(hours=2)
        assert jobs.drain_outbox(app) == 0  # still not
        clock.move(hours=1, seconds=1)
        assert jobs.drain_outbox(app) == 1
        copies = [parse(raw) for _, to, raw in handler.messages if parse(raw)["Subject"] == "mail 0 to bob@example.org"]
        assert len(copies) == 2 and copies[0]["Message-ID"] == copies[1]["Message-ID"]
        bob = outbox_rows(app)[0]
        assert bob.sent_at is not None and bob.uncertain_at is None
    finally:
        app.extensions["pbem_engine"].dispose()


def test_a_slow_answer_to_the_end_of_a_message_is_awaited_longer_than_a_command(database_config, smtp_sink):
    handler, port = smtp_sink
    handler.delay, handler.slow = 2.0, 1
    app = mail_app(database_config, SMTP_HOST="127.0.0.1", SMTP_PORT=port, SMTP_TIMEOUT=1, SMTP_DATA_TIMEOUT=10)
    try:
        queue(app, "bob@example.org")
        assert jobs.drain_outbox(app) == 1
        assert len(handler.messages) == 1 and outbox_rows(app)[0].sent_at is not None
    finally:
        app.extensions["pbem_engine"].dispose()


def test_a_sweeps_worth_of_mail_goes_out_in_one_run_over_one_connection(database_config, smtp_sink):
    handler, port = smtp_sink
    app = mail_app(database_config, SMTP_HOST="127.0.0.1", SMTP_PORT=port)
    try:
        count = 220  # more than one page of due rows (a batch was 200)
        queue(app, *[f"player{n % 50}@example.org" for n in range(count)])
        assert jobs.drain_outbox(app) == count
        assert len(handler.messages) == count and len(handler.sessions) == 1
        assert jobs.drain_outbox(app) == 0
        assert outgoing.PAGE < count
    finally:
        app.extensions["pbem_engine"].dispose()


def test_a_drain_stops_when_its_time_budget_is_spent(database_config, smtp_sink):
    handler, port = smtp_sink
    app = mail_app(database_config, SMTP_HOST="127.0.0.1", SMTP_PORT=port, MAIL_SEND_BUDGET=0)
    try:
        queue(app, "bob@example.org")
        assert jobs.drain_outbox(app) == 0 and handler.messages == []
        app.config["MAIL_SEND_BUDGET"] = 30
        assert jobs.drain_outbox(app) == 1
    finally:
        app.extensions["pbem_engine"].dispose()


def _drain_until_given_up_or(app, clock, hours: float) -> None:
    """Drain whenever the row is due, for ``hours`` of the clock or until it is given up."""
    start = clock.now
    while clock.now - start < timedelta(hours=hours):
        jobs.drain_outbox(app)
        row = outbox_rows(app)[0]
        if row.failed_at is not None:
            return
        clock.now = max(clock.now, row.next_attempt_at)


def test_an_outage_longer_than_a_day_gives_nothing_up_and_what_is_given_up_is_listed_and_retried(
        sqlite_config, clock):
    port = free_port()
    app = mail_app(sqlite_config, SMTP_HOST="127.0.0.1", SMTP_PORT=port, SMTP_TIMEOUT=2, MAIL_RETRY_BASE=60,
                   MAIL_MAX_ATTEMPTS=5)
    env = {"DATABASE_URL": sqlite_config["DATABASE_URL"], "PBEM_SECRET_KEY": app.config["SECRET_KEY"],
           "PBEM_MAIL_FROM": f"pbem@{DOMAIN}", "PBEM_SMTP_HOST": "127.0.0.1", "PBEM_SMTP_PORT": str(port)}
    runner = CliRunner(env=env)
    try:
        [row_id] = queue(app, "bob@example.org")
        _drain_until_given_up_or(app, clock, hours=30)
        row = outbox_rows(app)[0]
        assert row.failed_at is None and row.attempts == 0 and row.outages > 5  # more than MAIL_MAX_ATTEMPTS tries
        assert "cannot connect" in row.last_error
        _drain_until_given_up_or(app, clock, hours=24 * 5)
        row = outbox_rows(app)[0]
        assert row.failed_at is not None  # given up after five days of trying (MAIL_QUEUE_LIFETIME)
        assert timedelta(days=5) <= row.failed_at - row.failing_since < timedelta(days=5, hours=7)

        listed = runner.invoke(main, ["mail", "shunt"])
        assert listed.exit_code == 0
        assert "outgoing" in listed.output and f"{row_id}\t" in listed.output and "bob@example.org" in listed.output
        assert "cannot connect" in listed.output and "given up: failing since" in listed.output
        assert "the shunt is empty" not in listed.output

        refused = runner.invoke(main, ["mail", "retry", "--outgoing", "99"])
        assert refused.exit_code == 1 and "no outgoing message 99" in refused.output
        assert runner.invoke(main, ["mail", "retry", "--outgoing"]).exit_code == 2  # neither ids nor --all
        retried = runner.invoke(main, ["mail", "retry", "--outgoing", str(row_id)])
        assert retried.exit_code == 0 and f"1 outgoing message(s) re-queued: {row_id}" in retried.output
        again = runner.invoke(main, ["mail", "retry", "--outgoing", str(row_id)])
        assert again.exit_code == 1 and "still queued, not given up" in again.output

        handler = SinkHandler()
        controller = Controller(handler, hostname="127.0.0.1", port=port)
        controller.start()
        try:
            sent = runner.invoke(main, ["mail", "send"])
        finally:
            controller.stop()
        assert sent.exit_code == 0 and "1 message(s) sent" in sent.output
        assert [to for _, to, _ in handler.messages] == [["bob@example.org"]]
        assert "the shunt is empty" in runner.invoke(main, ["mail", "shunt"]).output
    finally:
        app.extensions["pbem_engine"].dispose()


def test_a_refused_mail_is_listed_with_the_servers_answer_and_retry_all_covers_it(sqlite_config, smtp_sink):
    handler, port = smtp_sink
    app = mail_app(sqlite_config, SMTP_HOST="127.0.0.1", SMTP_PORT=port)
    env = {"DATABASE_URL": sqlite_config["DATABASE_URL"], "PBEM_SECRET_KEY": app.config["SECRET_KEY"],
           "PBEM_MAIL_FROM": f"pbem@{DOMAIN}", "PBEM_SMTP_HOST": "127.0.0.1", "PBEM_SMTP_PORT": str(port)}
    runner = CliRunner(env=env)
    try:
        queue(app, "nobody@refuse.test")
        assert jobs.drain_outbox(app) == 0
        listed = runner.invoke(main, ["mail", "shunt"]).output
        assert "nobody@refuse.test" in listed and "550" in listed
        assert "1 outgoing message(s) re-queued" in runner.invoke(main, ["mail", "retry", "--outgoing", "--all"]).output
        row = outbox_rows(app)[0]
        assert row.failed_at is None and row.attempts == 0 and row.last_error is None
    finally:
        app.extensions["pbem_engine"].dispose()


def test_mail_serve_process_does_what_was_stored_before_a_restart_at_once(database_config, tmp_path):
    from pbem.mailrobot import listener
    from pbem.mailrobot.inbox import store_in

    app = mail_app(database_config, MAIL_EML_FOLDER=str(tmp_path / "mail"))
    store_in(app.extensions["pbem_engine"])(fresh_mail("carol@example.org", f"play@{DOMAIN}", "help"), None, [])
    before = set(threading.enumerate())
    running = listener.start(app, protocol="lmtp", port=free_port(), process=True)  # the restart
    workers = [t for t in threading.enumerate() if t not in before and t.name == "pbem-mail-worker"]
    try:
        answers = EmlFolderSink(tmp_path / "mail")
        end = time.monotonic() + 10  # well before the worker's 30 s interval
        while time.monotonic() < end and not answers.messages():
            time.sleep(0.05)
        assert [str(m["To"]) for _, m in answers.messages()] == ["carol@example.org"]  # answered
        with Session(app.extensions["pbem_engine"]) as s:
            assert [r.status for r in s.exec(select(InboxMessage))] == ["done"]
    finally:
        running.stop()
        for worker in workers:
            worker.join(timeout=10)
        app.extensions["pbem_engine"].dispose()
    assert workers and not any(worker.is_alive() for worker in workers)  # it stops with the listener
