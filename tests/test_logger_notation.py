"""Logger turn notation and position strings: forgiving input, canonical
output, and errors that tell malformed, illegal and ambiguous turns apart."""

from pathlib import Path

import pytest
from logger_helpers import NOTATION, RULES, position

from engine.errors import AmbiguousTurnError, IllegalTurnError, MalformedTurnError, PositionError, TurnError

MID = "....2/.M.S./..M../sMPsS/1..sM 2 3,4 1,2"
RULING_EXAMPLE = "....2/...../s..../M..../1M... 1 0,0 2,2"


@pytest.mark.parametrize(
    "written,canonical",
    [
        ("e5-d5 G P:c5", "e5-d5 G P:c5"),
        ("E5-D5 g p:C5", "e5-d5 G P:c5"),
        ("  e5 - d5   G    P : c5 ", "e5-d5 G P:c5"),
        ("e5-d5 P:c5", "e5-d5 G P:c5"),  # a bare G may be left out
        ("x:c3,b4", "G X:b4,c3"),  # protests in notation order
        ("G X:c3", "G X:c3"),
        ("e5\u2013d5 G P:c5", "e5-d5 G P:c5"),  # an en dash, as mail clients write it
        ("\uff45\uff15\u2011d5 \uff27 P:c5", "e5-d5 G P:c5"),  # full-width letters, a non-breaking hyphen
    ],
)
def test_input_is_forgiving_and_output_canonical(written, canonical):
    state = position(MID)
    assert NOTATION.format_turn(state, NOTATION.parse_turn(state, written)) == canonical


def test_spawns_are_written_in_their_shortest_form():
    state = position(RULING_EXAMPLE)
    # a2>b2 and b1>c1 give the same board: the canonical text names the one choice
    turn = NOTATION.parse_turn(state, "G:a2>b2,b1>c1 C:a2")
    assert NOTATION.format_turn(state, turn) == "G:a2>b2 C:a2"


def test_every_legal_text_is_read_in_lower_case_too():
    for text in [MID, RULING_EXAMPLE, "3...4/...../..s../...../1...2 1 0,0,0,0 1,1,1,1"]:
        state = position(text)
        for turn in RULES.legal_turns(state):
            assert NOTATION.parse_turn(state, NOTATION.format_turn(state, turn).lower()) == turn


@pytest.mark.parametrize(
    "text,message",
    [
        ("", "empty"),
        ("hello", "'hello': it is not a movement, a growth or an action"),
        ("G hello", "'hello' is not a movement, a growth or an action"),
        ("G e5-d5", "movement 'e5-d5' must come first"),
        ("C:d4 G", "growth 'G' must come before the action"),
        ("P:d4 C:d4", "only one action"),
        ("P:d4,e3", "P: takes one square"),
        ("X:c3,c3", "names each tree once"),
        ("e5-f6", "is not a movement"),
        ("G:c3-c4", "is not a movement, a growth or an action"),
    ],
)
def test_malformed_turns_say_what_is_wrong_and_show_the_form(text, message):
    with pytest.raises(MalformedTurnError) as error:
        NOTATION.parse_turn(position(MID), text)
    assert message in str(error.value)
    if text:
        assert "b2-c2 G P:d3" in str(error.value)  # what a turn looks like


@pytest.mark.parametrize(
    "text,message",
    [
        ("e5-c4 G", "cannot reach c4; it can move to c5, d5, e3, e4"),
        ("e5-a1 G", "it can move to"),
        ("G P:a1", "cannot plant on a1"),
        ("G C:c3", "cannot chop c3"),
        ("G X:c2", "c2 is not one. Unprotested mature trees: b2, b4, c3, e1, e2"),
        ("G", "an action is compulsory here"),
        ("a1-a2 G", "is on e5, not a1; write its move from e5 (it can move to c5, d5, e3, e4)"),
    ],
)
def test_illegal_turns_name_the_position_and_what_would_be_legal(text, message):
    with pytest.raises(IllegalTurnError) as error:
        NOTATION.parse_turn(position(MID), text)
    assert message in str(error.value)
    assert MID in str(error.value)
    assert not isinstance(error.value, AmbiguousTurnError)


def test_an_unstated_spawn_choice_is_ambiguous_and_lists_the_choices():
    with pytest.raises(AmbiguousTurnError) as error:
        NOTATION.parse_turn(position(RULING_EXAMPLE), "C:a2")
    message = str(error.value)
    assert "b1 could spawn onto b2, c1" in message
    assert "G:b1>b2" in message
    assert RULING_EXAMPLE in message


def test_the_three_kinds_of_error_are_told_apart():
    kinds = {MalformedTurnError, IllegalTurnError, AmbiguousTurnError}
    assert all(issubclass(k, TurnError) for k in kinds)
    assert not issubclass(AmbiguousTurnError, MalformedTurnError)
    assert not issubclass(MalformedTurnError, IllegalTurnError)


@pytest.mark.parametrize(
    "text,message",
    [
        ("", "four fields"),
        ("...../...../..s../...../..... 1 0,0", "four fields"),
        ("...../...../..x../...../..... 1 0,0 2,2", "five ranks of five"),
        ("...../...../..s../...../..... 3 0,0 2,2", "1 to 2"),
        ("...../...../..s../...../..... 1 0 2", "2 to 4 players"),
        ("...../...../..s../...../..... 1 0,0,0 2,2", "3 scores but 2 supplies"),
        ("1..1./...../..s../...../..... 1 0,0 2,2", "logger 1 stands on the board 2 times"),
        ("3..../...../..s../...../..... 1 0,0 2,2", "a logger 3 but only 2 players"),
        ("...../...../..s../...../..... 1 a,0 2,2", "whole numbers"),
        ("...../...../..s../...../..... \u00b2 0,0 2,2", "1 to 2"),  # a superscript digit is not a digit here
        ("...../...../..s../...../..... 1 \u00b2,0 2,2", "whole numbers"),
        ("...../...../..s../...../..... 1 99999999999999999999,0 2,2", "too large"),
    ],
)
def test_bad_positions_are_refused_with_a_reason(text, message):
    with pytest.raises(PositionError, match=message):
        position(text)


def perft_fixtures():
    path = Path(__file__).parent / "fixtures" / "logger_perft.txt"
    for line in path.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            pos, depth, count = (part.strip() for part in line.split(";"))
            yield pos, int(depth), int(count)


@pytest.mark.parametrize("pos,depth,count", list(perft_fixtures()))
def test_perft(pos, depth, count):
    assert RULES.count_leaves(position(pos), depth) == count
