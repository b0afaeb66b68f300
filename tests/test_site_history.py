"""Following a game back on its page: the move list links to every
position, the step links show the board after any turn (without
JavaScript), a finished game says who won and the final standings, every
player's result on the home list is in words ("you won", "2nd= of 3"),
and a waiting player reads whose turn it is in plain words."""

from __future__ import annotations

import re
from html import unescape

import pytest
from tally_game import register_tally
from test_web_pages import sign_in

from pbem.models import FINISHED, Game
from pbem.services import games, results, turns


@pytest.fixture
def browsers(app):
    """alice, bob and carol, each signed in with a test client of their own."""
    clients = {}
    for name in ("alice", "bob", "carol"):
        clients[name] = app.test_client()
        sign_in(clients[name], app, f"{name}@example.org")
    return clients


def _players(app, *names):
    from pbem.db import get_session
    from pbem.services.accounts import player_for_email

    with app.app_context():
        session = get_session()
        return [player_for_email(session, f"{name}@example.org") for name in names]


def _started(app, kind, *names, **extra):
    from pbem.db import get_session

    with app.app_context():
        session = get_session()
        players = _players(app, *names)
        game = games.create_game(session, players[0], kind, [p.email for p in players], **extra)
        for player in players[1:]:
            games.accept(session, game.id, player)
        return game.id


def _play(app, game_id, name, text):
    from pbem.db import get_session

    with app.app_context():
        session = get_session()
        (player,) = _players(app, name)
        game = session.get(Game, game_id)
        turns.submit_turn(session, game_id, player, text, game.ply, "web")


def _page(client, url):
    response = client.get(url)
    assert response.status_code == 200, response.get_data(as_text=True)[:500]
    return unescape(response.get_data(as_text=True))


def test_the_move_list_links_to_every_position_and_the_links_show_that_board(app, browsers):
    game_id = _started(app, "logger", "alice", "bob")
    for name, turn in zip(["alice", "bob", "alice"], ["a1", "e5", "G P:a2"]):
        _play(app, game_id, name, turn)
    page = _page(browsers["alice"], f"/games/{game_id}")
    for ply in range(0, 4):
        assert f'href="/games/{game_id}?ply={ply}"' in page, f"no link to the position after turn {ply}"
    assert re.search(r'id="ply-2"[^>]*><code>e5</code>', page)
    assert f'src="/games/{game_id}/board/3.svg"' in page  # now
    assert "After turn 3 of 3 (now)" in page

    back = _page(browsers["alice"], f"/games/{game_id}?ply=1")
    assert f'id="board" src="/games/{game_id}/board/1.svg"' in back
    assert "After turn 1 of 3" in back and "(now)" not in back.split('id="step-where"')[1][:80]
    assert re.search(rf'id="step-back" href="/games/{game_id}\?ply=0"', back)
    assert re.search(rf'id="step-forward" href="/games/{game_id}\?ply=2"', back)
    assert 'aria-current="step"' in back.split('id="ply-1"')[1][:400]
    # the position string shown is the one after turn 1, not the current one
    shown = re.search(r'<code id="position">([^<]*)</code>', back).group(1)
    assert shown and shown != re.search(r'<code id="position">([^<]*)</code>', page).group(1)

    start = _page(browsers["alice"], f"/games/{game_id}?ply=0")
    assert "The start, before the first turn" in start
    assert f'id="board" src="/games/{game_id}/board/0.svg"' in start
    # the boards differ: the start has no logger yet, after turn 1 it has one
    board_0 = browsers["alice"].get(f"/games/{game_id}/board/0.txt").get_data(as_text=True)
    board_1 = browsers["alice"].get(f"/games/{game_id}/board/1.txt").get_data(as_text=True)
    assert board_0 != board_1


@pytest.mark.parametrize("asked", ["99", "-1", "x", "1.5", ""])
def test_a_ply_the_game_has_not_reached_shows_the_current_position(app, browsers, asked):
    game_id = _started(app, "logger", "alice", "bob")
    _play(app, game_id, "alice", "a1")
    page = _page(browsers["alice"], f"/games/{game_id}?ply={asked}")
    assert f'id="board" src="/games/{game_id}/board/1.svg"' in page
    assert "After turn 1 of 1 (now)" in page


def test_a_waiting_player_reads_whose_turn_it_is_in_plain_words(app, browsers):
    game_id = _started(app, "logger", "alice", "bob")
    page = _page(browsers["bob"], f"/games/{game_id}")
    assert "It is alice's turn (player 1, red). You will get a mail when it is yours." in page
    assert "Waiting for alice" not in page


def test_a_resigned_game_says_who_won_and_each_players_result(app, browsers):
    game_id = _started(app, "logger", "alice", "bob")
    _play(app, game_id, "alice", "a1")
    from pbem.db import get_session

    with app.app_context():
        games.resign(get_session(), game_id, _players(app, "alice")[0])
    alice_page = _page(browsers["alice"], f"/games/{game_id}")
    assert "bob won." in alice_page
    assert re.search(r'Your result: <strong id="your-result">you lost</strong>', alice_page)
    bob_page = _page(browsers["bob"], f"/games/{game_id}")
    assert re.search(r'id="your-result">you won<', bob_page)
    standings = re.search(r'<ol class="standings" id="standings">(.*?)</ol>', bob_page, re.S).group(1)
    assert standings.index("bob (you)") < standings.index("alice")
    # the home list says it in words, not "result 2"
    home_alice = _page(browsers["alice"], "/")
    home_bob = _page(browsers["bob"], "/")
    assert "<strong>you lost</strong>" in home_alice and "result 2" not in home_alice
    assert "<strong>you won</strong>" in home_bob


def test_three_players_played_out_give_places_on_the_home_list(app, browsers, monkeypatch):
    register_tally(monkeypatch)
    game_id = _started(app, "tally", "alice", "bob", "carol")
    for name, turn in [("alice", "pass"), ("bob", "mark"), ("carol", "pass")]:
        _play(app, game_id, name, turn)
    with app.app_context():
        from pbem.db import get_session

        assert get_session().get(Game, game_id).status == FINISHED
    assert "<strong>you won</strong>" in _page(browsers["bob"], "/")
    alice_home = _page(browsers["alice"], "/")
    assert "<strong>2nd= of 3</strong>" in alice_home
    assert "bob</a>: won" in alice_home  # the others' results beside their names
    page = _page(browsers["carol"], f"/games/{game_id}")
    assert "bob won." in page and 'id="your-result">2nd= of 3<' in page


def test_a_drawn_game_says_so(app, browsers):
    game_id = _started(app, "logger", "alice", "bob")
    from pbem.db import get_session

    alice, bob = _players(app, "alice", "bob")
    with app.app_context():
        games.offer_draw(get_session(), game_id, alice)
        games.offer_draw(get_session(), game_id, bob)
    page = _page(browsers["alice"], f"/games/{game_id}")
    assert "A draw between alice and bob." in page and 'id="your-result">a draw<' in page


# -- the words, from standings -------------------------------------------------
class _Finished:
    status = FINISHED

    def __init__(self, result: str):
        self.result = result


def test_standings_follow_the_rules_order_after_the_winners():
    groups = results.standings(_Finished("3"), 4, ranking=[(2,), (0, 3), (1,)])
    assert groups == [(2,), (0, 3), (1,)]
    assert [results.result_words(groups, seat, 4) for seat in range(4)] == [
        "2nd= of 4", "4th of 4", "you won", "2nd= of 4"]


def test_a_resignation_puts_the_winners_first_whatever_the_position_said():
    # player 2 resigned while ahead on the board: the result, not the board, decides who won
    groups = results.standings(_Finished("1"), 2, ranking=[(1,), (0,)])
    assert groups == [(0,), (1,)]
    assert results.result_words(groups, 1, 2) == "you lost"
    assert results.verdict(groups, ["alice", "bob"]) == "alice won."


def test_ordinals():
    assert [results.ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 101, 111)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "101st", "111th"]


def test_a_game_without_a_result_has_no_standings():
    class Abandoned:
        status, result = "abandoned", "*"

    assert results.standings(Abandoned(), 2, ranking=[]) == []


def test_an_illegal_turn_is_explained_without_the_raw_position_string(app, browsers):
    from test_web_pages import play

    game_id = _started(app, "logger", "alice", "bob")
    _play(app, game_id, "alice", "a1")
    _play(app, game_id, "bob", "e5")
    answer = play(browsers["alice"], game_id, "a1-a1 G P:a2")
    assert answer.status_code == 422
    page = unescape(answer.get_data(as_text=True))
    message = re.search(r'id="turn-error" role="alert">([^<]*)<', page).group(1)
    assert "a logger moves 1 or 2 squares" in message
    position = re.search(r'<code id="position">([^<]*)</code>', page).group(1)
    assert position not in message and "(position" not in message
    assert position  # ... but the page still shows it, under "Position string", for whoever asks
