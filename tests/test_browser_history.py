"""Following a game back in a real browser (Playwright driving the system
Chromium, as ``test_browser_game``): two players meet through the lobby
(an open challenge, a seat taken), play three turns, and step through the
game with the keyboard (arrow keys, Home, End), the step buttons and the
move list, the board and the words following without a page load; the
same links work with JavaScript off."""

from __future__ import annotations

import re

import pytest
from test_browser_game import CHROMIUM, browser, sign_in, sync_playwright  # noqa: F401  (fixture)
from test_server_serve import served  # noqa: F401  (fixture)

pytestmark = [
    pytest.mark.skipif(sync_playwright is None, reason="the playwright package is not installed (pip install -e '.[test]')"),
    pytest.mark.skipif(CHROMIUM is None, reason="no Chromium found at /usr/bin/chromium (apt-get install chromium), "
                                                "nor in PBEM_CHROMIUM; the browser test needs one"),
]

if sync_playwright is not None:
    from playwright.sync_api import expect


def _play(page, text: str) -> None:
    page.fill("#turn", text)
    page.click("#play")
    expect(page.locator(".flash")).to_contain_text(f"You played {text}.")


def test_stepping_through_a_game_with_the_keyboard(browser, served):
    alice = sign_in(browser, served, "alice@example.org")
    bob = sign_in(browser, served, "bob@example.org")

    alice.click("text=New game")
    alice.select_option("select[name=kind]", "logger")
    alice.fill("textarea[name=players]", "alice@example.org")
    alice.fill("input[name=open_seats]", "1")
    alice.click("text=Create the game and send the invitations")
    expect(alice.locator("#game-status")).to_have_text("inviting")
    game_url = alice.url.split("?")[0]
    game_id = game_url.rsplit("/", 1)[1]

    bob.click("nav >> text=Lobby")
    expect(bob.locator(f"#challenge-{game_id}")).to_contain_text("player #")
    bob.locator(f"#challenge-{game_id} button.join").click()
    expect(bob.locator("#game-status")).to_have_text("active")
    expect(bob.locator("#waiting")).to_contain_text("It is alice's turn (player 1, red)")

    alice.goto(game_url)
    _play(alice, "a1")
    bob.goto(game_url)
    _play(bob, "e5")
    alice.goto(game_url)
    _play(alice, "G P:a2")

    page = alice
    board = page.locator("#board")
    where = page.locator("#step-where")
    expect(board).to_have_attribute("src", re.compile(r"/board/3\.svg$"))
    expect(where).to_have_text("After turn 3 of 3 (now)")
    expect(page.locator("#history")).to_have_attribute("data-ready", "true")  # history.js listens (deferred)
    page.locator("h1").click()  # the focus on the page, not in the turn box

    page.keyboard.press("ArrowLeft")
    expect(board).to_have_attribute("src", re.compile(r"/board/2\.svg$"))
    expect(where).to_have_text("After turn 2 of 3")
    expect(page.locator("#ply-2")).to_have_attribute("aria-current", "step")
    assert page.url.endswith("?ply=2")  # the address follows, so it can be shared or reloaded
    page.wait_for_function("document.getElementById('board').complete && "
                           "document.getElementById('board').naturalWidth > 0")

    page.keyboard.press("Home")
    expect(board).to_have_attribute("src", re.compile(r"/board/0\.svg$"))
    expect(where).to_have_text("The start, before the first turn")
    page.keyboard.press("ArrowLeft")  # nothing before the start
    expect(where).to_have_text("The start, before the first turn")
    page.keyboard.press("ArrowRight")
    expect(where).to_have_text("After turn 1 of 3")
    expect(page.locator("#step-forward")).to_have_attribute("href", re.compile(r"\?ply=2$"))
    page.keyboard.press("End")
    expect(where).to_have_text("After turn 3 of 3 (now)")
    page.keyboard.press("ArrowRight")  # nothing after now
    expect(board).to_have_attribute("src", re.compile(r"/board/3\.svg$"))

    # the step buttons and the move list do the same without loading the page
    page.evaluate("window.__same_page = true")
    page.click("#step-back")
    expect(where).to_have_text("After turn 2 of 3")
    page.locator("#ply-1").click()
    expect(board).to_have_attribute("src", re.compile(r"/board/1\.svg$"))
    assert page.evaluate("window.__same_page") is True

    # typing in the turn box is not stepping (bob is to move)
    bob.goto(game_url)
    bob.focus("#turn")
    bob.keyboard.press("ArrowLeft")
    expect(bob.locator("#step-where")).to_have_text("After turn 3 of 3 (now)")
    expect(bob.locator("#legend")).to_contain_text("player 2 (blue): bob (you)")


def test_the_step_links_work_without_javascript(browser, served):
    alice = sign_in(browser, served, "alice@example.org")
    bob = sign_in(browser, served, "bob@example.org")
    alice.click("text=New game")
    alice.fill("textarea[name=players]", "alice@example.org\nbob@example.org")
    alice.click("text=Create the game and send the invitations")
    game_url = alice.url.split("?")[0]
    bob.goto(game_url)
    bob.click("text=Accept the invitation")
    alice.goto(game_url)
    _play(alice, "a1")

    bare = browser.new_context(java_script_enabled=False)
    bare.add_cookies(alice.context.cookies())
    page = bare.new_page()
    page.set_default_timeout(15000)
    page.goto(game_url)
    expect(page.locator("#step-where")).to_have_text("After turn 1 of 1 (now)")
    page.click("#step-back")  # a link: the page loads at that turn
    page.wait_for_url(re.compile(r"\?ply=0$"))
    expect(page.locator("#board")).to_have_attribute("src", re.compile(r"/board/0\.svg$"))
    expect(page.locator("#step-where")).to_have_text("The start, before the first turn")
    page.click("#ply-1")
    page.wait_for_url(re.compile(r"\?ply=1$"))
    expect(page.locator("#board")).to_have_attribute("src", re.compile(r"/board/1\.svg$"))
    bare.close()
