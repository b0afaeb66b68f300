"""Delivery and administration: the outbox with the SMTP server down and
then up; the pbem mail commands (ingest, work, send, shunt, retry); IMAP
polling into the inbox; the embedded default's .eml folder; and the corpus
of awkward mail run through the whole robot."""

from __future__ import annotations

import json
from email import policy
from pathlib import Path

from aiosmtpd.controller import Controller
from click.testing import CliRunner
from conftest import make_test_app
from sqlmodel import Session, select
from test_email_commands import DOMAIN, client_reply, fresh_mail, mail_app, parse, plain_text
from test_email_game import start_game
from test_mail_transport import SinkHandler, free_port, imap_server  # noqa: F401 - a fixture

from mail.send import EmlFolderSink
from pbem.cli import main
from pbem.mailrobot import jobs, robot
from pbem.models import Game, OutboxMessage
from pbem.models.mail import ImapState, InboxMessage

FIXTURES = Path(__file__).parent / "fixtures" / "mail"


def rows(app, model):
    with Session(app.extensions["pbem_engine"]) as s:
        return list(s.exec(select(model).order_by(model.id if hasattr(model, "id") else model.mailbox)))


def test_with_the_smtp_server_down_then_up_every_notification_goes_out_once(database_config):
    port = free_port()
    app = mail_app(database_config, SMTP_HOST="127.0.0.1", SMTP_PORT=port, SMTP_TIMEOUT=2)
    try:
        for _ in range(3):
            start_game(app)  # 3 games: an invitation, 'your turn' and 'the game has started' each
        queued = rows(app, OutboxMessage)
        assert len(queued) == 9
        assert jobs.drain_outbox(app) == 0  # down: nothing sent, nothing lost
        assert jobs.drain_outbox(app) == 0
        waiting = rows(app, OutboxMessage)
        assert all(r.sent_at is None and r.failed_at is None for r in waiting)
        assert waiting[0].outages == 2 and "cannot connect" in waiting[0].last_error
        assert waiting[0].attempts == 0  # an outage does not use up the attempts of a message
        handler = SinkHandler()
        controller = Controller(handler, hostname="127.0.0.1", port=port)
        controller.start()
        try:
            assert jobs.drain_outbox(app) == 9
            assert jobs.drain_outbox(app) == 0
        finally:
            controller.stop()
        ids = [parse(raw)["Message-ID"] for _, _, raw in handler.messages]
        assert len(ids) == 9 and len(set(ids)) == 9
        assert sorted(to[0] for _, to, _ in handler.messages) == sorted(r.to_addr for r in queued)
        assert all(r.sent_at is not None for r in rows(app, OutboxMessage))
    finally:
        app.extensions["pbem_engine"].dispose()


def test_the_embedded_default_keeps_sent_mail_as_eml_and_dev_mail_shows_it(database_config, tmp_path):
    app = mail_app(database_config, MAIL_EML_FOLDER=str(tmp_path / "mail"), DEV_MAILBOX=True)
    start_game(app)
    assert jobs.drain_outbox(app) == 3  # the invitation, 'your turn', 'the game has started'
    stored = EmlFolderSink(tmp_path / "mail").messages()
    assert len(stored) == 3 and all(m["Reply-To"].startswith("play+") for _, m in stored)
    page = app.test_client().get("/dev/mail").get_data(as_text=True)
    assert "your turn" in page and "the game has started" in page and "sent" in page
    app.extensions["pbem_engine"].dispose()


def test_pbem_mail_ingest_work_send_shunt_and_retry(sqlite_config, tmp_path, monkeypatch):
    app = mail_app(sqlite_config, MAIL_EML_FOLDER=str(tmp_path / "mail"))
    game_id = start_game(app)
    jobs.drain_outbox(app)
    notification = [m for _, m in EmlFolderSink(tmp_path / "mail").messages() if "alice" in str(m["To"])][0]
    env = {"DATABASE_URL": sqlite_config["DATABASE_URL"], "PBEM_SECRET_KEY": app.config["SECRET_KEY"],
           "PBEM_MAIL_FROM": f"pbem@{DOMAIN}"}
    monkeypatch.setenv("PBEM_TEST_UNUSED", "1")
    runner = CliRunner(env=env)
    monkeypatch.setitem(app.config, "MAIL_EML_FOLDER", str(tmp_path / "mail"))
    raw = b"From alice@example.org Mon Jan  1 10:00:00 2030\n" + client_reply(notification, "a1")
    stored = runner.invoke(main, ["mail", "ingest"], input=raw)
    assert stored.exit_code == 0 and "stored" in stored.output
    assert runner.invoke(main, ["mail", "ingest"], input=raw).exit_code == 0  # again: nothing new
    assert len(rows(app, InboxMessage)) == 1

    def broken(session, settings, row):
        raise RuntimeError("the robot broke")

    monkeypatch.setattr(robot, "process", broken)
    worked = runner.invoke(main, ["mail", "work"])
    assert worked.exit_code == 0 and "1 in the shunt" in worked.output
    listed = runner.invoke(main, ["mail", "shunt"])
    assert "RuntimeError: the robot broke" in listed.output and "alice@example.org" in listed.output
    assert runner.invoke(main, ["mail", "retry"]).exit_code != 0  # neither ids nor --all
    refused = runner.invoke(main, ["mail", "retry", "99"])
    assert refused.exit_code == 1 and "no stored message 99" in refused.output
    monkeypatch.undo()
    assert "1 message(s) re-queued" in runner.invoke(main, ["mail", "retry", "--all"]).output
    assert "1 message(s) processed; 0 in the shunt" in runner.invoke(main, ["mail", "work"], env=env).output
    with Session(app.extensions["pbem_engine"]) as s:
        assert s.get(Game, game_id).ply == 1
    sent = runner.invoke(main, ["mail", "send"], env=dict(env))
    assert sent.exit_code == 0 and "message(s) sent" in sent.output
    assert "the shunt is empty" in runner.invoke(main, ["mail", "shunt"]).output
    app.extensions["pbem_engine"].dispose()


def test_a_shunted_message_gets_no_mail(database_config, tmp_path, monkeypatch):
    app = mail_app(database_config, MAIL_EML_FOLDER=str(tmp_path / "mail"))
    from pbem.mailrobot.inbox import store_in

    store_in(app.extensions["pbem_engine"])(fresh_mail("carol@example.org", f"play@{DOMAIN}", "games"), None, [])
    monkeypatch.setattr(robot, "process", lambda *a: 1 / 0)
    assert jobs.process_inbox(app) == 1
    [row] = rows(app, InboxMessage)
    assert row.status == "shunted" and "ZeroDivisionError" in row.reason and "Traceback" in row.traceback
    assert rows(app, OutboxMessage) == []
    app.extensions["pbem_engine"].dispose()


def test_poll_imap_stores_new_mail_once_and_remembers_its_place(database_config, imap_server):
    from imap_tools import MailBoxUnencrypted

    app = mail_app(database_config)
    assert jobs.poll_imap(app) == 0  # not configured
    app.config.update(IMAP_HOST=imap_server.host, IMAP_PORT=imap_server.port, IMAP_SECURITY="none",
                      IMAP_USERNAME=imap_server.username, IMAP_PASSWORD=imap_server.password)
    first = jobs.poll_imap(app)
    with MailBoxUnencrypted(imap_server.host, imap_server.port).login("demouser", "demopass") as box:
        for n in range(2):
            box.append(fresh_mail("carol@example.org", f"play@{DOMAIN}", "help", Subject=f"n{n}"), "INBOX")
    assert jobs.poll_imap(app) == 2
    assert jobs.poll_imap(app) == 0
    assert len(rows(app, InboxMessage)) == first + 2
    [state] = rows(app, ImapState)
    assert state.last_uid >= 2 and state.uidvalidity is not None and state.last_error is None
    app.extensions["pbem_engine"].dispose()


def test_the_corpus_through_the_whole_robot(database_config, tmp_path):
    """Every fixture is processed without a shunt: genuine replies are acted
    on, forged ones refused, auto-generated ones ignored, and no answer
    carries a traceback."""
    expected = json.loads((FIXTURES / "expected.json").read_text(encoding="utf-8"))
    app = mail_app(database_config, MAIL_TOKEN_SECRET="fixture-secret", MAIL_ROBOT_ADDRESS="robot@pbem.test",
                   MAIL_EML_FOLDER=str(tmp_path / "mail"), INVITATIONS_TO_NEWCOMER_PER_DAY=7)
    from pbem.db import get_session
    from pbem.mailrobot.inbox import store_in
    from pbem.services import games
    from pbem.services.accounts import player_for_email

    with app.app_context():
        session = get_session()
        alice = player_for_email(session, "alice@example.org")
        bob = player_for_email(session, "bob@example.org")
        assert (alice.id, bob.id) == (1, 2)
        for _ in range(7):  # the corpus is about game 7
            game = games.create_game(session, alice, "logger", ["bob@example.org"])
        games.accept(session, game.id, bob)
        assert game.id == 7
    store = store_in(app.extensions["pbem_engine"])
    names = sorted(expected)
    for name in names:
        store((FIXTURES / name).read_bytes(), None, [])
    jobs.process_inbox(app)
    jobs.drain_outbox(app)
    stored = {row.id: row for row in rows(app, InboxMessage)}
    assert [r.status for r in stored.values()].count("shunted") == 0, [r.reason for r in stored.values()]
    for row in stored.values():
        name = next(n for n in names if (FIXTURES / n).read_bytes() == row.raw)
        outcome = expected[name]["outcome"]
        if outcome == "ignore":
            assert row.status == "ignored", (row.key, row.reason)
            assert expected[name]["ignore"].lower() in row.reason.lower(), (name, row.reason)
        elif outcome in ("forged", "bad token"):
            assert row.status == "ignored" and row.reason.startswith("sender check failed")
        else:
            assert row.status == "done", (outcome, row.reason)
    answers = [plain_text(m) for _, m in EmlFolderSink(tmp_path / "mail").messages()]
    assert answers and not any("Traceback" in a for a in answers)
    app.extensions["pbem_engine"].dispose()


def test_pbem_serve_starts_the_mail_listener_and_says_where(tmp_path):
    import os
    import smtplib
    import subprocess
    import sys
    import time

    from mail.send import wait_for_port

    port, mail_port = free_port(), free_port()
    database = tmp_path / "served.sqlite3"
    env = dict(os.environ, DATABASE_URL=f"sqlite:///{database}", PBEM_SECRET_KEY="serve-test",
               PBEM_MAIL_LISTENER_PORT=str(mail_port), PBEM_MAIL_FROM=f"pbem@{DOMAIN}")
    process = subprocess.Popen([sys.executable, "-m", "pbem", "serve", "--port", str(port), "--no-debug"], env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        assert wait_for_port("127.0.0.1", mail_port, timeout=30), "no mail listener"
        with smtplib.SMTP("127.0.0.1", mail_port) as smtp:
            smtp.sendmail("carol@example.org", [f"play@{DOMAIN}"],
                          parse(fresh_mail("carol@example.org", f"play@{DOMAIN}", "help")).as_bytes(policy=policy.SMTP))
        app = make_test_app({"DATABASE_URL": f"sqlite:///{database}"})
        end = time.monotonic() + 20
        while time.monotonic() < end and [r.status for r in rows(app, InboxMessage)] != ["done"]:
            time.sleep(0.2)
        assert [r.status for r in rows(app, InboxMessage)] == ["done"]
        assert rows(app, OutboxMessage)[0].to_addr == "carol@example.org"
        app.extensions["pbem_engine"].dispose()
    finally:
        process.terminate()
        output = process.communicate(timeout=10)[0]
    assert f"mail listener (SMTP) on 127.0.0.1:{mail_port}" in output
