"""Every response carries the security headers: a content security policy
that forbids framing and foreign or inline scripts and styles, X-Frame-Options,
nosniff, and a same-origin referrer policy (sign-in tokens are in URLs) --
pages, the API, images, static files and errors alike."""

from __future__ import annotations

import pytest
from conftest import make_test_app
from test_web_review_findings import signed_in

from pbem.db import get_session
from pbem.services import games
from pbem.services.accounts import create_api_token, player_for_email

EXPECTED = {
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
}
CSP_PARTS = ["default-src 'self'", "script-src 'self'", "style-src 'self'", "img-src 'self' data:",
             "frame-ancestors 'none'", "base-uri 'self'", "form-action 'self'", "object-src 'none'"]


def assert_secure(response, what: str) -> None:
    for name, value in EXPECTED.items():
        assert response.headers.get(name) == value, (what, name, response.headers.get(name))
    policy = [part.strip() for part in response.headers.get("Content-Security-Policy", "").split(";")]
    assert sorted(policy) == sorted(CSP_PARTS), (what, policy)


@pytest.fixture
def setup(database_config):
    app = make_test_app(database_config, PROPAGATE_EXCEPTIONS=False, DEV_MAILBOX=True)

    @app.get("/test-failure")
    def _failure():  # a page that fails unexpectedly: the 500 page must carry the headers too
        raise RuntimeError("boom")

    with app.app_context():
        session = get_session()
        alice = player_for_email(session, "alice@example.org")
        game = games.create_game(session, alice, "logger", ["bob@example.org"])
        games.accept(session, game.id, player_for_email(session, "bob@example.org"))
        token = create_api_token(session, alice, "test")[0]
        game_id = game.id
    yield app, game_id, token
    app.extensions["pbem_engine"].dispose()


def test_pages_images_and_static_files_carry_the_headers(setup):
    app, game_id, _ = setup
    anonymous = app.test_client()
    for url in ("/", "/auth/sign-in", "/static/pbem.css", "/static/preview.js", "/dev/mail"):
        response = anonymous.get(url)
        assert response.status_code == 200, url
        assert_secure(response, url)
    alice = signed_in(app, "alice@example.org")
    for url in ("/", "/games/new", f"/games/{game_id}", "/settings", "/tokens",
                f"/games/{game_id}/board/0.svg", f"/games/{game_id}/board/0.png", f"/games/{game_id}/record.pgn"):
        response = alice.get(url)
        assert response.status_code == 200, url
        assert_secure(response, url)


def test_the_api_carries_the_headers(setup):
    app, game_id, token = setup
    client = app.test_client()
    bearer = {"Authorization": f"Bearer {token}"}
    for url, headers, status in (("/api/v1/openapi.json", {}, 200), (f"/api/v1/games/{game_id}", bearer, 200),
                                 (f"/api/v1/games/{game_id}", {}, 401), ("/api/v1/games/999", bearer, 404)):
        response = client.get(url, headers=headers)
        assert response.status_code == status, url
        assert_secure(response, url)


def test_errors_carry_the_headers(setup):
    app, game_id, token = setup
    client = app.test_client()
    cases = [
        (client.get("/no-such-page"), 404),
        (client.post("/"), 405),
        (client.post("/auth/sign-in", data={"email": "a@b.org"}), 400),  # no CSRF token
        (client.post("/auth/sign-in", data="x" * 100_000, content_type="application/x-www-form-urlencoded"), 413),
        (client.post(f"/api/v1/games/{game_id}/turns", data="[" * 60_000, content_type="application/json",
                     headers={"Authorization": f"Bearer {token}"}), 400),
        (client.get("/test-failure"), 500),
    ]
    for response, status in cases:
        assert response.status_code == status, (status, response.status_code)
        assert_secure(response, str(status))
