"""Event streams (``GET /api/v1/games/<id>/events``, ``GET /api/v1/me/events``):
an opponent's turn, a draw offer and the result arrive on an open stream at
once; a stream resumed with ``Last-Event-ID`` gets every change it missed,
in order, once; ``/me/events`` follows every game of the caller and no
other; strangers get nothing; a process refuses streams past its cap with a
503 and Retry-After; changes committed out of id order (PostgreSQL) all
arrive.  SQLite, and PostgreSQL when configured."""

from __future__ import annotations

import time

import pytest
from conftest import make_test_app
from event_streams import Reader
from sqlalchemy import text
from sqlmodel import Session, select
from test_web_pages import sign_in

from notation import registry
from pbem.db import get_session
from pbem.models.events import GameEvent
from pbem.services import events, games
from pbem.services.accounts import create_api_token, player_for_email
from pbem.services.stored import load_game, seated_players
from pbem.services.turns import submit_turn

NAMES = ("alice", "bob", "carol", "dave")


@pytest.fixture
def streams_app(database_config):
    app = make_test_app(database_config, EVENT_HEARTBEAT_SECONDS=1, EVENT_STREAMS=5)
    yield app
    app.extensions["pbem_engine"].dispose()


class Players:
    def __init__(self, app):
        self.app = app
        self.tokens = {}
        with app.app_context():
            session = get_session()
            for name in NAMES:
                player = player_for_email(session, f"{name}@example.org")
                player.name = name.capitalize()
                session.commit()
                self.tokens[name] = create_api_token(session, player, "tests")[0]

    def player(self, session, name):
        return player_for_email(session, f"{name}@example.org")

    def game(self, *names, kind="logger", **extra) -> int:
        with self.app.app_context():
            session = get_session()
            game = games.create_game(session, self.player(session, names[0]), kind,
                                     [f"{n}@example.org" for n in names], **extra)
            for name in names[1:]:
                games.accept(session, game.id, self.player(session, name))
            return game.id

    def play(self, game_id: int, count: int = 1) -> None:
        """The player to move plays the first legal turn, ``count`` times."""
        kind = registry.get("logger")
        with self.app.app_context():
            session = get_session()
            for _ in range(count):
                game = load_game(session, game_id)
                state = kind.notation.parse_position(game.position, game.options)
                mover = game_seats(session, game)[kind.rules.to_move(state)]
                submit_turn(session, game_id, mover, kind.notation.legal_texts(state)[0], game.ply, "api")

    def stream(self, name, url, **headers) -> Reader:
        return Reader(self.app.test_client(), url, {"Authorization": f"Bearer {self.tokens[name]}", **headers})


def game_seats(session, game):
    return [player for _, player in seated_players(session, game)]


@pytest.fixture
def players(streams_app):
    return Players(streams_app)


def test_an_opponents_turn_arrives_on_the_open_stream_at_once(players):
    gid = players.game("alice", "bob")
    bob = players.stream("bob", f"/api/v1/games/{gid}/events")
    try:
        assert bob.status == 200
        assert bob.response.headers["Content-Type"].startswith("text/event-stream")
        assert bob.response.headers["Cache-Control"] == "no-cache"
        assert bob.response.headers["X-Accel-Buffering"] == "no"
        first = bob.wait(lambda r: r.events())[0]["data"]
        assert (first["ply"], first["to_move"], first["your_seat"], first["your_turn"]) == (0, 1, 2, False)
        started = time.monotonic()
        players.play(gid)
        event = bob.wait_for_ply(1)
        assert event is not None and time.monotonic() - started < 1.0
        data = event["data"]
        assert data["turns"][0]["seat"] == 1 and data["turns"][0]["canonical"]
        assert (data["to_move"], data["your_turn"], data["status"]) == (2, True, "active")
        assert bob.wait(lambda r: any("comment" in f for f in r.frames), 3), "a heartbeat comes when nothing happens"
    finally:
        bob.close()


def test_a_draw_offer_and_the_result_arrive_on_the_stream(players):
    gid = players.game("alice", "bob")
    alice = players.stream("alice", f"/api/v1/games/{gid}/events")
    try:
        alice.wait(lambda r: r.events())
        with players.app.app_context():
            session = get_session()
            games.offer_draw(session, gid, players.player(session, "bob"))
        offered = alice.wait(lambda r: next((e for e in r.events() if e["data"]["draw_offer"]), None))
        assert offered["data"]["draw_offer"] == [2]
        with players.app.app_context():
            session = get_session()
            games.resign(session, gid, players.player(session, "bob"))
        ended = alice.wait(lambda r: next((e for e in r.events() if e["data"]["status"] == "finished"), None))
        assert ended["data"]["result"] == "1" and ended["data"]["to_move"] is None
    finally:
        alice.close()


def test_a_stream_resumed_with_last_event_id_gets_every_change_it_missed_once_in_order(players):
    gid = players.game("alice", "bob")
    bob = players.stream("bob", f"/api/v1/games/{gid}/events")
    players.play(gid, 2)
    seen = bob.wait_for_ply(2)
    bob.close()
    last = seen["id"]
    players.play(gid, 3)  # while bob is away
    with players.app.app_context():
        session = get_session()
        games.offer_draw(session, gid, players.player(session, "alice"))
    for how, want in (({"Last-Event-ID": str(last)}, [3, 4, 5, 5]), (None, [3, 4, 5, 5, 6])):
        url = f"/api/v1/games/{gid}/events" + ("" if how else f"?last_event_id={last}")
        again = players.stream("bob", url, **(how or {}))
        try:
            got = again.wait(lambda r: len(r.events()) >= len(want) and r.events())
            assert [e["data"]["ply"] for e in got] == want, "each missed turn, then the draw offer"
            assert [e["data"]["turns"][0]["ply"] for e in got[:3]] == [3, 4, 5]
            assert got[3]["data"]["draw_offer"] == [1] and got[3]["data"]["turns"] == []
            assert [e["id"] for e in got] == sorted({e["id"] for e in got}), "in order, none twice"
            assert all(e["id"] > last for e in got)
            time.sleep(1.2)
            assert len(again.events()) == len(want), "nothing after them until the next change"
            if how:
                players.play(gid)
                assert again.wait_for_ply(6), "and the stream goes on live"
        finally:
            again.close()


def test_my_events_follow_every_game_of_mine_and_no_other(players):
    mine = players.game("alice", "bob")
    others = players.game("carol", "dave")
    carol = players.stream("carol", "/api/v1/me/events")
    try:
        ready = carol.wait(lambda r: r.events("ready"))
        assert ready[0]["id"] >= 0
        players.play(mine)
        players.play(others)
        invited = players.game("alice", "carol")  # a new game of carol's: invited, then started
        players.play(invited)
        got = carol.wait(lambda r: next((e for e in r.events() if e["data"]["game"] == invited
                                         and e["data"]["ply"] == 1), None) and r.events())
        assert {e["data"]["game"] for e in got} == {others, invited}
        assert all(e["data"]["your_seat"] == (1 if e["data"]["game"] == others else 2) for e in got)
        assert [e["data"]["status"] for e in got if e["data"]["game"] == invited][:1] == ["inviting"]
    finally:
        carol.close()


def test_strangers_and_signed_out_callers_get_no_stream(players, streams_app):
    gid = players.game("alice", "bob")
    stranger = players.stream("carol", f"/api/v1/games/{gid}/events")
    assert stranger.status == 403 and "not a player" in stranger.response.get_json()["error"]
    nobody = Reader(streams_app.test_client(), f"/api/v1/games/{gid}/events")
    assert nobody.status == 401
    bad = players.stream("bob", f"/api/v1/games/{gid}/events", **{"Last-Event-ID": "yesterday"})
    assert bad.status == 400 and "Last-Event-ID" in bad.response.get_json()["error"]


def test_a_server_of_one_thread_a_process_refuses_streams_saying_why(players):
    """gunicorn's sync worker answers one request at a time: a stream would hold the process."""
    gid = players.game("alice", "bob")
    refused = Reader(players.app.test_client(), f"/api/v1/games/{gid}/events",
                     {"Authorization": f"Bearer {players.tokens['bob']}"}, threads=False)
    assert refused.status == 503 and "gthread" in refused.response.get_json()["error"]
    assert events.dispatcher(players.app.extensions["pbem_engine"]).open_streams() == 0, "its place is given back"


def test_the_signed_in_session_cookie_opens_a_stream(players, streams_app):
    gid = players.game("alice", "bob")
    browser = streams_app.test_client()
    sign_in(browser, streams_app, "bob@example.org")
    bob = Reader(browser, f"/api/v1/games/{gid}/events")
    try:
        assert bob.status == 200
        players.play(gid)
        assert bob.wait_for_ply(1)["data"]["your_turn"] is True
    finally:
        bob.close()


def test_streams_past_the_cap_are_refused_with_503_and_retry_after_and_a_closed_one_frees_its_place(players):
    gid = players.game("alice", "bob")
    opened = [players.stream("bob", f"/api/v1/games/{gid}/events") for _ in range(5)]
    try:
        assert all(r.status == 200 for r in opened)
        refused = players.stream("bob", f"/api/v1/games/{gid}/events")
        assert refused.status == 503 and refused.response.headers["Retry-After"]
        assert "event streams" in refused.response.get_json()["error"]
        assert players.app.test_client().get("/api/v1/kinds").status_code == 200, "other requests are served"
        opened.pop().close()
        again = players.stream("bob", f"/api/v1/games/{gid}/events")
        assert again.status == 200
        opened.append(again)
    finally:
        for reader in opened:
            reader.close()


def test_only_changes_players_can_see_write_events(players, streams_app):
    """A new game and every change of its ply, status, draw offer or clock
    writes an event; the sweep's own bookkeeping (the next check) does not."""
    gid = players.game("alice", "bob")
    engine = streams_app.extensions["pbem_engine"]
    with Session(engine) as session:
        before = len(session.exec(select(GameEvent)).all())
        session.connection().execute(text("UPDATE games SET next_check_at = CURRENT_TIMESTAMP WHERE id = :g"),
                                     {"g": gid})
        session.commit()
        assert len(session.exec(select(GameEvent)).all()) == before
    players.play(gid)
    with Session(engine) as session:
        rows = session.exec(select(GameEvent).where(GameEvent.game_id == gid)).all()
        assert [(r.status, r.old_ply, r.ply) for r in rows] == [
            ("inviting", 0, 0), ("active", 0, 0), ("active", 0, 1)]


def test_a_resume_from_events_no_longer_kept_says_reset_and_sends_the_game(players, streams_app):
    gid = players.game("alice", "bob")
    players.play(gid, 3)
    engine = streams_app.extensions["pbem_engine"]
    with Session(engine) as session:
        session.connection().execute(text("DELETE FROM game_events WHERE id < (SELECT max(id) FROM game_events)"))
        session.commit()
    bob = players.stream("bob", f"/api/v1/games/{gid}/events", **{"Last-Event-ID": "1"})
    try:
        assert bob.wait(lambda r: r.events("reset"))
        now = bob.wait(lambda r: r.events())[0]["data"]
        assert now["ply"] == 3
    finally:
        bob.close()


def test_changes_committed_out_of_id_order_all_arrive(players, streams_app):
    """A change that took its id first but commits last (PostgreSQL:
    ids are given when written, seen when committed) is not lost: the
    stream waits for it a moment, and delivers in id order."""
    engine = streams_app.extensions["pbem_engine"]
    if engine.dialect.name != "postgresql":
        pytest.skip("SQLite writes one transaction at a time: ids are always committed in order")
    first, second = players.game("alice", "bob"), players.game("alice", "bob")
    alice = players.stream("alice", "/api/v1/me/events")
    try:
        alice.wait(lambda r: r.events("ready"))
        slow = engine.connect()
        held = slow.begin()
        slow.execute(text("UPDATE games SET deadline = now() + interval '1 day' WHERE id = :g"), {"g": first})
        players.play(second)  # takes a later id, commits first
        time.sleep(0.3)
        assert not alice.events(), "the later change waits for the earlier one"
        held.commit()
        slow.close()
        got = alice.wait(lambda r: len(r.events()) >= 2 and r.events())
        assert [e["data"]["game"] for e in got] == [first, second]
        assert got[0]["data"]["deadline"] and got[1]["data"]["ply"] == 1
    finally:
        alice.close()


def test_a_rolled_back_change_holds_nothing_back_for_long(players, streams_app):
    engine = streams_app.extensions["pbem_engine"]
    gid = players.game("alice", "bob")
    alice = players.stream("alice", f"/api/v1/games/{gid}/events")
    try:
        alice.wait(lambda r: r.events())
        with engine.connect() as connection:
            connection.begin()
            connection.execute(text("UPDATE games SET draw_offer = '0' WHERE id = :g"), {"g": gid})
            connection.rollback()
        started = time.monotonic()
        players.play(gid)
        assert alice.wait_for_ply(1, 5)
        assert time.monotonic() - started < events.HOLE_SECONDS + 1.5
    finally:
        alice.close()


def test_one_dispatcher_reads_the_changes_for_every_stream_of_the_process(players, streams_app):
    gid = players.game("alice", "bob")
    readers = [players.stream(name, f"/api/v1/games/{gid}/events") for name in ("alice", "bob", "alice")]
    try:
        engine = streams_app.extensions["pbem_engine"]
        dispatcher = events.dispatcher(engine)
        assert dispatcher.open_streams() == 3
        reads = []
        original = dispatcher.poll

        def counted():
            reads.append(1)
            return original()

        dispatcher.poll = counted
        try:
            players.play(gid)
            assert all(r.wait_for_ply(1) for r in readers)
        finally:
            dispatcher.poll = original
        assert 1 <= len(reads) <= 3, "one read of the new changes, not one per stream"
    finally:
        for reader in readers:
            reader.close()


def test_old_events_are_pruned_and_the_newest_is_kept(players, streams_app):
    gid = players.game("alice", "bob")
    players.play(gid, 2)
    engine = streams_app.extensions["pbem_engine"]
    old = "2020-01-01 00:00:00.000" if engine.dialect.name == "sqlite" else "2020-01-01T00:00:00Z"

    def age(upto: int) -> None:
        with Session(engine) as session:
            session.connection().execute(text("UPDATE game_events SET at = :old WHERE id <= :upto"),
                                         {"old": old, "upto": upto})
            session.commit()

    def kept() -> list[int]:
        with Session(engine) as session:
            return [row.id for row in session.exec(select(GameEvent).order_by(GameEvent.id)).all()]

    ids = kept()
    age(ids[1])  # the game's creation and start are old, its turns are not
    events.dispatcher(engine).prune()
    assert kept() == ids[2:]
    age(ids[-1])
    events.dispatcher(engine).prune()
    newest = ids[-1]
    assert kept() == [newest], "only the newest is left"
    players.play(gid)
    with Session(engine) as session:
        assert events.newest_id(session) == newest + 1, "ids go on from there"


def test_a_turn_committed_by_another_process_reaches_the_stream_at_once(players, streams_app, database_config):
    """On PostgreSQL the process serving the stream hears another process's
    commit (``LISTEN/NOTIFY``), well before its safety-net read."""
    import json
    import subprocess
    import sys

    engine = streams_app.extensions["pbem_engine"]
    if engine.dialect.name != "postgresql":
        pytest.skip("SQLite has one process serving (pbem serve)")
    gid = players.game("alice", "bob")
    bob = players.stream("bob", f"/api/v1/games/{gid}/events")
    try:
        bob.wait(lambda r: r.events())
        script = (
            "import json, sys\n"
            "from pbem import create_app\n"
            "from pbem.db import get_session\n"
            "from pbem.services.accounts import player_for_email\n"
            "from pbem.services.turns import submit_turn\n"
            "config = json.loads(sys.argv[1])\n"
            "app = create_app({'TESTING': True, 'SECRET_KEY': 'x', 'AUTO_MIGRATE': False, 'BASE_URL': 'http://t', **config})\n"
            "with app.app_context():\n"
            "    s = get_session()\n"
            "    print('ready', flush=True); sys.stdin.readline()\n"
            f"    submit_turn(s, {gid}, player_for_email(s, 'alice@example.org'), 'a1', 0, 'api')\n"
            "import time; time.sleep(3)  # a server process goes on (its NOTIFY is sent by a thread of its own)\n"
        )
        other = subprocess.Popen([sys.executable, "-c", script, json.dumps(database_config)], stdin=subprocess.PIPE,
                                 stdout=subprocess.PIPE, text=True)
        assert other.stdout.readline().strip() == "ready"
        started = time.monotonic()
        other.stdin.write("\n")
        other.stdin.flush()
        event = bob.wait_for_ply(1, 10)
        assert event is not None and time.monotonic() - started < 3.0, "not left to the 20 s safety net"
        assert other.wait(30) == 0
        assert event["data"]["turns"][0]["canonical"] == "a1"
    finally:
        bob.close()
