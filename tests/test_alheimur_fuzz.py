"""The Alheimur parsers on positions with ships, marines and invaders (the
contract suite's random games rarely reach them): any text, or a real turn
or position with a few characters changed, gives a value or the project's
own error, never a crash; an accepted turn applies and writes back."""

from __future__ import annotations

import functools
import random
from itertools import islice

from alheimur_selfplay import GAME
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_alheimur_notation import rich_game

from engine.errors import PositionError, TurnError
from notation.alheimur import NOTATION

ALPHABET = list("0123456789abcdefnstFTSN+-=^!>~;, \n?.:/@i") + ["\u0663", "\u2192", "x"]


@functools.cache
def samples():
    pairs = []
    for n in range(3):
        texts, _, states = rich_game(4, f"c{n}" * 32, random.Random(n), limit=300)
        pairs += [(s, t) for s, t in zip(states, texts) if s.phase == "play" and any(c in t for c in ">^!;")]
    assert sum(len(s.all_ships()) for s, _ in pairs) > len(pairs), "positions with ships"
    texts, _, states = rich_game(3, "d0" * 32, random.Random(5), limit=20)
    setup = [(s, t) for s, t in zip(states, texts) if s.phase in ("build", "colonists")]
    return pairs[:: max(1, len(pairs) // 40)] + setup


def mutate(data, text: str) -> str:
    for _ in range(data.draw(st.integers(1, 3))):
        where = data.draw(st.integers(0, len(text)))
        how = data.draw(st.sampled_from(["cut", "insert", "change", "case"]))
        if how == "cut":
            text = text[:where] + text[where + data.draw(st.integers(1, 4)):]
        elif how == "insert":
            text = text[:where] + data.draw(st.text(st.sampled_from(ALPHABET), max_size=3)) + text[where:]
        elif how == "change" and where < len(text):
            text = text[:where] + data.draw(st.sampled_from(ALPHABET)) + text[where + 1:]
        else:
            text = text.swapcase()
    return text


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_the_turn_parser_never_crashes_on_rich_positions(data):
    state, text = data.draw(st.sampled_from(samples()))
    if data.draw(st.booleans()):
        text = mutate(data, text)
    try:
        turn = NOTATION.parse_turn(state, text)
    except TurnError:
        return
    GAME.apply(state, turn)
    assert NOTATION.parse_turn(state, NOTATION.format_turn(state, turn)) == turn


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_the_position_parser_never_crashes_on_rich_positions(data):
    state, _ = data.draw(st.sampled_from(samples()))
    text = mutate(data, NOTATION.format_position(state))
    try:
        parsed = NOTATION.parse_position(text)
    except PositionError:
        return
    again = NOTATION.format_position(parsed)
    assert NOTATION.parse_position(again) == parsed and NOTATION.format_position(NOTATION.parse_position(again)) == again


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_turns_on_any_position_the_parser_accepts_give_a_value_or_a_turn_error(data):
    state, text = data.draw(st.sampled_from(samples()))
    try:
        parsed = NOTATION.parse_position(mutate(data, NOTATION.format_position(state)))
    except PositionError:
        return
    try:
        NOTATION.parse_turn(parsed, mutate(data, text) if data.draw(st.booleans()) else text)
    except TurnError:
        pass
    NOTATION.text_diagram(parsed)
    NOTATION.diagram(parsed)
    list(islice(GAME.iter_turns(parsed), 60))  # the list in play is endless: its start
