"""A live game page in a real browser (Playwright driving the system
Chromium, on a real ``pbem serve``): an opponent's turn appears on an open
game page without a reload (the board, the move list, "your turn" and the
turn box), what the player is typing stays, a draw offer and the result
show up too; a player stepping back through the game is not interrupted
but told the game moved on, and can show it; without JavaScript the page
is as before."""

from __future__ import annotations

import re
import time

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

#: how long a change may take to show on an open page (the goal is under a second; the machine is shared)
SOON = 3000


def _meet(alice, bob) -> str:
    """Alice opens a challenge of Logger, Bob takes the seat; the game's address."""
    alice.click("text=New game")
    alice.select_option("select[name=kind]", "logger")
    alice.fill("textarea[name=players]", "alice@example.org")
    alice.fill("input[name=open_seats]", "1")
    alice.click("text=Create the game and send the invitations")
    expect(alice.locator("#game-status")).to_have_text("inviting")
    game_url = alice.url.split("?")[0]
    game_id = game_url.rsplit("/", 1)[1]
    bob.click("nav >> text=Lobby")
    bob.locator(f"#challenge-{game_id} button.join").click()
    expect(bob.locator("#game-status")).to_have_text("active")
    return game_url


def _listening(page) -> None:
    expect(page.locator("#live")).to_have_attribute("data-listening", "true")
    page.evaluate("window.__sameDocument = true")  # gone if the page were loaded again


def _same_document(page) -> bool:
    return page.evaluate("window.__sameDocument === true")


def test_an_opponents_turn_appears_on_an_open_game_page_without_reload(browser, served):
    alice = sign_in(browser, served, "alice@example.org")
    bob = sign_in(browser, served, "bob@example.org")
    game_url = _meet(alice, bob)
    # alice's page was open while bob took the seat: it shows the game started, her turn
    expect(alice.locator("#game-status")).to_have_text("active", timeout=SOON)
    expect(alice.locator("h2", has_text="Your turn")).to_be_visible()
    _listening(alice)
    bob.goto(game_url)
    _listening(bob)
    expect(bob.locator("#waiting")).to_contain_text("It is alice's turn")

    alice.fill("#turn", "a1")
    started = time.monotonic()
    alice.click("#play")
    expect(bob.locator("h2", has_text="Your turn")).to_be_visible(timeout=SOON)
    took = time.monotonic() - started
    expect(bob.locator("#ply-1")).to_contain_text("a1")
    expect(bob.locator("#board")).to_have_attribute("src", re.compile(r"/board/1\.svg$"))
    expect(bob.locator("#turn")).to_be_visible()
    assert _same_document(bob), "bob's page was not loaded again"
    assert took < SOON / 1000, took

    # bob starts typing; alice offers a draw meanwhile: it shows, and his text stays
    bob.fill("#turn", "e")
    alice.goto(game_url)
    alice.click("text=Offer a draw")
    expect(bob.locator("button", has_text="Agree to the draw")).to_be_visible(timeout=SOON)
    expect(bob.locator("#turn")).to_have_value("e")
    bob.fill("#turn", "e5")
    bob.click("#play")
    expect(alice.locator("#ply-2")).to_contain_text("e5", timeout=SOON)
    expect(alice.locator("button", has_text="Offer a draw")).to_be_visible()  # a turn withdrew the offer

    # bob resigns: alice's open page shows the result
    _listening(alice)
    bob.click("#resign")
    bob.click("text=Yes, I resign")
    expect(alice.locator("#verdict")).to_contain_text("alice", timeout=SOON)
    expect(alice.locator("#game-status")).to_have_text("finished")
    assert _same_document(alice)


def test_stepping_back_is_not_interrupted_by_a_new_turn(browser, served):
    alice = sign_in(browser, served, "alice@example.org")
    bob = sign_in(browser, served, "bob@example.org")
    game_url = _meet(alice, bob)
    alice.goto(game_url)
    alice.fill("#turn", "a1")
    alice.click("#play")
    bob.goto(game_url)
    bob.fill("#turn", "e5")
    bob.click("#play")
    alice.goto(game_url)
    _listening(alice)
    expect(alice.locator("#history")).to_have_attribute("data-ready", "true")
    alice.locator("h1").click()
    alice.keyboard.press("Home")
    expect(alice.locator("#step-where")).to_have_text("The start, before the first turn")

    bob.click("text=Offer a draw")  # a change while alice looks at the start
    news = alice.locator("#live-news")
    expect(news).to_be_visible(timeout=SOON)
    expect(alice.locator("#board")).to_have_attribute("src", re.compile(r"/board/0\.svg$"))
    expect(alice.locator("#step-where")).to_have_text("The start, before the first turn")
    alice.keyboard.press("ArrowRight")  # she goes on stepping
    expect(alice.locator("#step-where")).to_have_text("After turn 1 of 2")

    alice.click("#live-show")
    expect(alice.locator("button", has_text="Agree to the draw")).to_be_visible(timeout=SOON)
    expect(alice.locator("#step-where")).to_have_text("After turn 2 of 2 (now)")
    expect(alice.locator("#live-news")).to_be_hidden()
    assert _same_document(alice)
    alice.locator("h1").click()
    alice.keyboard.press("ArrowLeft")  # the new page's keys work, once
    expect(alice.locator("#step-where")).to_have_text("After turn 1 of 2")


def test_without_javascript_the_game_page_is_as_before(browser, served):
    alice = sign_in(browser, served, "alice@example.org")
    bob = sign_in(browser, served, "bob@example.org")
    game_url = _meet(alice, bob)
    context = browser.new_context(java_script_enabled=False, storage_state=bob.context.storage_state())
    page = context.new_page()
    page.goto(game_url)
    expect(page.locator("#waiting")).to_contain_text("It is alice's turn")
    expect(page.locator("#live-news")).to_be_hidden()
    alice.goto(game_url)
    alice.fill("#turn", "a1")
    alice.click("#play")
    page.reload()
    expect(page.locator("h2", has_text="Your turn")).to_be_visible()
    context.close()


def test_a_preview_being_read_is_not_replaced_but_the_news_is_told(browser, served):
    alice = sign_in(browser, served, "alice@example.org")
    bob = sign_in(browser, served, "bob@example.org")
    game_url = _meet(alice, bob)
    alice.goto(game_url)
    alice.fill("#turn", "a1")
    alice.click("text=Preview")
    expect(alice.locator("#preview-canonical")).to_have_text("a1")
    _listening(alice)
    bob.goto(game_url)
    bob.click("text=Offer a draw")
    expect(alice.locator("#live-news")).to_be_visible(timeout=SOON)
    expect(alice.locator("#preview-canonical")).to_have_text("a1")  # still there to read
    alice.click("#live-show")
    expect(alice.locator("button", has_text="Agree to the draw")).to_be_visible(timeout=SOON)
    expect(alice.locator("#turn")).to_have_value("a1")
    assert _same_document(alice)
