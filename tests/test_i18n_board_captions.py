"""The captions drawn inside the board pictures (who is to move, the scores,
the result, the zones' titles, the player legend) read in the reader's
language: a French reader's SVG and PNG are drawn in French, an English
reader's exactly as before (the pictures are cached per language)."""

from __future__ import annotations

import re
from html import unescape

import pytest

from engine.i18n import language
from notation import registry
from notation.drawing import render as diagrams

SEED = "0" * 63 + "1"


def _position(game: str) -> str:
    """A finished game for the grid games (its result in the caption), the
    seeded start for the others."""
    finished = {
        "logger": "1..../...../..s../...../....2 - 10,3 2,1",
        "ataxx": "xxxxxxx/xxxxxxx/xxxxxxx/xxxxxxx/xxxxxxx/xxxxxxx/xxxxxxo x 0 40",
    }
    if game in finished:
        return finished[game]
    kind = registry.get(game)
    return kind.notation.format_position(kind.rules.seeded_state(kind.rules.min_players, {}, SEED))


def _texts(svg: str) -> list[str]:
    return [unescape(t) for t in re.findall(r"<text[^>]*>([^<]*)</text>", svg)]


CASES = [
    ("logger", "Game over: player 1 wins (most points)", "Partie terminée : le joueur 1 gagne (le plus de points)"),
    ("logger", "Player 2: 3 points, 1 protester in supply", "Joueur 2 : 3 points, 1 activiste en réserve"),
    ("ataxx", "Game over: x wins (more pieces)", "Partie terminée : x gagne (plus de pièces)"),
    ("ataxx", "x: 48 pieces, o: 1 piece, half-move clock 0, move 40",
     "x : 48 pièces, o : 1 pièce, compteur de demi-coups 0, coup 40"),
    ("attactics", "Player 1 to move", "Au joueur 1 de jouer"),
    ("attactics", "Player 2: 1 on the board; stash 4 small, 5 medium, 5 large",
     "Joueur 2 : 1 sur le plateau ; réserve : petites 4, moyennes 5, grandes 5"),
    ("greenhouse", "0 breedings so far; 0 of 4 orders filled", "0 croisements jusqu'ici ; 0 commandes remplies sur 4"),
    ("greenhouse", "Orders", "Commandes"),
    ("alheimur", "Player 1 to play, turn 1", "Au joueur 1 de jouer, tour 1"),
    ("alheimur", "2 blue", "2 bleu"),
    ("alheimur", "No world is built yet", "Aucun monde n'est encore construit"),
]


@pytest.mark.parametrize("game, english, french", CASES)
def test_a_french_reader_gets_the_board_caption_in_french(game, english, french):
    position = _position(game)
    with language("fr"):
        french_svg = diagrams.render(game, {}, position, "svg")
    with language("en"):
        english_svg = diagrams.render(game, {}, position, "svg")
    assert french in _texts(french_svg) and english not in _texts(french_svg)
    assert english in _texts(english_svg) and french not in _texts(english_svg)


@pytest.mark.parametrize("game", ["logger", "ataxx", "attactics", "greenhouse", "alheimur"])
def test_the_png_differs_by_language_and_english_is_drawn_as_without_a_language(game):
    position = _position(game)
    plain = diagrams.render_fresh(game, {}, position, "png")
    with language("en"):
        english = diagrams.render(game, {}, position, "png")
    with language("fr"):
        french = diagrams.render(game, {}, position, "png")
    assert english == plain
    assert french != english


def test_a_finished_logger_game_s_text_board_reads_in_french_too():
    notation = registry.get("logger").notation
    state = notation.parse_position(_position("logger"), {})
    with language("fr"):
        board = notation.text_diagram(state)
    assert "Partie terminée : le joueur 1 gagne (le plus de points)" in board
    assert "Game over" not in board


def test_alheimur_worlds_orbits_and_space_are_titled_in_french():
    from alheimur_helpers import position, world

    kind = registry.get("alheimur")
    text = kind.notation.format_position(position(world("1", on="a4=1:1"), world("2", on="d1=2:3", orbit="2F1")))
    with language("fr"):
        french = _texts(diagrams.render("alheimur", {}, text, "svg"))
    with language("en"):
        english = _texts(diagrams.render("alheimur", {}, text, "svg"))
    assert {"Monde 1 (rouge)", "Orbite 1", "Monde 2 (bleu)", "Espace"} <= set(french)
    assert {"World 1 (red)", "Orbit 1", "World 2 (blue)", "Space"} <= set(english)
