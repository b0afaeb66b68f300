"""The JSON API's own messages (a body that is not JSON, a field its schema
refuses, a missing token) in the caller's language: their setting, else the
request's Accept-Language, else English."""

from __future__ import annotations

import pytest

from pbem.db import get_session
from pbem.services.accounts import create_api_token, player_for_email

FRENCH = {"Accept-Language": "fr"}


@pytest.fixture
def call(app):
    """``call(method, url, body, headers, language=...)`` as alice with her token;
    ``language`` is her setting."""
    client = app.test_client()

    def call(method, url, body=None, raw=None, headers=None, language=""):
        with app.app_context():
            session = get_session()
            player = player_for_email(session, "alice@example.org")
            player.language = language
            session.commit()
            token, _ = create_api_token(session, player, "tests")
        all_headers = {"Authorization": f"Bearer {token}", **(headers or {})}
        if raw is not None:
            response = client.open(url, method=method, data=raw, headers=all_headers, content_type="application/json")
        else:
            response = client.open(url, method=method, json=body, headers=all_headers)
        assert 400 <= response.status_code < 500 and response.is_json
        return response.get_json()

    return call


def test_a_field_the_schema_refuses_is_named_in_french_with_accept_language_fr(call):
    body = call("POST", "/api/v1/games", {"game": "logger", "players": ["bob@example.org"], "open_seats": 9,
                                          "random_order": "maybe"}, headers=FRENCH)
    assert body["error"].startswith("le corps de la requête n'est pas valide (")
    assert "Doit être supérieur ou égal à 0 et inférieur ou égal à 7." in body["error"]
    assert body["fields"]["random_order"] == ["Pas un booléen valide (true ou false)."]
    assert "Must be" not in body["error"] and "Not a valid" not in body["error"]


def test_the_same_refusal_stays_english_without_a_french_reader(call):
    body = call("POST", "/api/v1/games", {"game": "logger", "players": ["bob@example.org"], "open_seats": 9})
    assert body["error"].startswith("the request body is not valid (")
    assert "Must be greater than or equal to 0 and less than or equal to 7." in body["error"]


def test_a_missing_field_and_a_body_not_json_in_french(call):
    body = call("POST", "/api/v1/me/vacation", {}, headers=FRENCH)
    assert body["fields"] == {"days": ["Champ obligatoire manquant."]}
    body = call("POST", "/api/v1/me/vacation", raw="{not json", headers=FRENCH)
    assert body["error"].startswith("le corps de la requête doit être du JSON, comme ")


def test_the_player_s_setting_wins_over_the_browser_s_language(call):
    body = call("POST", "/api/v1/me/vacation", {"days": -1}, headers={"Accept-Language": "en"}, language="fr")
    assert body["fields"] == {"days": ["Doit être supérieur ou égal à 0 et inférieur ou égal à 365."]}
    body = call("POST", "/api/v1/me/vacation", {"days": -1}, headers=FRENCH, language="en")
    assert body["fields"] == {"days": ["Must be greater than or equal to 0 and less than or equal to 365."]}


def test_a_bad_token_is_refused_in_french(app):
    response = app.test_client().get("/api/v1/games", headers={"Authorization": "Bearer nope", **FRENCH})
    assert response.status_code == 401
    assert response.get_json()["error"].startswith("ce jeton d'API n'est pas valide (révoqué ou mal recopié) ; "
                                                   "envoyez votre jeton d'API")


def test_why_a_game_ended_reads_in_the_caller_s_language_beside_the_stored_english(app, session, start_game):
    from pbem.services import games

    alice, bob = player_for_email(session, "alice@example.org"), player_for_email(session, "bob@example.org")
    session.commit()
    game = start_game(alice, bob)
    games.resign(session, game.id, alice)
    token, _ = create_api_token(session, bob, "tests")
    client = app.test_client()
    french = client.get(f"/api/v1/games/{game.id}", headers={"Authorization": f"Bearer {token}", **FRENCH}).get_json()
    english = client.get(f"/api/v1/games/{game.id}", headers={"Authorization": f"Bearer {token}"}).get_json()
    assert french["termination"] == english["termination"] == english["termination_text"]
    assert "resigned" in english["termination"]
    assert french["termination_text"] != english["termination"] and "abandonn" in french["termination_text"]
