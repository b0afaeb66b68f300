"""Replies to a real notification, read by the whole robot: a turn typed below
the quote that ends with the notification's quoted signature is played, and
an Outlook reply with nothing typed above its header block plays the turn in
its attached turn file."""

from __future__ import annotations

from email.message import EmailMessage
from email.utils import make_msgid

import pytest
from test_email_commands import duel, plain_text, robot, turns  # noqa: F401 - fixtures
from test_mail_quoted_replies import FOOTER, quote

from pbem.mailrobot import jobs


def _reply(original: EmailMessage, body: str, attachment: str | None = None) -> bytes:
    reply = EmailMessage()
    reply["From"] = str(original["To"])
    reply["To"] = str(original["Reply-To"])
    reply["Subject"] = f"RE: {original['Subject']}"
    reply["Message-ID"] = make_msgid(domain="client.example.org")
    reply["In-Reply-To"] = str(original["Message-ID"])
    reply.set_content(body)
    if attachment is not None:
        reply.add_attachment(attachment, subtype="plain", filename="turn.txt")
    return reply.as_bytes()


def _with_signature(text: str) -> str:
    """The notification as the player's client shows it, ending with its signature block."""
    return text if "\n-- \n" in text else text.rstrip("\n") + "\n\n" + FOOTER + "\n"


def test_a_turn_below_the_quoted_signature_of_the_notification_is_played(duel):
    robot, (game_id, _, _), mail = duel
    body = f"pbem wrote:\n{quote(_with_signature(plain_text(mail)))}\n\n#1 a1\n\n-- \nAlice\n"
    answers = robot.send(_reply(mail, body))
    assert [t.canonical for t in turns(robot.app, game_id)] == ["a1"]
    [confirmation] = robot.to("alice@example.org", answers)
    assert "You played a1" in plain_text(confirmation)


@pytest.fixture
def alice42(robot):
    """A started Logger game of alice42@example.org (to move; a square-like 'e4' in her address) and bob."""
    from pbem.db import get_session
    from pbem.services import games
    from pbem.services.accounts import player_for_email

    with robot.app.app_context():
        session = get_session()
        alice = player_for_email(session, "alice42@example.org")
        bob = player_for_email(session, "bob@example.org")
        game = games.create_game(session, alice, "logger", ["alice42@example.org", "bob@example.org"])
        games.accept(session, game.id, bob)
        game_id = game.id
    jobs.drain_outbox(robot.app)
    return robot, game_id, robot.to("alice42@example.org", robot.new_mail())[-1]


def test_an_outlook_reply_with_nothing_above_the_quote_plays_the_attached_turn_file(alice42):
    robot, game_id, mail = alice42
    block = (f"From: pbem <pbem@pbem.test>\nSent: Monday, January 1, 2030 10:00 AM\n"
             f"To: Alice <alice42@example.org>\nSubject: {mail['Subject']}\n")
    body = f"{block}\n{plain_text(mail)}"
    answers = robot.send(_reply(mail, body, attachment="#1 a1\r\n"))
    [confirmation] = robot.to("alice42@example.org", answers)
    assert "You played a1" in plain_text(confirmation)
    assert [t.canonical for t in turns(robot.app, game_id)] == ["a1"]


def test_a_french_outlook_reply_with_nothing_above_and_no_file_says_there_was_no_text(duel):
    robot, (game_id, _, _), mail = duel
    body = f"De : pbem\nEnvoyé : lundi 1 janvier 2030 10:00\nÀ : Alice\nObjet : {mail['Subject']}\n\n{plain_text(mail)}"
    [answer] = robot.send(_reply(mail, body))
    assert turns(robot.app, game_id) == []
    assert "no text above the quoted part" in plain_text(answer)
