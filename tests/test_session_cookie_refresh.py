"""The session cookie is refreshed by pages, never by what a page loads:
a board image or preview that comes back late must not put back an older
cookie (it would sign the player out, or lose a note a page keeps in it)."""

from __future__ import annotations

import re

from pbem.services import web_sessions


def _signed_in(client, session, player) -> None:
    secret = web_sessions.start(session, player)
    with client.session_transaction() as cookie:
        cookie[web_sessions.COOKIE_KEY] = secret
        cookie.permanent = True


def _game_page_then_play_a1(client, game, before_playing=lambda: None):
    """Alice's game page, then her first turn a1 played from it (as a
    browser navigating sends it); the answer to the Play."""
    page = client.get(f"/games/{game.id}", headers={"Sec-Fetch-Dest": "document"})
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', page.get_data(as_text=True)).group(1)
    before_playing()
    played = client.post(f"/games/{game.id}/turn", data={"csrf_token": csrf, "turn": "a1", "ply": "0",
                                                         "action": "play"}, headers={"Sec-Fetch-Dest": "document"})
    assert played.status_code == 302
    return played


def test_a_page_refreshes_the_cookie_and_an_image_it_loads_does_not(client, session, make_players, start_game):
    alice, bob = make_players("alice", "bob")
    game = start_game(alice, bob)
    _signed_in(client, session, alice)
    page = client.get(f"/games/{game.id}", headers={"Sec-Fetch-Dest": "document"})
    assert page.status_code == 200 and "Set-Cookie" in page.headers
    board = client.get(f"/games/{game.id}/board/0.png", headers={"Sec-Fetch-Dest": "image"})
    assert board.status_code == 200 and board.mimetype == "image/png"
    assert "Set-Cookie" not in board.headers


def test_a_late_board_image_does_not_lose_the_note_of_the_turn_just_played(app, client, session, make_players,
                                                                          start_game):
    alice, bob = make_players("alice", "bob")
    game = start_game(alice, bob)
    _signed_in(client, session, alice)
    name = app.config.get("SESSION_COOKIE_NAME", "session")
    cookies = []  # the cookie a board request in flight carries
    played = _game_page_then_play_a1(client, game, lambda: cookies.append(client.get_cookie(name).value))
    before = cookies[0]
    # the board asked for before Play answers now, with the cookie it was sent with
    late = app.test_client(use_cookies=False).get(f"/games/{game.id}/board/0.png",
                                                  headers={"Cookie": f"{name}={before}", "Sec-Fetch-Dest": "image"})
    assert late.status_code == 200 and "Set-Cookie" not in late.headers
    # the page Play redirects to says what was played (the note travels in its address, not the cookie)
    shown = client.get(played.headers["Location"], headers={"Sec-Fetch-Dest": "document"}).get_data(as_text=True)
    assert "You played a1." in shown


def test_the_note_of_a_turn_played_names_only_the_viewers_own_turn(app, client, session, make_players, start_game):
    alice, bob = make_players("alice", "bob")
    game = start_game(alice, bob)
    _signed_in(client, session, alice)
    played = _game_page_then_play_a1(client, game)
    assert played.headers["Location"].endswith("played=1")
    assert "You played a1." in client.get(played.headers["Location"]).get_data(as_text=True)
    # bob, handed the same address, is told nothing about a turn he did not play
    other = app.test_client()
    _signed_in(other, session, bob)
    assert "You played" not in other.get(played.headers["Location"]).get_data(as_text=True)
    assert "You played" not in client.get(f"/games/{game.id}?played=2").get_data(as_text=True)


def test_playing_by_the_form_leaves_the_cookie_to_the_page_it_leads_to(client, session, make_players, start_game):
    alice, bob = make_players("alice", "bob")
    game = start_game(alice, bob)
    _signed_in(client, session, alice)
    played = _game_page_then_play_a1(client, game)
    assert "Set-Cookie" not in played.headers
    after = client.get(played.headers["Location"], headers={"Sec-Fetch-Dest": "document"})
    assert after.status_code == 200 and "Set-Cookie" in after.headers  # still signed in, expiry slid on
    assert "You played a1." in after.get_data(as_text=True)
