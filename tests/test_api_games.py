"""The JSON API, endpoint by endpoint, as a client program uses it: every
bad request gets a 4xx with a message, never a 500."""

from __future__ import annotations

import json

import pytest

from notation import record as records
from pbem.db import get_session
from pbem.services.accounts import create_api_token, player_for_email


@pytest.fixture
def api(app):
    """Tokens for alice, bob and carol, and ``call(who, method, url, body)``."""
    return api_caller(app)


def api_caller(app):
    """``call(who, method, url, body)`` for ``app``, with API tokens for alice, bob and carol."""
    tokens = {}
    with app.app_context():
        session = get_session()
        for name in ("alice", "bob", "carol"):
            player = player_for_email(session, f"{name}@example.org")
            player.name = name.capitalize()
            session.commit()
            tokens[name], _ = create_api_token(session, player, "tests")
    client = app.test_client()

    def call(who, method, url, body=None, raw=None, headers=None):
        all_headers = {"Authorization": f"Bearer {tokens[who]}"} if who else {}
        all_headers.update(headers or {})
        if raw is not None:
            response = client.open(url, method=method, data=raw, headers=all_headers, content_type="application/json")
        else:
            response = client.open(url, method=method, json=body, headers=all_headers)
        assert response.status_code < 500, response.get_data(as_text=True)
        if response.status_code >= 400:
            assert response.is_json, response.get_data(as_text=True)
            assert response.get_json()["error"], "every error names what is wrong"
        return response

    return call


def new_game(api, players=("alice@example.org", "bob@example.org"), **extra):
    response = api("alice", "POST", "/api/v1/games", {"game": "logger", "players": list(players), **extra})
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def started(api):
    game = new_game(api)
    assert api("bob", "POST", f"/api/v1/games/{game['id']}/accept").status_code == 200
    return game["id"]


def test_create_invite_accept_and_the_game_starts(api):
    game = new_game(api, options={"spawn": "sapling"}, hours_per_turn=48)
    assert game["status"] == "inviting"
    assert [p["status"] for p in game["players"]] == ["accepted", "invited"]
    assert game["options"] == {"spawn": "sapling"}
    listed = api("bob", "GET", "/api/v1/games").get_json()
    assert [g["id"] for g in listed] == [game["id"]]
    assert listed[0]["your_seat"] == 2
    accepted = api("bob", "POST", f"/api/v1/games/{game['id']}/accept").get_json()
    assert accepted["status"] == "active"
    assert accepted["to_move"] == 1 and accepted["your_turn"] is False
    assert accepted["deadline"]
    assert accepted["position"] == "...../...../..s../...../..... 1 0,0 2,2"
    assert accepted["legal_turns"] == []  # bob is not to move: only the mover is offered turns
    assert api("alice", "GET", f"/api/v1/games/{game['id']}").get_json()["legal_turns"] == ["a1", "e1", "a5", "e5"]
    assert "a b c d e" in accepted["diagram"]


def test_turns_are_played_listed_previewed_and_recorded(api):
    game_id = started(api)
    preview = api("alice", "GET", f"/api/v1/games/{game_id}/preview?turn=A1").get_json()
    assert preview["canonical"] == "a1" and "1 . . . ." in preview["diagram"]
    after = api("alice", "POST", f"/api/v1/games/{game_id}/turns", {"turn": "A1", "ply": 0})
    assert after.status_code == 201
    assert after.get_json()["ply"] == 1 and after.get_json()["to_move"] == 2
    api("bob", "POST", f"/api/v1/games/{game_id}/turns", {"turn": "e5", "ply": 1})
    api("alice", "POST", f"/api/v1/games/{game_id}/turns", {"turn": "a1-a3 G P:b3", "ply": 2})
    listed = api("bob", "GET", f"/api/v1/games/{game_id}/turns").get_json()
    assert [(t["ply"], t["player"], t["text"], t["canonical"], t["source"]) for t in listed] == [
        (1, "1", "A1", "a1", "api"),
        (2, "2", "e5", "e5", "api"),
        (3, "1", "a1-a3 G P:b3", "a1-a3 G P:b3", "api"),
    ]
    text = api("bob", "GET", f"/api/v1/games/{game_id}/record").get_data(as_text=True)
    assert '[Game "logger"]' in text and "1. a1 | e5" in text and "2. a1-a3 G P:b3" in text
    assert len(records.check(records.read(text)).turns) == 3
    data = api("bob", "GET", f"/api/v1/games/{game_id}/record?format=json").get_json()
    assert data["players"] == ["Alice", "Bob"] and len(data["turns"]) == 3
    records.check(records.read(json.dumps(data)))


@pytest.mark.parametrize(
    "who, body, raw, status, words",
    [
        ("alice", None, "{not json", 400, "must be JSON"),
        ("alice", None, "[1, 2]", 400, "JSON object"),
        ("alice", {"ply": 0}, None, 400, "turn"),
        ("alice", {"turn": "a1"}, None, 400, "ply"),
        ("alice", {"turn": "a1", "ply": "0"}, None, 400, "ply"),
        ("alice", {"turn": "a1", "ply": 0, "extra": 1}, None, 400, "extra"),
        ("alice", {"turn": 7, "ply": 0}, None, 400, "turn"),
        ("alice", {"turn": "c3", "ply": 0}, None, 422, "corner"),
        ("alice", {"turn": "zz9", "ply": 0}, None, 422, "setup"),
        ("bob", {"turn": "e5", "ply": 0}, None, 409, "not your turn"),
        ("alice", {"turn": "a1", "ply": 5}, None, 409, "has not been reached yet"),
        ("carol", {"turn": "a1", "ply": 0}, None, 403, "not a player"),
        (None, {"turn": "a1", "ply": 0}, None, 401, "Authorization: Bearer"),
    ],
)
def test_bad_turn_submissions_get_a_4xx_with_a_message_and_change_nothing(api, who, body, raw, status, words):
    game_id = started(api)
    response = api(who, "POST", f"/api/v1/games/{game_id}/turns", body, raw=raw)
    assert response.status_code == status
    assert words in response.get_json()["error"]
    assert api("alice", "GET", f"/api/v1/games/{game_id}").get_json()["ply"] == 0


def test_a_stale_ply_after_a_real_turn_is_told_the_game_moved_on(api):
    game_id = started(api)
    api("alice", "POST", f"/api/v1/games/{game_id}/turns", {"turn": "a1", "ply": 0})
    api("bob", "POST", f"/api/v1/games/{game_id}/turns", {"turn": "e5", "ply": 1})
    response = api("alice", "POST", f"/api/v1/games/{game_id}/turns", {"turn": "a1-a2 G P:b2", "ply": 1})
    assert response.status_code == 409
    assert "moved on" in response.get_json()["error"]


@pytest.mark.parametrize("url", ["/api/v1/games/999", "/api/v1/games/abc", "/api/v1/games/-1",
                                 "/api/v1/games/99999999999999999999/turns", "/api/v1/games/999/record"])
def test_an_unknown_game_is_404(api, url):
    response = api("alice", "GET", url)
    assert response.status_code == 404
    assert "no game" in response.get_json()["error"]


def test_unknown_game_for_a_turn_is_404_before_the_body_is_read(api):
    response = api("alice", "POST", "/api/v1/games/999/turns", raw="{bad")
    assert response.status_code == 404


def test_another_players_game_cannot_be_seen_or_played(api):
    game_id = started(api)
    for method, url in [("GET", ""), ("GET", "/turns"), ("GET", "/record"), ("GET", "/preview?turn=a1"),
                        ("POST", "/resign"), ("POST", "/draw"), ("POST", "/abandon"), ("POST", "/accept")]:
        response = api("carol", method, f"/api/v1/games/{game_id}{url}")
        assert response.status_code == 403, url
        assert "carol@example.org" in response.get_json()["error"]


@pytest.mark.parametrize(
    "body, words",
    [
        ({"game": "chess", "players": ["bob@example.org"]}, "unknown game"),
        ({"game": "logger", "players": ["not-an-address"]}, "email"),
        ({"game": "logger", "players": "bob@example.org"}, "players"),
        ({"game": "logger", "players": []}, "players"),
        ({"game": "logger", "players": ["bob@example.org"], "options": {"spawn": "oak"}}, "seedling, sapling"),
        ({"game": "logger", "players": ["bob@example.org"], "options": {"colour": "red"}}, "no option"),
        ({"game": "logger", "players": ["bob@example.org", "bob@example.org"]}, "more than once"),
        ({"game": "logger", "players": [f"p{i}@example.org" for i in range(5)]}, "2 to 4 players"),
        ({"game": "logger", "players": ["bob@example.org"], "hours_per_turn": 0}, "hours_per_turn"),
        ({"game": "logger", "players": ["bob@example.org"], "hours_per_turn": "soon"}, "hours_per_turn"),
        ({"players": ["bob@example.org"]}, "game"),
    ],
)
def test_bad_new_games_are_refused_with_a_message(api, body, words):
    response = api("alice", "POST", "/api/v1/games", body)
    assert response.status_code == 400
    assert words in response.get_json()["error"]
    assert api("alice", "GET", "/api/v1/games").get_json() == []


def test_resign_ends_the_game_and_the_record_says_why(api):
    game_id = started(api)
    api("alice", "POST", f"/api/v1/games/{game_id}/turns", {"turn": "a1", "ply": 0})
    game = api("alice", "POST", f"/api/v1/games/{game_id}/resign").get_json()
    assert game["status"] == "finished" and game["result"] == "2"
    text = api("alice", "GET", f"/api/v1/games/{game_id}/record").get_data(as_text=True)
    assert '[Result "2"]' in text and "resigned" in text
    records.check(records.read(text))
    again = api("bob", "POST", f"/api/v1/games/{game_id}/resign")
    assert again.status_code == 409 and "finished" in again.get_json()["error"]
    late = api("bob", "POST", f"/api/v1/games/{game_id}/turns", {"turn": "e5", "ply": 1})
    assert late.status_code == 409


def test_a_draw_needs_an_offer_and_the_other_players_agreement(api):
    game_id = started(api)
    offered = api("alice", "POST", f"/api/v1/games/{game_id}/draw").get_json()
    assert offered["status"] == "active" and offered["draw_offered"]
    twice = api("alice", "POST", f"/api/v1/games/{game_id}/draw")
    assert twice.status_code == 409
    drawn = api("bob", "POST", f"/api/v1/games/{game_id}/draw").get_json()
    assert drawn["status"] == "finished" and drawn["result"] == "1=2"
    records.check(records.read(api("bob", "GET", f"/api/v1/games/{game_id}/record").get_data(as_text=True)))


def test_the_answer_to_a_turn_is_the_game_with_only_the_turn_it_stored(api):
    game_id = started(api)
    api("alice", "POST", f"/api/v1/games/{game_id}/turns", {"turn": "a1", "ply": 0})
    after = api("bob", "POST", f"/api/v1/games/{game_id}/turns", {"turn": "E5", "ply": 1}).get_json()
    shown = api("bob", "GET", f"/api/v1/games/{game_id}").get_json()
    assert [(t["ply"], t["text"], t["canonical"]) for t in after["turns"]] == [(2, "E5", "e5")]
    assert after["turns"] == shown["turns"][-1:]
    assert {**after, "turns": None} == {**shown, "turns": None}  # every other field as GET shows it


def test_a_turn_withdraws_a_draw_offer(api):
    game_id = started(api)
    api("bob", "POST", f"/api/v1/games/{game_id}/draw")
    game = api("alice", "POST", f"/api/v1/games/{game_id}/turns", {"turn": "a1", "ply": 0}).get_json()
    assert game["draw_offered"] is False


def test_decline_cancels_and_abandon_ends_without_a_result(api):
    game = new_game(api)
    declined = api("bob", "POST", f"/api/v1/games/{game['id']}/decline").get_json()
    assert declined["status"] == "cancelled"
    assert api("bob", "POST", f"/api/v1/games/{game['id']}/accept").status_code == 409
    game = new_game(api)
    refused = api("bob", "POST", f"/api/v1/games/{game['id']}/abandon")
    assert refused.status_code == 409 and "decline the invitation instead" in refused.get_json()["error"]
    abandoned = api("alice", "POST", f"/api/v1/games/{game['id']}/abandon").get_json()
    assert abandoned["status"] == "abandoned" and abandoned["result"] == "*"
    assert api("alice", "POST", f"/api/v1/games/{game['id']}/abandon").status_code == 409
    game_id = started(api)
    for who in ("alice", "bob"):
        active = api(who, "POST", f"/api/v1/games/{game_id}/abandon")
        assert active.status_code == 409 and "resign, or offer a draw" in active.get_json()["error"]
    assert api("bob", "GET", f"/api/v1/games/{game_id}").get_json()["status"] == "active"


def test_accepting_twice_or_a_record_before_the_start_is_refused(api):
    game = new_game(api, players=("alice@example.org", "bob@example.org", "carol@example.org"))
    api("bob", "POST", f"/api/v1/games/{game['id']}/accept")
    again = api("bob", "POST", f"/api/v1/games/{game['id']}/accept")
    assert again.status_code == 409 and "already accepted" in again.get_json()["error"]
    assert api("bob", "GET", f"/api/v1/games/{game['id']}/record").status_code == 400
    assert api("bob", "GET", f"/api/v1/games/{game['id']}/preview?turn=a1").status_code == 409


def test_preview_refuses_a_bad_turn_and_needs_a_turn(api):
    game_id = started(api)
    bad = api("alice", "GET", f"/api/v1/games/{game_id}/preview?turn=a1-a3")
    assert bad.status_code == 422
    missing = api("alice", "GET", f"/api/v1/games/{game_id}/preview")
    assert missing.status_code == 400 and "?turn=" in missing.get_json()["error"]
    assert api("alice", "GET", f"/api/v1/games/{game_id}/record?format=pdf").status_code == 400
