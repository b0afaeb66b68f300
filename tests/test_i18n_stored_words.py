"""Words the server stores or draws in English (a finished game's
termination, a board's legend, a bot's name) read in French when shown to a
French reader, found again in the catalogues with their varying parts; in
English, or when no message matches, they are shown as they are."""

from __future__ import annotations

import pytest

from pbem.services.stored_words import shown, shown_lines


@pytest.mark.parametrize("english, french", [
    ("game over: most points", "partie terminée : le plus de points"),
    ("game over: every order filled in 3 breedings", "partie terminée : toutes les commandes remplies en 3 croisements"),
    ("alice gave up after 1 turn", "alice a abandonné après 1 tour"),
    ("alice gave up after 12 turns", "alice a abandonné après 12 tours"),
    ("player 2 (bob) resigned", "joueur 2 (bob) a abandonné"),
    ("drawn by agreement", "nulle par accord"),
    ("Bot (medium)", "Robot (moyen)"),
    ("s seedling  S sapling  M mature tree  P protested tree  1-4 loggers",
     "s plant  S jeune arbre  M arbre mature  P arbre protégé  1-4 bûcherons"),
    ("player 1: a small, b medium, c large", "joueur 1 : a petite, b moyenne, c grande"),
])
def test_stored_english_reads_in_french(english, french):
    assert shown(english, "fr") == french
    assert shown(english, "en") == english and shown(english, None) == english


def test_a_text_no_message_matches_is_shown_as_it_is():
    assert shown("alice", "fr") == "alice"
    assert shown("something nobody wrote: 42", "fr") == "something nobody wrote: 42"


def test_a_text_board_has_its_caption_and_legend_translated_and_its_rows_kept():
    board = "  a b c\n3 . s .\n\nPlayer 1 to move\nPlayer 2: 3 points, 1 protester in supply"
    assert shown_lines(board, "fr") == ("  a b c\n3 . s .\n\nAu joueur 1 de jouer\n"
                                        "Joueur 2 : 3 points, 1 activiste en réserve")
