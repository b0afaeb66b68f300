"""Final scoring on a worked example: element scores (largest pyramid x
region tiles, 0.5 for none), progress (ships and worlds), highest x lowest
x progress plus the other three."""

from fractions import Fraction

from alheimur_helpers import GAME, position, world

from engine.alheimur.scoring import score

HALVES = ("AAEE", "AEAE", "FFFF", "WWTT")  # air a4+c4 (4 tiles), fire a2 (4), ether c1 (2)


def finished():
    w1 = world("1", layout=HALVES, on="a4=1:2 a2=1:3 c1=1:1 c4=2:3")
    return position(w1, space="1F2 1T3+1", phase="over")


def test_element_scores_take_the_players_largest_pyramid_in_the_region_times_its_tiles():
    mine = score(finished(), 0)
    assert mine.elements == {"A": 8, "E": Fraction(1, 2), "F": 12, "W": Fraction(1, 2), "T": 2}
    # two players score the same air region differently
    assert score(finished(), 1).elements["A"] == 12


def test_progress_counts_ships_not_marines_and_three_per_world():
    assert score(finished(), 0).progress == 2 + 3
    assert score(finished(), 1).progress == 3


def test_the_total_is_highest_times_lowest_times_progress_plus_the_other_three():
    assert score(finished(), 0).total == 12 * Fraction(1, 2) * 5 + 8 + 2 + Fraction(1, 2)  # 40.5
    assert score(finished(), 1).total == 12 * Fraction(1, 2) * 3 + Fraction(3, 2)  # 19.5


def test_the_result_names_the_winner_and_every_score():
    result = GAME.result(finished())
    assert result.winners == (0,)
    assert "player 1 air 8 earth 0.5 fire 12 water 0.5 ether 2, progress 5: total 40.5" in result.reason
    assert GAME.ranking(finished()) == [(0,), (1,)]


def test_equal_totals_share_the_win():
    w1 = world("1", layout=HALVES, on="a2=1:3 c2=2:3")
    state = position(w1, phase="over")
    # fire 12 x 0.5 x 3 + 1.5 against water 6 x 0.5 x 3 + 1.5: player 1 wins
    assert GAME.result(state).winners == (0,)
    w1 = world("1", layout=HALVES, on="a4=1:3 c4=2:3")
    assert GAME.result(position(w1, phase="over")).winners == (0, 1)
