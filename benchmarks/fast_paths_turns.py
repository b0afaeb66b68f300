"""Fast paths: a turn, over the JSON API and by the web form, against the
floor of a bare Flask route that parses JSON, INSERTs one row and commits.

    .venv/bin/python benchmarks/fast_paths_turns.py

(``PBEM_TEST_POSTGRES_URL`` set: on PostgreSQL too; ``PBEM_BENCH_TURN_ROUNDS``
sets the rounds, default 200.)  The runner ``benchmarks/fast_paths.py`` calls
``rows(database)``.  Not part of the test command;
``tests/test_turn_statements.py`` counts a turn's statements instead.

How it measures: the pbem app on a fresh migrated database (a SQLite file,
or a new PostgreSQL schema), and beside it a bare Flask app on the very same
engine (same URL, same engine options, same pool) whose one route parses the
JSON body, INSERTs one row shaped like a turn (game, ply, seat, text,
canonical text, position, source, time) into a table of its own, and
commits.  Each app is served by a real WSGI server on loopback (Werkzeug's
threaded server, a dependency already) and called over HTTP/1.1 on a
kept-alive connection (``http.client``), the same way for the paths and
the floor: what a client on the machine sees.  Each round makes one API
turn, one floor request, one web-form turn (its POST, answered by a
redirect) and one floor request, so the paths and the floor share the
machine's ups and downs; the figures are medians.  The turns are real
Logger turns in games that go on: each game is played by the service to
turn ``START`` first (untimed), then the timed turns carry it on to turn
``STOP``, then a new game takes over.  The turn to send is worked out by the
client between requests, untimed.
"""

from __future__ import annotations

import http.client
import json
import logging
import os
import re
import statistics
import sys
import threading
import time
from dataclasses import dataclass
from typing import Any, Callable
from urllib.parse import urlencode

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from fast_paths_common import Database, Row, databases

GOAL = 2.0
ROUNDS = int(os.environ.get("PBEM_BENCH_TURN_ROUNDS", "200"))
WARMUP = 10
START, STOP = 10, 55  # Logger played by first legal turns ends at turn 60
FLOOR = "a bare Flask route on the same engine: parse JSON, INSERT one row, commit"


@dataclass
class _Game:
    id: int
    state: Any
    ply: int = START


class _Served:
    """A WSGI app served on a free loopback port in a thread, and kept-alive
    HTTP connections to it."""

    def __init__(self, app):
        from werkzeug.serving import make_server

        logging.getLogger("werkzeug").setLevel(logging.ERROR)  # no line per request, for the paths and the floor
        self.server = make_server("127.0.0.1", 0, app, threaded=True)
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()
        self.connections: dict[Any, http.client.HTTPConnection] = {}

    def post(self, path: str, body: bytes, headers: dict[str, str], who: Any = None) -> tuple[int, bytes]:
        """POST over the connection kept for ``who``; the status and body."""
        connection = self.connections.get(who)
        if connection is None:
            connection = self.connections[who] = http.client.HTTPConnection("127.0.0.1", self.server.server_port)
        connection.request("POST", path, body=body, headers=headers)
        response = connection.getresponse()
        return response.status, response.read()

    def close(self) -> None:
        for connection in self.connections.values():
            connection.close()
        self.server.shutdown()
        self.server.server_close()


class _Bench:
    """The pbem app and the floor app beside it on the same engine, both
    served; two players and the games they play."""

    def __init__(self, url: str):
        from flask import Flask, request
        from sqlalchemy import Column, DateTime, Integer, MetaData, String, Table, Text, insert

        from notation import registry
        from pbem import create_app
        from pbem.db import get_session
        from pbem.models import utcnow
        from pbem.services import web_sessions
        from pbem.services.accounts import create_api_token, player_for_email

        self.kind = registry.get("logger")
        self.app = create_app({"SECRET_KEY": "bench", "DATABASE_URL": url, "BASE_URL": "http://bench.example"})
        self.engine = self.app.extensions["pbem_engine"]
        with self.app.app_context():
            session = get_session()
            players = [player_for_email(session, f"{name}@bench.example") for name in ("alice", "bob")]
            session.commit()
            self.ids = [p.id for p in players]
            self.tokens = {p.id: create_api_token(session, p, "bench")[0] for p in players}
            self.sids = {p.id: web_sessions.start(session, p) for p in players}
        self.web: dict[int, tuple[str, str]] = {}  # player id -> (session cookie, CSRF token)
        self.served = _Served(self.app)

        metadata = MetaData()
        table = Table("bench_floor_turns", metadata, Column("id", Integer, primary_key=True),
                      Column("game_id", Integer, nullable=False), Column("ply", Integer, nullable=False),
                      Column("seat", Integer, nullable=False), Column("text", String(500), nullable=False),
                      Column("canonical", String(500), nullable=False), Column("position", Text, nullable=False),
                      Column("source", String(16), nullable=False), Column("created_at", DateTime, nullable=False))
        metadata.create_all(self.engine)
        floor = Flask("floor")
        engine = self.engine

        @floor.post("/floor")
        def _floor():
            body = request.get_json()
            with engine.connect() as connection:
                connection.execute(insert(table).values(
                    game_id=body["game"], ply=body["ply"], seat=body["ply"] % 2, text=body["turn"],
                    canonical=body["turn"], position=body["position"], source="api", created_at=utcnow()))
                connection.commit()
            return {"ok": True}, 201

        self.floor = _Served(floor)
        self.floor_ply = 0
        self.queues: dict[str, list[_Game]] = {"api": [], "web": []}

    # -- games ------------------------------------------------------------
    def _new_game(self) -> _Game:
        from pbem.db import get_session
        from pbem.models import Player
        from pbem.services import games
        from pbem.services.turns import submit_turn

        with self.app.app_context():
            session = get_session()
            alice, bob = session.get(Player, self.ids[0]), session.get(Player, self.ids[1])
            game = games.create_game(session, alice, "logger", [alice.email, bob.email])
            games.accept(session, game.id, bob)
            for _ in range(START):
                state = self._state(game.position)
                mover = (alice, bob)[self.kind.rules.to_move(state)]
                game = submit_turn(session, game.id, mover, self.kind.notation.legal_texts(state)[0], game.ply,
                                   "cli").game
            return _Game(game.id, self._state(game.position), game.ply)

    def _state(self, position: str) -> Any:
        return self.kind.notation.parse_position(position, {})

    def _next(self, path: str) -> tuple[_Game, int, str, int]:
        """The game to play in next, its ply, the turn and the mover's id."""
        queue = self.queues[path]
        while not queue or queue[0].state is None:
            if queue:
                queue.pop(0)
            if not queue:
                queue.append(self._new_game())
        game = queue[0]
        text = self.kind.notation.legal_texts(game.state)[0]
        return game, game.ply, text, self.ids[self.kind.rules.to_move(game.state)]

    def _played(self, game: _Game, ply: int, text: str) -> None:
        state = self.kind.rules.apply(game.state, self.kind.notation.parse_turn(game.state, text))
        game.ply = ply + 1
        game.state = None if game.ply >= STOP or self.kind.rules.is_over(state) else state

    def _signed_in(self, player_id: int, game_id: int) -> tuple[str, str]:
        """A browser's session cookie (signed in, with a CSRF secret) and
        the CSRF token of its game page, made once per player (untimed)."""
        from pbem.services import web_sessions

        if player_id not in self.web:
            client = self.app.test_client()
            with client.session_transaction() as cookie:
                cookie[web_sessions.COOKIE_KEY] = self.sids[player_id]
            page = client.get(f"/games/{game_id}")
            token = re.search(r'name="csrf_token" value="([^"]+)"', page.get_data(as_text=True)).group(1)
            name = self.app.config.get("SESSION_COOKIE_NAME", "session")
            self.web[player_id] = (f"{name}={client.get_cookie(name).value}", token)
        return self.web[player_id]

    # -- the three requests, each made ready untimed ------------------------
    def api_turn(self) -> Callable[[], None]:
        game, ply, text, mover = self._next("api")
        headers = {"Authorization": f"Bearer {self.tokens[mover]}", "Content-Type": "application/json"}
        body = json.dumps({"turn": text, "ply": ply}).encode()

        def request() -> None:
            status, answer = self.served.post(f"/api/v1/games/{game.id}/turns", body, headers, ("api", mover))
            assert status == 201, answer

        return self._then(request, game, ply, text)

    def web_turn(self) -> Callable[[], None]:
        game, ply, text, mover = self._next("web")
        cookie, token = self._signed_in(mover, game.id)
        headers = {"Cookie": cookie, "Content-Type": "application/x-www-form-urlencoded"}
        body = urlencode({"csrf_token": token, "turn": text, "ply": str(ply), "action": "play"}).encode()

        def request() -> None:
            status, answer = self.served.post(f"/games/{game.id}/turn", body, headers, ("web", mover))
            assert status == 302, answer[:2000]

        return self._then(request, game, ply, text)

    def _then(self, request: Callable[[], None], game: _Game, ply: int, text: str) -> Callable[[], None]:
        def timed() -> None:
            request()

        def after() -> None:
            self._played(game, ply, text)

        timed.after = after  # type: ignore[attr-defined]  # a function attribute the runner reads
        return timed

    def floor_request(self) -> Callable[[], None]:
        self.floor_ply += 1
        body = json.dumps({"game": 1, "ply": self.floor_ply, "turn": "a1-a3 G P:b3",
                           "position": "....2/...../..s../...../1.... 1 0,0 2,2"}).encode()
        headers = {"Content-Type": "application/json"}

        def request() -> None:
            status, answer = self.floor.post("/floor", body, headers)
            assert status == 201, answer

        return request

    def close(self) -> None:
        self.served.close()
        self.floor.close()
        self.engine.dispose()


def _time(action: Callable[[], None]) -> float:
    start = time.perf_counter()
    action()
    elapsed = (time.perf_counter() - start) * 1000
    after = getattr(action, "after", None)
    if after is not None:
        after()  # the client follows the game, untimed
    return elapsed


def measure(database: Database, rounds: int = ROUNDS) -> dict[str, float]:
    """Median milliseconds of an API turn, a web turn and the floor."""
    bench = _Bench(database.fresh_url())
    try:
        times: dict[str, list[float]] = {"api": [], "web": [], "floor": []}
        for round_number in range(WARMUP + rounds):
            found = [("api", _time(bench.api_turn())), ("floor", _time(bench.floor_request())),
                     ("web", _time(bench.web_turn())), ("floor", _time(bench.floor_request()))]
            if round_number >= WARMUP:
                for name, ms in found:
                    times[name].append(ms)
        return {name: statistics.median(found) for name, found in times.items()}
    finally:
        bench.close()


def rows(database: Database) -> list[Row]:
    figures = measure(database)
    note = (f"Werkzeug WSGI server on loopback, HTTP/1.1 kept alive; medians of {ROUNDS}, interleaved; "
            f"Logger turns {START + 1}-{STOP} of games going on")
    return [
        Row("a turn over the JSON API", database.name, "at most x", GOAL, figures["api"], figures["floor"],
            "ms", FLOOR, note),
        Row("a turn by web form", database.name, "at most x", GOAL, figures["web"], figures["floor"],
            "ms", FLOOR, note + "; the POST, answered by a redirect"),
    ]


def _print(found: list[Row]) -> None:
    print(f"{'path':26} {'database':11} {'ratio':>6} {'path ms':>8} {'floor ms':>9} {'goal':>8}  result")
    for row in found:
        print(f"{row.path:26} {row.database:11} {row.figure:5.2f}x {row.measured:8.2f} {row.floor:9.2f} "
              f"{'<= ' + format(row.goal, '.1f') + 'x':>8}  {'pass' if row.passed else 'MISS'}")


if __name__ == "__main__":
    table = []
    for db in databases():
        table += rows(db)
    _print(table)
    print(f"floor: {FLOOR}; {table[0].note}")
