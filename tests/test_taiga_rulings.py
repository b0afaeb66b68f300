"""Taiga – Battle Boreal: every ruling of ``notation/taiga/guide.md`` (numbered as
there), and the examples of the rules' text, played through the notation.

Map used by many tests: the start tile ST at 0,0 has a softwood edge on its
north side (a forest area ``n``) and a road from west to east (spot ``e``)."""

from __future__ import annotations

import pytest
from taiga_helpers import GAME, laid, play

from engine.errors import AmbiguousTurnError, GameOverError, IllegalTurnError
from engine.taiga import board as maps
from engine.taiga.scoring import final_scoring, token_value
from engine.taiga.state import Choose, Discard, Pending, Piece, Place
from engine.taiga.tiles import KINDS, PILE, SPECIES, total_tiles
from notation.taiga import KIND, NOTATION


def guide_text(language: str) -> str:
    """The guide in ``language``, its lines joined (a phrase may be wrapped)."""
    guide = KIND.guide(language)
    assert guide is not None
    return " ".join(guide.read_text(encoding="utf-8").split())


def pieces_of(state, role):
    return sorted((p.player + 1, p.x, p.y, p.spot) for p in state.pieces if p.role == role)


# -- ruling 1: tiles, edges, four turns ------------------------------------------------
def test_a_tile_fits_only_where_every_touching_edge_matches():
    state = laid(drawn="S1")
    with pytest.raises(IllegalTurnError, match="its south edge is grassland but ST at 0,0 has softwood forest "
                                               "on its north edge"):
        NOTATION.parse_turn(state, "S1 at 0,1 turn 0")
    after = play(state, "S1 at 0,1 turn 180")
    assert after.placed[-1].turn == 2


def test_every_turn_of_a_tile_is_offered_once_and_alike_turns_are_one():
    state = laid(drawn="R1")
    places = maps.placements(state.placed, "R1")
    assert (1, 0, 1) in places and (-1, 0, 1) in places  # the road continues ST's road
    assert all(t in (0, 1) for _, _, t in places)  # a straight road turned 180 lies as turned 0
    assert NOTATION.parse_turn(state, "R1 at 1,0 turn 270") == NOTATION.parse_turn(state, "R1 at 1,0 turn 90")


def test_the_places_offered_for_a_tile_are_exactly_those_where_every_touching_edge_matches():
    # the offered places are read from the edges each empty place faces; checked here, in maps grown
    # by random games, against every side of every turn at every empty place next to the map
    import random

    from engine.taiga.tiles import turned, turns_of

    for game_number in range(3):
        rng = random.Random(game_number)
        state = laid(drawn=None, pile=tuple(rng.sample(PILE, len(PILE))))
        for _ in range(40):
            if GAME.is_over(state):
                break
            if GAME.chance(state) is not None:
                state = GAME.apply_chance(state, (state.pile[0],))
                continue
            tiles = maps.analyse(state.placed).tiles
            for code in KINDS:
                wanted = tuple((x, y, t) for x, y in maps.frontier(tiles) for t in turns_of(code)
                               if maps.mismatch(tiles, x, y, turned(code, t)) is None)
                assert maps.placements(state.placed, code) == wanted, (code, len(state.placed))
            state = GAME.apply(state, rng.choice(GAME.legal_turns(state)))


def test_a_refusal_names_the_side_that_does_not_match():
    state = laid([("H2", 1, 0, 0)], drawn="S1")
    with pytest.raises(IllegalTurnError) as error:
        NOTATION.parse_turn(state, "S1 at 1,1 turn 90")
    assert "south edge is grassland but H2 at 1,0 has hardwood forest on its north edge" in str(error.value)


def test_a_tile_must_touch_the_map_and_not_cover_a_tile():
    state = laid(drawn="S1")
    with pytest.raises(IllegalTurnError, match="touches no tile"):
        NOTATION.parse_turn(state, "S1 at 5,5 turn 180")
    with pytest.raises(IllegalTurnError, match="already holds a tile"):
        NOTATION.parse_turn(state, "S1 at 0,0")


# -- ruling 2: the set ---------------------------------------------------------------
def test_the_set_has_about_seventy_tiles_one_start_six_camps_two_of_each_species():
    assert 65 <= total_tiles() <= 75
    assert KINDS["ST"].count == 1 and "ST" not in PILE and len(PILE) == total_tiles() - 1
    assert sum(k.count for k in KINDS.values() if k.feature == "camp") == 6
    for species in SPECIES:
        assert sum(k.count for k in KINDS.values() if k.feature == species) == 2


def test_the_game_starts_with_the_start_tile_ten_dollars_and_a_draw_for_player_one():
    state = GAME.initial_state(3)
    assert [(p.code, p.x, p.y) for p in state.placed] == [("ST", 0, 0)]
    assert state.money == (10, 10, 10) and GAME.chance(state).seen_by == (0,)


# -- ruling 3: the drawn tile, the discards ------------------------------------------------
def test_a_drawn_tile_that_fits_nowhere_goes_face_up_to_the_discards_and_the_turn_ends():
    state = laid(drawn="MA")  # full hardwood: nothing around the start tile takes it
    assert GAME.legal_turns(state) == [Discard("MA")]
    after = play(state, "discard")
    assert after.discards == ("MA",) and after.drawn is None and after.mover == 1


def test_a_tile_that_fits_cannot_be_discarded():
    with pytest.raises(IllegalTurnError, match="a tile that fits must be laid"):
        NOTATION.parse_turn(laid(drawn="S1"), "discard S1")


def test_a_discard_may_be_taken_instead_and_the_drawn_tile_goes_back_into_the_pile():
    state = laid(drawn="R1", discards=("S1",))
    assert any(isinstance(t, Place) and t.code == "S1" for t in GAME.legal_turns(state))
    after = play(state, "S1 at 0,1 turn 180")
    assert after.discards == () and "R1" in after.pile and len(after.pile) == len(state.pile) + 1
    assert after.pile == tuple(sorted(after.pile, key=PILE.index))


def test_a_tile_neither_drawn_nor_discarded_is_refused_naming_what_the_player_has():
    with pytest.raises(IllegalTurnError, match="you have no tile H1: your drawn tile is S1; the discards are none"):
        NOTATION.parse_turn(laid(drawn="S1"), "H1 at 0,-1 turn 180")


# -- ruling 4: pieces and money ----------------------------------------------------------
def test_each_player_has_seven_meeples_two_trucks_and_ten_dollars():
    state = GAME.initial_state(2)
    assert state.meeples_left(0) == 7 and state.trucks_left(1) == 2 and state.money == (10, 10)


def test_a_truck_the_player_cannot_pay_for_is_refused_and_money_stays_at_or_above_zero():
    state = laid(drawn="R1", money=(4, 10))
    with pytest.raises(IllegalTurnError, match=r"a truck costs \$5 and you have \$4"):
        NOTATION.parse_turn(state, "R1 at 1,0 turn 90, truck 0,0 e")
    assert not any(isinstance(t, Place) and t.truck for t in GAME.legal_turns(state))
    after = play(laid(drawn="R1", money=(5, 10)), "R1 at 1,0 turn 90, truck 0,0 e")
    assert after.money == (0, 10)


def test_a_lumberjack_the_player_cannot_pay_for_is_refused():
    state = laid(drawn="S1", money=(1, 10))
    with pytest.raises(IllegalTurnError, match="you cannot pay"):
        NOTATION.parse_turn(state, "S1 at 0,1 turn 180, surveyor s, lumberjack s")
    assert play(state, "S1 at 0,1 turn 180, surveyor s, pay s").money == (3, 10)


def test_no_meeple_is_placed_when_all_seven_are_on_the_map():
    camps = [("R1", 1, 0, 90)]
    pieces = [(1, "truck", 0, 0, "e")] + [(1, "keeper", 0, 0, "c")] * 0
    state = laid(camps, pieces=pieces, drawn="S1")
    full = state.__class__(state.placed, tuple(Piece(9, k, "n", "surveyor", 0) for k in range(7)), (),
                           state.money, state.tokens, (), state.pile, "S1", 0)
    assert full.meeples_left(0) == 0
    with pytest.raises(IllegalTurnError, match="no meeple left"):
        GAME.apply(full, Place("S1", 0, 1, 2, meeple="s"))


def test_a_player_with_both_trucks_out_places_no_third():
    state = laid([("R1", 1, 0, 90), ("R1", 2, 0, 90)], pieces=[(1, "truck", 0, 0, "e"), (1, "truck", 1, 0, "e")],
                 drawn="R1")
    with pytest.raises(IllegalTurnError, match="no truck left"):
        NOTATION.parse_turn(state, "R1 at 3,0 turn 90, truck 2,0 e")


# -- ruling 5: one meeple on the new tile, or a truck anywhere ---------------------------------
def test_a_surveyor_goes_on_a_forest_of_the_new_tile_that_has_none():
    state = laid(drawn="S6", pieces=[(2, "surveyor", 0, 0, "n")])
    with pytest.raises(IllegalTurnError, match="already has a surveyor"):
        NOTATION.parse_turn(state, "S6 at 0,1 turn 90, surveyor n")
    with pytest.raises(IllegalTurnError, match="no forest at e"):
        NOTATION.parse_turn(state, "S6 at 0,1 turn 90, surveyor e")


def test_a_camp_keeper_goes_on_the_camp_of_the_new_tile():
    state = laid(drawn="C1")
    after = play(state, "C1 at 1,0 turn 270, keeper")
    assert pieces_of(after, "keeper") == [(1, 1, 0, "c")]
    with pytest.raises(IllegalTurnError, match="no logging camp"):
        NOTATION.parse_turn(laid(drawn="R1"), "R1 at 1,0 turn 90, keeper")


def test_a_truck_goes_on_any_road_already_on_the_table_instead_of_a_meeple():
    state = laid([("R1", 1, 0, 90)], drawn="S1")
    after = play(state, "S1 at 0,1 turn 180, truck 1,0 e")
    assert pieces_of(after, "truck") == [(1, 1, 0, "e")] and after.money == (5, 10)
    with pytest.raises(IllegalTurnError, match="not more|not both"):
        NOTATION.parse_turn(state, "S1 at 0,1 turn 180, surveyor s, truck 1,0 e")
    with pytest.raises(IllegalTurnError, match="no road at"):
        NOTATION.parse_turn(state, "S1 at 0,1 turn 180, truck 0,1 s")


# -- ruling 6: completed forests ---------------------------------------------------------
def test_a_completed_forest_pays_its_surveyor_a_dollar_a_tile_and_the_surveyor_comes_back():
    after = play(laid(drawn="S1"), "S1 at 0,1 turn 180, surveyor s, pay s")
    assert after.money == (12, 10) and after.pieces == ()


def test_a_completed_forest_may_take_a_lumberjack_for_two_dollars_instead():
    after = play(laid(drawn="S1"), "S1 at 0,1 turn 180, surveyor s, lumberjack s")
    assert after.money == (8, 10) and pieces_of(after, "lumberjack") == [(1, 0, 1, "s")]


def test_the_mover_must_say_pay_or_lumberjack_when_their_forest_completes():
    with pytest.raises(AmbiguousTurnError, match="add 'pay s'"):
        NOTATION.parse_turn(laid(drawn="S1"), "S1 at 0,1 turn 180, surveyor s")
    assert NOTATION.parse_turn(laid(drawn="S1"), "S1 0,1 r180 surveyor s then pay").choices == (("s", "pay"),)


def _merging(mover: int):
    """A softwood forest ST-(0,1)-(0,2) about to be completed by S6 at 0,1,
    player 1's surveyor on the start tile, player 2's on S1 at 0,2."""
    return laid([("S1", 0, 2, 180)], pieces=[(1, "surveyor", 0, 0, "n"), (2, "surveyor", 0, 2, "s")],
                money=(10, 10, 10), drawn="S6", mover=mover)


def test_two_surveyors_in_a_merged_forest_split_the_payout_rounded_up_to_even():
    # the rules' example: three tiles round up to four, two dollars each
    after = play(_merging(2), "S6 at 0,1 turn 90")
    assert after.money == (12, 12, 10) and after.pieces == ()


def test_only_the_player_who_completes_a_shared_forest_may_choose_the_lumberjack():
    after = play(_merging(0), "S6 at 0,1 turn 90, lumberjack n")
    assert after.money == (8, 10, 10) and pieces_of(after, "lumberjack") == [(1, 0, 0, "n")]
    after = play(_merging(0), "S6 at 0,1 turn 90, pay n")
    assert after.money == (12, 12, 10)


def test_a_forest_completed_by_another_player_waits_for_its_surveyors_choice():
    state = laid(pieces=[(2, "surveyor", 0, 0, "n")], drawn="S1")
    after = play(state, "S1 at 0,1 turn 180")
    assert GAME.to_move(after) == 1 and GAME.legal_turns(after) == [Choose("pay"), Choose("lumberjack")]
    assert GAME.chance(after) is None  # the next draw waits for the choice
    with pytest.raises(IllegalTurnError, match="first chooses"):
        GAME.apply(after, Place("R1", 1, 0, 1))
    paid = play(after, "pay")
    assert paid.money == (10, 12) and paid.pieces == () and GAME.chance(paid).seen_by == (1,)
    jack = play(after, "lumberjack")
    assert jack.money == (10, 8) and pieces_of(jack, "lumberjack") == [(2, 0, 0, "n")]


def test_a_surveyor_whose_owner_cannot_afford_a_lumberjack_is_paid_without_asking():
    after = play(laid(pieces=[(2, "surveyor", 0, 0, "n")], money=(10, 1), drawn="S1"), "S1 at 0,1 turn 180")
    assert after.pending == () and after.money == (10, 3)


def test_several_choices_one_tile_leaves_are_asked_in_the_order_of_its_sides_n_e_s_w():
    # X2 turned 180 at 0,1 completes the start tile's softwood forest (its side s, player 3's surveyor) and
    # the hardwood forest of H1 at -1,1 (its side w, player 2's surveyor): s comes before w, so player 3
    # is asked first although player 2 comes first in the players' order
    state = laid([("R1", -1, 0, 90), ("H1", -1, 1, 90)], money=(10, 10, 10),
                 pieces=[(3, "surveyor", 0, 0, "n"), (2, "surveyor", -1, 1, "e")], drawn="X2")
    after = play(state, "X2 at 0,1 turn 180")
    assert after.pending == (Pending(2, 0, 1, "s"), Pending(1, 0, 1, "w")) and GAME.to_move(after) == 2
    after = play(after, "pay")
    assert GAME.to_move(after) == 1 and after.money == (10, 10, 12)
    after = play(after, "lumberjack")
    assert after.pending == () and GAME.chance(after).seen_by == (1,)  # then player 2 draws
    assert "in the order of the new tile's sides, `n e s w`" in guide_text("en")
    assert "dans l'ordre des côtés de la nouvelle tuile, `n e s w`" in guide_text("fr")


# -- ruling 7: logging -----------------------------------------------------------------------
CAMP_EAST = ("C1", 1, 0, 270)  # a camp east of the start tile, its road joining ST's


def test_a_lumberjack_forest_is_logged_at_once_when_a_camp_and_truck_reach_it():
    state = laid([CAMP_EAST], pieces=[(1, "keeper", 1, 0, "c"), (1, "truck", 0, 0, "e")], drawn="S1")
    after = play(state, "S1 at 0,1 turn 180, surveyor s, lumberjack s")
    # $10 - $2 lumberjack + $2 a tile for two tiles; the lumberjack comes back
    assert after.money == (12, 10) and pieces_of(after, "lumberjack") == []
    assert after.logged == ((0, 0, "n"),)


def test_logging_waits_for_a_truck_on_the_route():
    state = laid([CAMP_EAST], pieces=[(1, "keeper", 1, 0, "c")], drawn="S1")
    after = play(state, "S1 at 0,1 turn 180, surveyor s, lumberjack s")
    assert after.logged == () and pieces_of(after, "lumberjack") == [(1, 0, 1, "s")]
    # a later turn places the truck: the forest is logged then
    after = GAME.apply_chance(after, ("R1",))
    after = play(after, "R1 at -1,0 turn 90")  # player 2
    after = GAME.apply_chance(after, ("R1",))
    after = play(after, "R1 at -2,0 turn 90, truck 0,0 e")
    assert after.logged == ((0, 0, "n"),) and after.money == (8 - 5 + 4, 10)


def test_a_truck_anywhere_on_the_camps_road_network_serves_not_only_one_on_the_way_to_the_forest():
    # the camp at 1,0 reaches the start tile's forest along the road at 0,0; the truck at -1,0 stands on
    # the far side of the forest, on no way from the camp to it, and the forest is logged all the same
    state = laid([CAMP_EAST, ("R1", -1, 0, 90)], pieces=[(1, "keeper", 1, 0, "c"), (1, "truck", -1, 0, "e")],
                 drawn="S1")
    after = play(state, "S1 at 0,1 turn 180, surveyor s, lumberjack s")
    assert after.logged == ((0, 0, "n"),) and after.money == (12, 10)
    english, french = guide_text("en"), guide_text("fr")
    assert "trucks on the route" not in english and "sur le trajet :" not in french
    assert "anywhere on that camp's road network" in english
    assert "n'importe où sur le réseau routier de ce camp" in french


def test_logging_a_forest_with_printed_values_and_a_species_gives_the_value_and_the_token():
    # old-growth softwood ($1 printed), closed on every side: five tiles
    tiles = [CAMP_EAST, ("S0", 0, 1, 0), ("S1", 0, 2, 180), ("S1", 1, 1, 270)]
    state = laid(tiles, pieces=[(1, "keeper", 1, 0, "c"), (1, "truck", 0, 0, "e"), (1, "surveyor", 0, 1, "n")],
                 drawn="S1")
    after = play(state, "S1 at -1,1 turn 90, lumberjack e")
    assert after.money == (10 - 2 + 2 * 5 + 1, 10)
    # a maple forest: the token goes to the player who logs it
    tiles = [CAMP_EAST, ("H2", -1, 0, 0), ("MA", -1, 1, 0), ("X2", 0, 1, 180), ("H1", -1, 2, 180)]
    state = laid(tiles, pieces=[(1, "keeper", 1, 0, "c"), (1, "truck", 0, 0, "e"), (1, "surveyor", -1, 1, "n")],
                 drawn="H1")
    after = play(state, "H1 at -2,1 turn 90, lumberjack e")
    assert after.tokens == (("maple",), ()) and after.money == (10 - 2 + 2 * 5 + 1, 10)


def _blocked_route(keeper_of_middle_camp: int | None):
    """Player 1's camp at -2,0, a camp on the road at -1,0 (kept by
    ``keeper_of_middle_camp``), then the start tile's forest."""
    pieces = [(1, "keeper", -2, 0, "c"), (1, "truck", -2, 0, "e")]
    if keeper_of_middle_camp:
        pieces.append((keeper_of_middle_camp, "keeper", -1, 0, "c"))
    return laid([("C1", -2, 0, 90), ("C2", -1, 0, 90)], pieces=pieces, drawn="S1")


def test_a_route_never_passes_an_opponents_camp():
    after = play(_blocked_route(2), "S1 at 0,1 turn 180, surveyor s, lumberjack s")
    assert after.logged == ()
    for keeper in (None, 1):  # an unkept camp, or the player's own, lets the route through
        after = play(_blocked_route(keeper), "S1 at 0,1 turn 180, surveyor s, lumberjack s")
        assert after.logged == ((0, 0, "n"),)


# -- ruling 8: the end and final scoring -------------------------------------------------------
def test_the_game_ends_when_the_pile_is_empty_and_no_discard_fits():
    state = laid(discards=("MA",), pile=(), drawn=None)
    rest = [c for c in PILE if c != "MA"]
    assert state.pile == () and rest  # (the tiles not on the map are simply not in play here)
    assert GAME.is_over(state) and GAME.to_move(state) is None and GAME.result(state) is not None
    with pytest.raises(GameOverError):
        NOTATION.parse_turn(state, "pay")


def test_with_the_pile_empty_the_players_go_on_laying_discards_that_fit():
    state = laid(discards=("MA", "S1"), pile=(), drawn=None)
    assert not GAME.is_over(state) and GAME.to_move(state) == 0
    assert {t.code for t in GAME.legal_turns(state)} == {"S1"}
    after = play(state, "S1 at 0,1 turn 180")
    assert GAME.is_over(after)


def test_final_scoring_counts_three_dollars_per_completed_forest_a_camp_reaches_through_incomplete_forests():
    # camp at 0,2 -> road into the open softwood forest of S9 and ST -> ST's road -> the camp C2 on the
    # road at 1,0 -> H2's road -> its completed hardwood forest (with H1 below); no truck needed
    tiles = [("S9", 0, 1, 180), ("C1", 0, 2, 180), ("C2", 1, 0, 90), ("H2", 2, 0, 180), ("H1", 2, -1, 0)]
    state = laid(tiles, pieces=[(1, "keeper", 0, 2, "c")], pile=())
    parts = final_scoring(state)
    assert parts[0]["forests served"] == 3 and parts[1]["forests served"] == 0
    # player 2 keeps the camp on the road: player 1's route stops there, player 2's reaches the forest
    blocked = laid(tiles, pieces=[(1, "keeper", 0, 2, "c"), (2, "keeper", 1, 0, "c")], pile=())
    assert [p["forests served"] for p in final_scoring(blocked)] == [0, 3]


def test_final_scoring_pays_a_dollar_a_tile_for_a_connected_unlogged_lumberjack_forest():
    # a position the rules never leave unlogged (ruling 7 logs it at once), scored as ruling 8 says
    state = laid([CAMP_EAST, ("S1", 0, 1, 180)], pieces=[(1, "keeper", 1, 0, "c"), (1, "truck", 0, 0, "e"),
                                                         (1, "lumberjack", 0, 1, "s")], pile=())
    assert final_scoring(state)[0]["lumberjack forests"] == 2


@pytest.mark.parametrize("tokens, value", [((), 0), (("maple",), 2), (("maple", "maple"), 4),
                                           (("ash", "maple"), 8), (("ash", "birch", "maple"), 18),
                                           (("ash", "birch", "maple", "oak"), 32)])
def test_species_tokens_are_worth_two_four_six_or_eight_each_by_the_species_held(tokens, value):
    assert token_value(tokens) == value


# -- ruling 9: most money wins, ties share ----------------------------------------------------------
def test_most_money_wins_and_ties_share_the_win():
    tied = laid(money=(7, 7, 3), pile=())
    assert GAME.result(tied).winners == (0, 1) and GAME.ranking(tied) == [(0, 1), (2,)]
    one = laid(money=(7, 8), pile=())
    assert GAME.result(one).winners == (1,) and GAME.scores(one) == (7, 8)


# -- ruling 10: hidden information ------------------------------------------------------------------
def test_only_the_mover_sees_the_drawn_tile_and_nobody_sees_the_pile():
    state = laid(drawn="S1")
    mine, theirs, nobody = (GAME.view(state, p) for p in (0, 1, None))
    assert mine.drawn == "S1" and theirs.drawn == "?" and nobody.drawn == "?"
    assert set(mine.pile) == {"?"} and len(mine.pile) == len(state.pile)
    text = NOTATION.text_diagram(theirs)
    assert "drawn tile: S1" not in text and "Player 1's drawn tile:" in text and "\n[?]" in text
    assert "drawn tile: S1" in NOTATION.text_diagram(mine)
    assert f"{len(state.pile)} face down" in text


# -- pbem's ruling 21: out of time -----------------------------------------------------------------
def test_a_player_out_of_time_gives_back_the_drawn_tile_or_takes_the_payout():
    state = laid(drawn="S1")
    after = GAME.forfeit_turn(state)
    assert after.drawn is None and after.mover == 1 and "S1" in after.pile and len(after.placed) == 1
    waiting = play(laid(pieces=[(2, "surveyor", 0, 0, "n")], drawn="S1"), "S1 at 0,1 turn 180")
    assert GAME.forfeit_turn(waiting).money == (10, 12)
