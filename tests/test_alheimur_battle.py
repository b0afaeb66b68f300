"""Fleet battles: where and in what order they happen, the firing steps,
targets (no transport while its player's fighter is there), attack and
defence dice as chance events, hits that shrink ships with the stash
shortage, marines lost with their transport."""

import pytest
from alheimur_helpers import GAME, position, ships, world

from engine.alheimur import battle
from engine.alheimur.pieces import FireOrder, Ship, Turn
from engine.alheimur.rules import play_out
from engine.errors import IllegalTurnError

HOME = "a4=1:1 b4=1:2 c4=1:1 a3=1:1 b3=1:3"


def events(state, rolls):
    """Feed ``rolls`` (purpose, dice) to the battle, checking each event."""
    for purpose, dice in rolls:
        event = GAME.chance(state)
        assert event is not None and (event.purpose, event.count) == (purpose, len(dice.split()))
        state = GAME.apply_chance(state, tuple(dice.split()))
    assert GAME.chance(state) is None
    return state


def test_a_battle_runs_the_owner_then_return_fire_then_the_current_player_then_return_fire():
    state = position(world("1", on=HOME), world("2", on="d1=2:3", orbit="1F3 2T2"))
    state = GAME.apply(state, Turn())
    assert state.phase == "battle" and GAME.to_move(state) == 0
    state = events(state, [
        ("attack", "6 1"),       # step 1: the owner's transport hits once (6s only)
        ("defence", "6 2 3"),    # the fighter of 3 cancels it
        ("attack", "4 3 1"),     # step 2: return fire, fighter at transport: 4+ hits
        ("defence", "1 2"),      # no 6: the transport of 2 becomes 1
        ("attack", "5 5 6"),     # step 3: the current player fires again: 3 hits
        ("defence", "6"),        # one cancelled, two left: the transport is destroyed
    ])
    assert state.world("2").ships == (Ship(0, 3, True),)
    assert state.phase == "play" and GAME.to_move(state) == 1  # step 4: nothing left to fire back


def test_a_miss_rolls_no_defence():
    state = position(world("1", on=HOME), world("2", on="d1=2:3", orbit="1F1 2F1"))
    state = GAME.apply(state, Turn())
    # fighter at fighter hits on 5 or 6: four shots (steps 1 to 4), all misses
    state = events(state, [("attack", "4"), ("attack", "3"), ("attack", "1"), ("attack", "2")])
    assert state.world("2").ships == ships("1F1 2F1")


def test_the_turn_report_lists_every_die():
    state = position(world("1", on=HOME), world("2", on="d1=2:3", orbit="1F1 2F1"))
    after, log = play_out(GAME, state, Turn(), [("4",), ("5",), ("3",)])
    assert after.phase == "play"
    text = "\n".join(log)
    assert "Fleet battle at world 2" in text
    assert "Step 1 at world 2: player 2 fires" in text and "Step 3 at world 2: player 1 fires" in text
    assert "2's fighter 1 fires at 1's fighter 1: 4, 0 hits" in text
    assert "Step 2 at world 2: return fire at player 2" in text
    assert "1's fighter 1 fires at 2's fighter 1: 5, 1 hit" in text
    assert "defence 3: 0 cancelled, destroyed" in text


def test_a_transport_is_no_target_while_its_player_has_a_fighter_there():
    orbit = ships("1F3 2F1 2T3")
    state = position(world("1", on=HOME), players=2, orders=(FireOrder(transports=True), FireOrder()))
    target = battle.choose_target(state, orbit, Ship(0, 3, True), -1)
    assert target == Ship(1, 1, True)
    target = battle.choose_target(state, ships("1F3 2T1 2T3"), Ship(0, 3, True), -1)
    assert target == Ship(1, 3, False)


def test_the_default_order_shoots_the_largest_fighter_then_the_largest_transport():
    state = position(world("1", on=HOME), players=3)
    assert battle.choose_target(state, ships("1F1 2F1 3F2 2T3"), Ship(0, 1, True), -1) == Ship(2, 2, True)
    assert battle.choose_target(state, ships("1F1 2T2 3T3"), Ship(0, 1, True), -1) == Ship(2, 3, False)
    assert battle.choose_target(state, ships("1F1 2T2 3T3"), Ship(0, 1, True), 1) == Ship(1, 2, False)


def test_a_held_fire_order_never_fires():
    state = position(world("1", on=HOME), world("2", on="d1=2:3", orbit="1F1 2F1"),
                     orders=(FireOrder(), FireOrder(hold=True)))
    state = GAME.apply(state, Turn())
    # player 2 holds: step 1 and step 4 are silent; player 1 fires in step 3 only
    state = events(state, [("attack", "1")])
    assert state.phase == "play"


@pytest.mark.parametrize("hits,left", [(1, 2), (2, 1), (3, None)])
def test_each_hit_shrinks_a_ship_one_size(hits, left):
    state = position(world("1", on=HOME))
    result = battle.reduce(state, Ship(0, 3, True), hits)
    assert (result.size if result else None) == left


def test_a_hit_ship_shrinks_further_when_its_stash_lacks_the_size():
    # player 1 has all five medium pyramids in play: a hit large becomes small
    state = position(world("1", on="a4=1:2 b4=1:2 c4=1:2 a3=1:2 b3=1:2"))
    assert battle.reduce(state, Ship(0, 3, True), 1) == Ship(0, 1, True)


def test_a_marine_too_large_for_what_is_left_of_its_transport_is_lost():
    state = position(world("1", on=HOME))
    assert battle.reduce(state, Ship(0, 3, False, 2), 1) == Ship(0, 2, False, 2)
    assert battle.reduce(state, Ship(0, 3, False, 2), 2) == Ship(0, 1, False, 0)


def test_the_marine_aboard_is_not_in_the_stash_while_its_transport_shrinks():
    # four mediums on the world and the marine: none in the stash, so a hit
    # transport of 3 cannot become a 2 and the marine is lost
    state = position(world("1", on="a4=1:2 b4=1:2 c4=1:2 a3=1:2"), space="1T3+2")
    assert battle.reduce(state, Ship(0, 3, False, 2), 1) == Ship(0, 1, False, 0)


def test_a_player_with_a_spaceport_on_the_world_fires_in_step_5():
    w2 = world("2", on="d1=2:3 a4=3:3", orbit="1F1 2F1 3F1")
    state = position(world("1", on=HOME), w2, world("3", on="d4=3:3"), players=3)
    assert battle.stages(state, "2") == ((1, 1), (0, 3), (2, 5))
    w3 = world("3", on="d4=3:3", orbit="1F1 3F1")
    assert battle.stages(position(world("1", on=HOME), world("2"), w3, players=3), "3") == ((2, 1), (0, 3))


def test_battles_follow_the_order_the_current_player_names():
    w2 = world("2", on="d1=2:3", orbit="1F1 2F1")
    w3 = world("3", on="d1=3:3", orbit="1F1 3F1")
    state = position(world("1", on=HOME), w2, w3, players=3)
    assert battle.battle_order(state, ()) == ["2", "3"]
    assert battle.battle_order(state, ("3",)) == ["3", "2"]
    with pytest.raises(IllegalTurnError, match="no battle in the orbit of world 1"):
        GAME.apply(state, Turn(battles=("1",)))


def test_no_battle_in_space_or_where_only_the_current_player_has_ships():
    state = position(world("1", on=HOME, orbit="1F1"), world("2", on="d1=2:3", orbit="2F1"),
                     space="1F3 2F3")
    assert battle.sites(state) == []
    assert GAME.apply(state, Turn()).phase == "play"


def test_the_current_players_fire_for_the_turn_overrides_their_standing_order():
    state = position(world("1", on=HOME), world("2", on="d1=2:3", orbit="1F1 2F1"),
                     orders=(FireOrder(hold=True), FireOrder(hold=True)))
    # both hold by standing order, but player 1 fires this turn: one shot in step 3
    state = GAME.apply(state, Turn(fire=FireOrder()))
    state = events(state, [("attack", "2")])
    assert state.phase == "play" and state.fire is None


def test_a_standing_order_set_in_a_turn_is_kept_for_later_turns():
    state = position(world("1", on=HOME), world("2", on="d4=2:1 c4=2:1 d3=2:1"))
    after = GAME.apply(state, Turn(standing=FireOrder(False, (1,), True)))
    assert after.orders[0] == FireOrder(False, (1,), True) and after.orders[1] == FireOrder()


def test_all_six_steps_with_a_third_player_who_has_a_spaceport_there():
    w2 = world("2", on="d1=2:3 a4=3:3", orbit="1F1 2F1 3F1")
    state = position(world("1", on=HOME), w2, world("3", on="d4=3:1 c4=3:1 d3=3:1"), players=3)
    after, log = play_out(GAME, state, Turn(), [
        ("1",),  # step 1: the owner (2) at player 1's fighter (equal sizes: the lower player): miss
        ("2",),  # step 2: player 1 fires back at the owner: miss
        ("3",),  # step 3: player 1 at player 2's fighter: miss
        ("4",),  # step 4: player 2 fires back at player 1: miss
        ("5",),  # step 5: player 3 (spaceport on a4) at player 1's fighter: a hit
        ("1",),  # player 1's defence fails: the fighter is destroyed
    ])
    assert after.world("2").ships == ships("2F1 3F1") and after.phase == "play"
    steps = [line.strip() for line in log if line.strip().startswith("Step")]
    assert steps == ["Step 1 at world 2: player 2 fires", "Step 2 at world 2: return fire at player 2",
                     "Step 3 at world 2: player 1 fires", "Step 4 at world 2: return fire at player 1",
                     "Step 5 at world 2: player 3 fires"]  # step 6: player 1 has nothing left to fire


def test_fire_at_one_world_overrides_the_turns_fire_there():
    w2 = world("2", on="d1=2:3", orbit="1F1 2F1")
    w3 = world("3", on="d1=3:3", orbit="1F1 3F1")
    both_hold = (FireOrder(), FireOrder(hold=True), FireOrder(hold=True))
    state = position(world("1", on=HOME), w2, w3, players=3, orders=both_hold)
    # player 1 holds everywhere but at world 3: one shot, in step 3 there
    state = GAME.apply(state, Turn(fire=FireOrder(hold=True), fire_at=(("3", FireOrder()),)))
    event = GAME.chance(state)
    assert event.purpose == "attack" and state.battle.world == "3"
    state = events(state, [("attack", "1")])
    assert state.phase == "play"
    with pytest.raises(IllegalTurnError, match="fire at world 1: there is no battle"):
        GAME.apply(position(world("1", on=HOME), w2, w3, players=3), Turn(fire_at=(("1", FireOrder()),)))
