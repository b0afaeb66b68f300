"""Setup: the deal into eight piles, the neutral world built by lot, each
player's world built card by card with their choices, the orbit-card swap,
the extra pile, the re-deal, the starting colonists and the first player
by lot; the views hide unturned and orbit cards."""

from collections import Counter

import pytest
from alheimur_helpers import GAME

from engine.alheimur.deck import DECK
from engine.alheimur.pieces import Colonists, Place
from engine.alheimur.worlds import geometry, playable
from engine.base import settle_from_seed
from engine.errors import IllegalTurnError

SEED = "5e" * 32


def deck_with(*piles: list[str]) -> tuple[str, ...]:
    """The 40 cards with ``piles`` first (pile 1, pile 2, ...), the rest in
    deck order."""
    rest = Counter(DECK)
    order = []
    for pile in piles:
        for card in pile:
            assert rest[card] > 0, card
            rest[card] -= 1
            order.append(card)
    for card in DECK:
        if rest[card]:
            rest[card] -= 1
            order.append(card)
    assert Counter(order) == Counter(DECK)
    return tuple(order)


def test_the_deal_is_a_hidden_draw_of_all_forty_cards():
    state = GAME.seeded_state(3, None, SEED)
    event = GAME.chance(state)
    assert (event.kind, event.purpose, event.count) == ("draw", "deal", 40)
    assert Counter(event.items) == Counter(DECK)
    assert event.seen_by == ()


def test_the_deal_makes_eight_piles_of_five_players_then_neutral_then_extra():
    cards = deck_with()
    state = GAME.apply_chance(GAME.seeded_state(3, None, SEED), cards)
    assert state.pile_of == (0, 1, 2, 3)  # players 1-3, then the neutral world
    assert state.extra == (4, 5, 6, 7)
    # the neutral world is built first, from pile 4: its first card is laid
    assert state.builder == 3 and state.building[0] == (0, 0, cards[15])


def test_the_neutral_world_is_built_by_lot_among_the_allowed_placements():
    state = GAME.apply_chance(GAME.seeded_state(2, None, SEED), deck_with())
    # pile 3 (neutral) is the deck's cards 10-14: AAEE, AEAE, AAFF, AFAF, AAWW
    assert state.building == ((0, 0, "AAEE"),) and state.card == "AEAE"
    event = GAME.chance(state)
    assert event.purpose == "lot" and event.seen_by is None
    # every side forms a region (air meets air or earth meets earth) either way round
    assert sorted(event.items) == sorted(["n", "n~", "s", "s~", "e", "e~", "w", "w~"])
    state = GAME.apply_chance(state, ("n",))
    assert state.building[-1] == (0, -1, "AEAE")


def test_a_player_chooses_among_the_allowed_placements_and_a_forbidden_one_is_refused():
    piles = [["AAAA", "EEFF", "FFFF", "WWWW", "EFWT"], ["EEEE", "AEWT", "TTTT", "WTWT", "AWTF"],
             ["AATT", "ATAT", "EETT", "ETET", "FFTT"]]
    state, _ = settle_from_seed(GAME, GAME.apply_chance(GAME.seeded_state(2, None, SEED), deck_with(*piles)),
                                SEED, 0)
    assert state.phase == "build" and GAME.to_move(state) == 0
    assert state.building == ((0, 0, "AAAA"),) and state.card == "EEFF"
    assert len(GAME.legal_turns(state)) == 8  # no region can be formed: any side, either way
    state = GAME.apply(state, Place(1, 0, False))  # east
    # FFFF can only form a region with the fire half of EEFF, below it: laid at once;
    # WWWW then has one place left and is laid too; player 2 builds next
    assert state.world("1").layout == ("AAAA", "EEFF", "WWWW", "FFFF")
    assert state.world("1").orbit_card == "EFWT"
    assert state.builder == 1 and state.building[0] == (0, 0, "EEEE")


def test_a_placement_that_breaks_the_forced_region_rule_is_refused_with_the_allowed_ones():
    piles = [["AAAA", "AEAE", "FFFF", "WWWW", "EFWT"]]
    state, _ = settle_from_seed(GAME, GAME.apply_chance(GAME.seeded_state(2, None, SEED), deck_with(*piles)),
                                SEED, 0)
    assert state.card == "AEAE"
    with pytest.raises(IllegalTurnError, match="region") as error:
        GAME.apply(state, Place(-1, 0, False))  # west, unturned: earth meets air
    assert "w~" in str(error.value)
    before = state
    GAME.apply(state, Place(-1, 0, True))
    assert state == before  # refusals and applies change nothing


def build_player_world(players: int, piles, choose=lambda turns: turns[0]):
    state = GAME.apply_chance(GAME.seeded_state(players, None, SEED), deck_with(*piles))
    state, _ = settle_from_seed(GAME, state, SEED, 0)
    while state.phase == "build" and GAME.chance(state) is None and state.builder == 0:
        state = GAME.apply(state, choose(GAME.legal_turns(state)))
    return state


def test_an_unplayable_world_swaps_in_its_orbit_card_by_lot():
    # four whole cards can never hold a spaceport; the quartered orbit card fixes it
    state = build_player_world(2, [["AAAA", "EEEE", "FFFF", "WWWW", "EFWT"]])
    assert state.phase == "swap"
    event = GAME.chance(state)
    assert event.purpose == "lot" and len(event.items) > 1
    state = GAME.apply_chance(state, (event.items[0],))
    world = state.world("1")
    assert playable(world.layout)
    assert sum(1 for c in world.layout if len(set(c)) == 4) == 1  # the quartered card is in
    assert world.orbit_card in ("AAAA", "EEEE", "FFFF", "WWWW")  # the replaced card is the orbit


def test_a_world_still_unplayable_takes_the_first_extra_pile():
    state = build_player_world(2, [["AAAA", "EEEE", "FFFF", "WWWW", "TTTT"]])
    assert state.extra == (4, 5, 6, 7)  # 2 players: piles 1-2 theirs, 3 neutral, 4-8 extra
    assert state.pile_of[0] == 3
    pile = deck_with(["AAAA", "EEEE", "FFFF", "WWWW", "TTTT"])[15:20]
    world = state.world("1")
    printed = [c if c in DECK else c[::-1] for c in world.layout] + [world.orbit_card]
    assert Counter(printed) == Counter(pile)
    assert playable(world.layout)


def test_with_no_extra_pile_left_all_cards_are_dealt_again():
    state = build_player_world(8, [["AAAA", "EEEE", "FFFF", "WWWW", "TTTT"]])
    assert state.phase == "deal" and state.deals == 1 and state.worlds == ()
    assert GAME.chance(state).purpose == "deal"


def finished_setup(players: int, seed: str = SEED):
    state, _ = settle_from_seed(GAME, GAME.seeded_state(players, None, seed), seed, 0)
    ply = 0
    while state.phase == "build":
        state = GAME.apply(state, GAME.legal_turns(state)[0])
        ply += 1
        state, _ = settle_from_seed(GAME, state, seed, ply)
    return state, ply


def test_every_player_world_is_playable_and_has_its_orbit_card():
    state, _ = finished_setup(4)
    assert state.phase == "colonists"
    assert [w.name for w in state.worlds] == ["1", "2", "3", "4", "N"]
    for world in state.worlds[:4]:
        assert playable(world.layout)
    used = [c for w in state.worlds for c in w.layout] + [w.orbit_card for w in state.worlds]
    assert len(used) == 25


def test_each_player_places_three_colonists_on_their_own_world_then_the_first_player_is_drawn():
    state, ply = finished_setup(2)
    names = geometry(state.worlds[0].layout).names()
    with pytest.raises(IllegalTurnError, match="three different territories"):
        GAME.apply(state, Colonists(((names[0], 1), (names[0], 2), (names[1], 3))))
    with pytest.raises(IllegalTurnError, match="no territory z9"):
        GAME.apply(state, Colonists((("z9", 1), (names[0], 2), (names[1], 3))))
    state = GAME.apply(state, Colonists(((names[0], 1), (names[1], 2), (names[2], 3))))
    assert GAME.to_move(state) == 1
    names2 = geometry(state.worlds[1].layout).names()
    state = GAME.apply(state, Colonists(((names2[0], 3), (names2[1], 3), (names2[2], 3))))
    event = GAME.chance(state)
    assert (event.purpose, event.items) == ("first", ("1", "2"))
    state = GAME.apply_chance(state, ("2",))
    assert state.phase == "play" and GAME.to_move(state) == 1
    assert state.worlds[0].at(names[1]).size == 2 and state.stash(1) == {1: 5, 2: 5, 3: 2}


def test_views_hide_unturned_cards_and_orbit_cards_but_show_the_card_being_laid():
    state, _ = finished_setup(3)
    view = GAME.view(state, 0)
    assert all(w.orbit_card == "?" for w in view.worlds)
    assert all(set(p) <= {"?"} for p in view.piles)
    assert GAME.view(view, 0) == view
    building = GAME.apply_chance(GAME.seeded_state(2, None, SEED), deck_with())
    assert GAME.view(building, None).card == building.card


def test_a_placement_read_against_a_players_view_gives_the_same_verdict():
    # the mail robot reads a turn against the sender's view, whose piles are hidden
    piles = [["AAAA", "EEFF", "FFFF", "WWWW", "EFWT"]]
    state, _ = settle_from_seed(GAME, GAME.apply_chance(GAME.seeded_state(2, None, SEED), deck_with(*piles)),
                                SEED, 0)
    view = GAME.view(state, 0)
    for turn in GAME.legal_turns(state):
        GAME.apply(view, turn)  # accepted on the view too, nothing hidden needed
    assert GAME.legal_turns(view) == GAME.legal_turns(state)
    with pytest.raises(IllegalTurnError):
        GAME.apply(view, Place(5, 5, False))
