"""benchmarks/taiga_camp_luck.py: how often Taiga's camp tiles decide a
game between two levels, and the score no level can pass without winning
games with fewer camps."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "taiga_camp_luck.py"


@pytest.fixture(scope="module")
def luck():
    spec = importlib.util.spec_from_file_location("taiga_camp_luck", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclass looks its module up
    spec.loader.exec_module(module)
    yield module
    del sys.modules[spec.name]


def test_the_report_counts_games_by_camps_kept_and_gives_the_ceiling(luck):
    games = [
        luck.Game(0, 1.0, 4, 2, (60, 40), 1.0),  # more camps, won
        luck.Game(1, 0.0, 1, 3, (30, 50), 1.0),  # fewer, lost
        luck.Game(2, 1.0, 2, 4, (45, 44), 1.0),  # fewer, won
        luck.Game(3, 0.5, 3, 3, (40, 40), 1.0),  # as many, drawn
        luck.Game(4, 0.0, 5, 1, (50, 70), 1.0),  # more, lost
    ]
    text = luck.report("strongest", "beginner", games)
    assert "5 games, 2.5 points (50%" in text
    assert "as many as the other in 1 (20%)" in text
    assert "of the 4 others, the player with more camps won 2 (50%)" in text
    assert "with more camps: 1 of 2 (50%); as many: 0.5 of 1 (50%); fewer: 1 of 2 (50%)" in text
    assert "60% here, 60% with the camps dealt evenly" in text


def test_each_game_is_scored_for_the_first_level_in_its_seat(luck):
    for index in (0, 1):
        game = luck.play(("random", "random", "test", index))
        mine, theirs = game.scores
        assert game.points == (1.0 if mine > theirs else 0.5 if mine == theirs else 0.0)
        assert 0 <= game.camps + game.theirs <= 6
