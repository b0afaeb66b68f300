"""A real browser (Playwright driving the system Chromium) plays a Logger
game between two players through the pages of a running ``pbem serve``:
sign-in by the mailed link, a new game, an accepted invitation, turns from
both sides, an illegal turn refused with its message, and the record
downloaded and accepted by ``pbem record check``."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest
from test_server_serve import served  # noqa: F401  (fixture)

CHROMIUM = os.environ.get("PBEM_CHROMIUM") or shutil.which("chromium") or (
    "/usr/bin/chromium" if os.path.exists("/usr/bin/chromium") else None
)

try:
    from playwright.sync_api import expect, sync_playwright
except ImportError:  # pragma: no cover - the test extra installs it
    sync_playwright = None

pytestmark = [
    pytest.mark.skipif(sync_playwright is None, reason="the playwright package is not installed (pip install -e '.[test]')"),
    pytest.mark.skipif(CHROMIUM is None, reason="no Chromium found at /usr/bin/chromium (apt-get install chromium), "
                                                "nor in PBEM_CHROMIUM; the browser test needs one"),
]


@pytest.fixture
def browser():
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM,
            args=["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        )
        yield browser
        browser.close()


def sign_in(browser, base: str, email: str):
    page = browser.new_context(accept_downloads=True).new_page()
    page.set_default_timeout(15000)
    page.goto(base + "/auth/sign-in")
    page.fill("input[name=email]", email)
    page.click("text=Mail me a sign-in link")
    expect(page.locator("h1")).to_have_text("Check your mail")
    page.click("text=mailbox")
    page.locator(f"article[data-to='{email}'] a[href*='/auth/verify']").first.click()
    expect(page.locator("h1")).to_have_text(f"Sign in as {email}")
    page.click("#confirm-sign-in")
    expect(page.locator(".who")).to_have_text(email)
    return page


def play(page, text: str) -> None:
    page.reload()
    page.fill("#turn", text)
    page.click("#play")


def test_two_players_play_logger_in_the_browser(browser, served, tmp_path):
    alice = sign_in(browser, served, "alice@example.org")
    bob = sign_in(browser, served, "bob@example.org")

    alice.click("text=New game")
    alice.select_option("select[name=kind]", "logger")
    alice.fill("textarea[name=players]", "alice@example.org\nbob@example.org")
    alice.click("text=Create the game and send the invitations")
    expect(alice.locator("#game-status")).to_have_text("inviting")
    game_url = alice.url

    bob.goto(served + "/")
    expect(bob.locator("table.games")).to_contain_text("answer the invitation")
    bob.click("table.games a")
    bob.click("text=Accept the invitation")
    expect(bob.locator("#game-status")).to_have_text("active")

    alice.goto(game_url)
    alice.fill("#turn", "A1")
    expect(alice.locator("#live-preview")).to_have_text("OK: a1")  # the preview as you type
    alice.click("#play")
    expect(alice.locator(".flash")).to_contain_text("You played a1.")

    bob.goto(game_url)
    play(bob, "c3")
    expect(bob.locator("#turn-error")).to_contain_text("corner")
    play(bob, "e5")
    expect(bob.locator(".flash")).to_contain_text("You played e5.")

    play(alice, "a1-a3 G P:b3")
    expect(alice.locator(".flash")).to_contain_text("You played a1-a3 G P:b3.")
    bob.reload()
    bob.click("text=Legal turns")
    first_legal = bob.locator("ul.legal code").first.text_content()
    bob.locator("ul.legal code").first.click()  # copies it into the turn box
    expect(bob.locator("#turn")).to_have_value(first_legal)
    bob.click("#play")
    expect(bob.locator(".flash")).to_contain_text(f"You played {first_legal}.")
    expect(bob.locator("#moves li")).to_have_count(2)
    expect(bob.locator("#board")).to_be_visible()

    with alice.expect_download() as download:
        alice.click("#record-pgn")
    path = tmp_path / "game.pgn"
    download.value.save_as(path)
    check = subprocess.run([sys.executable, "-m", "pbem", "record", "check", str(path)], capture_output=True, text=True)
    assert check.returncode == 0, check.stderr
    assert check.stdout.startswith("ok: 4 turns")
