"""API tokens, the discovery endpoints and the OpenAPI document."""

from __future__ import annotations

import re

import pytest

from pbem.services.accounts import create_api_token, player_for_email, revoke_api_token


def test_me_answers_with_the_tokens_owner(client, session):
    player = player_for_email(session, "Dana@Example.org")
    session.commit()
    token, _ = create_api_token(session, player, "bot")
    response = client.get("/api/v1/me", headers={"Authorization": f"Bearer {token}"})
    assert response.status_code == 200
    assert response.get_json()["email"] == "dana@example.org"


@pytest.mark.parametrize("header", ["", "Bearer", "Bearer nonsense", "Basic abc", "Bearer " + "x" * 500])
def test_missing_or_bad_tokens_are_401_with_how_to_fix(client, header):
    response = client.get("/api/v1/me", headers={"Authorization": header} if header else {})
    assert response.status_code == 401
    assert "Authorization: Bearer" in response.get_json()["error"]


def test_a_revoked_token_stops_working(client, session):
    player = player_for_email(session, "erin@example.org")
    session.commit()
    token, row = create_api_token(session, player)
    revoke_api_token(session, player, row.id)
    assert client.get("/api/v1/me", headers={"Authorization": f"Bearer {token}"}).status_code == 401


def test_kinds_lists_every_game_with_its_options(client):
    kinds = {k["name"]: k for k in client.get("/api/v1/kinds").get_json()}
    assert kinds["logger"]["options"][0]["name"] == "spawn"
    assert kinds["logger"]["options"][0]["choices"] == ["seedling", "sapling"]
    assert kinds["logger"]["max_players"] == 4


def test_the_openapi_document_describes_every_api_route(app, client):
    document = client.get("/api/v1/openapi.json").get_json()
    assert document["openapi"].startswith("3.")
    described = {(path, method) for path, ops in document["paths"].items() for method in ops if method != "parameters"}
    for rule in app.url_map.iter_rules():
        if rule.rule.startswith("/api/v1/"):
            path = re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", rule.rule[len("/api/v1"):])
            for method in rule.methods - {"HEAD", "OPTIONS"}:
                assert (path, method.lower()) in described, (path, method)
    assert set(document["components"]["schemas"]["TurnIn"]["required"]) == {"turn", "ply"}


def test_the_openapi_document_describes_each_schema_once_by_its_own_name(client):
    schemas = client.get("/api/v1/openapi.json").get_json()["components"]["schemas"]
    # a nested schema not named before the one that nests it is added again under its class's name
    assert not [name for name in schemas if name.endswith("Out")]
    game = schemas["GameDetail"]["properties"]
    assert game["settings"]["items"]["$ref"] == "#/components/schemas/Setting"


def test_unknown_api_urls_and_methods_answer_json(client):
    missing = client.get("/api/v1/nothing-here")
    assert missing.status_code == 404 and missing.is_json
    wrong = client.delete("/api/v1/games")
    assert wrong.status_code == 405 and wrong.get_json()["error"]


def _writes_to_tokens(app, client, token):
    """The SQL statements that write api_tokens during one API request."""
    from statement_counts import counting

    from pbem import db

    with app.app_context():
        engine = db.engine()
    with counting(engine) as (statements, _commits):
        assert client.get("/api/v1/me", headers={"Authorization": f"Bearer {token}"}).status_code == 200
    return [s for s in statements if s.lstrip().upper().startswith("UPDATE API_TOKENS")]


def test_a_token_s_last_use_is_written_at_most_every_ten_minutes(app, client, session, monkeypatch):
    from datetime import datetime, timedelta, timezone

    from pbem import models
    from pbem.models import ApiToken

    now = [datetime(2026, 5, 1, 12, 0, tzinfo=timezone.utc)]
    monkeypatch.setattr(models, "CLOCK", lambda: now[0])
    player = player_for_email(session, "fay@example.org")
    session.commit()
    token, row = create_api_token(session, player, "bot")
    assert len(_writes_to_tokens(app, client, token)) == 1  # first use: written
    now[0] += timedelta(minutes=9)
    assert _writes_to_tokens(app, client, token) == []  # nine minutes later: not again
    now[0] += timedelta(minutes=2)
    assert len(_writes_to_tokens(app, client, token)) == 1
    session.expire_all()
    assert session.get(ApiToken, row.id).last_used_at == now[0]
