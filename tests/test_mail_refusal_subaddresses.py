"""A refusal of all mail covers the address's sub-addresses: after
bob@example.org refused, bob+anything@example.org (which most mail services
deliver to bob's own mailbox) can neither be invited nor sent a sign-in
link, and mail already queued for it is not sent."""

from __future__ import annotations

from test_mail_refusal import server  # noqa: F401  (fixture)
from test_web_pages import csrf, sign_in

from pbem.db import get_session
from pbem.services import refusals


def test_a_refusal_covers_the_addresses_plus_sub_addresses(server):
    server.new_game("carol@example.org", "bob+games@example.org")  # queued, not sent yet
    server.new_game("alice@example.org", "bob@example.org")
    with server.app.app_context():
        path = refusal_path_of(server, "bob@example.org")
    assert server.app.test_client().post(path, data={"action": "refuse"}).status_code == 200
    arrived = server.send()
    assert [str(m["To"]) for m in arrived if "bob" in str(m["To"])] == []  # the queued invitation too

    alice = server.app.test_client()
    sign_in(alice, server.app, "alice@example.org")
    server.send()
    form = alice.post("/games/new", data={"kind": "logger", "players": "Bob+pbem@Example.org", "hours": "",
                                           "option-logger-spawn": "seedling",
                                           "csrf_token": csrf(alice.get("/games/new"))})
    assert form.status_code == 403
    assert "bob+pbem@example.org does not accept mail from this server" in form.get_data(as_text=True)

    visitor = server.app.test_client()
    page = visitor.get("/auth/sign-in")
    answer = visitor.post("/auth/sign-in", data={"email": "bob+x@example.org", "next": "/",
                                                 "csrf_token": csrf(page)})
    assert answer.status_code == 403 and "refuses all mail from this server" in answer.get_data(as_text=True)
    assert server.send() == []

    with server.app.app_context():  # only the address and its sub-addresses: not another's
        session = get_session()
        assert not refusals.refuses(session, "bobby@example.org")
        assert not refusals.refuses(session, "bob@example.net")
        assert refusals.refuses(session, "BOB+a+b@example.org")


def refusal_path_of(server, address: str) -> str:
    from urllib.parse import urlsplit

    return urlsplit(refusals.link_for(address)).path


def test_a_sub_address_that_refused_on_its_own_stays_refused_when_its_mailbox_accepts_again(server):
    client = server.app.test_client()
    with server.app.app_context():
        mailbox, sub = refusal_path_of(server, "bob@example.org"), refusal_path_of(server, "bob+games@example.org")
    assert client.post(mailbox, data={"action": "refuse"}).status_code == 200
    assert client.post(sub, data={"action": "refuse"}).status_code == 200
    assert client.post(mailbox, data={"action": "accept"}).status_code == 200
    with server.app.app_context():
        session = get_session()
        assert not refusals.refuses(session, "bob@example.org")
        assert refusals.refuses(session, "bob+games@example.org")
