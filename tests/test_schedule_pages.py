"""The clock as people and programs reach it: the new-game form's time
control, the settings page, the API's schedule, vacation and claim, the
calendar feed, and the scheduler command."""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone
from html import unescape

from icalendar import Calendar

from pbem import models
from pbem.db import get_session
from pbem.models import Game
from pbem.services import web_sessions
from pbem.services.accounts import create_api_token, player_for_email


def csrf(page) -> str:
    return re.search(r'name="csrf_token" value="([^"]+)"', page.get_data(as_text=True)).group(1)


def signed_in(app, email):
    client = app.test_client()
    with app.app_context():
        player = player_for_email(get_session(), email)
        get_session().commit()
        session_id = web_sessions.start(get_session(), player)
    with client.session_transaction() as cookie:
        cookie[web_sessions.COOKIE_KEY] = session_id
    return client


def tokens(app, *names):
    out = {}
    with app.app_context():
        session = get_session()
        for name in names:
            player = player_for_email(session, f"{name}@example.org")
            player.name = name.capitalize()
            session.commit()
            out[name], _ = create_api_token(session, player, "tests")
    return out


def call(client, token, method, url, body=None):
    response = client.open(url, method=method, json=body, headers={"Authorization": f"Bearer {token}"})
    assert response.status_code < 500, response.get_data(as_text=True)
    return response


def test_api_time_control_claim_schedule_vacation_and_calendar(app, client, monkeypatch):
    key = tokens(app, "alice", "bob")
    start = datetime(2026, 3, 2, 9, 0, tzinfo=timezone.utc)
    monkeypatch.setattr(models, "CLOCK", lambda: start)
    bad = call(client, key["alice"], "POST", "/api/v1/games", {"game": "logger", "players": ["bob@example.org"],
                                                               "time_control": {"on_timeout": "later"}})
    assert bad.status_code == 400 and "on_timeout" in bad.get_json()["error"]
    made = call(client, key["alice"], "POST", "/api/v1/games", {
        "game": "logger", "players": ["bob@example.org"],
        "time_control": {"days_per_turn": 2, "on_timeout": "claim", "weekends": True}})
    assert made.status_code == 201
    game = made.get_json()
    assert game["time_control"]["hours_per_turn"] == 48 and "2 days per turn" in game["time_control"]["description"]
    call(client, key["bob"], "POST", f"/api/v1/games/{game['id']}/accept")
    early = call(client, key["bob"], "POST", f"/api/v1/games/{game['id']}/claim")
    assert early.status_code == 409 and "only after that" in early.get_json()["error"]
    schedule = call(client, key["alice"], "GET", "/api/v1/me/schedule").get_json()
    assert schedule["reminder_hours"] == [24, 1] and schedule["vacation_days_left"] == 30
    calendar = Calendar.from_ical(client.get(schedule["calendar_url"].replace("http://pbem.test", "")).data)
    (event,) = calendar.walk("VEVENT")
    assert event.decoded("dtend") == start + timedelta(hours=48) and f"game {game['id']}" in str(event["summary"])
    assert client.get("/calendar/not-a-token.ics").status_code == 404
    changed = call(client, key["alice"], "PUT", "/api/v1/me/schedule", {"reminder_hours": [12], "digest": True})
    assert changed.get_json()["reminder_hours"] == [12] and changed.get_json()["digest"] is True
    assert call(client, key["alice"], "PUT", "/api/v1/me/schedule", {"reminder_hours": [0]}).status_code == 400
    away = call(client, key["alice"], "POST", "/api/v1/me/vacation", {"days": 3}).get_json()
    assert away["vacation_days_left"] == 27 and away["on_vacation_until"]
    assert call(client, key["alice"], "GET", f"/api/v1/games/{game['id']}").get_json()["deadline"].startswith("2026-03-07")
    assert call(client, key["alice"], "POST", "/api/v1/me/vacation", {"days": "many"}).status_code == 400
    monkeypatch.setattr(models, "CLOCK", lambda: start + timedelta(days=6))
    shown = call(client, key["bob"], "GET", f"/api/v1/games/{game['id']}").get_json()
    assert shown["can_claim"] is True
    won = call(client, key["bob"], "POST", f"/api/v1/games/{game['id']}/claim").get_json()
    assert won["status"] == "finished" and won["result"] == "2" and "claimed the win" in won["termination"]


def test_new_game_form_and_settings_page(app, monkeypatch):
    alice = signed_in(app, "alice@example.org")
    form = alice.get("/games/new")
    assert 'name="on_timeout"' in form.get_data(as_text=True)
    data = {"kind": "logger", "players": "bob@example.org", "hours": "36", "unit": "hours", "on_timeout": "out",
            "weekends": "on", "bank_hours": "x", "csrf_token": csrf(form)}
    refused = alice.post("/games/new", data=data)
    assert refused.status_code == 400 and "bank hours is a whole number of hours" in unescape(refused.get_data(as_text=True))
    made = alice.post("/games/new", data={**data, "bank_hours": "12"})
    assert made.status_code == 302
    with app.app_context():
        game = get_session().get(Game, int(made.headers["Location"].rsplit("/", 1)[1]))
        assert game.time_control["hours_per_turn"] == 36 and game.time_control["on_timeout"] == "out"
        assert game.time_control["bank_hours"] == 12
    page = alice.get("/settings")
    text = page.get_data(as_text=True)
    assert "30 of 30 vacation days left" in text and "/calendar/" in text
    bad = alice.post("/settings", data={"reminders": "soon", "csrf_token": csrf(page)})
    assert bad.status_code == 400 and "whole hours before the deadline" in unescape(bad.get_data(as_text=True))
    assert alice.post("/settings", data={"reminders": "48, 2", "digest": "on", "csrf_token": csrf(page)}).status_code == 302
    assert 'value="48,2"' in alice.get("/settings").get_data(as_text=True)
    went = alice.post("/settings/vacation", data={"days": "4", "csrf_token": csrf(page)}, follow_redirects=True)
    assert "You are on vacation until" in went.get_data(as_text=True)
    back = alice.post("/settings/vacation", data={"days": "0", "csrf_token": csrf(page)}, follow_redirects=True)
    assert "Your vacation is over" in back.get_data(as_text=True)
    old = re.search(r"/calendar/[^<]+\.ics", text).group(0)
    alice.post("/settings/calendar", data={"csrf_token": csrf(page)})
    assert alice.get(old).status_code == 404


def test_pbem_scheduler_once_runs_the_sweep(app, monkeypatch):
    from click.testing import CliRunner

    from pbem import scheduler
    from pbem.cli import main

    monkeypatch.setattr("pbem.create_app", lambda *a, **k: app)
    result = CliRunner().invoke(main, ["scheduler", "--once", "--job", "sweep", "--job", "digest"])
    assert result.exit_code == 0, result.output
    assert "sweep: 0" in result.output and "digest: 0" in result.output
    assert {"sweep", "digest"} <= set(scheduler.jobs())
