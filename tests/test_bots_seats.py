"""Bots as players on the API and the web: asked for by level when a game
is made, seated and accepted at once, the game started; the bot's turn is
played by the worker (never in the request) through the turn service; bad
levels and a bot in a one-player game are clear errors; a bot never
accepts a draw offer."""

from __future__ import annotations

from sqlmodel import select
from test_api_games import api, new_game  # noqa: F401 - fixtures
from test_web_pages import csrf, sign_in

from pbem import scheduler
from pbem.db import get_session
from pbem.models import Game, Turn
from pbem.services import bots


def test_api_game_against_a_bot_starts_and_the_worker_plays_its_turn(app, api):
    game = new_game(api, players=("alice@example.org",), bots=["easy"])
    assert game["status"] == "active"
    assert [p["status"] for p in game["players"]] == ["accepted", "accepted"]
    assert game["players"][1]["email"] == f"easy@{bots.BOT_DOMAIN}"
    played = api("alice", "POST", f"/api/v1/games/{game['id']}/turns", {"turn": "a1", "ply": 0})
    assert played.status_code in (200, 201), played.get_json()
    after = api("alice", "GET", f"/api/v1/games/{game['id']}").get_json()
    assert after["ply"] == 1, "the bot does not play inside alice's request"
    assert api("alice", "POST", f"/api/v1/games/{game['id']}/draw").status_code == 200
    assert scheduler.run_once(app, ["bots"])["bots"] == 1
    after = api("alice", "GET", f"/api/v1/games/{game['id']}").get_json()
    assert after["ply"] == 2 and after["status"] == "active"
    with app.app_context():
        turn = get_session().exec(select(Turn).where(Turn.game_id == game["id"], Turn.ply == 2)).one()
        assert turn.source == "bot" and turn.seat == 1
    assert scheduler.run_once(app, ["bots"])["bots"] == 0, "nothing more to do until alice plays"


def test_api_refuses_bad_bot_requests(api):
    bad = api("alice", "POST", "/api/v1/games", {"game": "logger", "players": ["alice@example.org"], "bots": ["genius"]})
    assert bad.status_code == 400 and "there is no level 'genius'" in bad.get_json()["error"]
    assert "beginner, easy, medium, hard, strongest" in bad.get_json()["error"]
    solo = api("alice", "POST", "/api/v1/games", {"game": "greenhouse", "players": ["alice@example.org"], "bots": [""]})
    assert solo.status_code == 400 and "1 player, not 2" in solo.get_json()["error"]
    sneaky = api("alice", "POST", "/api/v1/games",
                 {"game": "logger", "players": ["alice@example.org", f"hard@{bots.BOT_DOMAIN}"]})
    assert sneaky.status_code == 400 and "by its level" in sneaky.get_json()["error"]


def test_web_new_game_form_offers_a_bot(app):
    client = app.test_client()
    sign_in(client, app, "alice@example.org")
    page = client.get("/games/new")
    assert 'name="bot"' in page.get_data(as_text=True) and "bot, hard" in page.get_data(as_text=True)
    made = client.post("/games/new", data={"kind": "ataxx", "players": "alice@example.org", "bot": "beginner",
                                           "on_timeout": "claim", "unit": "days", "csrf_token": csrf(page)})
    assert made.status_code == 302, made.get_data(as_text=True)
    shown = client.get(made.headers["Location"]).get_data(as_text=True)
    assert "Bot (beginner)" in shown


def test_the_lobby_starts_a_game_against_the_computer_at_a_level_or_at_the_games_usual_one(app):
    client = app.test_client()
    sign_in(client, app, "alice@example.org")
    lobby = client.get("/lobby")
    page = lobby.get_data(as_text=True)
    assert 'id="computer-form"' in page and 'value="taiga"' in page and 'value="greenhouse"' not in page
    assert "Taiga – Battle Boreal: beginner, strongest (usual: strongest)" in page
    assert "Logger: beginner, easy, medium, hard, strongest (usual: medium)" in page
    made = client.post("/lobby/computer", data={"kind": "logger", "level": "hard", "csrf_token": csrf(lobby)})
    assert made.status_code == 302, made.get_data(as_text=True)
    game_id = made.headers["Location"].rstrip("/").rsplit("/", 1)[-1]
    shown = client.get(made.headers["Location"]).get_data(as_text=True)
    assert "Bot (hard)" in shown and "created against the computer" in shown
    usual = client.post("/lobby/computer", data={"kind": "taiga", "level": "", "csrf_token": csrf(lobby)})
    assert usual.status_code == 302 and "Bot (strongest)" in client.get(usual.headers["Location"]).get_data(as_text=True)
    with app.app_context():
        session = get_session()
        made_so_far = len(session.exec(select(Game)).all())
        game = session.get(Game, int(game_id))
        assert game.status == "active" and game.hours_per_turn is None
    refused = client.post("/lobby/computer", data={"kind": "taiga", "level": "medium", "csrf_token": csrf(lobby)})
    assert refused.status_code == 400
    assert "plays at these levels: beginner, strongest; there is no level &#39;medium&#39;" in refused.get_data(as_text=True)
    alone = client.post("/lobby/computer", data={"kind": "greenhouse", "level": "", "csrf_token": csrf(lobby)})
    assert alone.status_code == 400 and "1 player, not 2" in alone.get_data(as_text=True)
    with app.app_context():
        assert len(get_session().exec(select(Game)).all()) == made_so_far, "a refused request makes no game"


def test_a_game_whose_bot_offers_fewer_levels_refuses_the_others_and_says_which_it_has(app, api):
    kinds = {kind["name"]: kind for kind in api("alice", "GET", "/api/v1/kinds").get_json()}
    assert kinds["taiga"]["bot_levels"] == ["beginner", "strongest"]
    assert kinds["alheimur"]["bot_levels"] == ["beginner", "medium", "strongest"]
    assert kinds["logger"]["bot_levels"] == ["beginner", "easy", "medium", "hard", "strongest"]
    medium = api("alice", "POST", "/api/v1/games", {"game": "taiga", "players": ["alice@example.org"],
                                                    "bots": ["medium"]})
    assert medium.status_code == 400
    assert medium.get_json()["error"] == ("Taiga – Battle Boreal's bot plays at these levels: beginner, "
                                          "strongest; there is no level 'medium'")
    made = api("alice", "POST", "/api/v1/games", {"game": "taiga", "players": ["alice@example.org"],
                                                  "bots": ["strongest"]})
    assert made.status_code == 201 and made.get_json()["status"] == "active"
    client = app.test_client()
    sign_in(client, app, "alice@example.org")
    page = client.get("/games/new").get_data(as_text=True)
    assert "Some games offer fewer levels:" in page and "Taiga – Battle Boreal: beginner, strongest" in page
    assert "Alheimur: beginner, medium, strongest" in page
    guide = client.get("/rules/taiga").get_data(as_text=True)
    assert "at these levels: beginner, strongest." in guide
