"""Play by clicking, in a real browser (Playwright driving the system
Chromium) on a running ``pbem serve``, on a desktop and on a phone-sized
window: a whole game of every game the server offers is played from its
first turn to its end by clicking squares, stacks, tiles and buttons only
(never typing a turn), the turn box filling as the clicks go and the board
after the turn previewed before Play.  Every click that names a clickable
area of the board picture (a square, a stack, Taiga's drawn tile and its
place on the map, an Alheimur territory or ship) is made on the picture, the others
on the buttons beside it; Taiga's and Alheimur's turns that name a place of
their map are each clicked partly on the map.  Screenshots of the board and of the
turn box are looked at (with Pillow) for basic sanity: the board is drawn
with the clickable squares marked, the box holds text, on a phone the board
fits the screen, and the finished game's board is drawn.

Each game's turns come from a seeded random game planned here, reached
through the clicks ``Notation.turn_clicks`` gives, so no game's clicks are
written here.  To keep the run short the games are short ones, chosen
honestly:

- two players, default options, and of a few seeded random games (each
  picking among the first legal turns) the shortest with at least a few
  turns: Logger (~20 turns), Attactics, Ataxx (a quick wipe-out), Alheimur
  (a world emptied early);
- the games that use chance are dealt from a seed the test gives
  (``pbem.services.games.NEW_SEED``), so their deal and draws are known in
  advance; Taiga always lasts until its pile of tiles is laid (about 70
  turns, its own length, for two players), so it is the longest here;
- Martian Greenhouse (one player) is a deal whose one order is filled by
  one breeding (two stacks and twelve chromosomes clicked).

One browser, one server and one signed-in page per player and window serve
the whole module."""

from __future__ import annotations

import functools
import io
import itertools
import os
import random
import re
import subprocess
import sys

import pytest
from conftest import make_test_app
from test_browser_game import CHROMIUM, sync_playwright
from test_server_serve import free_port, wait_for

from notation import registry

try:
    from playwright.sync_api import expect
except ImportError:  # the skip below says so
    expect = None

pytestmark = [
    pytest.mark.skipif(sync_playwright is None, reason="the playwright package is not installed"),
    pytest.mark.skipif(CHROMIUM is None, reason="no Chromium found at /usr/bin/chromium, nor in PBEM_CHROMIUM"),
]

VIEWPORTS = {"desktop": {"width": 1280, "height": 900}, "phone": {"width": 390, "height": 844}}
#: how many seeded games to plan for a game, the shortest of which is played:
#: ``SEEDS`` for a game whose short games are rare (Ataxx) or whose every game
#: is long enough (Taiga), else ``DEFAULT_SEEDS``
SEEDS = {"logger": 60, "ataxx": 200, "taiga": 1}
DEFAULT_SEEDS = 20
#: every game the server offers for two players (the registry's), played
#: two-handed from a planned seeded game (a game for one player, Martian
#: Greenhouse, is planned apart): how many seeded games to plan
PLANNED = {name: SEEDS.get(name, DEFAULT_SEEDS) for name in registry.names()
           if registry.get(name).rules.min_players <= 2 <= registry.get(name).rules.max_players}
#: the fewest turns a planned game has (a game won at once would click little)
LEAST = 4
#: a planned game picks among this many of the first legal turns (Alheimur's list never ends)
FIRST_TURNS = 300
EMAILS = ("alice@example.org", "bob@example.org")
SEED = "5eed" * 16


@pytest.fixture(scope="module")
def browser():
    """One headless Chromium for the whole module."""
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=CHROMIUM,
            args=["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"])
        yield launched
        launched.close()


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """``pbem serve --debug`` on a free port with a fresh SQLite file, its
    log written to a file (a whole game's requests would fill a pipe);
    yields the base URL and the database URL."""
    where = tmp_path_factory.mktemp("served")
    database = f"sqlite:///{where / 'served.sqlite3'}"
    port = free_port()
    env = dict(os.environ, DATABASE_URL=database, PBEM_SECRET_KEY="serve-test")
    with open(where / "served.log", "w") as log:
        process = subprocess.Popen([sys.executable, "-m", "pbem", "serve", "--debug", "--port", str(port),
                                    "--mail-port", str(free_port())], env=env, stdout=log, stderr=subprocess.STDOUT)
        base = f"http://127.0.0.1:{port}"
        try:
            wait_for(base + "/", process)
            yield base, database
        finally:
            process.terminate()
            process.wait(timeout=10)


@pytest.fixture(scope="module")
def signed_in(browser, served):
    """The signed-in page of each player in each window, made on first use."""
    made: dict[tuple[str, str], object] = {}

    def page_for(where: str, email: str):
        if (where, email) not in made:
            made[where, email] = sign_in(browser, served[0], email, VIEWPORTS[where])
        return made[where, email]
    return page_for


@pytest.fixture(scope="module")
def server(served):
    return Server(served[1])


def sign_in(browser, base: str, email: str, viewport: dict):
    page = browser.new_context(viewport=viewport, has_touch=viewport["width"] < 600).new_page()
    page.set_default_timeout(20000)
    page.goto(base + "/auth/sign-in")
    page.fill("input[name=email]", email)
    page.click("text=Mail me a sign-in link")
    page.click("text=mailbox")
    page.locator(f"article[data-to='{email}'] a[href*='/auth/verify']").first.click()
    page.click("#confirm-sign-in")
    expect(page.locator(".who")).to_have_text(email)
    return page


def deal_seed(seed: int) -> str:
    return f"{seed:064x}"


def board_clicks(notation, state, clicks: tuple[str, ...], made: tuple[int, ...]) -> tuple[int, ...]:
    """Which of the clicks the player makes (indexes in ``made``) name a
    clickable area of the board picture (a square, a stack, a tile, a
    territory): those are made on the picture, the others on buttons."""
    from notation.drawing import regions as diagram_regions

    drawn = diagram_regions.regions(notation.diagram(state))["regions"]
    return tuple(index for index in made if clicks[index] in drawn)


def made_clicks(notation, state, clicks: tuple[str, ...]) -> tuple[int, ...]:
    """Which of a turn's ``clicks`` the player makes (their indexes): not
    those the rules force, which the page makes for them (the only next
    click, with no whole turn yet, once the player has started)."""
    made = [0]
    for index in range(1, len(clicks)):
        answer = notation.click_options(state, clicks[:index])
        if not (answer.next == (clicks[index],) and not answer.complete):
            made.append(index)
    return tuple(made)


@functools.cache
def planned_game(name: str, seeds: int) -> tuple[str | None, list[tuple[int, str, tuple[str, ...]]]]:
    """The shortest of ``seeds`` seeded random games of ``name`` for two
    (with at least ``LEAST`` turns), played to the end: its deal seed (None
    for a game without chance) and each turn as (seat to move, canonical
    text, clicks, the indexes of the clicks the player makes, and of those
    made on the board picture), the turn
    picked among the first ``FIRST_TURNS`` legal turns, chance settled from
    the deal seed as the server settles it."""
    from engine.base import settle_from_seed
    from notation import registry
    from notation.clicks import lazy_turns

    kind = registry.get(name)
    rules, notation = kind.rules, kind.notation
    best: tuple[str | None, list] | None = None
    for seed in range(seeds):
        rng, dealt = random.Random(seed), deal_seed(seed) if rules.uses_chance else None
        if dealt:
            state = settle_from_seed(rules, rules.seeded_state(2, {}, dealt), dealt, 0)[0]
        else:
            state = rules.initial_state(2)
        turns: list = []
        while not rules.is_over(state) and (best is None or len(turns) < len(best[1])):
            turn = rng.choice(list(itertools.islice(lazy_turns(notation, state), FIRST_TURNS)))
            turns.append((rules.to_move(state), notation.format_turn(state, turn), tuple(notation.turn_clicks(state, turn))))
            state = rules.apply(state, turn)
            if dealt:
                state = settle_from_seed(rules, state, dealt, len(turns))[0]
        if rules.is_over(state) and len(turns) >= LEAST and (best is None or len(turns) < len(best[1])):
            best = (dealt, turns)
    assert best is not None, f"no {name} game of {seeds} seeded ones ended"
    dealt, turns = best
    if dealt:
        state = settle_from_seed(rules, rules.seeded_state(2, {}, dealt), dealt, 0)[0]
    else:
        state = rules.initial_state(2)
    made = []
    for ply, (seat, text, clicks) in enumerate(turns):
        view = rules.view(state, seat)
        by_player = made_clicks(notation, view, clicks)
        made.append((seat, text, clicks, by_player, board_clicks(notation, view, clicks, by_player)))
        state = rules.apply(state, notation.parse_turn(state, text))
        if dealt:
            state = settle_from_seed(rules, state, dealt, ply + 1)[0]
    return dealt, made


def pixels(png: bytes) -> list:
    from PIL import Image

    return list(Image.open(io.BytesIO(png)).convert("RGB").get_flattened_data())


def looks_drawn(png: bytes, least_colours: int) -> bool:
    """The screenshot holds a picture, not a blank area: many colours."""
    return len(set(pixels(png))) >= least_colours


def has_colour_near(png: bytes, rgb: tuple[int, int, int], within: int = 40) -> bool:
    return any(all(abs(p[i] - rgb[i]) <= within for i in range(3)) for p in pixels(png))


class Server:
    """The served database, reached in this process through the services."""

    def __init__(self, database_url: str):
        self.app = make_test_app({"DATABASE_URL": database_url})

    def done(self) -> None:
        """Let go of the database, so the served process never waits for it."""
        self.app.extensions["pbem_engine"].dispose()

    def start(self, kind: str, emails: list[str], options: dict | None = None, seed: str | None = None) -> int:
        """A game of ``kind`` between ``emails``, started; dealt from
        ``seed`` when given (the seed a started game gets, for this test)."""
        from pbem.db import get_session
        from pbem.services import games
        from pbem.services.accounts import player_for_email

        fresh = games.NEW_SEED
        if seed is not None:
            games.NEW_SEED = lambda: seed
        try:
            with self.app.app_context():
                session = get_session()
                players = [player_for_email(session, e) for e in emails]
                game = games.create_game(session, players[0], kind, emails, options=options)
                for player in players[1:]:
                    games.accept(session, game.id, player)
                session.close()
        finally:
            games.NEW_SEED = fresh
        self.done()
        return game.id

    def state(self, game_id: int):
        """(ply, seat to move or None, status) of the game now."""
        from pbem.db import get_session
        from pbem.models import Game
        from pbem.services import visibility as views

        with self.app.app_context():
            session = get_session()
            game = session.get(Game, game_id)
            found = game.ply, views.mover(game), game.status
            session.close()
        self.done()
        return found


def make_clicks(page, clicks: tuple[str, ...], made: tuple[int, ...], first: int, look: bool,
                board: tuple[int, ...] = ()) -> None:
    """The player's clicks from their ``first`` on, those at the indexes
    ``board`` on the board picture (a clickable area, highlighted), the
    others on the buttons beside it; after each, the page shows the clicks
    so far, with those it made itself after it; ``look``: the first click
    on the board is seen marked in a screenshot."""
    play_area = page.locator("#click-play")
    marked = not look
    for step in range(first, len(made)):
        click = clicks[made[step]]
        if made[step] in board:  # on the picture: its area is offered (several for a territory: any of them)
            cell = page.locator(f'.click-layer .click-cell.can[data-click="{click}"]')
            expect(cell.first).to_be_enabled()
            cell.last.click()
            on_board = not marked
        else:
            expect(page.locator(f'.click-cell[data-click="{click}"]')).to_have_count(0)
            page.locator(f'#click-buttons button[data-click="{click}"]').click()
            on_board = False
        upto = made[step + 1] if step + 1 < len(made) else len(clicks)
        expect(play_area).to_have_attribute("data-clicked", " ".join(clicks[:upto]))
        if on_board:
            shot = page.locator(".click-layer").screenshot()
            assert has_colour_near(shot, (66, 165, 245), 60) or has_colour_near(shot, (255, 111, 0), 60), \
                "no clicked or clickable square is marked on the board"
            marked = True


def click_turn(page, clicks: tuple[str, ...], made: tuple[int, ...], text: str, look: bool, phone: bool,
               board: tuple[int, ...] = ()) -> None:
    """Build the turn ``text`` by its clicks on the page (the player makes
    those at the indexes ``made``, those at ``board`` on the board picture,
    the page the others), then play it; ``look``: screenshots are looked
    at, and the preview waited for."""
    play_area = page.locator("#click-play")
    expect(play_area).to_be_visible()
    expect(play_area).to_have_attribute("data-clicked", "")
    if look:
        layer = page.locator(".click-layer")
        assert looks_drawn(layer.screenshot(), 12), "the board is blank"
        if phone:
            box = layer.bounding_box()
            assert box["x"] >= 0 and box["x"] + box["width"] <= 390 + 1, "the board does not fit the phone"
    make_clicks(page, clicks, made, 0, look, board)
    if look and len(made) < len(clicks):
        # Undo takes back a click the player made with the clicks the page made after it
        ends = list(made[1:]) + [len(clicks)]
        step = max(j for j in range(len(made)) if ends[j] > made[j] + 1)
        for _ in range(len(made) - step):
            page.click("#click-undo")
        expect(play_area).to_have_attribute("data-clicked", " ".join(clicks[:made[step]]))
        make_clicks(page, clicks, made, step, False, board)
    choices = page.locator("#click-choices button")
    if choices.count():
        choices.filter(has_text=re.compile("^" + re.escape(text) + "$")).click()
    expect(page.locator("#turn")).to_have_value(text)
    if look:
        expect(page.locator("#click-preview")).to_be_visible()
        expect(page.locator("#click-preview-board")).to_have_attribute("src", preview_src(text))
        # the previews (the board after the turn, the live check of the box) have answered
        drawn_after = page.locator("#click-preview-board")
        expect(drawn_after).to_have_js_property("complete", True)
        assert drawn_after.evaluate("img => img.naturalWidth") > 0, "the preview board did not load"
        expect(page.locator("#live-preview")).to_contain_text(text)
        page.locator("#turn").scroll_into_view_if_needed()
        assert looks_drawn(page.locator("#turn").screenshot(), 3), "the turn box shows no text"
        if os.environ.get("PBEM_SCREENSHOTS"):  # to look at them yourself
            page.screenshot(path=os.path.join(os.environ["PBEM_SCREENSHOTS"], f"{text[:12]}-{phone}.png"),
                            full_page=True)
        assert looks_drawn(drawn_after.screenshot(), 12), "the preview board is blank"
    page.click("#play")
    try:
        expect(page.locator(".flash")).to_contain_text(f"You played {text}.")
    except AssertionError:
        if page.locator("#turn-error").count():
            raise AssertionError(page.locator("#turn-error").text_content()) from None
        raise


def typed_and_followed(page, clicks: tuple[str, ...], text: str) -> None:
    """Typing a whole turn in the box marks its clicks on the board, as
    clicking would have; Start again clears them (and the box)."""
    page.locator("#turn").press_sequentially(text)
    expect(page.locator("#click-play")).to_have_attribute("data-clicked", " ".join(clicks))
    for click in clicks:
        if page.locator(f'.click-cell[data-click="{click}"]').count():
            expect(page.locator(f'.click-cell[data-click="{click}"]')).to_have_class(re.compile(r"\bpicked\b"))
    page.click("#click-clear")
    expect(page.locator("#click-play")).to_have_attribute("data-clicked", "")
    expect(page.locator("#turn")).to_have_value("")


def preview_src(text: str) -> re.Pattern:
    """The end of the preview board's address for the turn ``text``."""
    from urllib.parse import quote

    return re.compile(re.escape(quote(text, safe="")).replace("%20", "(%20|\\+)") + "$")


def finished_and_drawn(page, base: str, game_id: int) -> None:
    """The finished game's page says who won, offers no clicking, and its
    board is drawn."""
    page.goto(f"{base}/games/{game_id}")
    expect(page.locator("#verdict")).to_be_visible()
    expect(page.locator("#click-play")).to_have_count(0)
    board = page.locator("#board")
    expect(board).to_have_js_property("complete", True)
    assert looks_drawn(board.screenshot(), 12), "the finished game's board is blank"


def test_every_offered_game_is_played_here():
    """Each game for two is played from the registry (``PLANNED``); a game
    for one player only needs a test of its own, as Martian Greenhouse has."""
    assert set(registry.names()) - set(PLANNED) <= {"greenhouse"}, \
        "a new game for one player only: give it a test of its own, as Martian Greenhouse has"


#: the games whose turns name a place of their map: every such turn is
#: clicked at least partly on the board picture, by this pattern of its text
#: (Taiga: a tile laid at a place; Alheimur: an item on a territory, a ship's move)
ON_THE_MAP = {"taiga": re.compile(r" at -?[0-9]+,-?[0-9]+"),
              "alheimur": re.compile(r"(^|\s)([1-8N][a-d][1-4][-+=^]|[1-8NS][FT][1-3])")}


@pytest.mark.parametrize("name", sorted(ON_THE_MAP))
def test_turns_on_the_map_are_clicked_on_the_board_picture(name):
    """Taiga's places and Alheimur's territories are clicked on the map
    itself, not only on buttons: each planned turn that names one makes
    at least one of its clicks on the board picture (the drawn tile and its
    place, a territory), and most turns of the game are such turns."""
    _, planned = planned_game(name, PLANNED[name])
    named = [(text, board) for _, text, _, _, board in planned if ON_THE_MAP[name].search(text)]
    assert len(named) >= len(planned) / 2, [text for _, text, *_ in planned]
    assert all(board for _, board in named), [text for text, board in named if not board]


@pytest.mark.parametrize("where", sorted(VIEWPORTS, reverse=True))
@pytest.mark.parametrize("name", sorted(PLANNED))
def test_a_whole_game_is_played_by_clicking_only(signed_in, served, server, name, where):
    phone = where == "phone"
    dealt, planned = planned_game(name, PLANNED[name])
    game_id = server.start(name, list(EMAILS), seed=dealt)
    showing: dict[str, int] = {}  # the ply each player's page shows now
    for ply, (seat, text, clicks, made, board) in enumerate(planned):
        email = EMAILS[seat]
        page = signed_in(where, email)
        if showing.get(email) != ply:
            page.goto(f"{served[0]}/games/{game_id}")
        if ply == 0 and page.locator("#click-play").get_attribute("data-turns") != "null":
            typed_and_followed(page, clicks, text)
        click_turn(page, clicks, made, text, ply in (0, len(planned) - 1), phone, board)
        showing[email] = ply + 1
    assert server.state(game_id)[2] == "finished", name
    finished_and_drawn(signed_in(where, EMAILS[0]), served[0], game_id)


@pytest.mark.parametrize("where", sorted(VIEWPORTS, reverse=True))
def test_a_martian_greenhouse_game_is_played_by_clicking_only(signed_in, served, server, where):
    from engine.greenhouse.breeding import children
    from engine.greenhouse.solver import finish_in_one
    from notation import registry

    # a deal whose one order is a child of flowers #1 and #2: one breeding fills it
    rules, notation = registry.get("greenhouse").rules, registry.get("greenhouse").notation
    trial = rules.seeded_state(1, rules.normalize_options({"orders": "1P1R2P2R3P3R"}), SEED)
    order = "".join(next(children(trial.flowers[0].genes, trial.flowers[1].genes))[0])
    state = rules.seeded_state(1, rules.normalize_options({"orders": order}), SEED)
    turn = finish_in_one(state)
    assert turn is not None
    game_id = server.start("greenhouse", list(EMAILS[:1]), {"orders": order, "seed": SEED})
    page = signed_in(where, EMAILS[0])
    page.goto(f"{served[0]}/games/{game_id}")
    clicks = notation.turn_clicks(state, turn)
    made = made_clicks(notation, state, clicks)
    click_turn(page, clicks, made, notation.format_turn(state, turn), True, where == "phone",
               board_clicks(notation, state, clicks, made))
    assert server.state(game_id)[2] == "finished"
    finished_and_drawn(page, served[0], game_id)
