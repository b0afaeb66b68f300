"""Who plays a turn is read with the game it is played in (one statement:
``play.load_seated`` with the API token or the web session), and on
PostgreSQL the claim and the turn's rows are one statement
(``gamestate.advance``).  These check that the short way refuses and
records exactly what the long way did: a revoked token or ended session
plays nothing, the right refusal comes first (401, then 404, then 403), a
token or session not used for a while is marked used, and a claim that
loses writes none of its rows."""

from __future__ import annotations

import re
from datetime import timedelta

from sqlmodel import Session, select

from pbem.models import ApiToken, Game, OutboxMessage, Turn
from pbem.models.auth import WebSession
from pbem.services import gamestate, web_sessions
from pbem.services.accounts import create_api_token, revoke_api_token


def _turns(session, game_id: int) -> list[int]:
    session.expire_all()
    return [t.ply for t in session.exec(select(Turn).where(Turn.game_id == game_id))]


def _post_api(client, game_id: int, token: str, turn: str, ply: int):
    return client.post(f"/api/v1/games/{game_id}/turns", json={"turn": turn, "ply": ply},
                       headers={"Authorization": f"Bearer {token}"})


def test_an_api_turn_with_a_revoked_token_is_401_and_stores_nothing(client, session, make_players, start_game):
    alice, bob = make_players("alice", "bob")
    game = start_game(alice, bob)
    token, row = create_api_token(session, alice)
    revoke_api_token(session, alice, row.id)
    answer = _post_api(client, game.id, token, "a1", 0)
    assert answer.status_code == 401
    assert "not valid" in answer.get_json()["error"]
    assert _turns(session, game.id) == []


def test_an_api_turn_says_401_before_404_and_404_before_403(client, session, make_players, start_game):
    alice, bob, carol = make_players("alice", "bob", "carol")
    game = start_game(alice, bob)
    token, _ = create_api_token(session, carol)
    assert _post_api(client, 999999, "pbem_mistyped", "a1", 0).status_code == 401
    missing = _post_api(client, 999999, token, "a1", 0)
    assert missing.status_code == 404 and "999999" in missing.get_json()["error"]
    not_yours = _post_api(client, game.id, token, "a1", 0)
    assert not_yours.status_code == 403 and "carol@example.org" in not_yours.get_json()["error"]
    assert _turns(session, game.id) == []


def test_an_api_turn_plays_with_a_token_unused_for_an_hour_and_marks_it_used(client, session, make_players,
                                                                              start_game):
    alice, bob = make_players("alice", "bob")
    game = start_game(alice, bob)
    token, row = create_api_token(session, alice)
    long_ago = row.created_at - timedelta(hours=1)
    row.last_used_at = long_ago
    session.add(row)
    session.commit()
    answer = _post_api(client, game.id, token, "a1", 0)
    assert answer.status_code == 201, answer.get_json()
    assert _turns(session, game.id) == [1]
    assert session.get(ApiToken, row.id).last_used_at > long_ago


def _signed_in(client, secret: str, game_id: int) -> str:
    with client.session_transaction() as cookie:
        cookie[web_sessions.COOKIE_KEY] = secret
    page = client.get(f"/games/{game_id}")
    return re.search(r'name="csrf_token" value="([^"]+)"', page.get_data(as_text=True)).group(1)


def _post_web(client, game_id: int, csrf: str, turn: str, ply: int):
    return client.post(f"/games/{game_id}/turn", data={"csrf_token": csrf, "turn": turn, "ply": str(ply),
                                                       "action": "play"})


def test_a_web_turn_after_signing_out_asks_to_sign_in_and_stores_nothing(client, session, make_players,
                                                                          start_game):
    alice, bob = make_players("alice", "bob")
    game = start_game(alice, bob)
    secret = web_sessions.start(session, alice)
    csrf = _signed_in(client, secret, game.id)
    web_sessions.end(session, secret)  # signed out elsewhere, say
    answer = _post_web(client, game.id, csrf, "a1", 0)
    assert answer.status_code == 302 and "/auth/sign-in" in answer.headers["Location"]
    assert _turns(session, game.id) == []


def test_a_web_turn_from_a_session_not_seen_for_hours_plays_and_marks_it_seen(client, session, make_players,
                                                                               start_game):
    alice, bob = make_players("alice", "bob")
    game = start_game(alice, bob)
    secret = web_sessions.start(session, alice)
    csrf = _signed_in(client, secret, game.id)
    row = session.exec(select(WebSession).where(WebSession.player_id == alice.id)).one()
    long_ago = row.last_seen_at - timedelta(hours=3)
    row.last_seen_at = long_ago
    session.add(row)
    session.commit()
    answer = _post_web(client, game.id, csrf, "a1", 0)
    assert answer.status_code == 302 and answer.headers["Location"].endswith(f"/games/{game.id}?played=1")
    assert _turns(session, game.id) == [1]
    session.expire_all()
    assert session.get(WebSession, row.id).last_seen_at > long_ago


def test_a_web_turn_in_a_game_that_is_not_yours_is_refused(client, session, make_players, start_game):
    alice, bob, carol = make_players("alice", "bob", "carol")
    game = start_game(alice, bob)
    secret = web_sessions.start(session, carol)
    with client.session_transaction() as cookie:
        cookie[web_sessions.COOKIE_KEY] = secret
    page = client.get("/games/new")
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', page.get_data(as_text=True)).group(1)
    answer = _post_web(client, game.id, csrf, "a1", 0)
    assert answer.status_code == 403
    assert "carol@example.org" in answer.get_data(as_text=True)
    assert _turns(session, game.id) == []


def test_a_claim_that_loses_writes_none_of_its_rows(app, session, make_players, start_game):
    """The game was resigned (same ply, new status) after the turn read it:
    the turn's claim fails and neither the turn nor its mail is written."""
    alice, bob = make_players("alice", "bob")
    game = start_game(alice, bob)
    stale = session.get(Game, game.id)
    with Session(app.extensions["pbem_engine"], expire_on_commit=False) as other:
        assert gamestate.finish(other, other.get(Game, game.id), [1], "alice resigned", stale.created_at)
        other.commit()
    mail_before = len(session.exec(select(OutboxMessage)).all())
    turn = Turn(game_id=game.id, ply=1, seat=0, player_id=alice.id, text="a1", canonical="a1",
                position=stale.position, source="api")
    mail = OutboxMessage(to_addr="bob@example.org", subject="your turn", body="...", game_id=game.id)
    values = gamestate.advance_values(stale.position, 1, {})
    assert gamestate.advance(session, stale, 0, values, lambda: [turn, mail]) is False
    session.rollback()
    assert _turns(session, game.id) == []
    assert len(session.exec(select(OutboxMessage)).all()) == mail_before
    assert session.get(Game, game.id).status == "finished"
