"""The six movement steps in their strict order: migrate, launch or return
(one per spaceport), change status, land, board, fly; each pyramid acts
once per step, and a wrong move is refused naming its step and reason."""

import pytest
from alheimur_helpers import GAME, position, ships, world

from engine.alheimur.pieces import Board, Flip, Fly, Land, Launch, Migrate, Pyramid, Return, Ship, Turn
from engine.errors import IllegalTurnError

#: a block that survives its check: three small, a medium and a spaceport on b3
HOME = "a4=1:1 b4=1:2 c4=1:1 a3=1:1 b3=1:3"


def play(*moves, home=HOME, orbit="", space="", others=()):
    state = position(world("1", on=home, orbit=orbit), *others, world("2", on="d1=2:3"), space=space)
    return GAME.apply(state, Turn(moves=tuple(moves)))


def refused(match, *moves, **kw):
    with pytest.raises(IllegalTurnError, match=match):
        play(*moves, **kw)


def test_step_1_a_small_or_medium_colonist_migrates_to_an_adjacent_empty_territory():
    after = play(Migrate("1", "c4", "d4"))
    assert after.world("1").at("d4") == Pyramid(0, 1) and after.world("1").at("c4") is None
    refused(r"step 1 \(migrate\).*spaceport", Migrate("1", "b3", "c3"))
    refused(r"step 1.*not adjacent", Migrate("1", "c4", "a1"))
    refused(r"step 1.*occupied", Migrate("1", "c4", "b4"))
    refused(r"step 1.*already migrated", Migrate("1", "c4", "d4"), Migrate("1", "d4", "d3"))


def test_step_2_each_spaceport_launches_or_returns_once():
    after = play(Launch("1", "a4", "F"))
    assert after.world("1").ships == (Ship(0, 1, True),) and after.world("1").at("a4") is None
    refused(r"step 2 \(launch/return\).*none is left", Launch("1", "a4", "F"), Launch("1", "c4", "T"))
    refused(r"step 2.*none is left", Launch("3", "a4", "F"), others=(world("3", on="a4=1:1i", orbit="1T1"),))


def test_step_2_a_colonist_may_board_an_empty_transport_as_a_marine():
    after = play(Launch("1", "a4", "M", 2), orbit="1T2")
    assert after.world("1").ships == (Ship(0, 2, False, 1),)
    refused("transport of 3 or more", Launch("1", "b3", "M", 2), orbit="1T2")
    refused("no transport of 2", Launch("1", "a4", "M", 2), orbit="1T2+1")


def test_step_2_a_ship_or_a_marine_returns_to_an_empty_territory_as_a_colonist():
    after = play(Return("1", 2, True, 0, "d4"), orbit="1F2")
    assert after.world("1").at("d4") == Pyramid(0, 2) and after.world("1").ships == ()
    after = play(Return("1", 3, False, 2, "d4"), orbit="1T3+2")
    assert after.world("1").at("d4") == Pyramid(0, 2) and after.world("1").ships == (Ship(0, 3),)
    refused("occupied", Return("1", 2, True, 0, "a4"), orbit="1F2")


def test_step_3_an_unloaded_ship_in_orbit_changes_status_once():
    after = play(Flip("1", 2, True), orbit="1T2 1T2")
    assert after.world("1").ships == ships("1F2 1T2")
    after = play(Flip("1", 2, True), Flip("1", 2, True), orbit="1T2 1T2")
    assert after.world("1").ships == ships("1F2 1F2")
    refused(r"step 3 \(change status\).*already acted", Flip("1", 2, True), Flip("1", 2, False), orbit="1T2")
    refused("step 3", Flip("1", 2, True), orbit="1T2+1")


def test_step_4_a_marine_lands_as_an_invader_where_its_player_has_no_colonist():
    w3 = world("3", on="a4=2:1", orbit="1T3+2")
    after = play(Land("3", 3, 2, "d1"), others=(w3,))
    assert after.world("3").at("d1") == Pyramid(0, 2, True)
    assert after.world("3").ships == (Ship(0, 3),)


def test_step_4_a_marine_lands_as_a_colonist_where_its_player_has_colonists():
    after = play(Land("1", 3, 2, "d4"), orbit="1T3+2")
    assert after.world("1").at("d4") == Pyramid(0, 2, False)


def test_step_4_a_second_invader_of_a_colour_turns_both_upright():
    w3 = world("3", on="a4=2:1 d4=1:1i", orbit="1T3+2 1T1")
    after = play(Land("3", 3, 2, "d1"), others=(w3,))
    assert after.world("3").at("d1") == Pyramid(0, 2) and after.world("3").at("d4") == Pyramid(0, 1)


def test_step_5_an_invader_boards_an_empty_transport_of_its_colour():
    w3 = world("3", on="a4=2:1 d4=1:1i", orbit="1T2")
    after = play(Board("3", "d4", 2), others=(w3,))
    assert after.world("3").at("d4") is None and after.world("3").ships == (Ship(0, 2, False, 1),)
    refused(r"step 5 \(board\).*only invaders board", Board("1", "a4", 2), orbit="1T2")


def test_step_6_ships_fly_between_orbits_and_space_once():
    after = play(Fly("1", "S", 2, True), orbit="1F2")
    assert after.space == (Ship(0, 2, True),) and after.world("1").ships == ()
    after = play(Fly("S", "2", 3, False, 1), space="1T3+1")
    assert after.world("2").ships == (Ship(0, 3, False, 1),)
    refused(r"step 6 \(fly\).*already flown", Fly("1", "S", 2, True), Fly("S", "2", 2, True), orbit="1F2")
    refused("step 6.*from an orbit to space", Fly("1", "2", 2, True), orbit="1F2")


def test_moves_must_come_in_step_order():
    refused(r"step 1 \(migrate\): comes after step 6", Fly("1", "S", 2, True), Migrate("1", "c4", "d4"),
            orbit="1F2")


def test_a_refused_turn_changes_nothing():
    state = position(world("1", on=HOME, orbit="1F2"), world("2", on="d1=2:3"))
    before = state
    with pytest.raises(IllegalTurnError):
        GAME.apply(state, Turn(moves=(Fly("1", "S", 2, True), Migrate("1", "c4", "d4"))))
    assert state == before
