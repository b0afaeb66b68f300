"""The mail robot's answer to each command, and the sender check: mail is
stored through the real store callback, processed by the worker job, and
the answers read back as the MIME messages the sender composes (the .eml
folder of the embedded default).  Also shared helpers for the other
``test_email_*`` files."""

from __future__ import annotations

import re
from email import message_from_bytes, policy
from email.message import EmailMessage
from email.utils import make_msgid

import pytest
from conftest import POSTGRES_URL, make_test_app
from sqlalchemy import text
from sqlmodel import Session, select

from mail.send import EmlFolderSink
from mail.tokens import make_reply_address
from pbem.mailrobot import jobs
from pbem.mailrobot.inbox import store_in
from pbem.models import Game, OutboxMessage, Turn
from pbem.models.mail import InboxMessage

DOMAIN = "pbem.test"
ROBOT = f"play@{DOMAIN}"
MAIL_TABLES = ("inbox", "imap_state", "mail_reply_log")


# -- shared helpers ------------------------------------------------------------------------

def mail_app(database_config: dict, **extra):
    """The app with mail settings; the mail tables emptied on PostgreSQL
    (conftest empties only the server's own tables)."""
    app = make_test_app(database_config, **{"MAIL_FROM": f"pbem <pbem@{DOMAIN}>", "MAIL_RETRY_BASE": 0, **extra})
    if POSTGRES_URL and app.config["DATABASE_URL"].startswith("postgresql"):
        with app.extensions["pbem_engine"].begin() as connection:
            connection.execute(text(f"TRUNCATE {', '.join(MAIL_TABLES)} RESTART IDENTITY CASCADE"))
    return app


def parse(raw: bytes) -> EmailMessage:
    return message_from_bytes(raw, policy=policy.default)


def plain_text(msg: EmailMessage) -> str:
    return msg.get_body(preferencelist=("plain",)).get_content()


def client_reply(original: EmailMessage, line: str, *, sender: str | None = None, to: str | None = None) -> bytes:
    """What a mail client sends when its user answers ``original`` with
    ``line``: to the Reply-To address, Re: subject, threading headers, and the
    original quoted below an attribution line."""
    reply = EmailMessage()
    reply["From"] = sender or str(original["To"])
    reply["To"] = to or str(original["Reply-To"] or original["From"])
    subject = str(original["Subject"])
    reply["Subject"] = subject if subject.lower().startswith("re:") else f"Re: {subject}"
    reply["Message-ID"] = make_msgid(domain="client.example.org")
    reply["In-Reply-To"] = str(original["Message-ID"])
    reply["References"] = " ".join(filter(None, [str(original.get("References") or ""), str(original["Message-ID"])]))
    quoted = "\n".join("> " + row for row in plain_text(original).splitlines())
    reply.set_content(f"{line}\n\nOn Mon, 1 Jan 2030 at 10:00, pbem <pbem@{DOMAIN}> wrote:\n{quoted}\n")
    return reply.as_bytes()


def fresh_mail(sender: str, to: str, body: str, **headers: str) -> bytes:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = sender, to, headers.pop("Subject", "hello")
    msg["Message-ID"] = make_msgid(domain="client.example.org")
    for name, value in headers.items():
        msg[name.replace("_", "-")] = value
    msg.set_content(body)
    return msg.as_bytes()


def reply_address(app, game_id: int, player_id: int) -> str:
    return make_reply_address(app.config["SECRET_KEY"], DOMAIN, game_id, player_id)


def outbox_rows(app) -> list[OutboxMessage]:
    with Session(app.extensions["pbem_engine"]) as s:
        return list(s.exec(select(OutboxMessage).order_by(OutboxMessage.id)))


# -- fixtures --------------------------------------------------------------------------------

class Robot:
    """Deliver mail to the robot and read its answers from the .eml folder."""

    def __init__(self, app, folder):
        self.app, self.sink = app, EmlFolderSink(folder)
        self.store = store_in(app.extensions["pbem_engine"])
        self.seen = 0

    def send(self, raw: bytes, envelope_from: str | None = None) -> list[EmailMessage]:
        """Store, process, send; return the new mail."""
        self.store(raw, envelope_from, [])
        jobs.process_inbox(self.app)
        jobs.drain_outbox(self.app)
        return self.new_mail()

    def new_mail(self) -> list[EmailMessage]:
        messages = [m for _, m in self.sink.messages()]
        new, self.seen = messages[self.seen:], len(messages)
        return new

    def to(self, address: str, messages: list[EmailMessage]) -> list[EmailMessage]:
        return [m for m in messages if address in str(m["To"])]


@pytest.fixture
def robot(database_config, tmp_path):
    app = mail_app(database_config, MAIL_EML_FOLDER=str(tmp_path / "sent"))
    yield Robot(app, tmp_path / "sent")
    app.extensions["pbem_engine"].dispose()


@pytest.fixture
def duel(robot):
    """A started Logger game, alice to move; the start mail already read."""
    from pbem.db import get_session
    from pbem.services import games
    from pbem.services.accounts import player_for_email

    with robot.app.app_context():
        session = get_session()
        alice = player_for_email(session, "alice@example.org")
        bob = player_for_email(session, "bob@example.org")
        game = games.create_game(session, alice, "logger", ["alice@example.org", "bob@example.org"])
        games.accept(session, game.id, bob)
        ids = game.id, alice.id, bob.id
    jobs.drain_outbox(robot.app)
    start = robot.new_mail()
    your_turn = robot.to("alice@example.org", start)[-1]
    return robot, ids, your_turn


def game_row(app, game_id: int) -> Game:
    with Session(app.extensions["pbem_engine"]) as s:
        return s.get(Game, game_id)


def turns(app, game_id: int) -> list[Turn]:
    with Session(app.extensions["pbem_engine"]) as s:
        return list(s.exec(select(Turn).where(Turn.game_id == game_id).order_by(Turn.ply)))


# -- the notification ------------------------------------------------------------------------

def test_a_notification_is_a_threaded_mime_mail_with_both_boards_and_the_reply_address(duel):
    robot, (game_id, alice_id, _), mail = duel
    assert mail["Reply-To"] == reply_address(robot.app, game_id, alice_id)
    assert mail["Auto-Submitted"] == "auto-generated"
    assert mail["References"].split()[0] == f"<game-{game_id}@{DOMAIN}>"
    text_part = plain_text(mail)
    assert "It is your turn" in text_part and "c3" not in text_part.split("\n")[0]
    assert "  a b c d e" in text_part or "a  b  c  d  e" in text_part or re.search(r"a\s+b\s+c\s+d\s+e", text_part)
    assert "Reply to this mail with your turn" in text_part
    html = mail.get_body(preferencelist=("html",))
    images = [part for part in mail.walk() if part.get_content_type() == "image/png"]
    assert images and images[0].get_content().startswith(b"\x89PNG")
    assert "cid:" in html.get_content()


# -- each command ----------------------------------------------------------------------------

def test_a_turn_is_played_and_confirmed_with_the_new_board(duel):
    robot, (game_id, _, _), mail = duel
    new = robot.send(client_reply(mail, "A1"))
    confirmation = robot.to("alice@example.org", new)
    assert len(confirmation) == 1 and "You played a1" in plain_text(confirmation[0])
    assert confirmation[0]["Auto-Submitted"] == "auto-replied"
    assert confirmation[0]["In-Reply-To"] and confirmation[0]["Subject"].startswith("Re: ")
    assert "Moves: 1. a1" in plain_text(confirmation[0])
    assert [(t.canonical, t.source) for t in turns(robot.app, game_id)] == [("a1", "email")]
    assert "your turn" in robot.to("bob@example.org", new)[0]["Subject"]


def test_an_illegal_turn_is_quoted_explained_and_the_legal_turns_listed(duel):
    robot, (game_id, _, _), mail = duel
    [answer] = robot.send(client_reply(mail, "c3"))
    body = plain_text(answer)
    assert "> c3" in body and "Why:" in body
    assert "a1\n" in body and "e5" in body  # the legal corners
    assert "Nothing was changed" in body
    assert turns(robot.app, game_id) == []


def test_free_text_before_the_turn_is_skipped(duel):
    robot, (game_id, _, _), mail = duel
    robot.send(client_reply(mail, "Hello Bob, here is my move.\n\ne5"))
    assert [t.canonical for t in turns(robot.app, game_id)] == ["e5"]


def test_a_turn_number_not_reached_is_refused_and_the_right_one_played(duel):
    robot, (game_id, _, _), mail = duel
    [answer] = robot.send(client_reply(mail, "#3 a1"))
    assert "has not been reached yet" in plain_text(answer) and turns(robot.app, game_id) == []
    robot.send(client_reply(mail, "#1 a1"))
    assert [t.ply for t in turns(robot.app, game_id)] == [1]


def test_not_your_turn_is_refused(duel):
    robot, (game_id, _, bob_id), mail = duel
    bob_mail = client_reply(mail, "e5", sender="bob@example.org", to=reply_address(robot.app, game_id, bob_id))
    [answer] = robot.send(bob_mail)
    assert "not your turn" in plain_text(answer) and turns(robot.app, game_id) == []


def test_preview_legal_board_record_and_help(duel):
    robot, (game_id, _, _), mail = duel
    [preview] = robot.send(client_reply(mail, "preview a5"))
    assert "Preview only" in plain_text(preview) and turns(robot.app, game_id) == []
    [legal] = robot.send(client_reply(mail, "LEGAL"))
    assert "4 in all" in plain_text(legal) and "  e1" in plain_text(legal)
    [board] = robot.send(client_reply(mail, "status"))
    assert "your turn" in plain_text(board) and any(p.get_content_type() == "image/png" for p in board.walk())
    [record] = robot.send(client_reply(mail, "record"))
    assert '[Game "logger"]' in plain_text(record) or "logger" in plain_text(record).lower()
    [helped] = robot.send(client_reply(mail, "help"))
    assert "preview <turn>" in plain_text(helped)
    [vacation] = robot.send(client_reply(mail, "vacation 3"))
    assert "web site" in plain_text(vacation)
    assert turns(robot.app, game_id) == [] and game_row(robot.app, game_id).status == "active"


def test_draw_offer_and_acceptance_and_resign(duel):
    robot, (game_id, _, bob_id), mail = duel
    [offer_answer, *others] = robot.send(client_reply(mail, "draw"))
    assert "You offered a draw" in plain_text(offer_answer)
    bob_mail = client_reply(mail, "Draw.", sender="bob@example.org", to=reply_address(robot.app, game_id, bob_id))
    new = robot.send(bob_mail)
    assert any("is drawn" in plain_text(m) for m in new)
    assert game_row(robot.app, game_id).status == "finished"
    [late] = robot.send(client_reply(mail, "resign"))
    assert "finished" in plain_text(late)


def test_resign(duel):
    robot, (game_id, _, _), mail = duel
    new = robot.send(client_reply(mail, "resign"))
    assert any("You resigned" in plain_text(m) for m in new)
    game = game_row(robot.app, game_id)
    assert game.status == "finished" and game.result == "2"


def test_a_turn_file_attachment_is_read(duel):
    robot, (game_id, _, _), mail = duel
    raw = parse(client_reply(mail, ""))
    raw.add_attachment("a5\n", filename="turn.txt")
    robot.send(raw.as_bytes())
    assert [t.canonical for t in turns(robot.app, game_id)] == ["a5"]


# -- the plain address -----------------------------------------------------------------------

def test_plain_address_help_games_and_new(duel):
    robot, (game_id, _, _), _ = duel
    [helped] = robot.send(fresh_mail("alice@example.org", ROBOT, "help"))
    assert "new <game> with" in plain_text(helped)
    [listed] = robot.send(fresh_mail("alice@example.org", ROBOT, "games"))
    assert f"Game {game_id}" in plain_text(listed) and "play+" in plain_text(listed)
    new = robot.send(fresh_mail("bob@example.org", ROBOT, "Hi!\nnew logger with dave@example.org"))
    answer = robot.to("bob@example.org", new)[0]
    assert "invited" in plain_text(answer)
    assert any("invites you" in str(m["Subject"]) for m in robot.to("dave@example.org", new))
    [bad] = robot.send(fresh_mail("bob@example.org", ROBOT, "new chess with dave@example.org"))
    assert "> new chess" in plain_text(bad) and "logger" in plain_text(bad)


# -- the sender check and the loop guards ----------------------------------------------------

def test_a_forged_from_changes_nothing_and_is_explained_once_a_day(duel):
    robot, (game_id, _, _), mail = duel
    forged = client_reply(mail, "a1", sender="mallory@example.org")
    [explained] = robot.send(forged)
    assert "nothing was changed" in plain_text(explained) and str(explained["To"]) == "mallory@example.org"
    assert robot.send(client_reply(mail, "e5", sender="mallory@example.org")) == []
    assert turns(robot.app, game_id) == []


def test_a_bad_token_changes_nothing(duel):
    robot, (game_id, _, _), mail = duel
    tampered = client_reply(mail, "a1", to=f"play+aaaaaaaaaaaaaaaaaaaaaaaa@{DOMAIN}")
    [explained] = robot.send(tampered)
    assert "not one this server made" in plain_text(explained)
    assert robot.send(client_reply(mail, "a1", to=f"play+bbbbbbbbbbbbbbbbbbbbbbbb@{DOMAIN}")) == []
    assert turns(robot.app, game_id) == []


@pytest.mark.parametrize("headers", [
    {"Auto_Submitted": "auto-replied"},
    {"Precedence": "bulk"},
    {"List_Id": "<players.example.org>"},
    {"Subject": "Out of Office: away"},
    {"X_Loop": f"pbem@{DOMAIN}"},
])
def test_auto_replies_lists_and_loops_get_no_answer(duel, headers):
    robot, (game_id, _, _), mail = duel
    raw = client_reply(mail, "a1")
    msg = parse(raw)
    for name, value in headers.items():
        del msg[name.replace("_", "-")]
        msg[name.replace("_", "-")] = value
    assert robot.send(msg.as_bytes()) == []
    assert turns(robot.app, game_id) == []
    with Session(robot.app.extensions["pbem_engine"]) as s:
        assert s.exec(select(InboxMessage.status)).all()[-1] == "ignored"


def test_a_bounce_gets_no_answer(duel):
    robot, _, mail = duel
    assert robot.send(client_reply(mail, "a1", sender="MAILER-DAEMON@example.org")) == []
    assert robot.send(client_reply(mail, "a1", sender="bob@example.org"), envelope_from="") == []


def test_the_same_message_twice_is_processed_once(duel):
    robot, (game_id, _, _), mail = duel
    raw = client_reply(mail, "a1")
    robot.send(raw)
    assert robot.send(raw) == []
    assert len(turns(robot.app, game_id)) == 1
