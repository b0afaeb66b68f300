"""Fast paths: a turn, over the JSON API and by the web form, against the
floor of a bare Flask route that parses JSON, INSERTs one row and commits.

    .venv/bin/python benchmarks/fast_paths_turns.py

(``PBEM_TEST_POSTGRES_URL`` set: on PostgreSQL too.)  The runner
``benchmarks/fast_paths.py`` calls ``rows(database)``.  Not part of the
test command; ``tests/test_turn_statements.py`` counts a turn's statements
instead.

How it measures: the pbem app on a fresh migrated database (a SQLite file,
or a new PostgreSQL schema), and beside it a bare Flask app on the very same
engine (same URL, same engine options, same pool) whose one route parses the
JSON body, INSERTs one row shaped like a turn (game, ply, seat, text,
canonical text, position, source, time) into a table of its own, and
commits.  Requests go through Flask's test client (the whole WSGI app:
routing, sign-in, CSRF, JSON, the database; no sockets), the same way for
the paths and the floor.  Each round makes one API turn, one floor request,
one web-form turn (its POST, answered by a redirect) and one floor request,
so the paths and the floor share the machine's ups and downs; the figures
are medians.  The turns are real Logger turns in games that go on: each game
is played by the service to turn ``START`` first (untimed), then the timed
turns carry it on to turn ``STOP``, then the next game takes over.  The
turn to send is worked out by the client between requests, untimed.
"""

from __future__ import annotations

import os
import re
import statistics
import sys
import time
from dataclasses import dataclass
from typing import Any, Callable

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from fast_paths_common import Database, Row, databases  # noqa: E402

GOAL = 2.0
ROUNDS = int(os.environ.get("PBEM_BENCH_TURN_ROUNDS", "200"))
WARMUP = 10
START, STOP = 10, 55  # Logger played by first legal turns ends at turn 60
FLOOR = "a bare Flask route on the same engine: parse JSON, INSERT one row, commit"


@dataclass
class _Game:
    id: int
    state: Any


class _Bench:
    """The pbem app, the floor app beside it on the same engine, two
    players and the games they play."""

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
            sids = {p.id: web_sessions.start(session, p) for p in players}
        self.api = self.app.test_client()
        self.web = {}
        for player_id, sid in sids.items():
            client = self.app.test_client()
            with client.session_transaction() as cookie:
                cookie[web_sessions.COOKIE_KEY] = sid
            self.web[player_id] = client
        self.csrf: dict[int, str] = {}

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

        self.floor = floor.test_client()
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
            return _Game(game.id, self._state(game.position))

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
        rules, notation = self.kind.rules, self.kind.notation
        text = notation.legal_texts(game.state)[0]
        ply = self._ply(game)
        return game, ply, text, self.ids[rules.to_move(game.state)]

    def _ply(self, game: _Game) -> int:
        return game.ply if hasattr(game, "ply") else START

    def _played(self, game: _Game, ply: int, text: str) -> None:
        state = self.kind.rules.apply(game.state, self.kind.notation.parse_turn(game.state, text))
        game.ply = ply + 1  # type: ignore[attr-defined]
        game.state = None if game.ply >= STOP or self.kind.rules.is_over(state) else state

    # -- the three requests -----------------------------------------------
    def api_turn(self) -> Callable[[], None]:
        game, ply, text, mover = self._next("api")
        headers = {"Authorization": f"Bearer {self.tokens[mover]}"}

        def request() -> None:
            response = self.api.post(f"/api/v1/games/{game.id}/turns", json={"turn": text, "ply": ply},
                                     headers=headers)
            assert response.status_code == 201, response.get_data(as_text=True)

        return self._then(request, game, ply, text)

    def web_turn(self) -> Callable[[], None]:
        game, ply, text, mover = self._next("web")
        client = self.web[mover]
        if mover not in self.csrf:
            page = client.get(f"/games/{game.id}")
            self.csrf[mover] = re.search(r'name="csrf_token" value="([^"]+)"', page.get_data(as_text=True)).group(1)
        form = {"csrf_token": self.csrf[mover], "turn": text, "ply": str(ply), "action": "play"}

        def request() -> None:
            response = client.post(f"/games/{game.id}/turn", data=form)
            assert response.status_code == 302, response.get_data(as_text=True)[:2000]

        return self._then(request, game, ply, text)

    def _then(self, request: Callable[[], None], game: _Game, ply: int, text: str) -> Callable[[], None]:
        def timed() -> None:
            request()
            self._played(game, ply, text)

        return timed

    def floor_request(self) -> Callable[[], None]:
        self.floor_ply += 1
        body = {"game": 1, "ply": self.floor_ply, "turn": "a1-a3 G P:b3",
                "position": "....2/...../..s../...../1.... 1 0,0 2,2"}

        def request() -> None:
            response = self.floor.post("/floor", json=body)
            assert response.status_code == 201

        return request

    def close(self) -> None:
        self.engine.dispose()


def _time(action: Callable[[], None]) -> float:
    start = time.perf_counter()
    action()
    return (time.perf_counter() - start) * 1000


def measure(database: Database, rounds: int = ROUNDS) -> dict[str, float]:
    """Median milliseconds of an API turn, a web turn and the floor."""
    bench = _Bench(database.fresh_url())
    try:
        times: dict[str, list[float]] = {"api": [], "web": [], "floor": []}
        for round_number in range(WARMUP + rounds):
            # each request is prepared (the game, the turn) untimed, then timed alone
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
    note = f"Flask test client; medians of {ROUNDS}, interleaved; Logger turns {START + 1}-{STOP} of games going on"
    return [
        Row("a turn over the JSON API", database.name, "at most x", GOAL, figures["api"], figures["floor"],
            "ms", FLOOR, note),
        Row("a turn by web form", database.name, "at most x", GOAL, figures["web"], figures["floor"],
            "ms", FLOOR, note + "; the POST, answered by a redirect"),
    ]


def _print(found: list[Row]) -> None:
    print(f"{'path':28} {'database':11} {'ratio':>6} {'path ms':>8} {'floor ms':>9} {'goal':>8}  result")
    for row in found:
        print(f"{row.path:28} {row.database:11} {row.figure:5.2f}x {row.measured:8.2f} {row.floor:9.2f} "
              f"{'<= ' + format(row.goal, '.1f') + 'x':>8}  {'pass' if row.passed else 'MISS'}")


if __name__ == "__main__":
    table = []
    for db in databases():
        table += rows(db)
    _print(table)
    print(f"floor: {FLOOR}; {table[0].note}")
