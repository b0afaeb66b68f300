"""Review of shared puzzles: a puzzle of a game that draws before its first
turn is the dealt position (what its games start from) on its page and for
its par, not the origin waiting for the deal."""

from __future__ import annotations

from engine.base import PuzzlePar
from hands_game import register_hands
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
    assert shown["position"] == kind.notation.format_position(given[0])  # the page shows what par solved
