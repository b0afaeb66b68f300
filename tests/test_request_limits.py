"""Request limits: a body over ``MAX_CONTENT_LENGTH`` is refused with 413
before it is read (API and pages), deeply nested JSON is a 400 not a 500,
and a huge value is never echoed back whole in an error."""

from __future__ import annotations

import io
from html import unescape

import pytest
from conftest import make_test_app
from sqlmodel import func, select
from test_server_serve import served  # noqa: F401  (fixture)
from test_web_review_findings import csrf, signed_in

from pbem.db import get_session
from pbem.models import Game
from pbem.services.accounts import create_api_token, player_for_email

LIMIT = 64 * 1024


class CountingStream(io.RawIOBase):
    """A request body of ``size`` bytes made on demand, counting what the
    server reads of it."""

    def __init__(self, size: int, byte: bytes = b"["):
        self.size, self.byte, self.read_bytes = size, byte, 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        n = min(len(buffer), self.size - self.read_bytes)
        buffer[:n] = self.byte * n
        self.read_bytes += n
        return n


def _token(app, email: str = "alice@example.org") -> str:
    with app.app_context():
        return create_api_token(get_session(), player_for_email(get_session(), email), "test")[0]


def _games(app) -> int:
    with app.app_context():
        return get_session().exec(select(func.count()).select_from(Game)).one()


def _started_game(app) -> int:
    from pbem.services import games

    with app.app_context():
        session = get_session()
        game = games.create_game(session, player_for_email(session, "alice@example.org"), "logger", ["bob@example.org"])
        games.accept(session, game.id, player_for_email(session, "bob@example.org"))
        return game.id


def test_the_default_limit_is_64_kib(app):
    assert app.config["MAX_CONTENT_LENGTH"] == LIMIT


def test_a_big_api_body_is_refused_with_413_before_it_is_read(app, client):
    token = _token(app)
    body = CountingStream(60 * 1024 * 1024)
    response = client.post("/api/v1/games", environ_overrides={"wsgi.input": body, "CONTENT_LENGTH": str(body.size)},
                           headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"})
    assert response.status_code == 413
    error = response.get_json()["error"]
    assert "65536 bytes" in error and "62914560" in error
    assert body.read_bytes == 0
    assert _games(app) == 0


def test_a_big_api_body_without_a_length_is_cut_off_at_the_limit(app, client):
    token = _token(app)
    body = CountingStream(60 * 1024 * 1024)
    response = client.post("/api/v1/games",
                           environ_overrides={"wsgi.input": body, "wsgi.input_terminated": True,
                                              "HTTP_TRANSFER_ENCODING": "chunked"},
                           headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"})
    assert response.status_code == 413
    assert "65536 bytes" in response.get_json()["error"]
    assert body.read_bytes <= 2 * LIMIT
    assert _games(app) == 0


def test_a_body_just_under_the_limit_is_read(app, client):
    token = _token(app)
    padding = " " * (LIMIT - 200)
    raw = '{"game": "logger", "players": ["bob@example.org"]' + padding + "}"
    response = client.post("/api/v1/games", data=raw, headers={"Authorization": f"Bearer {token}",
                                                                "Content-Type": "application/json"})
    assert response.status_code == 201, response.get_json()
    assert _games(app) == 1


def test_a_big_form_is_refused_with_a_413_page(app):
    alice = signed_in(app, "alice@example.org")
    token = csrf(alice.get("/games/new"))
    response = alice.post("/games/new", data={"csrf_token": token, "kind": "logger", "players": "bob@example.org",
                                              "option-logger-spawn": "x" * (LIMIT + 1)})
    assert response.status_code == 413
    page = unescape(response.get_data(as_text=True))
    assert response.mimetype == "text/html" and "65536 bytes" in page
    assert _games(app) == 0


def test_the_limit_is_configurable(database_config):
    app = make_test_app(database_config, MAX_CONTENT_LENGTH=1024)
    try:
        token = _token(app)
        raw = '{"game": "logger", "players": ["bob@example.org"]' + " " * 2000 + "}"
        response = app.test_client().post("/api/v1/games", data=raw, headers={"Authorization": f"Bearer {token}",
                                                                               "Content-Type": "application/json"})
        assert response.status_code == 413 and "1024 bytes" in response.get_json()["error"]
    finally:
        app.extensions["pbem_engine"].dispose()


@pytest.mark.parametrize("path, method", [("/api/v1/games", "POST"), ("/api/v1/games/{id}/turns", "POST"),
                                          ("/api/v1/me/schedule", "PUT"), ("/api/v1/me/vacation", "POST")])
@pytest.mark.parametrize("raw", ["[" * 60_000, '{"game": ' + "[" * 60_000, '{"options": ' + '{"a": ' * 10_000])
def test_deeply_nested_json_is_a_400_naming_the_problem(app, client, path, method, raw):
    token = _token(app)
    game_id = _started_game(app)
    response = client.open(path.format(id=game_id), method=method, data=raw,
                           headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"})
    assert response.status_code == 400
    error = response.get_json()["error"]
    assert "not valid JSON" in error and "nested" in error and "such as {" in error
    assert _games(app) == 1


def _big_app(database_config):
    return make_test_app(database_config, MAX_CONTENT_LENGTH=4 * 1024 * 1024)


@pytest.mark.parametrize("options", [{"spawn": "x" * 1_000_000}, {"y" * 1_000_000: "seedling"}])
def test_a_huge_option_is_not_echoed_back_by_the_api(database_config, options):
    app = _big_app(database_config)
    try:
        token = _token(app)
        response = app.test_client().post("/api/v1/games", json={"game": "logger", "players": ["bob@example.org"],
                                                                 "options": options},
                                          headers={"Authorization": f"Bearer {token}"})
        assert response.status_code == 400
        assert len(response.get_data()) < 1000
        error = response.get_json()["error"]
        assert ("spawn=" in error and "'xxxxxxxxxx" in error) or ("no option 'yyyyyyyy" in error)
        assert "…" in error
        assert _games(app) == 0
    finally:
        app.extensions["pbem_engine"].dispose()


def test_a_huge_option_is_not_echoed_back_by_the_new_game_page(database_config):
    app = _big_app(database_config)
    try:
        alice = signed_in(app, "alice@example.org")
        token = csrf(alice.get("/games/new"))
        response = alice.post("/games/new", data={"csrf_token": token, "kind": "logger", "players": "bob@example.org",
                                                  "option-logger-spawn": "x" * 1_000_000})
        assert response.status_code == 400
        page = unescape(response.get_data(as_text=True))
        assert "option spawn=" in page and "x" * 61 not in page
        assert _games(app) == 0
    finally:
        app.extensions["pbem_engine"].dispose()


def test_a_huge_ply_or_game_id_is_not_echoed_back(app):
    alice = signed_in(app, "alice@example.org")
    game_id = _started_game(app)
    token = csrf(alice.get(f"/games/{game_id}"))
    response = alice.post(f"/games/{game_id}/turn", data={"csrf_token": token, "turn": "a1", "ply": "9" * 50_000,
                                                          "action": "play"})
    assert response.status_code == 400 and "9" * 100 not in response.get_data(as_text=True)
    response = app.test_client().get("/api/v1/games/" + "z" * 5000, headers={"Authorization": f"Bearer {_token(app)}"})
    assert response.status_code == 404 and "z" * 100 not in response.get_json()["error"]


def _raw_post(base: str, path: str, *, chunked: bool, size: int) -> tuple[int, bytes]:
    """POST ``size`` bytes to a running server, chunked or with a declared
    length (then only the headers are sent: the answer must not wait for
    the body)."""
    import http.client
    from urllib.parse import urlsplit

    where = urlsplit(base)
    connection = http.client.HTTPConnection(where.hostname, where.port, timeout=20)
    try:
        connection.putrequest("POST", path)
        connection.putheader("Content-Type", "application/json")
        if chunked:
            connection.putheader("Transfer-Encoding", "chunked")
            connection.endheaders()
            chunk = b"[" * 65536
            try:
                for _ in range(size // len(chunk)):
                    connection.send(b"%x\r\n%s\r\n" % (len(chunk), chunk))
                connection.send(b"0\r\n\r\n")
            except (BrokenPipeError, ConnectionResetError):
                pass  # the server answered and closed before the whole body was sent
        else:
            connection.putheader("Content-Length", str(size))
            connection.endheaders()
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


@pytest.mark.parametrize("chunked", [False, True])
def test_a_running_server_refuses_a_big_body_with_413(served, chunked):
    status, body = _raw_post(served, "/api/v1/games", chunked=chunked, size=8 * 1024 * 1024)
    assert status == 413 and b"65536 bytes" in body


def test_the_openapi_document_lists_413_for_requests_with_a_body(client):
    document = client.get("/api/v1/openapi.json").get_json()
    assert "413" in document["paths"]["/games"]["post"]["responses"]
    turns = document["paths"]["/games/{game_id}/turns"]["post"]["responses"]
    assert "MAX_CONTENT_LENGTH" in turns["413"]["description"]
