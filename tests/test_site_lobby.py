"""Finding opponents: an open challenge (a game created with open seats) is
listed in the lobby and any signed-in player may take a seat; the game
starts when the last seat is taken, through the game-state door; of two
players racing for the last seat exactly one gets it, on SQLite and on
PostgreSQL, with real concurrent sessions."""

from __future__ import annotations

import re
import threading
from html import unescape

import pytest
from sqlmodel import Session, select
from test_api_games import api  # noqa: F401  (fixture)
from test_web_pages import csrf, sign_in

from pbem import create_app
from pbem.db import get_session
from pbem.models import ACTIVE, INVITING, Game, OutboxMessage, Seat
from pbem.services import games, gamestate
from pbem.services.accounts import player_for_email
from pbem.services.errors import BadInput, Conflict


@pytest.fixture
def browsers(app):
    clients = {}
    for name in ("alice", "bob", "carol"):
        clients[name] = app.test_client()
        sign_in(clients[name], app, f"{name}@example.org")
    return clients


def _text(response) -> str:
    return unescape(response.get_data(as_text=True))


def _open_challenge(client, open_seats: int, kind: str = "logger", players: str = "alice@example.org") -> int:
    page = client.get("/games/new")
    answer = client.post("/games/new", data={"kind": kind, "players": players, "hours": "", "open_seats": str(open_seats),
                                             "csrf_token": csrf(page)})
    assert answer.status_code == 302, _text(answer)[:600]
    return int(answer.headers["Location"].rsplit("/", 1)[1])


def _join(client, game_id: int):
    page = client.get("/lobby")
    return client.post(f"/games/{game_id}/join", data={"csrf_token": csrf(page)})


def test_an_open_challenge_is_listed_in_the_lobby_and_a_seat_taken_starts_the_game(app, browsers):
    alice, bob, carol = browsers["alice"], browsers["bob"], browsers["carol"]
    game_id = _open_challenge(alice, 1)
    created = _text(alice.get(f"/games/{game_id}"))
    assert "waits in the lobby" in created and 'id="game-status">inviting<' in created

    lobby = _text(bob.get("/lobby"))
    row = re.search(rf'<tr id="challenge-{game_id}">(.*?)</tr>', lobby, re.S).group(1)
    assert "Logger" in row and "player #" in row and "1 of 2" in row and "Take a seat" in row
    assert "Take a seat" not in re.search(rf'<tr id="challenge-{game_id}">(.*?)</tr>', _text(alice.get("/lobby")),
                                          re.S).group(1)  # your own challenge: nothing to join

    joined = _join(bob, game_id)
    assert joined.status_code == 302 and joined.headers["Location"].endswith(f"/games/{game_id}")
    page = _text(bob.get(f"/games/{game_id}"))
    assert "the game has started" in page and 'id="game-status">active<' in page
    assert f'id="challenge-{game_id}"' not in _text(carol.get("/lobby"))  # no longer open
    with app.app_context():
        from pbem.db import get_session

        session = get_session()
        seats = session.exec(select(Seat).where(Seat.game_id == game_id).order_by(Seat.number)).all()
        assert [s.status for s in seats] == ["accepted", "accepted"] and [s.number for s in seats] == [0, 1]
        mail = [m.subject for m in session.exec(select(OutboxMessage).where(OutboxMessage.game_id == game_id,
                                                                             OutboxMessage.to_addr == "alice@example.org"))]
        assert any("bob joined" in subject for subject in mail) and any("your turn" in s for s in mail)

    late = _join(carol, game_id)
    assert late.status_code == 409
    assert "no open seat left" in _text(late)


def test_a_challenge_of_three_starts_when_its_second_open_seat_is_taken(app, browsers):
    game_id = _open_challenge(browsers["alice"], 2)
    assert _join(browsers["bob"], game_id).status_code == 302
    page = _text(browsers["bob"].get(f"/games/{game_id}"))
    assert 'id="game-status">inviting<' in page
    assert "1 of 3" in _text(browsers["carol"].get("/lobby"))
    again = _join(browsers["bob"], game_id)
    assert again.status_code == 409 and "you already have a seat" in _text(again)
    assert _join(browsers["carol"], game_id).status_code == 302
    page = _text(browsers["carol"].get(f"/games/{game_id}"))
    assert 'id="game-status">active<' in page
    assert re.search(r"alice.*bob.*carol", page.split('<table class="players">')[1], re.S)


@pytest.mark.parametrize("fields, wanted", [
    ({"open_seats": "1", "players": "alice@example.org\nbob@example.org"}, "invites nobody by address"),
    ({"open_seats": "x"}, "whole number from 0 to 7"),
    ({"open_seats": "4"}, "with the open seats"),  # Logger: 2 to 4 players, and 5 asked
])
def test_a_bad_open_challenge_is_explained_and_nothing_is_created(app, browsers, fields, wanted):
    alice = browsers["alice"]
    page = alice.get("/games/new")
    answer = alice.post("/games/new", data={"kind": "logger", "players": "alice@example.org", "hours": "",
                                            "csrf_token": csrf(page), **fields})
    assert answer.status_code == 400 and wanted in _text(answer)
    with app.app_context():
        from pbem.db import get_session

        assert get_session().exec(select(Game)).all() == []


def test_the_lobby_says_when_there_is_nothing_to_join(browsers):
    assert 'id="no-challenges"' in _text(browsers["bob"].get("/lobby"))


def test_the_lobby_says_a_challenges_options_in_words_in_the_readers_language(app, browsers):
    alice = browsers["alice"]
    page = alice.get("/games/new")
    made = alice.post("/games/new", data={"kind": "logger", "players": "alice@example.org", "hours": "",
                                          "open_seats": "1", "option-logger-spawn": "sapling", "csrf_token": csrf(page)})
    game_id = int(made.headers["Location"].rsplit("/", 1)[1])
    row = re.search(rf'<tr id="challenge-{game_id}">(.*?)</tr>', _text(browsers["bob"].get("/lobby")), re.S).group(1)
    assert "mature trees spawn saplings (a variant)" in row and "spawn=" not in row
    french = _text(app.test_client().get("/lobby", headers={"Accept-Language": "fr"}))
    row = re.search(rf'<tr id="challenge-{game_id}">(.*?)</tr>', french, re.S).group(1)
    assert "les arbres matures font pousser des jeunes arbres (une variante)" in row


def test_a_visitor_sees_the_lobby_and_players_pages_and_is_asked_to_sign_in_to_play(app, browsers):
    alice = browsers["alice"]
    game_id = _open_challenge(alice, 1)
    with app.app_context():
        alice_id = player_for_email(get_session(), "alice@example.org").id
    visitor = app.test_client()
    lobby = visitor.get("/lobby")
    assert lobby.status_code == 200
    row = re.search(rf'<tr id="challenge-{game_id}">(.*?)</tr>', _text(lobby), re.S).group(1)
    assert "Logger" in row and "1 of 2" in row and "Sign in to take a seat" in row and "<form" not in row
    assert f"player #{alice_id}" in row and "alice" not in row, "a stranger never learns a part of an address"
    assert "Sign in to play the computer" in _text(lobby) and 'id="computer-form"' not in _text(lobby)
    page = visitor.get(f"/players/{alice_id}")
    assert page.status_code == 200 and f"player #{alice_id}" in _text(page) and "alice" not in _text(page).lower()
    refused = visitor.post(f"/games/{game_id}/join", data={})
    assert refused.status_code in (302, 400) and "/auth/sign-in" in refused.headers.get("Location", "/auth/sign-in")
    with app.app_context():
        assert get_session().get(Game, game_id).open_seats == 1, "a visitor takes no seat"


# -- racing for the last seat ---------------------------------------------------
def _race_app(request, backend):
    config = request.getfixturevalue(backend)
    return create_app({"TESTING": True, "SECRET_KEY": "x", "AUTO_MIGRATE": False, "BASE_URL": "http://pbem.test",
                       **config})


@pytest.mark.parametrize("backend", ["sqlite_config", "postgres_config"])
def test_the_door_gives_the_last_seat_to_exactly_one_of_two_sessions(request, backend):
    """Two sessions both read one open seat; the first takes it and holds
    its transaction open; the second's UPDATE waits for it (a real lock on
    either database) and then finds the seat gone."""
    app = _race_app(request, backend)
    engine = app.extensions["pbem_engine"]
    try:
        with app.app_context(), Session(engine, expire_on_commit=False) as setup:
            alice = player_for_email(setup, "alice@example.org")
            setup.commit()
            game_id = games.create_game(setup, alice, "logger", [], open_seats=1).id
        first, second = Session(engine), Session(engine)
        mine, theirs = first.get(Game, game_id), second.get(Game, game_id)
        assert mine.open_seats == theirs.open_seats == 1  # both saw the seat open
        assert gamestate.take_open_seat(first, mine, 1)
        answer: list[bool] = []
        waiting = threading.Thread(target=lambda: answer.append(gamestate.take_open_seat(second, theirs, 1)))
        waiting.start()
        waiting.join(timeout=0.5)
        first.commit()
        waiting.join(timeout=60)
        assert answer == [False]
        second.rollback()
        first.close(), second.close()
        with Session(engine) as check:
            assert check.get(Game, game_id).open_seats == 0
    finally:
        engine.dispose()


@pytest.mark.parametrize("backend", ["sqlite_config", "postgres_config"])
def test_two_players_racing_through_the_join_service_exactly_one_gets_the_seat(request, backend):
    app = _race_app(request, backend)
    engine = app.extensions["pbem_engine"]
    try:
        with app.app_context(), Session(engine, expire_on_commit=False) as setup:
            alice, bob, carol = (player_for_email(setup, f"{n}@example.org") for n in ("alice", "bob", "carol"))
            setup.commit()
            game_ids = [games.create_game(setup, alice, "logger", [], open_seats=1).id for _ in range(4)]
        for game_id in game_ids:
            outcomes: dict[str, object] = {}
            barrier = threading.Barrier(2)

            def take(player, game_id=game_id, outcomes=outcomes, barrier=barrier):
                with app.app_context(), Session(engine, expire_on_commit=False) as session:
                    barrier.wait()
                    try:
                        games.join(session, game_id, player)
                        outcomes[player.email] = "seated"
                    except Conflict as refused:
                        outcomes[player.email] = refused.message

            threads = [threading.Thread(target=take, args=(p,)) for p in (bob, carol)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join(timeout=120)
            assert sorted(v == "seated" for v in outcomes.values()) == [False, True], outcomes
            loser = next(v for v in outcomes.values() if v != "seated")
            assert "no open seat left" in loser
            with Session(engine) as check:
                game = check.get(Game, game_id)
                seats = check.exec(select(Seat).where(Seat.game_id == game_id)).all()
                assert game.status == ACTIVE and game.open_seats == 0 and game.ply == 0
                assert sorted(s.number for s in seats) == [0, 1]
    finally:
        engine.dispose()


def test_joining_goes_through_the_game_state_door(session, make_players, monkeypatch):
    """A seat is taken only by the door's conditional UPDATE: when the door
    says no (someone got there first), nothing is written."""
    alice, bob = make_players("alice", "bob")
    game = games.create_game(session, alice, "logger", [], open_seats=1)
    monkeypatch.setattr(gamestate, "take_open_seat", lambda *args: False)
    monkeypatch.setattr(games, "JOIN_TRIES", 2)
    with pytest.raises(Conflict, match="changed while you were joining"):
        games.join(session, game.id, bob)
    session.expire_all()
    assert session.get(Game, game.id).status == INVITING
    assert len(session.exec(select(Seat).where(Seat.game_id == game.id)).all()) == 1


def test_a_one_player_game_cannot_be_an_open_challenge(session, make_players):
    (alice,) = make_players("alice")
    with pytest.raises(BadInput, match="is for 1 player, not 2 .you included, with the open seats"):
        games.create_game(session, alice, "greenhouse", [], open_seats=1)
    assert session.exec(select(Game)).all() == []


def test_the_challenge_page_and_the_guide_lead_to_the_lobby_and_the_new_game(app, browsers):
    alice = browsers["alice"]
    game_id = _open_challenge(alice, 2)
    page = _text(alice.get(f"/games/{game_id}"))
    assert "An open challenge: 2 seats open to anyone in the" in page and 'href="/lobby"' in page
    guide = _text(alice.get("/rules/attactics"))
    assert 'href="/games/new?kind=attactics"' in guide
    form = _text(alice.get("/games/new?kind=attactics"))
    assert re.search(r'<option value="attactics"\s+selected', form)
    assert re.search(r'<option value="logger"\s+>', form)  # the default is no longer chosen


# -- the same through the API ----------------------------------------------------
def test_the_api_opens_lists_and_joins_a_challenge_and_says_who_won(api):
    from test_api_games import new_game

    game = new_game(api, players=("alice@example.org",), open_seats=1)
    assert game["status"] == "inviting" and game["open_seats"] == 1
    listed = api("bob", "GET", "/api/v1/lobby").get_json()
    assert [(c["id"], c["open_seats"], c["can_join"]) for c in listed] == [(game["id"], 1, True)]
    assert api("alice", "GET", "/api/v1/lobby").get_json()[0]["yours"] is True
    joined = api("bob", "POST", f"/api/v1/games/{game['id']}/join")
    assert joined.status_code == 200 and joined.get_json()["status"] == "active"
    late = api("carol", "POST", f"/api/v1/games/{game['id']}/join")
    assert late.status_code == 409 and "no open seat left" in late.get_json()["error"]
    assert api("carol", "GET", "/api/v1/lobby").get_json() == []
    api("bob", "POST", f"/api/v1/games/{game['id']}/resign")
    over = api("alice", "GET", f"/api/v1/games/{game['id']}").get_json()
    assert over["verdict"] == "Alice won." and over["your_result"] == "you won"
    assert over["standings"] == [[1], [2]]
    assert [(p["name"], p["result"], p["place"], p["colour"]) for p in over["players"]] == [
        ("Alice", "won", 1, "red"), ("Bob", "lost", 2, "blue")]


def test_the_api_refuses_a_bad_number_of_open_seats(api):
    answer = api("alice", "POST", "/api/v1/games", {"game": "logger", "players": ["alice@example.org"],
                                                    "open_seats": 9})
    assert answer.status_code == 400 and "open_seats" in json_text(answer)


def json_text(answer) -> str:
    import json

    return json.dumps(answer.get_json())


def test_a_player_has_at_most_so_many_open_challenges_at_once(session, make_players, monkeypatch):
    from pbem.services.accounts import TooMany

    alice, bob = make_players("alice", "bob")
    monkeypatch.setattr(games, "MAX_OPEN_CHALLENGES", 2)
    first = games.create_game(session, alice, "logger", [], open_seats=1)
    games.create_game(session, alice, "logger", [], open_seats=1)
    with pytest.raises(TooMany, match="2 open challenges waiting in the lobby"):
        games.create_game(session, alice, "logger", [], open_seats=1)
    games.join(session, first.id, bob)  # one fewer waiting: room for another
    games.create_game(session, alice, "logger", [], open_seats=1)
    games.create_game(session, alice, "logger", [alice.email, bob.email])  # invitations are not challenges


@pytest.mark.parametrize("open_seats, language, took, then", [
    (1, "en", "You took a seat.", "Every seat is taken: the game has started."),
    (2, "en", "You took a seat.", "The game starts when every seat is taken."),
    (1, "fr", "Vous avez pris une place.", "Toutes les places sont prises : la partie a commencé."),
    (2, "fr", "Vous avez pris une place.", "La partie commence quand toutes les places sont prises."),
])
def test_taking_a_seat_says_so_and_whether_the_game_has_started_in_the_players_language(
        app, browsers, open_seats, language, took, then):
    game_id = _open_challenge(browsers["alice"], open_seats)
    bob = browsers["bob"]
    joined = bob.post(f"/games/{game_id}/join", data={"csrf_token": csrf(bob.get("/lobby"))},
                      headers={"Accept-Language": language})
    assert joined.status_code == 302
    page = _text(bob.get(joined.headers["Location"], headers={"Accept-Language": language}))
    assert f"{took} {then}" in page
