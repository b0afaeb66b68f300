"""Resigning on the web asks first, without needing JavaScript: the game
page's Resign button leads to a confirmation page, and a resignation posted
without its confirmation changes nothing and says what is needed.  The API
resigns on its POST, as documented (its clients confirm with their users)."""

from __future__ import annotations

import re

from sqlmodel import func, select
from test_web_review_findings import alice, csrf, make_game, text  # noqa: F401  (fixtures)

from pbem.db import get_session
from pbem.models import Game, OutboxMessage
from pbem.services.accounts import create_api_token, player_for_email


def _game(app, game_id: int) -> Game:
    with app.app_context():
        return get_session().get(Game, game_id)


def _mail_count(app) -> int:
    with app.app_context():
        return get_session().exec(select(func.count()).select_from(OutboxMessage)).one()


def test_the_game_page_does_not_resign_in_one_click(app, alice):
    game_id = make_game(app)
    page = text(alice.get(f"/games/{game_id}"))
    resign_forms = re.findall(r'<form[^>]*action="/games/%d/resign"[^>]*>' % game_id, page)
    assert resign_forms and all('method="get"' in form for form in resign_forms), resign_forms
    confirm = alice.get(f"/games/{game_id}/resign")
    assert confirm.status_code == 200
    body = text(confirm)
    assert f"Resign game {game_id}?" in body and "Yes, I resign" in body
    assert 'name="confirm" value="yes"' in body and 'method="post"' in body
    assert _game(app, game_id).status == "active"


def test_a_resignation_without_its_confirmation_changes_nothing(app, alice):
    game_id = make_game(app)
    mail = _mail_count(app)
    token = csrf(alice.get(f"/games/{game_id}"))
    for data in ({}, {"confirm": "no"}, {"confirm": ""}):
        response = alice.post(f"/games/{game_id}/resign", data={"csrf_token": token, **data})
        assert response.status_code == 400
        body = text(response)
        assert "Nothing was changed" in body and "Yes, I resign" in body
    game = _game(app, game_id)
    assert game.status == "active" and game.result in (None, "*")
    assert _mail_count(app) == mail


def test_a_confirmed_resignation_ends_the_game(app, alice):
    game_id = make_game(app)
    confirm = alice.get(f"/games/{game_id}/resign")
    response = alice.post(f"/games/{game_id}/resign", data={"csrf_token": csrf(confirm), "confirm": "yes"})
    assert response.status_code == 302
    assert _game(app, game_id).status == "finished"
    assert "You resigned." in text(alice.get(f"/games/{game_id}"))


def test_the_confirmation_page_of_a_finished_game_says_so(app, alice):
    game_id = make_game(app)
    alice.post(f"/games/{game_id}/resign", data={"csrf_token": csrf(alice.get(f"/games/{game_id}")), "confirm": "yes"})
    response = alice.get(f"/games/{game_id}/resign")
    assert response.status_code == 409 and f"game {game_id} is finished, so you cannot resign" in text(response)
    assert "Yes, I resign" not in text(response)


def test_the_confirmation_page_is_only_for_players(app):
    from test_web_review_findings import signed_in

    game_id = make_game(app)
    carol = signed_in(app, "carol@example.org")
    assert carol.get(f"/games/{game_id}/resign").status_code == 403
    assert app.test_client().get(f"/games/{game_id}/resign").status_code in (302, 401)


def test_the_api_resigns_on_its_post(app):
    game_id = make_game(app)
    with app.app_context():
        token = create_api_token(get_session(), player_for_email(get_session(), "bob@example.org"))[0]
    response = app.test_client().post(f"/api/v1/games/{game_id}/resign", headers={"Authorization": f"Bearer {token}"})
    assert response.status_code == 200 and response.get_json()["status"] == "finished"
