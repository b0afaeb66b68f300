"""The web pages as a person uses them: sign in by mailed link, create a
game, accept, play and preview turns, see errors, download records and
boards.  Forms need their CSRF token; what people type is escaped."""

from __future__ import annotations

import re
from html import unescape

import pytest
from conftest import make_test_app
from sqlmodel import select

from notation import record as records
from pbem.db import get_session
from pbem.models import OutboxMessage


def csrf(page) -> str:
    return re.search(r'name="csrf_token" value="([^"]+)"', page.get_data(as_text=True)).group(1)


def last_mail(app, to: str) -> OutboxMessage:
    with app.app_context():
        return get_session().exec(select(OutboxMessage).where(OutboxMessage.to_addr == to.lower())
                                  .order_by(OutboxMessage.id.desc())).first()


def sign_in(client, app, email: str) -> None:
    page = client.get("/auth/sign-in")
    client.post("/auth/sign-in", data={"email": email, "next": "/", "csrf_token": csrf(page)})
    mail = last_mail(app, email)
    link = re.search(r"http://pbem\.test(/auth/verify\S+)", mail.body).group(1)
    opened = client.get(link)
    token = re.search(r'name="token" value="([^"]+)"', opened.get_data(as_text=True)).group(1)
    assert client.post("/auth/verify", data={"token": token, "csrf_token": csrf(opened)}).status_code == 302


@pytest.fixture
def two(app):
    """Alice and Bob signed in, each with their own browser (client)."""
    alice, bob = app.test_client(), app.test_client()
    sign_in(alice, app, "alice@example.org")
    sign_in(bob, app, "bob@example.org")
    return alice, bob


def create_game(client, players="alice@example.org\nbob@example.org", **extra) -> int:
    page = client.get("/games/new")
    response = client.post("/games/new", data={"kind": "logger", "players": players, "hours": "",
                                                "option-logger-spawn": "seedling", "csrf_token": csrf(page), **extra})
    assert response.status_code == 302, response.get_data(as_text=True)
    return int(response.headers["Location"].rsplit("/", 1)[1])


def post(client, url, **data):
    page = client.get(url.rsplit("/", 1)[0] if "/turn" in url or url.count("/") > 2 else url)
    return client.post(url, data={"csrf_token": csrf(page), **data})


def play(client, game_id, turn, action="play"):
    page = client.get(f"/games/{game_id}")
    ply = re.search(r'name="ply" value="(\d+)"', page.get_data(as_text=True)).group(1)
    return client.post(f"/games/{game_id}/turn", data={"csrf_token": csrf(page), "turn": turn, "ply": ply,
                                                        "action": action})


def test_signing_in_by_the_mailed_link(client, app):
    assert "Sign in" in client.get("/").get_data(as_text=True)
    sign_in(client, app, "Carol@Example.org")
    assert "carol@example.org" in client.get("/").get_data(as_text=True)


def test_a_bad_or_expired_sign_in_link_is_explained(client):
    response = client.get("/auth/verify?token=forged")
    assert response.status_code == 400
    assert "not valid" in response.get_data(as_text=True)
    assert "not signed in" not in client.get("/").get_data(as_text=True)


def test_a_bad_address_is_named(client):
    page = client.get("/auth/sign-in")
    response = client.post("/auth/sign-in", data={"email": "nobody", "csrf_token": csrf(page)})
    assert response.status_code == 400
    assert "is not an email address" in unescape(response.get_data(as_text=True))


def test_forms_without_the_csrf_token_are_refused(two):
    alice, _ = two
    response = alice.post("/games/new", data={"kind": "logger", "players": "bob@example.org"})
    assert response.status_code == 400
    assert "reload the page" in response.get_data(as_text=True)
    assert "No games yet" in alice.get("/").get_data(as_text=True)


def test_pages_need_sign_in(client):
    response = client.get("/games/new")
    assert response.status_code == 302 and "/auth/sign-in" in response.headers["Location"]


def test_a_whole_game_through_the_pages(two):
    alice, bob = two
    game_id = create_game(alice)
    assert "answer the invitation" in bob.get("/").get_data(as_text=True)
    post(bob, f"/games/{game_id}/accept")
    assert "your turn" in alice.get("/").get_data(as_text=True)

    preview = play(alice, game_id, "A1", action="preview")
    assert preview.status_code == 200
    assert 'id="preview-canonical">a1<' in preview.get_data(as_text=True)
    assert "<svg" in preview.get_data(as_text=True)

    assert play(alice, game_id, "A1").status_code == 302
    refused = play(bob, game_id, "c3")
    assert refused.status_code == 422
    assert "corner" in unescape(refused.get_data(as_text=True))
    assert play(bob, game_id, "e5").status_code == 302
    page = alice.get(f"/games/{game_id}").get_data(as_text=True)
    assert "<code>a1</code></a> | <a" in page  # round 1 in the move list, each turn a link to its position
    assert "Legal turns" in page

    record = alice.get(f"/games/{game_id}/record.pgn")
    assert record.headers["Content-Disposition"].startswith("attachment")
    played = records.check(records.read(record.get_data(as_text=True)))
    assert played.texts == ["a1", "e5"]
    assert alice.get(f"/games/{game_id}/record.json").is_json


def test_a_stale_form_is_told_the_game_moved_on(two):
    alice, bob = two
    game_id = create_game(alice)
    post(bob, f"/games/{game_id}/accept")
    page = alice.get(f"/games/{game_id}")
    token = csrf(page)
    play(alice, game_id, "a1")
    response = alice.post(f"/games/{game_id}/turn", data={"csrf_token": token, "turn": "e1", "ply": "0"})
    assert response.status_code == 409
    assert "moved on" in response.get_data(as_text=True)


def test_what_people_type_is_escaped(two):
    alice, bob = two
    game_id = create_game(alice)
    post(bob, f"/games/{game_id}/accept")
    response = play(alice, game_id, "<script>alert(1)</script>")
    body = response.get_data(as_text=True)
    assert response.status_code == 422
    assert "<script>alert" not in body and "&lt;script&gt;" in body


def test_the_new_game_form_names_what_is_wrong(two):
    alice, _ = two
    page = alice.get("/games/new")
    response = alice.post("/games/new", data={"kind": "logger", "players": "bob@example.org\nbob@example.org",
                                              "hours": "", "csrf_token": csrf(page)})
    assert response.status_code == 400
    assert "more than once" in response.get_data(as_text=True)
    response = alice.post("/games/new", data={"kind": "logger", "players": "bob@example.org", "hours": "soon",
                                              "csrf_token": csrf(page)})
    assert response.status_code == 400 and "whole number of hours" in unescape(response.get_data(as_text=True))


@pytest.mark.parametrize("fmt, mimetype, start", [("svg", "image/svg+xml", b"<svg"), ("png", "image/png", b"\x89PNG"),
                                                  ("txt", "text/plain", b"5 . . . .")])
def test_board_diagrams_per_position(two, fmt, mimetype, start):
    alice, bob = two
    game_id = create_game(alice)
    post(bob, f"/games/{game_id}/accept")
    play(alice, game_id, "a1")
    for ply in (0, 1):
        response = alice.get(f"/games/{game_id}/board/{ply}.{fmt}")
        assert response.status_code == 200 and response.mimetype == mimetype
        assert response.data.startswith(start)
    assert alice.get(f"/games/{game_id}/board/2.{fmt}").status_code == 404


def test_another_players_game_and_unknown_games_are_refused(two, app):
    alice, bob = two
    game_id = create_game(alice)
    carol = app.test_client()
    sign_in(carol, app, "carol@example.org")
    assert carol.get(f"/games/{game_id}").status_code == 403
    assert carol.get(f"/games/{game_id}/record.pgn").status_code == 403
    assert alice.get("/games/4242").status_code == 404
    assert alice.get("/games/x/board/0.svg").status_code == 404


def test_api_tokens_page_makes_a_token_that_works(two):
    alice, _ = two
    page = alice.get("/tokens")
    made = alice.post("/tokens", data={"label": "bot", "csrf_token": csrf(page)}).get_data(as_text=True)
    token = re.search(r'id="new-token">([^<]+)<', made).group(1)
    assert alice.get("/api/v1/me", headers={"Authorization": f"Bearer {token}"}).get_json()["email"] == "alice@example.org"


def test_the_dev_mailbox_is_there_only_in_debug(database_config):
    assert make_test_app(database_config).test_client().get("/dev/mail").status_code == 404
    debug = make_test_app(database_config, DEBUG=True).test_client()
    page = debug.get("/dev/mail")
    assert page.status_code == 200 and "Local mailbox" in page.get_data(as_text=True)
    french = debug.get("/dev/mail", headers={"Accept-Language": "fr"}).get_data(as_text=True)
    assert "Boîte aux lettres locale" in french and "Local mailbox" not in french
