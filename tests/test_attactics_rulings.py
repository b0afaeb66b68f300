"""Every Attactics ruling (notation/attactics/guide.md, numbered as in
shared/games/attactics.md), pinned on small positions."""

from __future__ import annotations

import pytest

from engine.attactics import AttacticsState
from engine.attactics.board import code, parse_square
from engine.attactics.settle import Work
from engine.errors import AmbiguousTurnError, IllegalTurnError, MalformedTurnError, OptionError, PositionError
from notation import registry

KIND = registry.get("attactics")
GAME, NOTATION = KIND.rules, KIND.notation


def make(pieces: dict[str, str], mover: int = 1, players: int = 2) -> AttacticsState:
    """A position from square -> piece (``"1s"``: player 1's small)."""
    ranks = []
    for rank in range(8, 0, -1):
        ranks.append("".join(pieces.get(f"{f}{rank}", ".") for f in "abcdefgh"))
    return NOTATION.parse_position(f"{'/'.join(ranks)} {mover} {players}")


def many(token: str, squares: str) -> dict[str, str]:
    return {square: token for square in squares.split()}


def play(state: AttacticsState, text: str) -> AttacticsState:
    return GAME.apply(state, NOTATION.parse_turn(state, text))


def at(state: AttacticsState, square: str) -> str:
    piece = state.board[parse_square(square)]
    return f"{(piece >> 2) + 1}{'.sml'[piece & 3]}" if piece else "."


def texts(state: AttacticsState, prefix: str) -> list[str]:
    return sorted(t for t in NOTATION.legal_texts(state) if t == prefix or t.startswith(prefix + " "))


def invariant(state: AttacticsState) -> None:
    for p in range(state.players):
        counts = state.board_counts(p)
        assert all(counts[k] + state.stashes[p][k] == 5 for k in range(3)), (p, counts, state.stashes[p])


# -- 1-4: board, players, start, adjacency -----------------------------------
def test_1_board_is_a_chessboard_a1_to_h8():
    state = make({"h8": "1s", "a1": "2s"})
    moves = [t for t in NOTATION.legal_texts(state) if t.startswith("h8-") and t != "h8-"]
    assert moves == ["h8-f6", "h8-f7", "h8-f8", "h8-g6", "h8-g7", "h8-g8", "h8-h6", "h8-h7"]
    with pytest.raises(MalformedTurnError):
        NOTATION.parse_turn(state, "h8-i8")
    with pytest.raises(PositionError):
        NOTATION.parse_position("......../8/8/8/8/8/8/8/8 1 2")  # nine ranks


@pytest.mark.parametrize("players", [1, 5])
def test_2_two_to_four_players(players):
    with pytest.raises(OptionError):
        GAME.initial_state(players)


def test_2_each_stash_holds_five_of_each_size():
    for players in (2, 3, 4):
        state = GAME.initial_state(players)
        assert state.stashes == ((4, 5, 5),) * players
        invariant(state)


def test_3_start_corners():
    state = GAME.initial_state(4)
    assert [at(state, s) for s in ("a1", "h8", "a8", "h1")] == ["1s", "2s", "3s", "4s"]
    assert NOTATION.format_position(GAME.initial_state(2)) == (
        ".......2s/......../......../......../......../......../......../1s....... 1 2"
    )


def test_4_adjacent_includes_diagonals():
    state = make({"a1": "1s", "c3": "2s", "h8": "2s"})
    after = play(state, "a1-b2")  # clone diagonally, capturing c3 diagonally
    assert at(after, "b2") == "1s" and at(after, "c3") == "1s"


# -- 5: the three kinds of turn ------------------------------------------------
def test_5_move_clone_reach_is_the_5x5_block():
    state = make({"d4": "1m", "h8": "2s"})
    moves = [t for t in NOTATION.legal_texts(state) if t.startswith("d4-") and len(t) == 5]
    assert len(moves) == 24
    with pytest.raises(IllegalTurnError, match="cannot go to d7"):
        NOTATION.parse_turn(state, "d4-d7")


def test_5_clone_takes_a_new_piece_and_jump_moves_the_piece():
    state = make({"d4": "1m", "h8": "2s"})
    clone = play(state, "d4-e5")
    assert at(clone, "d4") == at(clone, "e5") == "1m" and clone.stashes[0] == (5, 3, 5)
    jump = play(state, "d4-f6")
    assert at(jump, "d4") == "." and at(jump, "f6") == "1m" and jump.stashes[0] == (5, 4, 5)


def test_5_clone_without_a_piece_that_size_or_larger_is_illegal():
    state = make({"a1": "1l", **many("1l", "a3 a5 a7 c7"), "h8": "2s"})
    with pytest.raises(IllegalTurnError, match="no large or larger pyramid"):
        NOTATION.parse_turn(state, "a1-b2")
    assert "a1-c3" in NOTATION.legal_texts(state)  # a jump needs no new piece


def test_5_clone_uses_the_smallest_larger_piece_when_its_size_is_gone():
    state = make({"a1": "1s", **many("1s", "h1 h2 h3 h4"), **many("1m", "g1 g2 g3 g4 g5"), "h8": "2s"})
    after = play(state, "a1-b2")
    assert at(after, "b2") == "1l"


def test_5_grow_swaps_for_a_larger_piece():
    state = make({"d4": "1s", "h8": "2s"})
    after = play(state, "d4+")
    assert at(after, "d4") == "1m" and after.stashes[0] == (5, 4, 5)
    with pytest.raises(IllegalTurnError, match="large and cannot grow"):
        NOTATION.parse_turn(make({"d4": "1l", "h8": "2s"}), "d4+")
    short = make({"d4": "1s", **many("1m", "a1 a3 a5 a7 c7"), "h8": "2s"})
    with pytest.raises(IllegalTurnError, match="no medium pyramid"):
        NOTATION.parse_turn(short, "d4+")


def test_5_grow_reduces_every_adjacent_piece_of_any_colour():
    state = make({"d4": "1s", "c3": "2m", "c4": "2l", "e5": "1m", "e4": "2s", "d5": "1s", "h8": "2s"})
    after = play(state, "d4+")
    assert [at(after, s) for s in ("c3", "c4", "e5", "e4", "d5")] == ["2s", "2m", "1s", ".", "."]
    assert after.stashes == ((4, 4, 5), (3, 4, 5))  # destroyed and swapped pieces back to their owners
    invariant(after)


def test_5_grow_leaves_a_piece_whose_owner_has_no_smaller_piece():
    state = make({"d4": "1s", "c3": "2m", **many("2s", "h8 h7 h6 h5 h4"), "a8": "1s"})
    after = play(state, "d4+")
    assert at(after, "c3") == "2m"


def test_5_shrink_swaps_for_a_smaller_piece():
    state = make({"d4": "1l", "h8": "2s"})
    assert at(play(state, "d4-"), "d4") == "1m"
    short = make({"d4": "1l", **many("1m", "a1 a3 a5 a7 c7"), "h8": "2s"})
    with pytest.raises(IllegalTurnError, match="no medium pyramid"):
        NOTATION.parse_turn(short, "d4-")


def test_5_shrinking_a_small_returns_it_and_empties_the_square():
    state = make({"d4": "1s", "a1": "1m", "h8": "2s"})
    after = play(state, "d4-")
    assert at(after, "d4") == "." and after.stashes[0] == (5, 4, 5)


def test_5_shrink_captures_every_adjacent_enemy_and_destroys_friends():
    state = make({"d4": "1m", "c3": "2l", "c5": "2s", "e5": "1l", "e3": "1s", "h8": "2s"})
    after = play(state, "d4-")
    assert [at(after, s) for s in ("d4", "c3", "c5", "e5", "e3")] == ["1s", "1l", "1s", ".", "."]
    invariant(after)


# -- 6: the replacement chain ----------------------------------------------------
def test_6_step1_replacement_from_the_stash_same_size():
    state = make({"a1": "1s", "d4": "2s", "h8": "2s"})
    after = play(state, "a1-c3")
    assert at(after, "d4") == "1s" and after.stashes == ((3, 5, 5), (4, 5, 5))


def test_6_step2_replacement_from_the_board_chosen_by_the_mover():
    state = make({"a1": "1s", **many("1s", "h1 h2 h3 h4"), "d4": "2s", "h8": "2s"})
    assert texts(state, "a1-c3") == ["a1-c3 d4=h1", "a1-c3 d4=h2", "a1-c3 d4=h3", "a1-c3 d4=h4"]
    with pytest.raises(AmbiguousTurnError) as error:
        NOTATION.parse_turn(state, "a1-c3")
    assert "a1-c3 d4=h1, a1-c3 d4=h2, a1-c3 d4=h3, a1-c3 d4=h4" in str(error.value)
    after = play(state, "a1-c3 d4=h2")
    assert at(after, "d4") == "1s" and at(after, "h2") == "." and at(after, "c3") == "1s"
    invariant(after)


def test_6_step3_smallest_larger_piece_from_the_stash():
    # the clone takes the last small from the stash; h1-h3 serve three
    # captures; the fourth gets a medium: the mover says which.
    state = make({"a1": "1s", **many("1s", "h1 h2 h3"), **many("2s", "a3 b3 c3 c1"), "h8": "2s"})
    assert texts(state, "a1-b2") == ["a1-b2 a3=m", "a1-b2 b3=m", "a1-b2 c1=m", "a1-b2 c3=m"]
    after = play(state, "a1-b2 c3=m")
    assert [at(after, s) for s in ("a3", "b3", "c3", "c1", "h1", "h2", "h3")] == ["1s"] * 2 + ["1m", "1s"] + ["."] * 3
    invariant(after)


def test_6_step4_left_empty_when_nothing_larger_is_left():
    pieces = {"a1": "1s", **many("1s", "h1 h2 h3"), **many("2s", "a3 b3 c3 c1"), "h8": "2s"}
    pieces.update(many("1m", "e8 f8 g8 e7 f7"), **many("1l", "e6 f6 g6 e5 f5"))
    state = make(pieces)
    assert texts(state, "a1-b2") == ["a1-b2 a3=.", "a1-b2 b3=.", "a1-b2 c1=.", "a1-b2 c3=."]
    after = play(state, "a1-b2 b3=.")
    assert at(after, "b3") == "." and at(after, "a3") == "1s"
    assert after.stashes[1] == (4, 5, 5)  # every captured piece went home
    invariant(after)


def test_7_the_order_of_service_is_stated_and_over_stating_is_accepted():
    state = make({"a1": "1s", **many("1s", "h1 h2 h3"), **many("2s", "a3 b3 c3 c1"), "h8": "2s"})
    turn = NOTATION.parse_turn(state, "a1-b2 a3=h1 b3=h2 c1=h3 c3=m")
    assert NOTATION.format_turn(state, turn) == "a1-b2 c3=m"
    with pytest.raises(IllegalTurnError, match="not a way this turn can end"):
        NOTATION.parse_turn(state, "a1-b2 a3=m c3=m")
    with pytest.raises(IllegalTurnError, match="not captured or reduced"):
        NOTATION.parse_turn(state, "a1-b2 d4=m")
    with pytest.raises(IllegalTurnError, match="holds no piece of player 1"):
        NOTATION.parse_turn(state, "a1-b2 c3=d5")


def test_7_every_option_listed_in_an_ambiguity_is_a_legal_turn():
    state = make({"a1": "1s", **many("1s", "h1 h2 h3 h4"), "d4": "2s", "b4": "2s", "h8": "2s"})
    with pytest.raises(AmbiguousTurnError, match="write one of") as error:
        NOTATION.parse_turn(state, "a1-c3")
    options = str(error.value).split("write one of: ")[1].split(" (position")[0].split(", ")
    assert options == texts(state, "a1-c3") and len(options) > 4
    for option in options:
        assert NOTATION.format_turn(state, NOTATION.parse_turn(state, option)) == option


def test_8_captured_and_destroyed_pieces_go_back_to_their_owner():
    state = make({"d4": "1s", "c3": "2l", "e5": "1m", "h8": "2s"})
    after = play(state, "d4-")
    assert after.stashes == ((5, 5, 4), (4, 5, 5))  # 2l back to player 2; 1s and 1m back to player 1
    invariant(after)


# -- 9-11: turns, the end ------------------------------------------------------
def test_9_a_player_out_is_skipped():
    state = make({"a1": "1s", "h8": "3s"}, mover=1, players=3)
    assert GAME.to_move(play(state, "a1+")) == 2  # player 2 has no piece: player 3 moves


def test_9_a_player_with_a_piece_always_has_a_shrink_so_never_passes():
    # the smallest size a player has on the board is never all on the board
    # if a smaller size exists, so its shrink is always legal
    state = make({**many("1l", "a1 a3 a5 a7 c7"), **many("2l", "h8 h6 h4 h2 f2")})
    assert any(t.endswith("-") for t in NOTATION.legal_texts(state))


def test_10_all_fifteen_on_the_board_wins_at_once():
    pieces = {**many("1s", "a1 a2 a3 a4"), **many("1m", "b1 b2 b3 b4 b5"), **many("1l", "c1 c2 c3 c4 c5")}
    pieces["h8"] = "2s"
    state = make(pieces)
    after = play(state, "a4-a5")  # clones the last small
    assert GAME.to_move(after) is None and GAME.result(after).winners == (0,)
    assert GAME.result(after).reason == "all 15 pyramids on the board" and GAME.result(after).tag() == "1"
    assert NOTATION.format_position(after).endswith(" w1 2")


def test_10_the_only_player_with_pieces_wins():
    state = make({"a1": "1s", "b3": "2s"})
    after = play(state, "a1-a2")
    assert GAME.result(after).winners == (0,) and GAME.result(after).reason == "the only player with pyramids on the board"


def test_10_several_players_complete_the_mover_first_else_next_in_turn_order():
    full = [code(0, 1 + i % 3) for i in range(15)] + [code(3, 1 + i % 3) for i in range(15)]
    board = tuple(full + [code(1, 1)] + [0] * (64 - 31))
    stashes = ((0, 0, 0), (4, 5, 5), (5, 5, 5), (0, 0, 0))
    for mover, winner in ((0, 0), (3, 3), (1, 3), (2, 3)):
        state = AttacticsState(board, 4, mover, stashes)
        assert GAME.finish(state, Work(board, stashes)).winner == winner
    no_fourth = tuple(full[:15] + [0] * 15 + [code(1, 1)] + [0] * 33)
    state = AttacticsState(no_fourth, 4, 2, ((0, 0, 0), (4, 5, 5), (5, 5, 5), (5, 5, 5)))
    assert GAME.finish(state, Work(no_fourth, state.stashes)).winner == 0


def test_11_no_repetition_rule():
    state = GAME.initial_state(2)
    cycle = play(play(play(play(state, "a1+"), "h8+"), "a1-"), "h8-")
    assert cycle == state and GAME.to_move(cycle) == 0


# -- 12-18: finer points -----------------------------------------------------------
def test_12_a_larger_clone_captures_up_to_its_size():
    pieces = {"a1": "1s", **many("1s", "h1 h2 h3 h4"), "c3": "2m", "h8": "2s"}
    after = play(make(pieces), "a1-b2")
    assert at(after, "b2") == "1m" and at(after, "c3") == "1m"
    normal = play(make({"a1": "1s", "c3": "2m", "h8": "2s"}), "a1-b2")
    assert at(normal, "c3") == "2m"  # a small clone does not capture a medium


def test_13_captures_are_fixed_on_landing_for_every_other_player():
    state = make({"a1": "1m", "d4": "2s", "b4": "3m", "e5": "2s", "b2": "3l", "h8": "2s", "a8": "3s"}, players=3)
    after = play(state, "a1-c3")
    assert [at(after, s) for s in ("d4", "b4", "b2")] == ["1s", "1m", "3l"]  # the large is too big
    assert at(after, "e5") == "2s"  # next to the replacement on d4: replacements never capture


def test_13_nothing_happens_around_the_square_a_jump_leaves():
    state = make({"a1": "1l", "b1": "2s", "h8": "2s"})
    after = play(state, "a1-c3")
    assert at(after, "b1") == "2s"


def test_14_the_jumping_piece_never_serves():
    # the only other small is the jumper itself: the chain goes on to a medium
    state = make({"a1": "1s", **many("1s", "h1 h2 h3 h4"), "d4": "2s", "b4": "2s", "h8": "2s"})
    assert "a1-c3 d4=c3" not in NOTATION.legal_texts(state)
    jumper = make({"a1": "1s", "d4": "2s", **many("1s", "h1 h2 h3 h4"), "h8": "2s"})
    assert all("=c3" not in t for t in NOTATION.legal_texts(jumper))


def test_14_after_a_clone_neither_the_source_nor_the_new_piece_serves():
    state = make({"a1": "1s", **many("1s", "h1 h2 h3"), **many("2s", "a3 b3 c3 c1"), "h8": "2s"})
    assert all("=a1" not in t and "=b2" not in t for t in NOTATION.legal_texts(state))
    assert len(texts(state, "a1-b2")) == 4  # and no replacement serves twice: only the medium moves around


def test_14_after_a_shrink_the_smaller_piece_swapped_in_never_serves():
    state = make({"d4": "1m", **many("1s", "h1 h2 h3 h4"), "c3": "2s", "h8": "2s"})
    assert texts(state, "d4-") == ["d4- c3=h1", "d4- c3=h2", "d4- c3=h3", "d4- c3=h4"]


def test_14_any_other_piece_of_the_size_serves_wherever_it_stands():
    state = make({"a1": "1s", **many("1s", "h1 d5 e6 b4"), "d4": "2s", "h8": "2s"})
    after = play(state, "a1-c3 d4=d5")  # d5 is next to c3 and d4: still allowed
    assert at(after, "d5") == "." and at(after, "d4") == "1s"


def test_15_larger_means_larger_than_the_captured_piece():
    # five mediums are captured; four of the mover's mediums serve from the
    # board (the jumper may not); the fifth gets the smallest piece larger
    # than a medium, a large, although the stash is full of smalls
    pieces = {"a1": "1m", **many("1m", "h1 h2 h3 h4"), **many("2m", "b4 c4 d4 d3 d2"), "h8": "2s"}
    state = make(pieces)
    assert texts(state, "a1-c3") == [f"a1-c3 {s}=l" for s in ("b4", "c4", "d2", "d3", "d4")]
    after = play(state, "a1-c3 d3=l")
    assert [at(after, s) for s in ("b4", "c4", "d4", "d3", "d2")] == ["1m", "1m", "1m", "1l", "1m"]
    invariant(after)


def test_16_the_grow_swap_comes_first_and_its_piece_serves_a_reduction():
    state = make({"d4": "1s", **many("1s", "h1 h2 h3 h4"), "e5": "1m", "h8": "2s"})
    after = play(state, "d4+")
    assert at(after, "e5") == "1s"  # the small just swapped out reduced e5


def test_16_reductions_use_the_stash_as_it_stood_before_them():
    # c4's reduction returns a medium to player 2, but too late for c3
    state = make({"d4": "1s", "c3": "2l", "c4": "2m", **many("2m", "h8 h7 h6 h5"), "a8": "1s"})
    after = play(state, "d4+")
    assert at(after, "c3") == "2l" and at(after, "c4") == "2s"


def test_16_a_short_stash_lets_the_mover_choose_which_pieces_shrink():
    state = make({"d4": "1s", "c3": "2m", "c4": "2m", **many("2s", "h8 h7 h6 h5"), "a8": "1s"})
    with pytest.raises(AmbiguousTurnError, match="write one of: d4\\+ c3=m, d4\\+ c3=s"):
        NOTATION.parse_turn(state, "d4+")
    after = play(state, "d4+ c4=s")
    assert at(after, "c3") == "2m" and at(after, "c4") == "2s"
    assert NOTATION.format_turn(state, NOTATION.parse_turn(state, "d4+ c4=s")) == "d4+ c3=m"


def test_17_shrink_destroys_friends_first_and_they_serve_from_the_stash():
    pieces = {"d4": "1l", "e5": "1m", **many("1m", "h1 h2 h3"), "c3": "2m", "h8": "2s"}
    state = make(pieces)  # the shrink takes the last medium; e5's destruction returns one
    after = play(state, "d4-")
    assert [at(after, s) for s in ("d4", "e5", "c3")] == ["1m", ".", "1m"]


def test_17_the_larger_piece_swapped_out_serves_from_the_stash():
    state = make({"d4": "1l", **many("1l", "h1 h2 h3 h4"), "c3": "2l", "h8": "2s"})
    after = play(state, "d4-")
    assert at(after, "c3") == "1l" and at(after, "d4") == "1m"


def test_17_returning_a_small_still_captures_and_destroys():
    state = make({"d4": "1s", "e5": "1s", "c3": "2l", "h8": "2s"})
    after = play(state, "d4-")
    assert [at(after, s) for s in ("d4", "e5", "c3")] == [".", ".", "1l"]


def test_18_the_mover_may_put_themselves_out_and_then_the_other_wins():
    state = make({"d4": "1s", "h8": "2s"})
    after = play(state, "d4-")
    assert GAME.result(after).winners == (1,)


def test_18_with_three_players_the_mover_out_is_skipped():
    state = make({"d4": "1s", "h8": "2s", "a8": "3s"}, players=3)
    after = play(state, "d4-")
    assert GAME.to_move(after) == 1 and after.is_out(0)
    assert GAME.to_move(play(after, "h8+")) == 2
    assert GAME.to_move(play(play(after, "h8+"), "a8+")) == 1


def test_a_forfeited_turn_passes_to_the_next_player_with_pieces():
    state = make({"d4": "1s", "a8": "3s"}, players=3)
    after = GAME.forfeit_turn(state)
    assert after.board == state.board and GAME.to_move(after) == 2


def test_10_the_ranking_is_the_winner_then_pyramids_on_the_board():
    full = [code(0, 1 + i % 3) for i in range(15)]
    board = tuple(full + [code(1, 1), code(1, 2), code(3, 1), code(3, 1)] + [0] * (64 - 19))
    stashes = ((0, 0, 0), (4, 4, 5), (5, 5, 5), (3, 5, 5))
    state = GAME.finish(AttacticsState(board, 4, 1, stashes), Work(board, stashes))
    assert state.winner == 0
    assert GAME.ranking(state) == [(0,), (1, 3), (2,)]  # 2 and 2 pyramids tie; player 3 has none
    alone = play(make({"a1": "1s", "b3": "2s", "h8": "3s"}, players=3), "a1-a2")  # captures b3, 3 has h8
    assert GAME.ranking(alone) == [] and GAME.to_move(alone) == 2
    last = play(make({"a1": "1s", "b3": "2s"}), "a1-a2")
    assert GAME.ranking(last) == [(0,), (1,)]
