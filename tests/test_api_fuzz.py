"""No input, however malformed, makes the API or the pages answer 500."""

from __future__ import annotations

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem.db import get_session
from pbem.services import games
from pbem.services.accounts import create_api_token, player_for_email

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=30),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
BODY = st.one_of(
    JSON.map(json.dumps),
    st.fixed_dictionaries({"turn": JSON, "ply": JSON}).map(json.dumps),
    st.fixed_dictionaries({"game": JSON, "players": JSON, "options": JSON, "hours_per_turn": JSON}).map(json.dumps),
    st.text(max_size=40),
    st.binary(max_size=40),
)
FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def _setup(app):
    with app.app_context():
        session = get_session()
        alice = player_for_email(session, "alice@example.org")
        session.commit()
        game = games.create_game(session, alice, "logger", ["bob@example.org"])
        games.accept(session, game.id, player_for_email(session, "bob@example.org"))
        token, _ = create_api_token(session, alice)
    return game.id, {"Authorization": f"Bearer {token}"}


@FUZZ
@given(body=BODY, path=st.sampled_from(["/games", "/games/1/turns", "/games/1/resign", "/games/x/turns", "/games/1/draw"]))
def test_api_posts_never_fail_with_500(app, body, path):
    _game_id, headers = _setup_once(app)
    response = app.test_client().post("/api/v1" + path, data=body, headers=headers, content_type="application/json")
    assert response.status_code < 500, response.get_data(as_text=True)
    assert response.is_json


@FUZZ
@given(turn=st.text(max_size=40), game=st.text(min_size=1, max_size=12).filter(lambda s: "/" not in s and "?" not in s and "#" not in s))
def test_api_gets_never_fail_with_500(app, turn, game):
    _game_id, headers = _setup_once(app)
    client = app.test_client()
    for url in ("/api/v1/games/1/preview", f"/api/v1/games/{game}", f"/api/v1/games/{game}/record"):
        response = client.get(url, query_string={"turn": turn, "format": turn}, headers=headers)
        assert response.status_code < 500, (url, response.get_data(as_text=True))


_done: dict = {}


def _setup_once(app):
    if id(app) not in _done:
        _done.clear()
        _done[id(app)] = _setup(app)
    return _done[id(app)]
