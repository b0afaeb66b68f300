"""Invitation limits: one player cannot make the server mail a stranger (or
anyone) without limit, from the web form, the API or mail ``new``.  Over a
limit the game is not created and nothing is mailed, and the 429 answer
names the limit and when it resets."""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone

import pytest
from sqlmodel import Session, func, select
from test_email_commands import ROBOT, fresh_mail, plain_text, robot  # noqa: F401 - a fixture
from test_web_pages import csrf, sign_in

from pbem import models
from pbem.db import get_session
from pbem.models import Game, OutboxMessage
from pbem.services.accounts import create_api_token, player_for_email

STRANGER = "stranger@example.org"


def count(app, model, *where) -> int:
    with Session(app.extensions["pbem_engine"]) as s:
        return s.exec(select(func.count()).select_from(model).where(*where)).one()


def invitations_to(app, address: str) -> int:
    return count(app, OutboxMessage, OutboxMessage.to_addr == address, OutboxMessage.kind == "invitation")


def test_twenty_five_invitations_to_one_stranger_from_the_web_form_stop_after_three(app):
    mallory = app.test_client()
    sign_in(mallory, app, "mallory@example.org")
    token = csrf(mallory.get("/games/new"))
    answers = [mallory.post("/games/new", data={"kind": "logger", "players": STRANGER, "hours": "",
                                                 "option-logger-spawn": "seedling", "csrf_token": token})
               for _ in range(25)]
    assert [a.status_code for a in answers[:3]] == [302] * 3
    assert {a.status_code for a in answers[3:]} == {429}
    page = answers[3].get_data(as_text=True)
    assert f"{STRANGER} has been invited 3 times in the last 24 hours" in page
    assert "3 a day" in page and re.search(r"invited again from \d{4}-\d\d-\d\d \d\d:\d\d UTC", page)
    assert count(app, Game) == 3
    assert invitations_to(app, STRANGER) == 3


@pytest.fixture
def api(app):
    """``call(who, body)`` posts a new game to the API as alice@ or bob@example.org."""
    tokens = {}
    with app.app_context():
        session = get_session()
        for name in ("alice", "bob"):
            tokens[name], _ = create_api_token(session, player_for_email(session, f"{name}@example.org"))
    client = app.test_client()

    def call(who: str, *players: str):
        return client.post("/api/v1/games", json={"game": "logger", "players": list(players)},
                           headers={"Authorization": f"Bearer {tokens[who]}"})

    return call


def test_one_player_sends_at_most_twenty_invitations_a_day_by_the_api_then_again_a_day_later(app, api, monkeypatch):
    start = datetime(2030, 3, 1, 12, 0, tzinfo=timezone.utc)
    monkeypatch.setattr(models, "CLOCK", lambda: start)
    for n in range(20):
        assert api("alice", f"friend{n}@example.org").status_code == 201
    refused = api("alice", "friend20@example.org")
    assert refused.status_code == 429
    message = refused.get_json()["error"]
    assert "you have sent 20 invitations in the last 24 hours, and 20 a day is the most" in message
    assert "2030-03-02 12:00 UTC" in message
    assert count(app, Game) == 20 and invitations_to(app, "friend20@example.org") == 0
    assert api("bob", "friend20@example.org").status_code == 201  # the limit is alice's, not the address's

    monkeypatch.setattr(models, "CLOCK", lambda: start + timedelta(days=1, minutes=1))
    assert api("alice", "friend21@example.org").status_code == 201


def test_an_address_that_has_played_may_be_invited_more_often_than_a_newcomer(app, api):
    with app.app_context():
        session = get_session()
        from pbem.services import games

        bob = player_for_email(session, "bob@example.org")
        games.create_game(session, bob, "logger", ["bob@example.org", "carol@example.org"])  # bob has played
    answers = [api("alice", "bob@example.org").status_code for _ in range(11)]
    assert answers == [201] * 10 + [429]
    answers = [api("alice", "dave@example.org").status_code for _ in range(4)]
    assert answers == [201] * 3 + [429]


def test_the_limits_are_configurable(database_config):
    from conftest import make_test_app

    app = make_test_app(database_config, INVITATIONS_PER_DAY=2, INVITATIONS_TO_NEWCOMER_PER_DAY=1)
    try:
        with app.app_context():
            session = get_session()
            token, _ = create_api_token(session, player_for_email(session, "alice@example.org"))
        client = app.test_client()

        def new(*players):
            return client.post("/api/v1/games", json={"game": "logger", "players": list(players)},
                               headers={"Authorization": f"Bearer {token}"}).status_code

        assert new("bob@example.org") == 201
        assert new("bob@example.org") == 429  # bob: one a day
        assert new("carol@example.org") == 201
        assert new("dave@example.org") == 429  # alice: two a day
    finally:
        app.extensions["pbem_engine"].dispose()


def test_mail_new_is_refused_over_the_limit_with_an_answer_naming_it(robot):
    with robot.app.app_context():
        session = get_session()
        player_for_email(session, "alice@example.org")
        session.commit()
    for _n in range(3):
        [answer] = robot.to("alice@example.org", robot.send(fresh_mail("alice@example.org", ROBOT,
                                                                      f"new logger with {STRANGER}")))
        assert "is created" in plain_text(answer)
    [answer] = robot.send(fresh_mail("alice@example.org", ROBOT, f"new logger with {STRANGER}"))
    text = plain_text(answer)
    assert f"{STRANGER} has been invited 3 times in the last 24 hours" in text and "3 a day" in text
    assert count(robot.app, Game) == 3 and invitations_to(robot.app, STRANGER) == 3


def test_the_openapi_document_lists_the_429_of_a_new_game(client):
    responses = client.get("/api/v1/openapi.json").get_json()["paths"]["/games"]["post"]["responses"]
    assert "429" in responses and "limit" in responses["429"]["description"]


def test_invitations_sent_at_the_same_moment_do_not_get_past_the_limit(app, api):
    import threading

    api("bob", "carol@example.org", STRANGER)  # the stranger has a row: every request below counts its seats
    gate = threading.Barrier(8)
    codes: list[int] = []

    def attack() -> None:
        gate.wait()
        codes.append(api("alice", STRANGER).status_code)

    threads = [threading.Thread(target=attack) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(codes) == [201, 201] + [429] * 6, codes
    assert invitations_to(app, STRANGER) == 3
