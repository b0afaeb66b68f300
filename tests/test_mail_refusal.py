"""Refusing all mail from the server with the link every mail carries (in
its text, its HTML and its List-Unsubscribe header, RFC 8058), and accepting
it again.  Mail is sent to a real SMTP server (aiosmtpd) and the link is
taken from the mail as it arrived."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest
from aiosmtpd.controller import Controller
from sqlmodel import Session, select
from test_email_commands import ROBOT, fresh_mail, mail_app, parse, plain_text
from test_mail_transport import SinkHandler, free_port
from test_web_pages import csrf, sign_in

from pbem.db import get_session
from pbem.mailrobot import jobs
from pbem.models import Game, OutboxMessage
from pbem.services import games
from pbem.services.accounts import create_api_token, player_for_email

LINK = re.compile(r"http://pbem\.test(/mail/refuse/[A-Za-z0-9_.\-]+)")


class Server:
    """The app with mail going to a real SMTP server; ``send()`` drains the
    outbox and returns the messages that arrived since the last call."""

    def __init__(self, app, handler):
        self.app, self.handler, self.seen = app, handler, 0

    def send(self) -> list:
        jobs.drain_outbox(self.app)
        new = [parse(raw) for _, _, raw in self.handler.messages[self.seen:]]
        self.seen = len(self.handler.messages)
        return new

    def to(self, address: str) -> list:
        return [m for m in self.send() if address in str(m["To"])]

    def new_game(self, creator: str, *invited: str) -> Game:
        with self.app.app_context():
            session = get_session()
            return games.create_game(session, player_for_email(session, creator), "logger", [creator, *invited])


@pytest.fixture
def server(database_config):
    port = free_port()
    handler = SinkHandler()
    controller = Controller(handler, hostname="127.0.0.1", port=port)
    controller.start()
    app = mail_app(database_config, SMTP_HOST="127.0.0.1", SMTP_PORT=port, SMTP_TIMEOUT=5)
    yield Server(app, handler)
    controller.stop()
    app.extensions["pbem_engine"].dispose()


def refusal_path(message) -> str:
    """The refusal link's path, checked to be the same in the text, the HTML and the header."""
    header = str(message["List-Unsubscribe"])
    assert header.startswith("<http://pbem.test/mail/refuse/") and header.endswith(">")
    assert str(message["List-Unsubscribe-Post"]) == "List-Unsubscribe=One-Click"
    in_text = LINK.search(plain_text(message)).group(0)
    html = message.get_body(preferencelist=("html",)).get_content()
    assert f'href="{in_text}"' in html
    assert header == f"<{in_text}>"
    return urlsplit(in_text).path


def test_every_mail_carries_the_refusal_link_and_one_click_stops_all_mail_to_the_address(server):
    game = server.new_game("alice@example.org", "bob@example.org")
    [invitation] = server.to("bob@example.org")
    path = refusal_path(invitation)
    client = server.app.test_client()

    page = client.get(path)  # a mail scanner opening the link refuses nothing
    assert page.status_code == 200
    assert "bob@example.org" in page.get_data(as_text=True) and "Refuse all mail" in page.get_data(as_text=True)
    with server.app.app_context():
        session = get_session()
        games.accept(session, game.id, player_for_email(session, "bob@example.org"))
    assert len(server.to("bob@example.org")) == 1  # still mailed: the game has started

    # the mail client's one-click POST (RFC 8058): no CSRF token, no cookie
    answer = server.app.test_client().post(path, data={"List-Unsubscribe": "One-Click"})
    assert answer.status_code == 200 and "sends no more mail to bob@example.org" in answer.get_data(as_text=True)

    with server.app.app_context():
        session = get_session()
        games.offer_draw(session, game.id, player_for_email(session, "alice@example.org"))  # mails bob
        games.resign(session, game.id, player_for_email(session, "alice@example.org"))  # mails both
    arrived = server.send()
    assert [str(m["To"]) for m in arrived] == ["alice@example.org"]  # the game's end; nothing to bob
    assert [tos for _, tos, _ in server.handler.messages[-1:]] == [["alice@example.org"]]


def test_inviting_an_address_that_refused_mail_is_refused_on_the_web_the_api_and_by_mail(server):
    server.new_game("carol@example.org", "bob@example.org")
    path = refusal_path(server.to("bob@example.org")[0])
    assert server.app.test_client().post(path, data={"action": "refuse"}).status_code == 200
    app = server.app

    alice = app.test_client()
    sign_in(alice, app, "alice@example.org")
    server.send()
    form = alice.post("/games/new", data={"kind": "logger", "players": "bob@example.org", "hours": "",
                                           "option-logger-spawn": "seedling",
                                           "csrf_token": csrf(alice.get("/games/new"))})
    assert form.status_code == 403
    assert "bob@example.org does not accept mail from this server" in form.get_data(as_text=True)

    with app.app_context():
        session = get_session()
        token, _ = create_api_token(session, player_for_email(session, "alice@example.org"))
    api = app.test_client().post("/api/v1/games", json={"game": "logger", "players": ["bob@example.org"]},
                                 headers={"Authorization": f"Bearer {token}"})
    assert api.status_code == 403 and "does not accept mail from this server" in api.get_json()["error"]

    from pbem.mailrobot.inbox import store_in

    store_in(app.extensions["pbem_engine"])(fresh_mail("alice@example.org", ROBOT, "new logger with bob@example.org"),
                                            None, [])
    jobs.process_inbox(app)
    [answer] = server.send()
    assert str(answer["To"]) == "alice@example.org"
    assert "bob@example.org does not accept mail from this server" in plain_text(answer)
    with Session(app.extensions["pbem_engine"]) as s:
        assert len(s.exec(select(Game)).all()) == 1  # only carol's, from before the refusal


def test_mail_already_queued_is_not_sent_and_answers_to_its_own_mail_neither(server):
    server.new_game("alice@example.org", "bob@example.org")
    with Session(server.app.extensions["pbem_engine"]) as s:
        row = s.exec(select(OutboxMessage).where(OutboxMessage.to_addr == "bob@example.org")).one()
    with server.app.app_context():  # the link of the mail waiting in the outbox
        from pbem.mailrobot.outgoing import compose
        from pbem.mailrobot.settings import mail_settings

        with Session(server.app.extensions["pbem_engine"]) as s:
            path = refusal_path(compose(s, mail_settings(server.app.config), s.get(OutboxMessage, row.id)))
    assert server.app.test_client().post(path, data={"action": "refuse"}).status_code == 200
    assert [str(m["To"]) for m in server.send()] == []

    from pbem.mailrobot.inbox import store_in

    store_in(server.app.extensions["pbem_engine"])(fresh_mail("Bob@Example.org", ROBOT, "help"), None, [])
    jobs.process_inbox(server.app)
    assert server.send() == []  # not even an answer to a mail From: the address (it may be forged)


def test_a_refused_address_gets_no_sign_in_link_and_is_told_how_to_accept_mail_again(server):
    server.new_game("alice@example.org", "bob@example.org")
    path = refusal_path(server.to("bob@example.org")[0])
    client = server.app.test_client()
    assert client.post(path, data={"action": "refuse"}).status_code == 200
    page = client.get("/auth/sign-in")
    answer = client.post("/auth/sign-in", data={"email": "bob@example.org", "next": "/", "csrf_token": csrf(page)})
    assert answer.status_code == 403
    text = answer.get_data(as_text=True)
    assert "refuses all mail from this server" in text and "Accept mail from this server again" in text
    assert server.send() == []

    again = client.get(path)
    assert "Accept mail from this server again" in again.get_data(as_text=True)
    assert client.post(path, data={"action": "accept"}).status_code == 200
    page = client.get("/auth/sign-in")
    assert client.post("/auth/sign-in", data={"email": "bob@example.org", "next": "/",
                                              "csrf_token": csrf(page)}).status_code == 200
    [link_mail] = server.to("bob@example.org")
    assert "sign-in" in str(link_mail["Subject"])


def test_a_signed_in_player_finds_the_refusal_page_in_settings(server):
    client = server.app.test_client()
    sign_in(client, server.app, "alice@example.org")
    settings = client.get("/settings").get_data(as_text=True)
    assert "<title>Settings · pbem</title>" in settings and settings.count('id="refuse-mail"') == 1
    page = client.get("/settings/mail", follow_redirects=True)
    assert page.status_code == 200 and "alice@example.org" in page.get_data(as_text=True)
    assert page.request.path.startswith("/mail/refuse/")


@pytest.mark.parametrize("token", ["nonsense", "eyJyZWZ1c2UiOiJib2JAZXhhbXBsZS5vcmcifQ.forged", "x" * 2000])
def test_a_bad_refusal_link_is_explained_and_changes_nothing(server, token):
    client = server.app.test_client()
    for answer in (client.get(f"/mail/refuse/{token}"), client.post(f"/mail/refuse/{token}",
                                                                    data={"List-Unsubscribe": "One-Click"})):
        assert answer.status_code == 400
        assert "this link is not valid" in answer.get_data(as_text=True)


def test_a_post_that_says_neither_refuse_nor_accept_changes_nothing(server):
    server.new_game("alice@example.org", "bob@example.org")
    path = refusal_path(server.to("bob@example.org")[0])
    answer = server.app.test_client().post(path, data={"action": "unsubscribe-me-maybe"})
    assert answer.status_code == 400 and "action=refuse or action=accept" in answer.get_data(as_text=True)
    server.new_game("alice@example.org", "bob@example.org")
    assert len(server.to("bob@example.org")) == 1
