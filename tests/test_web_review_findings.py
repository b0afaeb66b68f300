"""Findings of a review by a player: Unicode digits, hidden errors, mailed
links, sign-in abuse, abandon and decline, messages, huge input, validation,
the calendar's name."""

from __future__ import annotations

import re
from html import unescape

import pytest
from sqlmodel import select

from pbem import links
from pbem.db import get_session
from pbem.models import Game, OutboxMessage
from pbem.services import games, web_sessions
from pbem.services.accounts import create_api_token, player_for_email


def csrf(page) -> str:
    return re.search(r'name="csrf_token" value="([^"]+)"', page.get_data(as_text=True)).group(1)


def signed_in(app, email):
    client = app.test_client()
    with app.app_context():
        player = player_for_email(get_session(), email)
        player.name = email.split("@")[0].capitalize()
        get_session().commit()
        session_id = web_sessions.start(get_session(), player)
    with client.session_transaction() as cookie:
        cookie[web_sessions.COOKIE_KEY] = session_id
    return client


def post(client, page_url, url, **data):
    return client.post(url, data={"csrf_token": csrf(client.get(page_url)), **data})


def text(response) -> str:
    return unescape(response.get_data(as_text=True))


def make_game(app, *, start=True, players=("bob@example.org",)) -> int:
    with app.app_context():
        session = get_session()
        alice = player_for_email(session, "alice@example.org")
        game = games.create_game(session, alice, "logger", list(players))
        if start:
            for address in players:
                games.accept(session, game.id, player_for_email(session, address))
        return game.id


@pytest.fixture
def alice(app):
    return signed_in(app, "alice@example.org")


@pytest.fixture
def bob(app):
    return signed_in(app, "bob@example.org")


# -- 1. Unicode digits ---------------------------------------------------------
@pytest.mark.parametrize("digit", ["²", "٣", "１"])
def test_unicode_digits_in_forms_get_a_message_not_a_500(app, alice, digit):
    game_id = make_game(app)
    page = f"/games/{game_id}"
    response = post(alice, page, f"/games/{game_id}/turn", turn="a1", ply=digit, action="play")
    assert 400 <= response.status_code < 500, response.status_code
    response = post(alice, "/settings", "/settings/vacation", days=digit)
    assert response.status_code == 400 and "whole number of days" in text(response)
    response = post(alice, "/settings", "/settings", reminders=digit)
    assert response.status_code == 400 and "whole hours" in text(response)
    for field in ("bank_hours", "bank_increment_hours", "bank_cap_hours", "hours"):
        data = {"kind": "logger", "players": "bob@example.org", "hours": "3", "unit": "days", "on_timeout": "claim",
                "option-logger-spawn": "seedling", field: digit}
        response = post(alice, "/games/new", "/games/new", **data)
        assert response.status_code == 400 and "whole number" in text(response), (field, response.status_code)


# -- 2. errors shown whatever the game's status --------------------------------
def test_errors_show_on_a_cancelled_or_finished_game(app, alice, bob):
    cancelled = make_game(app, start=False)
    assert post(bob, f"/games/{cancelled}", f"/games/{cancelled}/decline").status_code == 302
    page = alice.get(f"/games/{cancelled}")
    assert "starts when every invited player has accepted" not in text(page)
    assert "cancelled before it started" in text(page)
    finished = make_game(app)
    assert post(bob, f"/games/{finished}", f"/games/{finished}/resign", confirm="yes").status_code == 302
    for game_id in (cancelled, finished):
        for action in ("accept", "resign", "abandon"):
            response = post(alice, f"/games/{game_id}", f"/games/{game_id}/{action}")
            assert response.status_code == 409
            assert 'id="turn-error"' in text(response), (game_id, action)
        response = post(alice, f"/games/{game_id}", f"/games/{game_id}/turn", turn="a1", ply="0", action="play")
        assert response.status_code == 409 and 'id="turn-error"' in text(response)


# -- 3. mailed links come from configuration only ---------------------------------
@pytest.mark.parametrize("base, expected", [("http://pbem.test", "http://pbem.test/auth/verify?"),
                                            (None, "http://localhost:5000/auth/verify?")])
def test_a_forged_host_header_never_reaches_a_mailed_link(app, client, base, expected):
    app.config["BASE_URL"] = base
    page = client.get("/auth/sign-in", headers={"Host": "evil.example"})
    response = client.post("/auth/sign-in", data={"email": "bob@example.org", "csrf_token": csrf(page)},
                           headers={"Host": "evil.example"})
    assert response.status_code == 200, text(response)
    with app.app_context():
        body = get_session().exec(select(OutboxMessage).where(OutboxMessage.to_addr == "bob@example.org")).one().body
    assert "evil.example" not in body and expected in body


def test_without_base_url_links_use_the_default_not_the_request(app):
    app.config["BASE_URL"] = None
    with app.test_request_context("/", headers={"Host": "evil.example:8080"}):
        assert links.external("/games/1") == "http://localhost:5000/games/1"


def test_pbem_serve_sets_base_url_to_its_own_address(monkeypatch):
    import flask

    from pbem.cli import serve as cli_serve

    seen = {}
    monkeypatch.setattr(flask.Flask, "run", lambda self, **kw: seen.update(base=self.config["BASE_URL"], **kw))
    monkeypatch.setattr("pbem.runtime.start_background", lambda app: None)
    monkeypatch.setattr("pbem.mailrobot.listener.start_for_serve", lambda app: None)
    monkeypatch.delenv("PBEM_BASE_URL", raising=False)
    from conftest import make_test_app

    monkeypatch.setattr("pbem.create_app", lambda: _app_without_base_url(make_test_app))
    from click.testing import CliRunner

    result = CliRunner().invoke(cli_serve.serve, ["--port", "5123", "--no-debug"])
    assert result.exit_code == 0, result.output
    assert seen["base"] == "http://127.0.0.1:5123"
    assert cli_serve.own_base_url("0.0.0.0", 80) == "http://localhost:80"


def _app_without_base_url(make_test_app):
    import tempfile

    path = tempfile.mkdtemp()
    app = make_test_app({"DATABASE_URL": f"sqlite:///{path}/x.sqlite3"})
    app.config["BASE_URL"] = None
    return app


# -- 4. sign-in links are rate limited -------------------------------------------
def test_at_most_three_sign_in_links_an_hour_to_one_address(app, client):
    statuses = []
    for _ in range(5):
        page = client.get("/auth/sign-in")
        response = client.post("/auth/sign-in", data={"email": "Bob@Example.org", "csrf_token": csrf(page)})
        statuses.append(response.status_code)
    assert statuses == [200, 200, 200, 429, 429]
    assert "3 sign-in links in the last hour" in text(response)
    with app.app_context():
        rows = get_session().exec(select(OutboxMessage).where(OutboxMessage.to_addr == "bob@example.org")).all()
    assert len(rows) == 3 and {row.kind for row in rows} == {"sign_in"}
    page = client.get("/auth/sign-in")
    other = client.post("/auth/sign-in", data={"email": "carol@example.org", "csrf_token": csrf(page)})
    assert other.status_code == 200


# -- 5. abandon only before the start, decline only before accepting -------------
def test_an_active_game_cannot_be_abandoned_and_has_no_abandon_button(app, alice, bob):
    game_id = make_game(app)
    page = text(alice.get(f"/games/{game_id}"))
    assert "Abandon" not in page
    response = post(bob, f"/games/{game_id}", f"/games/{game_id}/abandon")
    assert response.status_code == 409 and "resign, or offer a draw" in text(response)
    with app.app_context():
        assert get_session().get(Game, game_id).status == "active"


def test_only_the_creator_abandons_before_the_start(app, alice, bob):
    game_id = make_game(app, start=False)
    assert "Abandon" not in text(bob.get(f"/games/{game_id}"))
    response = post(bob, f"/games/{game_id}", f"/games/{game_id}/abandon")
    assert response.status_code == 409 and "decline the invitation instead" in text(response)
    assert "Abandon" in text(alice.get(f"/games/{game_id}"))
    assert post(alice, f"/games/{game_id}", f"/games/{game_id}/abandon").status_code == 302
    with app.app_context():
        assert get_session().get(Game, game_id).status == "abandoned"


def test_an_accepted_player_cannot_decline(app, bob):
    game_id = make_game(app, start=False, players=("bob@example.org", "carol@example.org"))
    assert post(bob, f"/games/{game_id}", f"/games/{game_id}/accept").status_code == 302
    response = post(bob, f"/games/{game_id}", f"/games/{game_id}/decline")
    assert response.status_code == 409 and "already accepted" in text(response)
    with app.app_context():
        assert get_session().get(Game, game_id).status == "inviting"


# -- 6. messages -----------------------------------------------------------------
def test_messages_say_the_limits(app, alice):
    response = post(alice, "/games/new", "/games/new", kind="ataxx",
                    players="bob@example.org\ncarol@example.org")
    assert "for 2 players, not 3" in text(response) and "2 to 2" not in text(response)
    response = post(alice, "/settings", "/settings/vacation", days="999")
    assert response.status_code == 400 and "at most 365 days" in text(response)
    response = post(alice, "/games/new", "/games/new", kind="logger", players="bob@example.org", hours="0",
                    unit="days", on_timeout="claim", **{"option-logger-spawn": "seedling"})
    assert response.status_code == 400
    assert "days_per_turn" not in text(response) and "time per turn is from 1 to 365 days" in text(response)


# -- 7. huge input -----------------------------------------------------------------
def test_a_huge_turn_is_refused_briefly_on_the_page_and_in_the_preview(app, alice):
    game_id = make_game(app)
    huge = "a1 " * 20000  # under the 64 KiB request limit (a larger body is refused with 413)
    response = post(alice, f"/games/{game_id}", f"/games/{game_id}/turn", turn=huge, ply="0", action="play")
    assert response.status_code == 400 and "at most 500 characters" in text(response)
    assert len(response.get_data()) < 30000
    response = post(alice, f"/games/{game_id}", f"/games/{game_id}/turn", turn=huge, ply="0", action="preview")
    assert response.status_code == 400 and len(response.get_data()) < 30000
    preview = alice.get(f"/api/v1/games/{game_id}/preview?turn=" + "a" * 600)
    assert preview.status_code == 400 and "at most 500 characters" in preview.get_json()["error"]
    assert len(preview.get_data()) < 1000


# -- 8. validation -----------------------------------------------------------------
def test_one_email_check_for_web_and_api(app, alice):
    response = post(alice, "/games/new", "/games/new", kind="logger", players="a@b.c",
                    **{"option-logger-spawn": "seedling"})
    assert response.status_code == 400 and "is not an email address" in text(response)
    with app.app_context():
        token, _ = create_api_token(get_session(), player_for_email(get_session(), "alice@example.org"))
    api = app.test_client().post("/api/v1/games", json={"game": "logger", "players": ["a@b.c"]},
                                 headers={"Authorization": f"Bearer {token}"})
    assert api.status_code == 400 and "is not an email address" in api.get_json()["error"]
    page = alice.get("/auth/sign-in")
    assert alice.post("/auth/sign-in", data={"email": "a@b.c", "csrf_token": csrf(page)}).status_code == 400


@pytest.mark.parametrize("extra, words", [
    ({"hours": "3", "bank_hours": "48", "bank_cap_hours": "1"}, "must be at least the starting bank"),
    ({"hours": "3", "unit": "weeks"}, "hours or days, not 'weeks'"),
    ({"hours": "", "bank_hours": "24"}, "need a time per turn"),
    ({"hours": "", "bank_cap_hours": "5"}, "need a time per turn"),
])
def test_the_time_control_form_refuses_what_it_would_ignore(app, alice, extra, words):
    data = {"kind": "logger", "players": "bob@example.org", "unit": "days", "on_timeout": "claim",
            "option-logger-spawn": "seedling", **extra}
    response = post(alice, "/games/new", "/games/new", **data)
    assert response.status_code == 400 and words in text(response)
    with app.app_context():
        assert get_session().exec(select(Game)).first() is None


def test_the_api_refuses_a_bank_cap_below_the_bank(app):
    with app.app_context():
        token, _ = create_api_token(get_session(), player_for_email(get_session(), "alice@example.org"))
    response = app.test_client().post(
        "/api/v1/games", headers={"Authorization": f"Bearer {token}"},
        json={"game": "logger", "players": ["bob@example.org"],
              "time_control": {"days_per_turn": 3, "bank_hours": 48, "bank_cap_hours": 1}})
    assert response.status_code == 400 and "at least the starting bank" in response.get_json()["error"]


# -- 9. the calendar's name is escaped ---------------------------------------------
def test_the_calendar_name_is_escaped(app, alice):
    with app.app_context():
        player = player_for_email(get_session(), "alice@example.org")
        player.name = "Al\\ice; the, bold"
        get_session().commit()
    settings = text(alice.get("/settings"))
    url = re.search(r"http://pbem\.test(/calendar/[^\s\"<]+\.ics)", settings).group(1)
    body = alice.get(url).get_data()
    line = [raw for raw in body.split(b"\r\n") if raw.startswith(b"X-WR-CALNAME")][0]
    assert line == b"X-WR-CALNAME:pbem deadlines of Al\\\\ice\\; the\\, bold"


def test_the_turn_box_says_its_limit(app, alice):
    game_id = make_game(app)
    assert 'maxlength="500"' in text(alice.get(f"/games/{game_id}"))
