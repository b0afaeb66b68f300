"""A whole Logger game played by email over real servers on loopback: every
notification is read from an aiosmtpd sink and answered by replying to it
(Reply-To address, quoted original) through our SMTP listener; and the
worker killed between storing and processing."""

from __future__ import annotations

import json
import os
import smtplib
import subprocess
import sys
from email import policy
from pathlib import Path

import pytest
from aiosmtpd.controller import Controller
from sqlmodel import Session, select
from test_email_commands import client_reply, game_row, mail_app, parse, plain_text, turns
from test_mail_transport import SinkHandler, free_port

from notation.registry import get
from pbem.mailrobot import jobs, listener
from pbem.models import OutboxMessage
from pbem.models.mail import InboxMessage

LOGGER = get("logger")


@pytest.fixture
def sink():
    handler = SinkHandler()
    port = free_port()
    controller = Controller(handler, hostname="127.0.0.1", port=port)
    controller.start()
    yield handler, port
    controller.stop()


@pytest.fixture
def served(database_config, sink):
    """The app sending to the sink, and our SMTP listener (store only: the
    jobs are run by the test, as the scheduler would)."""
    handler, port = sink
    app = mail_app(database_config, SMTP_HOST="127.0.0.1", SMTP_PORT=port)
    listen_port = free_port()
    running = listener.start(app, protocol="smtp", host="127.0.0.1", port=listen_port, process=False)
    yield app, handler, listen_port
    running.stop()
    app.extensions["pbem_engine"].dispose()


def start_game(app) -> int:
    from pbem.db import get_session
    from pbem.services import games
    from pbem.services.accounts import player_for_email

    with app.app_context():
        session = get_session()
        alice = player_for_email(session, "alice@example.org")
        bob = player_for_email(session, "bob@example.org")
        game = games.create_game(session, alice, "logger", ["alice@example.org", "bob@example.org"])
        games.accept(session, game.id, bob)
        return game.id


def quick_turn(position: str) -> str:
    """The legal turn that scores most for the mover (chops first): a short game."""
    state = LOGGER.notation.parse_position(position)
    me = LOGGER.rules.to_move(state)
    best = None
    for text in LOGGER.notation.legal_texts(state):
        after = LOGGER.rules.apply(state, LOGGER.notation.parse_turn(state, text))
        score = (after.scores[me], " C:" in text, "P:" in text)
        if best is None or score > best[0]:
            best = (score, text)
    return best[1]


def deliver(port: int, raw: bytes, sender: str) -> None:
    """Send as a mail client does: SMTP to our listener, CRLF line ends."""
    msg = parse(raw)
    with smtplib.SMTP("127.0.0.1", port) as smtp:
        smtp.sendmail(sender, [str(msg["To"])], msg.as_bytes(policy=policy.SMTP))


def test_a_whole_logger_game_by_email(served):
    app, sink, listen_port = served
    game_id = start_game(app)
    jobs.drain_outbox(app)
    read = 0
    plies = 0
    over = []
    while not over:
        new = [parse(raw) for _, _, raw in sink.messages[read:]]
        new = [m for m in new if m["Auto-Submitted"] == "auto-generated"]  # not the confirmations
        read = len(sink.messages)
        over = [m for m in new if "game over" in str(m["Subject"])]
        if over:
            break
        [notification] = [m for m in new if "your turn" in str(m["Subject"])]
        mover = str(notification["To"])
        turn = quick_turn(game_row(app, game_id).position)
        deliver(listen_port, client_reply(notification, turn), mover)
        assert jobs.process_inbox(app) == 1
        assert jobs.drain_outbox(app) >= 2
        confirmation = [parse(raw) for _, to, raw in sink.messages[read:] if to == [mover]][0]
        assert "You played" in plain_text(confirmation), plain_text(confirmation)
        plies += 1
        assert plies < 120, "the game should have ended"
    game = game_row(app, game_id)
    assert game.status == "finished" and game.ply == plies
    assert {str(m["To"]) for m in over} == {"alice@example.org", "bob@example.org"}
    assert all(game.result in str(m["Subject"]) for m in over)
    assert all("game over" in plain_text(m) for m in over)
    played = turns(app, game_id)
    assert len(played) == plies and {t.source for t in played} == {"email"}
    with Session(app.extensions["pbem_engine"]) as s:
        assert set(s.exec(select(InboxMessage.status))) == {"done"}
        assert s.exec(select(OutboxMessage).where(OutboxMessage.sent_at.is_(None))).all() == []


WORKER = r"""
import json, os, sys
from pbem import create_app
from pbem.mailrobot import jobs
from pbem.services import turns
config = json.loads(os.environ["PBEM_TEST_APP"])
real = turns.submit_turn
when = os.environ["KILL"]
def dying(*args, **kwargs):
    if when == "before":
        os._exit(9)
    result = real(*args, **kwargs)
    os._exit(9)
turns.submit_turn = dying
jobs.process_inbox(create_app(config))
"""


@pytest.mark.parametrize("when", ["before", "after"])
def test_a_worker_killed_while_processing_loses_and_doubles_nothing(served, tmp_path, when):
    app, sink, listen_port = served
    game_id = start_game(app)
    jobs.drain_outbox(app)
    notifications = {str(parse(raw)["To"]): parse(raw) for _, _, raw in sink.messages}
    # Two messages stored by the listener: alice's turn and her 'board'.
    deliver(listen_port, client_reply(notifications["alice@example.org"], "a1"), "alice@example.org")
    deliver(listen_port, client_reply(notifications["alice@example.org"], "board"), "alice@example.org")
    # The worker dies in the middle of the first message, in another process.
    config = {k: app.config[k] for k in ("DATABASE_URL", "DATABASE_SCHEMA", "SECRET_KEY", "MAIL_FROM", "SMTP_HOST",
                                         "SMTP_PORT", "BASE_URL")}
    config.update(TESTING=True, AUTO_MIGRATE=False)
    env = dict(os.environ, PBEM_TEST_APP=json.dumps(config), KILL=when,
               PYTHONPATH=os.pathsep.join([str(Path(__file__).parent), os.environ.get("PYTHONPATH", "")]))
    died = subprocess.run([sys.executable, "-c", WORKER], env=env, capture_output=True, text=True, timeout=60)
    assert died.returncode == 9, died.stderr
    assert len(turns(app, game_id)) == (0 if when == "before" else 1)
    # Restarted: every message is processed exactly once.
    jobs.process_inbox(app)
    jobs.process_inbox(app)
    jobs.drain_outbox(app)
    assert [t.canonical for t in turns(app, game_id)] == ["a1"]
    with Session(app.extensions["pbem_engine"]) as s:
        rows = s.exec(select(InboxMessage).order_by(InboxMessage.id)).all()
        assert [r.status for r in rows] == ["done", "done"]
    answers = [plain_text(parse(raw)) for _, to, raw in sink.messages if to == ["alice@example.org"]]
    assert sum("You played a1" in a for a in answers) == 1
    assert sum(" played; turn 2" in a for a in answers) == 1
    assert not any("Traceback" in a for a in answers)
