"""A game record's and a replay's refusals (a bad line, a bad tag, a turn
that cannot be played) read in French for a French reader, and in English
as before otherwise; the command line prints them in the language of
``--language`` (or ``$PBEM_LANGUAGE``)."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from engine.errors import RecordError
from engine.i18n import language
from notation import record as records
from pbem.cli import main

HEAD = '[Game "logger"]\n[Player1 "a"]\n[Player2 "b"]\n\n'


@pytest.mark.parametrize("text, english, french", [
    ('[Game "logger"]\n', "the record names no players", "le relevé ne nomme aucun joueur"),
    (HEAD + "1. a1 | e5\n3. a1-a2 G P:b2\n", "line 6: round 2 was expected, not 3",
     "ligne 6 : la ronde 2 était attendue, pas 3"),
    ('[Game "logger"\n', "line 1: a tag pair looks like", "ligne 1 : un tag s'écrit"),
    ('[Game "logger"]\n[Player1 "a"]\n[Result "4"]\n', "the result '4' names player 4, but the record has 1 players",
     "le résultat '4' nomme le joueur 4, mais le relevé a 1 joueurs"),
    (HEAD + "1. a1 | e5 {Draw kiwi}\n", "line 5: a chance outcome names its purpose (a lowercase word) and "
     "what it gave, such as {draw kiwi}; not '{Draw kiwi}'", "ligne 5 : un résultat du hasard nomme son objet "
     "(un mot en minuscules) et ce qu'il a donné, par exemple {draw kiwi} ; pas '{Draw kiwi}'"),
])
def test_a_bad_record_is_refused_in_the_reader_s_language(text, english, french):
    with language("fr"):
        with pytest.raises(RecordError) as refused:
            records.read_text(text)
        assert str(refused.value).startswith(french)  # read in the language of the moment
    with pytest.raises(RecordError) as refused:
        records.read_text(text)
    assert str(refused.value).startswith(english)


def test_a_turn_that_cannot_be_played_is_named_in_french_with_the_rules_refusal():
    record = records.read_text(HEAD + "1. a1 | e5\n2. a1-a3 G P:b3 | e5-e1 G\n*\n")
    with language("fr"):
        with pytest.raises(records.BadTurn) as refused:
            records.check(record)
        message = str(refused.value)
    assert message.startswith("tour 4 (ronde 2, joueur 2) 'e5-e1 G' : ")
    assert "turn" not in message and "cannot reach" not in message


def test_the_command_line_prints_record_errors_in_the_language_asked(tmp_path):
    path = tmp_path / "game.txt"
    path.write_text('[Game "logger"]\n', encoding="utf-8")
    french = CliRunner().invoke(main, ["--language", "fr", "record", "check", str(path)])
    assert french.exit_code == 1 and "le relevé ne nomme aucun joueur" in french.stderr
    by_setting = CliRunner().invoke(main, ["record", "check", str(path)], env={"PBEM_LANGUAGE": "fr"})
    assert "le relevé ne nomme aucun joueur" in by_setting.stderr
    english = CliRunner().invoke(main, ["record", "check", str(path)], env={"PBEM_LANGUAGE": None})
    assert "the record names no players" in english.stderr


def test_an_ataxx_pgn_with_a_bad_result_is_refused_in_french():
    from notation.ataxx import pgn as ataxx_pgn

    with language("fr"):
        with pytest.raises(RecordError) as refused:
            ataxx_pgn.read_pgn('[Result "2-0"]\n\n1. g1 *\n')
        assert str(refused.value) == "le tag Result '2-0' n'est ni 1-0, ni 0-1, ni 1/2-1/2, ni *"
