"""Signing in by mailed link as a person (and an attacker) meets it: where the
link leads afterwards, a link working once, opening a link without signing
in, login CSRF, signing out ending the session on the server, and signing
out everywhere."""

from __future__ import annotations

import re
import threading
from datetime import timedelta
from html import unescape

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlmodel import select

from pbem import models
from pbem.db import get_session
from pbem.models import OutboxMessage
from pbem.services import accounts


def csrf(page) -> str:
    return re.search(r'name="csrf_token" value="([^"]+)"', page.get_data(as_text=True)).group(1)


def text(response) -> str:
    return unescape(response.get_data(as_text=True))


def ask_for_link(app, client, email: str, next_path: str = "/") -> str:
    """Ask for a sign-in link on the sign-in page; the path of the link mailed."""
    page = client.get("/auth/sign-in")
    response = client.post("/auth/sign-in", data={"email": email, "next": next_path, "csrf_token": csrf(page)})
    assert response.status_code == 200, text(response)
    with app.app_context():
        mail = get_session().exec(select(OutboxMessage).where(OutboxMessage.to_addr == email)
                                  .order_by(OutboxMessage.id.desc())).first()
    return re.search(r"http://pbem\.test(/auth/verify\S+)", mail.body).group(1)


def confirm(client, link: str):
    """Open the link and press its sign-in button."""
    page = client.get(link)
    assert page.status_code == 200, text(page)
    token = re.search(r'name="token" value="([^"]+)"', page.get_data(as_text=True)).group(1)
    return client.post("/auth/verify", data={"token": token, "csrf_token": csrf(page)})


def who(client) -> str | None:
    match = re.search(r'class="who">([^<]+)<', client.get("/").get_data(as_text=True))
    return match.group(1) if match else None


# -- where a link leads after signing in ------------------------------------------
EVIL_NEXTS = [
    "/\t/evil.example", "/\n/evil.example", "/\r\n/evil.example", "\t//evil.example", " //evil.example",
    "\x00//evil.example", "/\\evil.example", "\\/evil.example", "\\\\evil.example", "//evil.example",
    "https://evil.example/", "javascript:alert(1)", "evil.example", "/\t\\evil.example", "\x7f//evil.example",
    "",
]


@pytest.mark.parametrize("next_path", EVIL_NEXTS)
def test_a_mailed_link_never_leads_off_site(app, client, next_path):
    link = ask_for_link(app, client, "alice@example.org", next_path)
    response = confirm(client, link)
    assert response.status_code == 302
    assert response.headers["Location"] == "/"
    assert who(client) == "alice@example.org"


def test_line_breaks_in_next_add_no_header(app, client):
    link = ask_for_link(app, client, "alice@example.org", "/\r\nSet-Cookie: x=1")
    response = confirm(client, link)
    assert response.headers["Location"] == "/Set-Cookie:%20x=1"
    assert not any("x=1" in header for header in response.headers.getlist("Set-Cookie"))


@pytest.mark.parametrize("next_path", ["/\r\n/evil.example", "/\x00", "/\u2028x", "/games/\u00e9"])
def test_the_sign_in_page_takes_any_next_without_failing(client, next_path):
    page = client.get("/auth/sign-in", query_string={"next": next_path})
    assert page.status_code == 200
    kept = re.search(r'name="next" value="([^"]*)"', text(page)).group(1)
    assert kept.startswith("/") and kept[1:2] not in ("/", "\\")


def test_a_local_next_is_kept_through_the_mailed_link(app, client):
    link = ask_for_link(app, client, "alice@example.org", "/games/1?tab=record")
    assert confirm(client, link).headers["Location"] == "/games/1?tab=record"


@given(st.text(alphabet=st.sampled_from(list("/\\\t\r\n \x00\x1fab.:%?#@\x7f\u00e9")), max_size=12))
@settings(max_examples=300, deadline=None)
def test_safe_next_is_always_a_path_on_this_site(path):
    result = accounts.safe_next(path)
    assert result.startswith("/")
    assert result[1:2] not in ("/", "\\")
    assert all(0x20 < ord(c) < 0x7f for c in result), result


# -- a link works once, and only by pressing its button ---------------------------
def test_a_sign_in_link_works_once(app, client):
    link = ask_for_link(app, client, "alice@example.org")
    assert confirm(client, link).status_code == 302
    assert who(client) == "alice@example.org"

    other = app.test_client()
    page = other.get(link)
    assert page.status_code == 400
    assert "already been used" in text(page)
    assert 'name="email" value="alice@example.org"' in text(page)  # a form to ask for a new one
    token = re.search(r"token=([^&]+)", link).group(1)
    second = other.post("/auth/verify", data={"token": token, "csrf_token": csrf(page)})
    assert second.status_code == 400 and "already been used" in text(second)
    assert who(other) is None


def test_opening_a_link_shows_a_button_and_neither_signs_in_nor_uses_it(app, client):
    link = ask_for_link(app, client, "alice@example.org")
    scanner = app.test_client()
    for _ in range(3):
        page = scanner.get(link)
        assert page.status_code == 200
        assert "Sign in as alice@example.org" in text(page)
    assert who(scanner) is None
    assert confirm(client, link).status_code == 302
    assert who(client) == "alice@example.org"


def test_opening_your_own_link_again_when_signed_in_goes_to_its_page(app, client):
    link = ask_for_link(app, client, "alice@example.org", "/tokens")
    assert confirm(client, link).headers["Location"] == "/tokens"
    again = client.get(link)
    assert again.status_code == 302 and again.headers["Location"] == "/tokens"
    assert app.test_client().get(link).status_code == 400  # used, for anyone else

    unused = ask_for_link(app, client, "alice@example.org", "/settings")
    assert client.get(unused).headers["Location"] == "/settings"
    assert confirm(app.test_client(), unused).status_code == 302  # not used up by that


def test_a_link_cannot_be_used_without_the_page_the_same_browser_was_shown(app, client):
    """Login CSRF: an attacker's own link, posted from another site into the
    victim's browser, neither with no CSRF token nor with the attacker's."""
    attacker = app.test_client()
    link = ask_for_link(app, attacker, "mallory@example.org")
    attackers_page = attacker.get(link)
    token = re.search(r'name="token" value="([^"]+)"', attackers_page.get_data(as_text=True)).group(1)

    victim = app.test_client()
    assert victim.post("/auth/verify", data={"token": token}).status_code == 400
    forged = victim.post("/auth/verify", data={"token": token, "csrf_token": csrf(attackers_page)})
    assert forged.status_code == 400
    assert who(victim) is None
    assert confirm(attacker, link).status_code == 302  # not used up by the attempts


def test_two_racing_presses_sign_in_once(app):
    link = ask_for_link(app, app.test_client(), "alice@example.org")
    browsers = [app.test_client() for _ in range(4)]
    forms = []
    for browser in browsers:
        page = browser.get(link)
        forms.append({"token": re.search(r'name="token" value="([^"]+)"', page.get_data(as_text=True)).group(1),
                      "csrf_token": csrf(page)})
    barrier = threading.Barrier(len(browsers))
    statuses = []

    def press(browser, form):
        barrier.wait()
        statuses.append(browser.post("/auth/verify", data=form).status_code)

    threads = [threading.Thread(target=press, args=pair) for pair in zip(browsers, forms)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(statuses) == [302, 400, 400, 400]
    assert sum(who(browser) == "alice@example.org" for browser in browsers) == 1


def test_an_expired_link_says_so_and_offers_a_new_one(app, client, monkeypatch):
    link = ask_for_link(app, client, "alice@example.org")
    later = models.CLOCK() + timedelta(seconds=app.config["SIGN_IN_MAX_AGE"] + 1)
    monkeypatch.setattr(models, "CLOCK", lambda: later)
    page = client.get(link)
    assert page.status_code == 400
    assert "expired" in text(page) and 'name="email" value="alice@example.org"' in text(page)
    assert who(client) is None


def test_a_forged_link_is_explained(client):
    page = client.get("/auth/verify?token=forged")
    assert page.status_code == 400 and "not valid" in text(page)
    assert client.get("/auth/verify").status_code == 400


# -- sessions end on the server ---------------------------------------------------
def signed_in_client(app, email: str):
    client = app.test_client()
    assert confirm(client, ask_for_link(app, client, email)).status_code == 302
    return client


def copy_cookie(source, target) -> None:
    cookie = source.get_cookie("session")
    target.set_cookie("session", cookie.value, domain=cookie.domain)


def test_a_copied_session_cookie_stops_working_after_signing_out(app):
    alice = signed_in_client(app, "alice@example.org")
    thief = app.test_client()
    copy_cookie(alice, thief)
    assert who(thief) == "alice@example.org"
    assert thief.get("/api/v1/me").status_code == 200

    page = alice.get("/")
    assert alice.post("/auth/sign-out", data={"csrf_token": csrf(page)}).status_code == 302
    assert who(alice) is None
    assert who(thief) is None
    assert thief.get("/games/new").status_code == 302
    assert thief.get("/api/v1/me").status_code == 401


def test_signing_out_everywhere_ends_every_session_of_the_player(app):
    laptop = signed_in_client(app, "alice@example.org")
    phone = signed_in_client(app, "alice@example.org")
    bob = signed_in_client(app, "bob@example.org")
    settings_page = laptop.get("/settings")
    assert "Sign out everywhere" in text(settings_page)
    response = laptop.post("/auth/sign-out-everywhere", data={"csrf_token": csrf(settings_page)},
                           follow_redirects=True)
    assert "Signed out on every device (2 sessions ended)" in text(response)
    assert who(laptop) is None and who(phone) is None
    assert who(bob) == "bob@example.org"


def test_signing_out_everywhere_needs_sign_in_and_the_form(app, client):
    page = client.get("/auth/sign-in")
    response = client.post("/auth/sign-out-everywhere", data={"csrf_token": csrf(page)})
    assert response.status_code == 302 and "/auth/sign-in" in response.headers["Location"]
    alice = signed_in_client(app, "alice@example.org")
    assert alice.post("/auth/sign-out-everywhere").status_code == 400
    assert who(alice) == "alice@example.org"
