"""The hourly limit of sign-in links mailed to one address counts the
links mailed to its mailbox: asking for links for bob+1@, bob+2@... (which
most mail services deliver to bob's mailbox) does not get round it, so
nobody can make the server flood a mailbox from the sign-in page."""

from __future__ import annotations

from html import unescape

from sqlmodel import func, select
from test_sign_in_links import csrf

from pbem.db import get_session
from pbem.models import OutboxMessage


def ask(client, email: str):
    page = client.get("/auth/sign-in")
    return client.post("/auth/sign-in", data={"email": email, "csrf_token": csrf(page)})


def test_sign_in_links_to_sub_addresses_share_their_mailboxs_hourly_limit(app, client):
    statuses = [ask(client, f"victim+{n}@example.org").status_code for n in range(6)]
    assert statuses == [200, 200, 200, 429, 429, 429]
    refused = ask(client, "Victim@example.org")
    assert refused.status_code == 429
    assert "3 sign-in links in the last hour" in unescape(refused.get_data(as_text=True))
    assert ask(client, "victims@example.org").status_code == 200  # another mailbox
    with app.app_context():
        sent = get_session().exec(select(func.count()).select_from(OutboxMessage)
                                  .where(OutboxMessage.kind == "sign_in")).one()
    assert sent == 4
