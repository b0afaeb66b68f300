"""The computer opponents' addresses (``<level>@bots.pbem.invalid``) are
reserved: nobody gets a sign-in link for one, nor invites one, and no mail
is ever queued to one; a bot's row is made the bot's when a game is made
against it, even when it already existed as an ordinary player's (asked
for a sign-in link before the fix, say), so whoever held its links, tokens
or sessions can no longer sign in as the bot (issue 54, point 10)."""

from __future__ import annotations

import re
from html import unescape

import pytest
from sqlmodel import select
from test_api_games import api, new_game  # noqa: F401

from pbem.db import get_session
from pbem.models import ApiToken, OutboxMessage, Player
from pbem.models.auth import SignInLink, WebSession
from pbem.models.refusals import MailRefusal
from pbem.services import accounts, bot_seats, outbox, web_sessions
from pbem.services.errors import ServiceError

BOT = f"hard@{bot_seats.BOT_DOMAIN}"
#: the ways an address of the bots' domain may be written
SPELLINGS = (BOT, " Hard@Bots.PBEM.invalid ", f"hard+mine@{bot_seats.BOT_DOMAIN}",
             f"nobody@{bot_seats.BOT_DOMAIN}", f"hard@mail.{bot_seats.BOT_DOMAIN}")


def csrf(page) -> str:
    return re.search(r'name="csrf_token" value="([^"]+)"', page.get_data(as_text=True)).group(1)


def bot_mail_and_rows(app) -> tuple[list[str], list[str]]:
    """The outbox rows and the player rows of the bots' domain."""
    with app.app_context():
        session = get_session()
        mail = [m.to_addr for m in session.exec(select(OutboxMessage)) if "bots.pbem.invalid" in m.to_addr.lower()]
        rows = [p.email for p in session.exec(select(Player)) if p.email.endswith("bots.pbem.invalid")]
        return mail, rows


@pytest.mark.parametrize("address", SPELLINGS)
def test_the_sign_in_form_refuses_a_bots_address_and_queues_no_mail(app, address):
    client = app.test_client()
    page = client.get("/auth/sign-in")
    answer = client.post("/auth/sign-in", data={"email": address, "next": "/", "csrf_token": csrf(page)})
    shown = unescape(answer.get_data(as_text=True))
    assert answer.status_code == 403, shown
    assert "is a computer opponent's address" in shown and "no sign-in link" in shown
    assert "vs bot hard" in shown  # what to do instead
    assert bot_mail_and_rows(app) == ([], [])


def test_in_french_the_sign_in_form_refuses_a_bots_address_in_french(app):
    client = app.test_client()
    page = client.get("/auth/sign-in", headers={"Accept-Language": "fr"})
    answer = client.post("/auth/sign-in", data={"email": BOT, "next": "/", "csrf_token": csrf(page)},
                         headers={"Accept-Language": "fr"})
    assert answer.status_code == 403
    assert "est l'adresse d'un adversaire de l'ordinateur" in unescape(answer.get_data(as_text=True))


def test_the_services_give_a_bots_address_no_link_no_player_row_and_no_mail(app):
    with app.test_request_context():
        session = get_session()
        for address in SPELLINGS:
            with pytest.raises(ServiceError, match="computer opponent's address"):
                accounts.send_sign_in_link(session, address)
            with pytest.raises(ServiceError, match="computer opponent's address"):
                accounts.player_for_email(session, address)
        row = outbox.queue(session, BOT, "hello", "a mail for a bot")
        assert row is not None and row not in session  # dropped, as mail to a refusing address is
        pending: list = []
        outbox.queue(session, f"easy@{bot_seats.BOT_DOMAIN}", "hello", "body", pending=pending)
        assert pending == []
        session.commit()
    assert bot_mail_and_rows(app) == ([], [])


def test_an_invitation_of_a_bots_address_is_refused_through_the_api_and_mails_nobody(app, api):  # noqa: F811
    for address in (BOT, f"hard+x@{bot_seats.BOT_DOMAIN}", f"hard@mail.{bot_seats.BOT_DOMAIN}"):
        refused = api("alice", "POST", "/api/v1/games", {"game": "logger", "players": ["alice@example.org", address]})
        assert refused.status_code in (400, 403) and "by its level" in refused.get_json()["error"]
    assert bot_mail_and_rows(app) == ([], [])


def test_a_bots_row_made_as_an_ordinary_players_becomes_the_bots_when_a_game_is_made_against_it(app, api):  # noqa: F811
    # as before the fix: someone asked for a sign-in link for the bot's address, signed in, took an API
    # token, and mail waits for the address
    with app.test_request_context():
        session = get_session()
        squatter = Player(email=BOT, name="Mallory", language="fr")
        session.add(squatter)
        session.flush()
        link = accounts.sign_in_link(session, squatter)
        token = re.search(r"token=([^&\s]+)", link)[1]
        secret, _ = accounts.create_api_token(session, squatter, "mine")
        browser = web_sessions.start(session, squatter)
        session.add(OutboxMessage(to_addr=BOT, subject="Your pbem sign-in link", body=link, kind="sign_in"))
        session.commit()
        squatter_id = squatter.id
    game = new_game(api, players=("alice@example.org",), bots=["hard"])
    assert game["status"] == "active" and game["players"][1]["email"] == BOT
    with app.test_request_context():
        session = get_session()
        bot = session.exec(select(Player).where(Player.email == BOT)).one()
        assert bot.id == squatter_id  # the same row, seated as the bot
        assert bot.name == "Bot (hard)" and bot.language == ""
        assert session.exec(select(MailRefusal).where(MailRefusal.address == BOT)).first() is not None
        assert session.exec(select(SignInLink).where(SignInLink.player_id == bot.id,
                                                     SignInLink.used_at.is_(None))).all() == []
        with pytest.raises(accounts.LinkRefused):
            accounts.use_sign_in_link(session, token)
        assert session.exec(select(ApiToken).where(ApiToken.player_id == bot.id)).all() == []
        assert accounts.player_for_api_token(session, secret) is None
        assert all(s.revoked_at is not None for s in session.exec(select(WebSession).where(
            WebSession.player_id == bot.id)))
        assert web_sessions.player_for(session, browser) is None
        queued = session.exec(select(OutboxMessage).where(OutboxMessage.to_addr == BOT)).all()
        assert queued and all(m.sent_at is None and m.failed_at is not None for m in queued)  # given up
