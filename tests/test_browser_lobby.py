"""In Chromium, the lobby's "play the computer" form offers only the levels
of the chosen game, and follows the game when another is chosen."""

from __future__ import annotations

import pytest
from test_browser_game import CHROMIUM, browser, sign_in, sync_playwright  # noqa: F401 - fixtures
from test_server_serve import served  # noqa: F401 - fixture

from engine.bots.hooks import offered
from notation import registry

pytestmark = [
    pytest.mark.skipif(sync_playwright is None, reason="the playwright package is not installed (pip install -e '.[test]')"),
    pytest.mark.skipif(CHROMIUM is None, reason="no Chromium found at /usr/bin/chromium (apt-get install chromium), "
                                                "nor in PBEM_CHROMIUM; the browser test needs one"),
]


def _levels_offered(page) -> list[str]:
    return page.eval_on_selector_all(
        "#computer-level option", "options => options.filter(o => !o.hidden && !o.disabled && o.value).map(o => o.value)")


def test_the_level_menu_offers_only_the_levels_of_the_chosen_game(browser, served):  # noqa: F811
    page = sign_in(browser, served, "alice@example.org")
    page.goto(served + "/lobby")
    games = [name for name in registry.names() if registry.get(name).rules.min_players <= 2
             <= registry.get(name).rules.max_players]
    most = max(len(offered(registry.get(name).rules)) for name in games)
    full = [name for name in games if len(offered(registry.get(name).rules)) == most]
    fewer = [name for name in games if len(offered(registry.get(name).rules)) < most]
    assert fewer, "a game that offers fewer levels than others, to show the menu following it"
    for name in [fewer[0], full[0], *fewer[1:]]:
        page.select_option("#computer-kind", name)
        assert _levels_offered(page) == list(offered(registry.get(name).rules)), name
    # a level chosen that the next game does not offer falls back to that game's usual level
    page.select_option("#computer-kind", full[0])
    missing = [level for level in offered(registry.get(full[0]).rules) if level not in offered(registry.get(fewer[0]).rules)]
    page.select_option("#computer-level", missing[0])
    page.select_option("#computer-kind", fewer[0])
    assert page.eval_on_selector("#computer-level", "select => select.value") == ""
