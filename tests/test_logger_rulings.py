"""One or more tests per ruling of notation/logger/guide.md (rulings 1-10)."""

import pytest
from logger_helpers import NOTATION, RULES, legal, play, position

from engine.errors import (
    AmbiguousTurnError,
    GameOverError,
    IllegalTurnError,
    MalformedTurnError,
    OptionError,
    PositionError,
)

START2 = "...../...../..s../...../..... 1 0,0 2,2"


# -- ruling 1: the board ---------------------------------------------------
def test_board_is_5x5_with_rank_5_on_top_and_file_a_on_the_left():
    diagram = NOTATION.text_diagram(position("....2/...../..s../...../1.... 1 0,0 2,2"))
    lines = diagram.splitlines()
    assert lines[0] == "5 . . . . 2"
    assert lines[2] == "3 . . s . ."
    assert lines[4] == "1 1 . . . ."
    assert lines[5] == "  a b c d e"


def test_a_position_must_have_five_ranks_of_five():
    with pytest.raises(PositionError, match="five ranks of five"):
        position("....../...../..s../...../..... 1 0,0 2,2")


# -- ruling 2: players and protesters ---------------------------------------
@pytest.mark.parametrize("players,supply", [(2, 2), (3, 1), (4, 1)])
def test_players_start_with_protesters(players, supply):
    state = RULES.initial_state(players)
    assert state.supplies == (supply,) * players
    assert state.scores == (0,) * players


@pytest.mark.parametrize("players", [1, 5])
def test_logger_is_for_two_to_four_players(players):
    with pytest.raises(OptionError, match="2 to 4 players"):
        RULES.initial_state(players)


# -- ruling 3: setup ----------------------------------------------------------
def test_setup_starts_with_a_seedling_on_c3_and_loggers_go_on_corners_in_turn_order():
    assert NOTATION.format_position(RULES.initial_state(2)) == START2
    assert legal(START2) == ["a1", "e1", "a5", "e5"]
    assert play(START2, "e1") == "...../...../..s../...../....1 2 0,0 2,2"
    after = play(START2, "e1", "a5")
    assert after == "2..../...../..s../...../....1 1 0,0 2,2"  # main play starts with player 1
    assert legal(after)[0].startswith("G")  # now a main-phase turn


def test_setup_refuses_a_taken_corner_and_names_the_free_ones():
    with pytest.raises(IllegalTurnError, match="e1 is taken.*a1, a5, e5"):
        play(START2, "e1", "e1")


def test_setup_refuses_a_square_that_is_not_a_corner():
    with pytest.raises(IllegalTurnError, match="c1 is not a corner"):
        play(START2, "c1")


def test_setup_turn_is_the_corner_alone():
    with pytest.raises(MalformedTurnError, match="corner for your logger alone"):
        play(START2, "a1 G")


# -- ruling 4: orthogonal adjacency ---------------------------------------------
def test_diagonal_trees_cannot_be_chopped():
    # b2 is diagonal to the logger on a1: not adjacent
    with pytest.raises(IllegalTurnError, match="cannot chop b2"):
        play("....2/...../...../.M.../1.... 1 0,0 0,0", "C:b2")


def test_diagonal_squares_cannot_be_planted():
    with pytest.raises(IllegalTurnError, match="cannot plant on b2.*a2, b1"):
        play("....2/...../...../...../1.... 1 0,0 0,0", "P:b2")


def test_a_mature_tree_spawns_orthogonally_only():
    # a1 logger, b1 mature: b1's empty neighbours are b2 and c1, not a2 or c2
    with pytest.raises(IllegalTurnError, match="cannot spawn onto c2; it can spawn onto b2, c1"):
        play("....2/...../...../...../1M... 1 0,0 0,0", "G:b1>c2 P:a2")


# -- ruling 5: movement -----------------------------------------------------------
def test_movement_needs_a_free_path_and_lists_the_destinations():
    start = "....2/...../...../MM.../1.M.. 1 0,0 2,2"
    with pytest.raises(IllegalTurnError, match="cannot reach a3; it can move to b1"):
        play(start, "a1-a3")
    with pytest.raises(IllegalTurnError, match="cannot reach c1"):
        play(start, "a1-c1")


def test_movement_takes_any_free_path():
    # c3 -> d4: the way through c4 is blocked by a sapling, the way through d3 is free
    after = play("....2/..S../..1../...../..... 1 0,0 2,2", "c3-d4 G P:d5")
    assert after.split()[0] == "...s2/..M1./...../...../....."


def test_movement_of_three_steps_is_refused():
    with pytest.raises(IllegalTurnError, match="cannot reach a4"):
        play("....2/...../...../...../1.... 1 0,0 2,2", "a1-a4 G P:a5")


def test_loggers_block_movement():
    # player 2 on b1 blocks the way along rank 1
    with pytest.raises(IllegalTurnError, match="cannot reach c1"):
        play("...../...../...../M..../12... 1 0,0 0,0", "a1-c1")


def test_not_moving_is_a_turn():
    assert play("....2/...../...../...../1.... 1 0,0 2,2", "G P:a2").startswith("....2/...../...../s..../1....")


@pytest.mark.parametrize("text", ["a1-a1 G P:a2", "A1 - a1 P:a2", "a1-a1"])
def test_a_movement_to_the_square_the_logger_stands_on_is_refused(text):
    # the rules allow 1 or 2 steps; staying is written by leaving the movement out
    start = "....2/...../...../...../1.... 1 0,0 2,2"
    with pytest.raises(IllegalTurnError) as error:
        play(start, text)
    message = str(error.value)
    assert "a logger moves 1 or 2 squares" in message
    assert "leave the movement out" in message
    assert start in message  # the position is named, as for every illegal turn


def test_the_rules_refuse_a_turn_that_moves_the_logger_to_its_own_square():
    from engine.logger import LoggerTurn, Plant
    from engine.logger.board import parse_square

    state = position("....2/...../...../...../1.... 1 0,0 2,2")
    with pytest.raises(IllegalTurnError, match="a logger moves 1 or 2 squares"):
        RULES.apply(state, LoggerTurn(parse_square("a1"), (), Plant(parse_square("a2"))))


def test_the_move_must_start_from_the_movers_logger():
    with pytest.raises(IllegalTurnError, match="is on a1, not b1"):
        play("....2/...../...../...../1.... 1 0,0 2,2", "b1-c1 G P:c2")


# -- ruling 6: growth ---------------------------------------------------------------
def test_growth_covers_the_whole_rank_and_file_blocked_or_not():
    # logger on a1: rank 1 and file a grow, even beyond the sapling on c1
    after = play("S...2/s..../...../...../1.s.s 1 0,0 2,2", "G P:b1")
    assert after.split()[0] == "M...2/S..../...../...../1sS.S"


def test_trees_off_the_rank_and_file_do_not_grow():
    after = play("....2/...../.s.../...../1.... 1 0,0 2,2", "G P:a2")
    assert after.split()[0] == "....2/...../.s.../s..../1...."


def test_a_tree_grows_one_stage_and_a_new_mature_tree_does_not_spawn():
    # a2 sapling becomes mature and does not spawn the same turn
    after = play("....2/...../...../S..../1.... 1 0,0 0,0", "G P:b1")
    assert after.split()[0] == "....2/...../...../M..../1s..."


def test_an_already_mature_tree_spawns_a_seedling_that_does_not_grow():
    # b1 mature spawns; c1, its only free neighbour besides b2? (b2 is a sapling) gets a seedling
    after = play("....2/...../...../.S.../1M... 1 0,0 0,0", "G P:a2")
    assert after.split()[0] == "....2/...../...../sS.../1Ms.."


def test_spawn_is_compulsory_and_forced_spawns_need_not_be_written():
    assert play("....2/...../...../...../1MMsM 1 0,0 2,2", "C:b1") == "....2/...../...../.ss.s/1..SM 2 2,0 2,2"


def test_the_ruling_example_refuses_an_unstated_choice_and_names_it():
    start = "....2/...../s..../M..../1M... 1 0,0 2,2"
    with pytest.raises(AmbiguousTurnError, match="b1 could spawn onto b2, c1"):
        play(start, "C:a2")
    one = play(start, "G:b1>b2 C:a2")
    other = play(start, "G:a2>b2 C:a2")
    assert one != other
    assert one.split()[0] == "....2/...../S..../.s.../1M..."
    assert other.split()[0] == "....2/...../S..../.s.../1Ms.."


def test_the_mover_chooses_the_order_of_competing_spawns():
    # a2 and b1 both want b2; whoever spawns first takes it
    start = "....2/...../s..../M..../1M... 1 0,0 2,2"
    assert "G:b1>b2 C:a2" in legal(start)
    assert "G:a2>b2 C:a2" in legal(start)
    # b1>b2 leaves a2 nothing; b1>c1 gives the same board as a2>b2, listed once
    assert len([t for t in legal(start) if t.endswith("C:a2")]) == 2


def test_a_written_spawn_for_a_tree_that_does_not_spawn_is_refused():
    with pytest.raises(IllegalTurnError, match="d4 is not a tree that spawns"):
        play("....2/...M./...../...../1M... 1 0,0 0,0", "G:d4>d5 P:a2")


def test_a_tree_spawns_once():
    with pytest.raises(IllegalTurnError, match="spawns only once"):
        play("....2/...../...../...../1M... 1 0,0 0,0", "G:b1>b2,b1>c1 P:a2")


def test_protested_mature_trees_spawn_too():
    after = play("....2/...../...../.M.../1P... 1 0,0 0,0", "G P:a2")
    assert after.split()[0] == "....2/...../...../sM.../1Ps.."


def test_sapling_variant_spawns_saplings():
    start = "....2/...../...../...../1MMsM 1 0,0 2,2"
    assert play(start, "C:b1", spawn="sapling") == "....2/...../...../.SS.S/1..SM 2 2,0 2,2"


def test_unknown_option_values_are_refused():
    with pytest.raises(OptionError, match="seedling, sapling"):
        RULES.initial_state(2, {"spawn": "oak"})


# -- ruling 7: the action ------------------------------------------------------------
def test_plant_puts_a_seedling_next_to_the_logger():
    assert play("....2/...../...../...../1.... 1 0,0 0,0", "G P:b1").split()[0] == "....2/...../...../...../1s..."


def test_protest_places_one_protester_per_tree_anywhere():
    after = play("....2/.M.../...../...M./1.... 1 0,0 2,2", "G X:b4,d2")
    assert after == "....2/.P.../...../...P./1.... 2 0,0 0,2"


def test_protest_is_limited_by_supply():
    with pytest.raises(IllegalTurnError, match="1 protester in supply, not 2"):
        play("....2/.M.../...../...M./1.... 1 0,0 1,2", "G X:b4,d2")


def test_protest_needs_unprotested_mature_trees():
    with pytest.raises(IllegalTurnError, match="b4 is not one"):
        play("....2/.P.../...../...M./1.... 1 0,0 1,2", "G X:b4")


def test_protested_trees_cannot_be_chopped_directly():
    with pytest.raises(IllegalTurnError, match="cannot chop a2"):
        play("....2/...../...../P..../1.... 1 0,0 0,0", "G:a2>a3 C:a2")


def test_chop_fells_the_line_of_mature_trees_including_protested_ones():
    # a1 chops b1; c1 (protested), d1 and e1 fall too; the domino stops at the edge.
    # (growth first: each of them spawned onto rank 2)
    after = play("....2/...../...../...../1MPMM 1 0,0 0,0", "G C:b1")
    assert after == "....2/...../...../.ssss/1.... 2 4,0 1,0"


def test_chop_stops_at_anything_but_a_mature_tree():
    # rank 1: logger, mature, mature, sapling, mature (the rules' own example);
    # growth first makes the sapling on d1 mature, so here it is a seedling
    after = play("....2/...../...../...../1MMsM 1 0,0 2,2", "G C:b1")
    assert after.split()[0] == "....2/...../...../.ss.s/1..SM"
    # a logger stops the domino too
    after = play("...../...../...../.S.S./1MM2M 1 0,0 2,2", "G C:b1")
    assert after.split()[0] == "...../...../...../.SsSs/1..2M"


def test_action_is_compulsory_when_possible():
    with pytest.raises(IllegalTurnError, match="an action is compulsory here: plant on a2, b1"):
        play("....2/...../...../...../1.... 1 0,0 0,0", "G")


def test_no_action_when_none_is_possible():
    # the logger on a1 is boxed in by protested trees, no supply, no empty square next to it
    start = "....2/...../S..../PS.../1PS.. 1 0,0 0,0"
    assert legal(start) == ["G"]
    assert play(start, "G") == "....2/...../M..../PS.../1PM.. 2 0,0 0,0"


# -- ruling 8: no pool limit -------------------------------------------------------------
def test_trees_spawn_however_many_are_on_the_board():
    crowded = "MMMM2/MMMMM/MMMM./MMMM./1M..M 1 0,0 0,0"
    after = position(play(crowded, "G:b1>c1,e1>d1 C:b1"))
    assert after.board.count("M") + after.board.count("s") >= 18


# -- ruling 9: the equal-turns end ---------------------------------------------------------
def test_reaching_10_lets_the_rest_of_the_round_play():
    # three players; player 2 (on e5) chops d5 and reaches 10
    after = play("3..M2/...../...../...../1.... 2 0,9,0 0,0,0", "G:d5>d4 C:d5")
    assert after.split()[1:] == ["3", "0,10,0", "0,0,0"]
    end = play(after, legal(after)[0])
    assert end.split()[1] == "-"  # player 3 has moved; player 1 gets no further turn


def test_the_game_ends_at_once_when_the_last_player_reaches_10():
    after = play("3M..2/...../...../...../1.... 3 0,0,9 0,0,0", "G:b5>b4 C:b5")
    assert after.split()[1:] == ["-", "0,0,10", "0,0,0"]


def test_the_first_player_reaching_10_gives_everyone_else_a_turn():
    start = "....2/...../...../...../1M... 1 9,0 0,0"
    after = play(start, "G:b1>b2 C:b1")
    assert after.split()[1] == "2"
    assert play(after, legal(after)[0]).split()[1] == "-"


def test_no_turn_after_the_end():
    with pytest.raises(GameOverError):
        play("....2/...../...../...../1.... - 10,0 0,0", "G P:a2")
    assert legal("....2/...../...../...../1.... - 10,0 0,0") == []


# -- ruling 10: the result ---------------------------------------------------------------------
@pytest.mark.parametrize(
    "scores,supplies,winners",
    [
        ("11,10", "0,3", (0,)),
        ("10,10", "1,2", (1,)),
        ("10,10", "2,2", (0, 1)),
        ("10,12,12", "0,1,1", (1, 2)),
    ],
)
def test_result_most_points_then_most_protesters_then_draw(scores, supplies, winners):
    players = scores.count(",") + 1
    loggers = "12" if players == 2 else "123"
    state = position(f"{loggers}{'.' * (5 - len(loggers))}/...../...../...../..... - {scores} {supplies}")
    assert RULES.result(state).winners == winners


# -- ruling 11 (ours): a dead position ends the game -------------------------------------------
def test_a_position_where_nobody_can_change_anything_ends_the_game():
    # Both loggers are boxed in by protested trees and nobody has protesters.
    # Player 1's growth matures the sapling on e1; after that no turn of
    # either player can ever change the board, so the game ends at once.
    start = "MsMs./MsMs./MsMs./PsPss/1P2PS 1 3,2 0,0"
    assert position(start).to_move == 0
    after = play(start, "G")
    assert after == "MsMs./MsMs./MsMs./PsPss/1P2PM - 3,2 0,0"
    result = RULES.result(position(after))
    assert result.winners == (0,)
    assert "no player can change the board" in result.reason


def test_a_game_that_can_still_change_goes_on():
    # the same, but player 2 still has a protester to place on e1 later
    after = play("MsMs./MsMs./MsMs./PsPss/1P2PS 1 3,2 0,1", "G")
    assert after.split()[1] == "2"


# -- forfeited turns (time ran out under the forfeit policy) -------------------------------------
def test_a_forfeited_turn_changes_nothing_but_the_player_to_move():
    state = position("....2/...../...../...../1MMsM 1 0,0 2,2")
    after = RULES.forfeit_turn(state)
    assert NOTATION.format_position(after) == "....2/...../...../...../1MMsM 2 0,0 2,2"


def test_a_forfeited_setup_turn_takes_the_first_free_corner():
    after = RULES.forfeit_turn(position("...../...../..s../...../1.... 2 0,0 2,2"))
    assert NOTATION.format_position(after) == "...../...../..s../...../1...2 1 0,0 2,2"


def test_a_forfeited_last_turn_still_ends_the_round_at_10():
    after = RULES.forfeit_turn(position("....2/...../...../...../1.... 2 10,0 0,0"))
    assert after.to_move is None


# -- ruling 10 for every place: the ranking --------------------------------------------------
@pytest.mark.parametrize(
    "scores,supplies,ranking",
    [
        ("11,10", "0,3", [(0,), (1,)]),
        ("10,10", "1,2", [(1,), (0,)]),
        ("10,10", "2,2", [(0, 1)]),
        ("10,12,12", "0,1,1", [(1, 2), (0,)]),
        ("10,12,3", "0,0,1", [(1,), (0,), (2,)]),
        ("4,10,4,4", "1,0,0,1", [(1,), (0, 3), (2,)]),
    ],
)
def test_ranking_orders_every_player_by_points_then_protesters(scores, supplies, ranking):
    players = scores.count(",") + 1
    loggers = "1234"[:players]
    state = position(f"{loggers}{'.' * (5 - len(loggers))}/...../...../...../..... - {scores} {supplies}")
    assert RULES.ranking(state) == ranking
    assert RULES.ranking(state)[0] == RULES.result(state).winners


def test_no_ranking_while_the_game_goes_on():
    assert RULES.ranking(RULES.initial_state(3)) == []
