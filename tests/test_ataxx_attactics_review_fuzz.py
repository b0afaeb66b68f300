"""The Ataxx PGN reader returns a value or raises the project's own errors
on any text, and the Ataxx and Attactics position parsers refuse Unicode
digits with a message (the position parsers' fuzzing of every game is in
``test_game_contract.py``)."""

from __future__ import annotations

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import PbemError
from notation import record as records
from notation import registry
from notation.ataxx.pgn import read_pgn
from pbem.cli import main

UNICODE_DIGITS = "²³¹٣۴߂०১੩௫൬๗໘༣၄႒០᠒᥈᧑᪂᭒᮳᱂꘠꣐꤁꧐꩐꯰０"


def _fields(pieces: list[str]) -> str:
    return " ".join(pieces)


_piece = st.one_of(st.text(max_size=12), st.text(alphabet="0123456789²٣x.o-/sml12345678 w", max_size=20),
                   st.sampled_from(["x5o/7/7/7/7/7/o5x", ".......2s/8/8/8/8/8/8/1s7", "x", "1", "w1", "²", "٣", "99999999999999999999"]))
_number = st.text(alphabet="0123456789w" + UNICODE_DIGITS[:8], min_size=1, max_size=22)
_shaped = st.tuples(st.sampled_from(["x5o/7/7/7/7/7/o5x", ".......2s/8/8/8/8/8/8/1s7", "7/7/7/3x3/7/7/o6"]),
                    st.sampled_from(["x", "o", "1", "2", "w1"]) | _number,
                    _number, _number).flatmap(lambda t: st.integers(1, 4).map(lambda n: " ".join(t[:n])))
_ataxx_fen = st.tuples(st.sampled_from(["x5o/7/7/7/7/7/o5x", "7/7/7/3x3/7/7/o6"]), st.sampled_from(["x", "o"]),
                       _number, _number).map(" ".join)
position_text = st.one_of(st.text(), st.lists(_piece, min_size=1, max_size=4).map(_fields), _shaped)


@settings(max_examples=300, deadline=None)
@given(fen=st.one_of(_ataxx_fen, position_text), moves=st.one_of(st.sampled_from(["*", "", "g1 *"]), st.text(max_size=40)))
def test_ataxx_pgn_reader_returns_or_raises_own_error(fen, moves):
    escaped = fen.replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ").replace("\r", " ")
    for text in (moves, f'[FEN "{escaped}"]\n\n{moves}'):
        try:
            records.check(read_pgn(text))  # what ``pbem record check`` does with it
        except PbemError:
            pass


@pytest.mark.parametrize("digit", ["²", "٣", "０"])
def test_unicode_digits_are_refused_with_a_message(digit):
    cases = [("attactics", f".......2s/8/8/8/8/8/8/1s7 1 {digit}"),
             ("attactics", f".......2s/8/8/8/8/8/8/1s7 {digit}"),
             ("attactics", f".......2s/8/8/8/8/8/8/1s7 w{digit}"),
             ("ataxx", f"x5o/7/7/7/7/7/o5x x {digit} 1"),
             ("ataxx", f"x5o/7/7/7/7/7/o5x x 0 {digit}")]
    for kind, text in cases:
        with pytest.raises(PbemError):
            registry.get(kind).notation.parse_position(text)
        result = CliRunner().invoke(main, ["position", "show", kind, text])
        assert result.exit_code != 0 and "Traceback" not in result.output, result.output
        assert not isinstance(result.exception, ValueError)


def test_record_check_with_a_unicode_digit_in_the_fen(tmp_path):
    path = tmp_path / "game.pgn"
    path.write_text('[Event "x"]\n[FEN "x5o/7/7/7/7/7/o5x x ² 1"]\n[Result "*"]\n\n*\n', encoding="utf-8")
    result = CliRunner().invoke(main, ["record", "check", str(path)])
    assert result.exit_code != 0
    assert not isinstance(result.exception, ValueError), result.output
    assert "whole numbers" in result.output


def test_huge_numbers_in_a_position_are_called_too_large():
    with pytest.raises(PbemError, match="too large"):
        registry.get("ataxx").notation.parse_position("x5o/7/7/7/7/7/o5x x 99999999999999999999 1")


def test_a_game_for_exactly_two_says_so():
    with pytest.raises(PbemError) as error:
        registry.get("ataxx").rules.check_players(3)
    assert "for 2 players, not 3" in str(error.value)
    with pytest.raises(PbemError, match="for 2 to 4 players"):
        registry.get("attactics").rules.check_players(5)


def test_unicode_digit_list_is_all_digits():
    assert all(c.isdigit() for c in UNICODE_DIGITS)
