"""Ratings (Glicko-2) from finished games, and a player's page with their
games, results and ratings.  The arithmetic is checked against the worked
example of Glickman's paper "Example of the Glicko-2 system"."""

from __future__ import annotations

import math
import re
from datetime import datetime, timedelta, timezone
from html import unescape

import pytest
from tally_game import register_tally
from test_web_pages import sign_in

from pbem.services import games, glicko2, ratings, turns
from pbem.services.glicko2 import Rating, update

# -- the paper's example ----------------------------------------------------------
PLAYER = Rating(1500, 200, 0.06)
OPPONENTS = [(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0), (Rating(1700, 300), 0.0)]


def test_glickmans_worked_example_gives_the_papers_new_rating():
    after = update(PLAYER, OPPONENTS, tau=0.5)
    # the paper: r' = 1464.06, RD' = 151.52, sigma' = 0.05999 (it rounds its steps to 4 decimals)
    assert after.rating == pytest.approx(1464.06, abs=0.02)
    assert after.rd == pytest.approx(151.52, abs=0.01)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)  # 0.059996, printed as 0.05999


def test_glickmans_worked_example_on_the_glicko2_scale():
    after = update(PLAYER, OPPONENTS, tau=0.5)
    # steps 7 and 8 of the paper: mu' = -0.2069, phi' = 0.8722
    assert (after.rating - 1500) / glicko2.SCALE == pytest.approx(-0.2069, abs=0.00005)
    assert after.rd / glicko2.SCALE == pytest.approx(0.8722, abs=0.00005)


def test_a_period_without_games_only_widens_the_deviation():
    after = update(PLAYER, [])
    assert after.rating == 1500 and after.volatility == 0.06
    phi = 200 / glicko2.SCALE
    assert after.rd == pytest.approx(glicko2.SCALE * math.sqrt(phi * phi + 0.06 * 0.06))
    assert after.rd > 200


def test_between_two_new_players_a_win_and_a_loss_mirror_each_other_and_a_draw_changes_no_rating():
    winner = update(Rating(), [(Rating(), 1.0)])
    loser = update(Rating(), [(Rating(), 0.0)])
    assert winner.rating > 1500 > loser.rating
    assert winner.rating - 1500 == pytest.approx(1500 - loser.rating)
    assert update(Rating(), [(Rating(), 0.5)]).rating == pytest.approx(1500)


# -- ratings from the server's games --------------------------------------------
def _finish_by_resignation(session, winner, loser, when: datetime):
    game = games.create_game(session, winner, "logger", [winner.email, loser.email])
    games.accept(session, game.id, loser)
    games.resign(session, game.id, loser)
    session.refresh(game)
    game.finished_at = when  # the week it counts in
    session.add(game)
    session.commit()
    return game


def test_ratings_come_from_finished_games_per_week(session, make_players):
    alice, bob, carol = make_players("alice", "bob", "carol")
    monday = datetime(2026, 11, 23, 10, tzinfo=timezone.utc)
    _finish_by_resignation(session, alice, bob, monday)
    _finish_by_resignation(session, alice, bob, monday + timedelta(days=1))
    rated = ratings.ratings(session, "logger")
    # one rating period with two wins against a new player, as Glicko-2 computes it
    expected = update(Rating(), [(Rating(), 1.0), (Rating(), 1.0)])
    assert rated[alice.id][0].rating == pytest.approx(expected.rating)
    assert rated[alice.id][1] == 2 and rated[bob.id][1] == 2
    assert rated[bob.id][0].rating == pytest.approx(3000 - expected.rating)
    assert carol.id not in rated

    # a week later bob beats carol: alice, rated before and idle that week, keeps her rating, but less sure
    _finish_by_resignation(session, bob, carol, monday + timedelta(days=7))
    again = ratings.ratings(session, "logger")
    assert again[alice.id][0].rating == pytest.approx(rated[alice.id][0].rating)
    assert again[alice.id][0].rd > rated[alice.id][0].rd
    assert again[bob.id][0].rating > rated[bob.id][0].rating


def test_abandoned_games_and_games_of_one_player_are_not_rated(session, make_players):
    alice, bob = make_players("alice", "bob")
    game = games.create_game(session, alice, "logger", [alice.email, bob.email])
    games.abandon(session, game.id, alice)
    solo = games.create_game(session, alice, "greenhouse", [alice.email])
    games.resign(session, solo.id, alice)
    assert ratings.ratings(session, "logger") == {} and ratings.ratings(session, "greenhouse") == {}
    assert ratings.player_ratings(session, alice) == []


def test_a_game_of_three_counts_as_a_game_between_each_pair(session, make_players, monkeypatch):
    register_tally(monkeypatch)
    alice, bob, carol = make_players("alice", "bob", "carol")
    game = games.create_game(session, alice, "tally", [p.email for p in (alice, bob, carol)])
    for player in (bob, carol):
        games.accept(session, game.id, player)
    for ply, (player, turn) in enumerate([(alice, "mark"), (bob, "pass"), (carol, "pass")]):
        turns.submit_turn(session, game.id, player, turn, ply, "web")
    rated = ratings.ratings(session, "tally")
    expected_winner = update(Rating(), [(Rating(), 1.0), (Rating(), 1.0)])
    expected_tied = update(Rating(), [(Rating(), 0.0), (Rating(), 0.5)])
    assert rated[alice.id][0].rating == pytest.approx(expected_winner.rating)
    assert rated[bob.id][0].rating == pytest.approx(expected_tied.rating)
    assert rated[carol.id][0].rating == pytest.approx(expected_tied.rating)


# -- a player's page ---------------------------------------------------------------
def test_a_players_page_shows_their_games_results_and_ratings(app, client):
    from pbem.db import get_session
    from pbem.services.accounts import player_for_email

    with app.app_context():
        session = get_session()
        alice, bob = (player_for_email(session, f"{n}@example.org") for n in ("alice", "bob"))
        session.commit()
        won = _finish_by_resignation(session, alice, bob, datetime(2026, 11, 23, tzinfo=timezone.utc))
        on = games.create_game(session, alice, "logger", [alice.email, bob.email])
        games.accept(session, on.id, bob)
        alice_id, bob_id, won_id, on_id = alice.id, bob.id, won.id, on.id
        expected = round(update(Rating(), [(Rating(), 1.0)]).rating)
    sign_in(client, app, "bob@example.org")
    page = unescape(client.get(f"/players/{alice_id}").get_data(as_text=True))
    assert f"<h1>player #{alice_id}</h1>" in page, "named as strangers see her: she chose no name"
    assert "1 finished game with a result, 1 won." in page
    assert re.search(rf'id="rating-logger"><td>Logger</td><td class="rating">{expected}</td>', page)
    rows = re.search(r'id="player-games">(.*?)</table>', page, re.S).group(1)
    assert re.search(rf'#{won_id} Logger</a></td>\s*<td>player #{bob_id}</td>\s*<td class="result">won</td>', rows)
    assert re.search(rf'#{on_id} Logger</a></td>\s*<td>player #{bob_id}</td>\s*<td class="result">active</td>', rows)
    bob_page = unescape(client.get("/players/" + str(alice_id + 1)).get_data(as_text=True))
    assert "(you)" in bob_page and 'class="result">lost<' in bob_page


@pytest.mark.parametrize("asked", ["999", "x", "0"])
def test_an_unknown_player_is_a_clear_404(app, client, asked):
    sign_in(client, app, "bob@example.org")
    answer = client.get(f"/players/{asked}")
    assert answer.status_code == 404 and "there is no player" in answer.get_data(as_text=True)


def test_a_players_page_does_not_rate_every_game_again_until_a_game_finishes(session, make_players):
    from statement_counts import counting

    alice, bob = make_players("alice", "bob")
    monday = datetime(2026, 11, 23, 10, tzinfo=timezone.utc)
    for day in range(4):
        _finish_by_resignation(session, alice, bob, monday + timedelta(days=day))
    first = ratings.player_ratings(session, alice)
    assert first[0]["games"] == 4
    with counting(session.get_bind()) as (statements, _):
        assert ratings.player_ratings(session, alice) == first
    # which kinds alice played, and whether any game of that kind finished since: no game is read
    assert len(statements) == 2, statements
    assert not any("seats" in s.lower() and "finished_at" in s.lower() and "order by" in s.lower()
                   for s in statements)
    # a game finishes through the one door: the next view rates it
    _finish_by_resignation(session, alice, bob, monday + timedelta(days=5))
    again = ratings.player_ratings(session, alice)
    assert again[0]["games"] == 5 and again[0]["rating"] > first[0]["rating"]
