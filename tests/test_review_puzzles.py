"""Review of shared puzzles: a puzzle of a game that draws before its first
turn is the dealt position (what its games start from) on its page and for
its par, not the origin waiting for the deal."""

from __future__ import annotations

from hands_game import register_hands

from engine.base import PuzzlePar
from pbem.services import puzzles

SEED = "5e" * 32


def test_a_puzzle_of_a_game_that_deals_by_draws_shows_and_solves_the_dealt_position(
        session, monkeypatch):
    kind = register_hands(monkeypatch)
    rules = kind.rules
    given = []
    monkeypatch.setattr(rules, "min_players", 1, raising=False)
    monkeypatch.setattr(rules, "puzzle_options", lambda: {}, raising=False)
    monkeypatch.setattr(rules, "par", lambda state, seconds: given.append(state) or PuzzlePar(3, 2, False),
                        raising=False)
    puzzle = puzzles.make(session, "hands", seed=SEED, seconds=0.1)
    assert rules.chance(given[0]) is None, "par was asked of a position still waiting for the deal"
    shown = puzzles.detail(session, puzzle)
    # the page shows what par solved, as anyone not seated sees it
    assert shown["position"] == kind.notation.format_position(rules.view(given[0], None))


def test_the_leaderboard_shows_no_part_of_an_address_for_a_player_without_a_name(app):
    from test_greenhouse_puzzles import OPTIONS, make_puzzle, play_through, solution, start_from_page
    from test_greenhouse_server import bearer
    from test_web_pages import sign_in

    from notation.registry import get

    greenhouse = get("greenhouse")
    puzzle = make_puzzle(app)
    dealt = greenhouse.notation.format_position(greenhouse.rules.seeded_state(1, OPTIONS, puzzle.seed))
    for who in ("john.smith.1985", "named"):
        client = app.test_client()
        sign_in(client, app, f"{who}@example.org")
        if who == "named":
            from pbem.db import get_session
            from pbem.services.accounts import player_for_email, set_name

            with app.app_context():
                set_name(get_session(), player_for_email(get_session(), "named@example.org"), "Nina")
        play_through(client, start_from_page(client, puzzle.id), solution(dealt))
    board = client.get(f"/api/v1/puzzles/{puzzle.id}", headers=bearer(app, "named@example.org")).get_json()
    names = [entry["player"] for entry in board["leaderboard"]]
    assert "Nina" in names and len(names) == 2
    assert not any("john" in name or "smith" in name for name in names), names
    page = client.get(f"/puzzles/{puzzle.id}").get_data(as_text=True)
    assert "john.smith" not in page and "Nina" in page
