"""The pages keep to their content security policy in a real browser:
Chromium (through Playwright) visits every kind of page of a running
``pbem serve`` -- welcome, sign-in, check your mail, the local mailbox, my
games, new game, a game with the live preview, the preview board and the
legal turns working, the resign confirmation, the lobby, the games' guide pages, a player's page,
a past position, settings, refusing all mail
(and accepting it again), API tokens and an error page -- and no CSP
violation is reported, while each page is served with the policy."""

from __future__ import annotations

import pytest
from test_browser_game import CHROMIUM, browser, sync_playwright  # noqa: F401  (fixture)
from test_server_serve import served  # noqa: F401  (fixture)

pytestmark = [
    pytest.mark.skipif(sync_playwright is None, reason="the playwright package is not installed (pip install -e '.[test]')"),
    pytest.mark.skipif(CHROMIUM is None, reason="no Chromium found at /usr/bin/chromium (apt-get install chromium), "
                                                "nor in PBEM_CHROMIUM; the browser test needs one"),
]

if sync_playwright is not None:
    from playwright.sync_api import expect

#: records every securitypolicyviolation event of every page, before any page script runs
WATCH = """
document.addEventListener("securitypolicyviolation", function (event) {
  var seen = JSON.parse(sessionStorage.getItem("csp-violations") || "[]");
  seen.push(event.violatedDirective + " blocked " + (event.blockedURI || "inline") + " at " + location.pathname);
  sessionStorage.setItem("csp-violations", JSON.stringify(seen));
});
"""


class Visitor:
    """One signed-in (or not) browser context that checks every page it
    loads: served with the policy, and no violation reported."""

    def __init__(self, browser, base: str):
        self.base = base
        self.context = browser.new_context()
        self.context.add_init_script(WATCH)
        self.page = self.context.new_page()
        self.page.set_default_timeout(15000)
        self.problems: list[str] = []
        self.visited: list[str] = []
        self.page.on("console", self._console)
        self.page.on("response", self._response)

    def _console(self, message) -> None:
        if "Content Security Policy" in message.text or "Refused to" in message.text:
            self.problems.append(f"console: {message.text}")

    def _response(self, response) -> None:
        if response.request.resource_type != "document":
            return
        self.visited.append(response.url)
        policy = response.headers.get("content-security-policy", "")
        if "script-src 'self'" not in policy or "frame-ancestors 'none'" not in policy:
            self.problems.append(f"{response.url} was served without the content security policy: {policy!r}")

    def goto(self, path: str):
        return self.page.goto(self.base + path)

    def violations(self) -> list[str]:
        seen = self.page.evaluate("JSON.parse(sessionStorage.getItem('csp-violations') || '[]')")
        return self.problems + seen


def sign_in(visitor: Visitor, email: str) -> None:
    page = visitor.page
    visitor.goto("/")
    expect(page.locator("body")).to_contain_text("Sign in")
    visitor.goto("/auth/sign-in")
    page.fill("input[name=email]", email)
    page.click("text=Mail me a sign-in link")
    expect(page.locator("h1")).to_have_text("Check your mail")
    page.click("text=mailbox")
    expect(page.locator("h1")).to_have_text("Local mailbox")
    page.locator(f"article[data-to='{email}'] a[href*='/auth/verify']").first.click()
    expect(page.locator("h1")).to_have_text(f"Sign in as {email}")  # the link's confirmation page
    page.click("#confirm-sign-in")
    expect(page.locator(".who")).to_have_text(email)


def test_every_kind_of_page_keeps_to_the_content_security_policy(browser, served):
    alice, bob = Visitor(browser, served), Visitor(browser, served)
    sign_in(alice, "alice@example.org")
    sign_in(bob, "bob@example.org")
    page = alice.page

    alice.goto("/games/new")
    page.select_option("select[name=kind]", "logger")
    page.fill("textarea[name=players]", "alice@example.org\nbob@example.org")
    page.click("text=Create the game and send the invitations")
    expect(page.locator("#game-status")).to_have_text("inviting")
    game_path = page.url[len(served):]

    bob.goto("/")
    bob.page.click("table.games a")
    bob.page.click("text=Accept the invitation")
    expect(bob.page.locator("#game-status")).to_have_text("active")

    alice.goto(game_path)
    assert page.evaluate("document.getElementById('board').naturalWidth") > 0  # the board image loaded
    page.fill("#turn", "c3")
    expect(page.locator("#live-preview")).to_contain_text("corner")  # the preview script runs and fetches
    page.fill("#turn", "A1")
    expect(page.locator("#live-preview")).to_have_text("OK: a1")
    page.click("text=Preview")
    expect(page.locator("#preview-canonical")).to_have_text("a1")  # the inline preview board
    page.click("text=Legal turns")
    first_legal = page.locator("ul.legal code").first.text_content()
    page.locator("ul.legal code").first.click()  # the script copies it into the turn box
    expect(page.locator("#turn")).to_have_value(first_legal)
    page.click("#play")
    expect(page.locator(".flash")).to_contain_text(f"You played {first_legal}.")

    bob.goto(game_path)
    bob.page.click("#resign")
    expect(bob.page.locator("h1")).to_contain_text("Resign game")
    bob.page.click("#keep-playing")
    expect(bob.page.locator("#game-status")).to_have_text("active")

    alice.goto("/settings/mail")  # the page of the link that refuses all mail, and its button
    expect(page.locator("h1")).to_have_text("Mail from this server")
    page.click("text=Refuse all mail from this server")
    expect(page.locator(".flash")).to_contain_text("sends no more mail to alice@example.org")
    page.click("text=Accept mail from this server again")
    expect(page.locator(".flash")).to_contain_text("gets mail from this server again")

    for path in ("/settings", "/tokens", "/", "/dev/mail", "/lobby", "/rules", "/rules/logger", "/players/1",
                 game_path + "?ply=0", "/games/999999", "/no-such-page"):
        alice.goto(path)
    expect(page.locator("h1")).to_have_text("404")

    assert any(url.endswith("/tokens") for url in alice.visited)
    assert alice.violations() == [] and bob.violations() == []
