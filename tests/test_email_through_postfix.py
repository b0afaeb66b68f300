"""A whole game played by email through a real Postfix in front of the
server, as operators run it (docs/mail.md, "Postfix in front"): Postfix
takes the players' mail by SMTP, delivers mail for the game domain by LMTP
to a real ``pbem mail serve --process``, and relays the server's mail (sent
by SMTP through the same Postfix) to an aiosmtpd sink standing for the
players' mailboxes.  One turn arrives while the listener is down: Postfix
keeps it, retries, and it is played exactly once.

Needs Debian's Postfix and root (``.ci/run`` installs it); skips saying why
otherwise.  Runs on SQLite, and on PostgreSQL with ``PBEM_TEST_POSTGRES_URL``."""

from __future__ import annotations

import os
import signal
import smtplib
import subprocess
import sys
import time
from email import policy
from email.message import EmailMessage
from urllib.parse import quote

import pytest
from private_postfix import PrivatePostfix, unavailable
from sqlmodel import Session, select
from test_email_commands import DOMAIN, ROBOT, client_reply, fresh_mail, game_row, mail_app, parse, plain_text, turns
from test_email_game import quick_turn
from test_mail_transport import free_port, sink  # noqa: F401 - sink is a fixture (aiosmtpd, the players' mailboxes)

from mail.send import wait_for_port
from pbem.models import OutboxMessage
from pbem.models.mail import InboxMessage

#: the longest any one step may take (a message through Postfix and back)
WAIT = 30.0

pytestmark = pytest.mark.skipif(unavailable() is not None, reason=unavailable() or "")


def wait_for(check, what: str, diagnose, timeout: float = WAIT):
    """Poll ``check()`` until it returns something true; fail saying ``what``
    did not happen, with ``diagnose()`` (the logs) when it times out."""
    deadline = time.monotonic() + timeout
    while True:
        result = check()
        if result:
            return result
        if time.monotonic() > deadline:
            pytest.fail(f"after {timeout:.0f} s, still waiting for {what}\n{diagnose()}")
        time.sleep(0.1)


class MailServer:
    """``pbem mail serve`` (LMTP, ``--process``) in its own process, sending
    through Postfix; stopped and started again by the test."""

    def __init__(self, database: dict, lmtp_port: int, smtp_port: int, log_path) -> None:
        url = database["DATABASE_URL"]
        if database.get("DATABASE_SCHEMA"):  # the test's PostgreSQL schema, by libpq's options
            url += ("&" if "?" in url else "?") + "options=" + quote(f"-csearch_path={database['DATABASE_SCHEMA']}")
        self.env = dict(os.environ, DATABASE_URL=url, PBEM_SECRET_KEY="test-secret-key",
                        PBEM_MAIL_FROM=f"pbem <pbem@{DOMAIN}>", PBEM_BASE_URL="http://pbem.test",
                        PBEM_SMTP_HOST="127.0.0.1", PBEM_SMTP_PORT=str(smtp_port))
        self.port = lmtp_port
        self.log_path = log_path
        self.process: subprocess.Popen | None = None

    def start(self) -> None:
        with open(self.log_path, "ab") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "pbem", "mail", "serve", "--protocol", "lmtp", "--host", "127.0.0.1",
                 "--port", str(self.port), "--process"], env=self.env, stdout=log, stderr=subprocess.STDOUT)
        if not wait_for_port("127.0.0.1", self.port, timeout=WAIT):
            self.stop()
            pytest.fail(f"pbem mail serve did not listen on {self.port}:\n{self.output()}")

    def stop(self) -> None:
        """Ctrl-C, as an operator stops it (killed if it does not stop)."""
        if self.process is None or self.process.poll() is not None:
            return
        self.process.send_signal(signal.SIGINT)
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=10)

    def output(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""


@pytest.fixture
def postfix(sink):
    """Postfix on a free loopback port: mail for pbem.test to the LMTP port,
    the rest to the sink."""
    postfix = PrivatePostfix(domain=DOMAIN, smtp_port=free_port(), lmtp_port=free_port(), sink_port=sink[1])
    try:
        postfix.start()
        assert wait_for_port("127.0.0.1", postfix.smtp_port, timeout=WAIT), postfix.log()
        yield postfix
    finally:
        postfix.stop()


@pytest.fixture
def mail_server(database_config, postfix, tmp_path):
    app = mail_app(database_config)  # empties the mail tables on PostgreSQL; the test reads the database with it
    server = MailServer(database_config, postfix.lmtp_port, postfix.smtp_port, tmp_path / "pbem-mail-serve.log")
    server.start()
    try:
        yield app, server
    finally:
        server.stop()
        app.extensions["pbem_engine"].dispose()


def submit(postfix: PrivatePostfix, raw: bytes) -> None:
    """What a player's mail client does: SMTP to the mail server, envelope from the From address."""
    msg = parse(raw)
    with smtplib.SMTP("127.0.0.1", postfix.smtp_port, timeout=WAIT) as smtp:
        smtp.sendmail(str(msg["From"]), [str(msg["To"])], msg.as_bytes(policy=policy.SMTP))


def test_a_whole_game_through_postfix_with_a_retried_turn(postfix, sink, mail_server):
    handler, _ = sink
    app, server = mail_server

    def diagnose() -> str:
        mails = [f"  to {to}: {parse(raw)['Subject']}\n    " + plain_text(parse(raw))[:300].replace("\n", "\n    ")
                 for _, to, raw in handler.messages]
        return ("mail in the sink:\n" + "\n".join(mails) + f"\nPostfix queue: {postfix.queue()}\n"
                f"--- pbem mail serve:\n{server.output()}\n--- Postfix log:\n{postfix.log()}")

    def mail_to(address: str, subject: str, since: int, saying: str = "") -> EmailMessage:
        """The first message to ``address`` with ``subject`` in its Subject
        (and ``saying`` in its text) that reached the sink after the first
        ``since`` messages."""
        def found():
            for _, to, raw in handler.messages[since:]:
                msg = parse(raw)
                if to == [address] and subject in str(msg["Subject"]) and saying in plain_text(msg):
                    return msg
            return None
        return wait_for(found, f"a mail to {address} about {subject!r} saying {saying!r}", diagnose)

    def inbox_rows() -> list[InboxMessage]:
        with Session(app.extensions["pbem_engine"]) as s:
            return list(s.exec(select(InboxMessage).order_by(InboxMessage.id)))

    from pbem.db import get_session
    from pbem.services.accounts import player_for_email

    with app.app_context():
        session = get_session()
        player_for_email(session, "alice@example.org")  # only known players may start games by mail
        session.commit()

    # Alice starts a game by mail; Bob accepts by replying to his invitation.
    mark = len(handler.messages)
    submit(postfix, fresh_mail("alice@example.org", ROBOT, "new logger with bob@example.org"))
    invitation = mail_to("bob@example.org", "invites you", mark)
    game_id = int(str(invitation["Subject"]).split()[1])
    mark = len(handler.messages)
    submit(postfix, client_reply(invitation, "accept"))
    your_turn = mail_to("alice@example.org", "your turn", mark)
    assert game_row(app, game_id).status == "active"

    # Four turns, each a reply to the 'your turn' mail; the third while the listener is down.
    players = ["alice@example.org", "bob@example.org"]
    for ply in range(4):
        mover, other = players[ply % 2], players[(ply + 1) % 2]
        turn = quick_turn(game_row(app, game_id).position)
        mark = len(handler.messages)
        if ply == 2:
            stored = len(inbox_rows())
            server.stop()
            retried = client_reply(your_turn, turn)
            submit(postfix, retried)
            deferred = wait_for(lambda: [m for m in postfix.queue() if m["queue_name"] == "deferred"],
                                "Postfix to defer the turn while the listener is down", diagnose)
            [kept] = deferred
            assert kept["sender"] == mover
            assert [r["address"] for r in kept["recipients"]] == [str(your_turn["Reply-To"])]
            assert "refused" in kept["recipients"][0]["delay_reason"]
            assert len(inbox_rows()) == stored and game_row(app, game_id).ply == ply
            server.start()
            postfix.flush()
        else:
            submit(postfix, client_reply(your_turn, turn))
        mail_to(mover, f"Game {game_id}", mark, saying=f"You played {turn} ")
        your_turn = mail_to(other, "your turn", mark)
        assert game_row(app, game_id).ply == ply + 1

    # Alice resigns: the game is over, and both players are told.
    mark = len(handler.messages)
    submit(postfix, client_reply(your_turn, "resign"))
    over = [mail_to(p, "game over", mark) for p in players]
    game = game_row(app, game_id)
    assert game.status == "finished" and game.result and game.ply == 4
    for msg in over:
        assert "wins" in str(msg["Subject"]) and "bob" in str(msg["Subject"]).lower(), msg["Subject"]
        assert "resign" in plain_text(msg).lower(), plain_text(msg)

    # Every mail went through once: four turns played, each message stored and
    # done once, each confirmation sent once, nothing left in either queue.
    played = turns(app, game_id)
    assert len(played) == 4 and {t.source for t in played} == {"email"}
    rows = inbox_rows()
    assert [r.status for r in rows] == ["done"] * 7  # new, accept, four turns, resign
    assert len({r.key for r in rows}) == 7
    assert [r.key for r in rows].count(str(parse(retried)["Message-ID"])) == 1
    answers = [plain_text(parse(raw)) for _, _, raw in handler.messages]
    for t in played:
        assert sum(f"You played {t.canonical} " in a for a in answers) == 1, t.canonical
    assert not any("Traceback" in a for a in answers)
    assert all(mail_from == f"pbem@{DOMAIN}" for mail_from, _, _ in handler.messages), "a bounce reached the sink"
    wait_for(lambda: postfix.queue() == [], "Postfix's queue to empty", diagnose)
    with Session(app.extensions["pbem_engine"]) as s:
        assert s.exec(select(OutboxMessage).where(OutboxMessage.sent_at.is_(None))).all() == []
