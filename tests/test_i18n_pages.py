"""Every page in English and in French: signed out and signed in, a game
inviting, in progress and finished, the lobby, a player's page, the guides,
the puzzles, settings, tokens, and the 404 and 400 error pages.  No page
fails, and a French page carries none of the English words of the
catalogue (each message that French words replace) nor a list of known
English phrases.  The language comes from the player's setting, else the
browser's Accept-Language, else English."""

from __future__ import annotations

import functools
import re
from html import unescape

import pytest
from test_web_pages import create_game, csrf, play, post, sign_in

from pbem.catalogues import SOURCES, read

FR = {"Accept-Language": "fr-FR,fr;q=0.9,en;q=0.5"}
EN = {"Accept-Language": "en-GB,en;q=0.8"}

# English a French page must not show (beside the catalogue's own messages)
KNOWN_ENGLISH = ("My games", "Sign out", "Sign in", "New game", "Your turn", "Legal turns", "Preview", "Players",
                 "Final standings", "How to play", "The games", "Time control", "Status:", "Moves", "Settings",
                 "Back to my games", "API tokens", "Open seats", "Take a seat", "Vacation", "Calendar",
                 "The requested URL was not found",
                 # words the server stores or draws in English and shows translated (pbem/services/stored_words.py)
                 "game over", "gave up after", "most points", "more pieces", "resigned", "the botanist", "protested tree")
_TAG = re.compile(r"<[^>]+>")
_FIELD = re.compile(r"%\([a-z_]+\)[sdr]|\{[a-z_]+\}|<[^>]+>")


def visible_text(html: str) -> str:
    # a guide's rule text not yet written in French is shown in English, marked so (lang="en")
    html = re.sub(r'<div class="rules-text" id="rules-text" lang="en">.*?</main>', "</main>", html, flags=re.S)
    html = re.sub(r"<(script|style|code|pre|svg)\b.*?</\1>", " ", html, flags=re.S)
    return re.sub(r"\s+", " ", unescape(_TAG.sub(" ", html)))


@functools.cache
def english_phrases() -> frozenset[str]:
    """The literal English stretches of the server's and the games'
    messages (three words or more) whose French translation does not
    contain them."""
    phrases = set(KNOWN_ENGLISH)
    for message in (m for source in SOURCES for m in read(source, "fr")):
        if not message.id or not message.string:
            continue
        english = message.id[0] if isinstance(message.id, (tuple, list)) else message.id
        french = message.string[0] if isinstance(message.string, (tuple, list)) else message.string
        for chunk in _FIELD.split(english):
            chunk = chunk.strip(" .,:;()")
            if len(chunk.split()) >= 3 and chunk not in french:
                phrases.add(chunk)
    return frozenset(phrases)


def untranslated(html: str) -> list[str]:
    text = visible_text(html)
    return sorted(p for p in english_phrases() if re.search(rf"(?<![\w-]){re.escape(p)}(?![\w-])", text))


@pytest.fixture
def pages(app):
    """Alice (French by her setting) and Bob (no setting): one game inviting,
    one in progress, one finished; returns the paths to walk."""
    alice, bob = app.test_client(), app.test_client()
    sign_in(alice, app, "alice@example.org")
    sign_in(bob, app, "bob@example.org")
    playing = create_game(alice)
    post(bob, f"/games/{playing}/accept")
    inviting = create_game(alice)
    finished = create_game(alice)
    post(bob, f"/games/{finished}/accept")
    post(alice, f"/games/{finished}/resign", confirm="yes")
    me = re.search(r'href="/players/(\d+)"', alice.get("/").get_data(as_text=True)).group(1)
    bob.get("/")  # the flashed notes of the set-up, written in English, are shown (and gone) here
    signed_in = ["/", "/games/new", f"/games/{playing}", f"/games/{playing}?ply=0", f"/games/{inviting}",
                 f"/games/{finished}", f"/games/{playing}/resign", "/lobby", f"/players/{me}", "/rules",
                 "/rules/logger", "/rules/attactics", "/rules/ataxx", "/rules/greenhouse", "/puzzles", "/settings",
                 "/tokens", "/no/such/page", f"/games/{playing}/board/99.svg"]
    signed_out = ["/", "/auth/sign-in", "/rules", "/rules/logger", "/no/such/page",
                  "/auth/verify?token=forged"]
    return alice, bob, playing, signed_in, signed_out


def check(client, path, headers, french: bool):
    response = client.get(path, headers=headers)
    assert response.status_code < 500, (path, response.status_code)
    assert response.status_code in (200, 400, 404), (path, response.status_code)
    html = response.get_data(as_text=True)
    assert f'<html lang="{"fr" if french else "en"}">' in html, path
    if french:
        assert untranslated(html) == [], (path, untranslated(html))
    return html


def test_every_page_in_french_by_the_browser_and_in_english(app, client, pages):
    _, bob, _, signed_in, signed_out = pages
    for path in signed_out:
        check(client, path, FR, french=True)
        assert "Sign in" in check(client, path, EN, french=False)
    for path in signed_in:
        check(bob, path, FR, french=True)
        assert "Sign out" in check(bob, path, EN, french=False)


def test_the_players_setting_wins_over_the_browser(app, pages):
    alice, _, playing, signed_in, _ = pages
    page = alice.get("/settings")
    assert alice.post("/settings/language", data={"language": "fr", "csrf_token": csrf(page)}).status_code == 302
    assert "Langue enregistrée." in alice.get("/settings", headers=EN).get_data(as_text=True)
    for path in signed_in:
        check(alice, path, EN, french=True)
    html = alice.get("/settings", headers=EN).get_data(as_text=True)
    assert 'value="fr" lang="fr" selected' in html
    page = alice.get("/settings")
    alice.post("/settings/language", data={"language": "", "csrf_token": csrf(page)})
    check(alice, f"/games/{playing}", EN, french=False)
    check(alice, f"/games/{playing}", FR, french=True)


def test_a_refused_turn_and_a_bad_language_say_so_in_french(app, pages):
    _, bob, playing, _, _ = pages
    alice = pages[0]
    page = alice.get("/settings")
    alice.post("/settings/language", data={"language": "fr", "csrf_token": csrf(page)})
    response = alice.post("/settings/language", data={"language": "klingon", "csrf_token": csrf(page)})
    assert response.status_code == 400
    assert "la langue est l'une de en, fr" in unescape(response.get_data(as_text=True))
    response = play(alice, playing, "zz9")
    assert response.status_code == 422
    html = unescape(response.get_data(as_text=True))
    assert untranslated(html) == []
    refusal = re.search(r'id="turn-error"[^>]*>(.*?)</p>', html, re.S).group(1)
    assert "pendant la mise en place" in refusal, refusal  # the notation's own refusal, in French



def test_the_english_check_catches_english(app, client):
    # the walk above means something only if English on a French page is found
    assert "My games" in untranslated("<p>My games</p>")
    assert untranslated("<p>Mailed: <strong>x@y</strong> gets mail from this server.</p>") == ["gets mail from this server", "mail from this server"]
    assert untranslated("<p>Mes parties</p>") == []


def _every_game_at_start_middle_and_end(app) -> list[tuple[str, int, int]]:
    """A game of every offered game between alice and another (alone for a
    game of one player), played through the turn service by the first legal
    turn each time: one left at its start, one in its middle, one played to
    its end; returns (game name, game id, plies played) of each."""
    from notation import registry
    from pbem.db import get_session
    from pbem.models import Game
    from pbem.services import games, turns
    from pbem.services import visibility as views
    from pbem.services.accounts import player_for_email

    made = []
    with app.app_context():
        session = get_session()
        alice = player_for_email(session, "alice@example.org")
        session.commit()
        for name in registry.names():
            for plies in (0, 3, None):
                seated = [alice] + [player_for_email(session, f"{name}{plies}@example.org")][:registry.get(name).rules.min_players - 1]
                game = games.create_game(session, seated[0], name, [p.email for p in seated])
                for player in seated[1:]:
                    games.accept(session, game.id, player)
                while game.status == "active" and (plies is None or game.ply < plies) and game.ply < 100:
                    seat = views.mover(game)
                    texts, _ = views.legal(game, seat, 1)
                    turns.submit_turn(session, game.id, seated[seat], texts[0], game.ply, "web")
                    session.expire_all()
                    game = session.get(Game, game.id)
                if plies is None and game.status == "active":  # no end in sight (one player): resigned
                    games.resign(session, game.id, alice)
                made.append((name, game.id, game.ply))
        session.close()
    return made


def test_every_games_pages_at_start_middle_and_end_in_french(app):
    """Each game's page at its start, in its middle and at its end (with
    the end's stored reason, "game over: most points", shown in French),
    a position half-way back, and each game's guide, in both languages."""
    from notation import registry

    made = _every_game_at_start_middle_and_end(app)
    bob = app.test_client()  # alice, seated in every game
    sign_in(bob, app, "alice@example.org")
    bob.get("/")
    for _name, game_id, plies in made:
        for path in (f"/games/{game_id}", f"/games/{game_id}?ply={plies // 2}"):
            check(bob, path, FR, french=True)
            check(bob, path, EN, french=False)
    in_french = set()
    for name in registry.names():
        html = check(bob, f"/rules/{name}", FR, french=True)
        if 'id="rules-in-english"' not in html:
            in_french.add(name)
        assert 'id="rules-in-english"' not in check(bob, f"/rules/{name}", EN, french=False)
    assert in_french == set(registry.names()), in_french  # a French guide for every game


def test_points_on_a_game_page_follow_the_languages_plural(app):
    """A score is counted with the reader's plural: "0 points" in English,
    "0 point" in French (where 0 takes the singular), never "1 points"."""
    from pbem.db import get_session
    from pbem.services import games
    from pbem.services.accounts import player_for_email

    with app.app_context():
        session = get_session()
        alice, bob = (player_for_email(session, f"{name}@example.org") for name in ("alice", "bob"))
        game = games.create_game(session, alice, "logger", [alice.email, bob.email])
        games.accept(session, game.id, bob)
        game_id = game.id
        session.close()
    client = app.test_client()
    sign_in(client, app, "alice@example.org")
    english = visible_text(client.get(f"/games/{game_id}", headers=EN).get_data(as_text=True))
    french = visible_text(client.get(f"/games/{game_id}", headers=FR).get_data(as_text=True))
    assert "0 points" in english and "1 points" not in english
    assert "0 point" in french and "0 points" not in french


def test_no_page_names_a_file_of_the_source(app, client, pages):
    """Players read words, not paths: no page shows a document or module of
    the source tree (such as docs/ratings.md), in either language."""
    _, bob, _, signed_in, signed_out = pages
    path_like = re.compile(r"\b[\w-]+/[\w/.-]*\.(?:md|py)\b")
    for reader, paths in ((client, signed_out), (bob, signed_in)):
        for path in paths:
            for headers in (EN, FR):
                shown = visible_text(reader.get(path, headers=headers).get_data(as_text=True))
                assert path_like.findall(shown) == [], (path, headers, path_like.findall(shown))
