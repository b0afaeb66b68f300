"""Expansion and survival: one action per world, expand and civilize with
their limits, neighbours at edges and points, exactly the bounds, dying
pyramids removed together, invaders supported by transports, two
pyramids making invaders colonists, only the current player's worlds
checked; the last round at 13 pyramids."""

import pytest
from alheimur_helpers import GAME, position, world

from engine.alheimur.pieces import Civilize, Expand, Pyramid, Turn
from engine.alheimur.survival import check_world
from engine.errors import IllegalTurnError

# GRID is sixteen one-tile territories; b3 touches a4 b4 c4 a3 c3 a2 b2 c2


def survivors(on: str, orbit: str = "") -> dict:
    return dict(check_world(world("1", on=on, orbit=orbit)).pieces)


@pytest.mark.parametrize("size,low,high", [(1, 2, 3), (2, 3, 4), (3, 4, 5)])
def test_a_colonist_survives_exactly_within_its_bounds(size, low, high):
    ring = ["a4", "b4", "c4", "a3", "c3", "a2", "b2", "c2"]
    for n in range(0, 7):
        # neighbours are large colonists of player 2 far apart enough not to matter here
        on = f"b3=1:{size} " + " ".join(f"{t}=2:3" for t in ring[:n])
        alive = "b3" in survivors(on)
        assert alive == (low <= n <= high), (size, n)


def test_neighbours_at_a_point_count_and_colour_size_and_status_do_not_matter():
    # a4 touches b3 only at a point; c4's invader is a neighbour too
    assert "b3" in survivors("b3=1:1 a4=2:1 c4=2:3i", orbit="2T3")


def test_dying_pyramids_count_until_all_are_checked_then_go_together():
    # a4 (small) has b4 a3 b3: 3, fine; b4 (small) has a4 c4 a3 b3 c3: 5, dies;
    # after b4 goes a4 has only 2 but is not checked again this time
    on = "a4=1:1 b4=1:1 a3=1:1 b3=1:3 c4=2:1 c3=2:1"
    left = survivors(on)
    assert "b4" not in left and "a4" in left


def test_an_invader_survives_only_with_a_large_enough_transport_of_its_colour_in_orbit():
    assert "b3" in survivors("b3=2:2i", orbit="2T2")
    assert "b3" in survivors("b3=2:2i", orbit="2T3+1")
    assert "b3" not in survivors("b3=2:2i", orbit="2T1")
    assert "b3" not in survivors("b3=2:2i", orbit="2F3")
    assert "b3" not in survivors("b3=2:2i", orbit="1T3")


def test_two_pyramids_of_one_colour_are_colonists_not_invaders():
    # two invaders without support: upright, then checked as colonists (each
    # small one needs 2 neighbours: each other plus a4)
    left = survivors("b3=2:1i c3=2:1i b4=1:3")
    assert left["b3"] == Pyramid(1, 1, False) and left["c3"] == Pyramid(1, 1, False)


def test_expand_and_civilize_one_action_per_world():
    state = position(world("1", on="a4=1:1 b4=1:1 a3=1:1 b3=1:1"), world("2", on="d1=2:1"))
    after = GAME.apply(state, Turn(expansion=(Expand("1", "c4", 1),)))
    assert after.world("1").at("c4") == Pyramid(0, 1)  # b4 and b3 support it
    with pytest.raises(IllegalTurnError, match="one action per world"):
        GAME.apply(state, Turn(expansion=(Expand("1", "c4", 1), Civilize("1", "a4", 2))))
    with pytest.raises(IllegalTurnError, match="no pyramids there"):
        GAME.apply(state, Turn(expansion=(Expand("2", "a4", 1),)))
    with pytest.raises(IllegalTurnError, match="occupied"):
        GAME.apply(state, Turn(expansion=(Expand("1", "a4", 1),)))
    with pytest.raises(IllegalTurnError, match="one size"):
        GAME.apply(state, Turn(expansion=(Civilize("1", "a4", 3),)))
    assert GAME.apply(state, Turn(expansion=(Civilize("1", "a4", 2),))).world("1").at("a4").size == 2


def test_civilize_is_impossible_without_the_size_in_the_stash():
    full = "a4=1:2 b4=1:2 c4=1:2 d4=1:2 a1=1:2 a3=1:1"
    state = position(world("1", on=full))
    with pytest.raises(IllegalTurnError, match="no 2-pip pyramid left"):
        GAME.apply(state, Turn(expansion=(Civilize("1", "a3", 2),)))


def test_a_sacrifice_is_allowed_and_dies_in_survival():
    state = position(world("1", on="a4=1:1 b4=1:1 a3=1:1"), world("2", on="a1=2:1"))
    after = GAME.apply(state, Turn(expansion=(Expand("1", "d1", 3),)))
    assert after.world("1").at("d1") is None  # no neighbours: it dies at once


def test_only_worlds_where_the_current_player_has_pyramids_are_checked():
    lonely = "a4=2:1"  # would die if checked
    state = position(world("1", on="a4=1:1 b4=1:1 a3=1:1"), world("2", on=lonely))
    assert GAME.apply(state, Turn()).world("2").at("a4") is not None


def test_the_last_round_starts_at_13_pyramids_and_everyone_gets_one_more_turn():
    # three small colonists that support each other and nine ships: twelve in play
    state = position(world("1", on="a4=1:1 b4=1:1 a3=1:1"), world("2", on="d1=2:1"),
                     world("3", on="a4=3:1"), players=3, space="1T1 1T2 1T2 1T2 1T2 1T2 1T3 1T3 1F3 2T1 3T1")
    assert len(state.in_play(0)) == 12
    state = GAME.apply(state, Turn(expansion=(Expand("1", "b3", 1),)))
    assert len(state.in_play(0)) == 13 and state.last_round == (1, 2, 0)
    assert GAME.to_move(state) == 1
    state = GAME.apply(state, Turn())
    state = GAME.apply(state, Turn())  # player 3's colonist dies, its transport remains
    assert GAME.to_move(state) == 0 and state.phase == "play"
    state = GAME.apply(state, Turn())
    assert state.phase == "over" and GAME.to_move(state) is None
    assert GAME.result(state).winners == (0,)


def test_a_player_with_nothing_left_is_out_and_skipped():
    state = position(world("1", on="a4=1:1 b4=1:1 a3=1:1"), world("2", on="a1=2:1"),
                     world("3", on="d4=3:1 c4=3:1 d3=3:1"), players=3, current=1)
    state = GAME.apply(state, Turn())  # player 2's lone colonist dies: out
    assert state.is_out(1)
    assert GAME.to_move(state) == 2
    state = GAME.apply(state, Turn())
    assert GAME.to_move(state) == 0


def test_expansion_is_optional_on_every_world():
    state = position(world("1", on="a4=1:1 b4=1:1 a3=1:1"), world("2", on="d4=2:1 c4=2:1 d3=2:1"))
    after = GAME.apply(state, Turn())
    assert after.world("1").pieces == state.world("1").pieces and GAME.to_move(after) == 1


def test_the_game_ends_when_one_player_is_left():
    state = position(world("1", on="a4=1:1 b4=1:1 a3=1:1"), world("2", on="a1=2:1"),
                     world("3", on="d4=3:1"), players=3, current=1)
    state = GAME.apply(state, Turn())  # player 2's last colonist dies; player 3 still has one
    assert state.phase == "play" and GAME.to_move(state) == 2
    state = GAME.apply(state, Turn())  # and so does player 3's: player 1 is alone
    assert state.phase == "over" and GAME.result(state).winners == (0,)


def test_a_forfeited_turn_is_an_empty_turn():
    state = position(world("1", on="a4=1:1 b4=1:1 a3=1:1"), world("2", on="d4=2:1 c4=2:1 d3=2:1"))
    assert GAME.forfeit_turn(state) == GAME.apply(state, Turn())


def test_a_civilized_invader_stays_an_invader():
    state = position(world("1", on="a4=1:1 b4=1:1 a3=1:1"), world("2", on="a1=2:1 d4=1:1i", orbit="1T3"))
    after = GAME.apply(state, Turn(expansion=(Civilize("2", "d4", 2),)))
    assert after.world("2").at("d4") == Pyramid(0, 2, True)  # still supported by the transport of 3


def test_the_game_ends_when_only_empty_ships_are_left():
    # player 1's last colonists die; both players keep a fighter in space, but
    # nobody can ever put a pyramid on a world again
    state = position(world("1", on="a4=1:1"), world("2"), space="1F1 2F2 2F1")
    state = GAME.apply(state, Turn())
    assert state.phase == "over"
    # no element anywhere: 0.5 x 0.5 x progress + 1.5; two ships beat one
    assert GAME.result(state).winners == (1,)
