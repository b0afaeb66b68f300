"""How fast the turn submission service plays turns, and how it holds up
when many submissions race for the same turn.  Run by hand:

    .venv/bin/python benchmarks/server_turns.py [DATABASE_URL]

Without an argument it uses a fresh SQLite file in a temporary folder.
Prints turns per second for sequential play and the time 20 racing
submissions take; asserts nothing about speed.
"""

from __future__ import annotations

import sys
import tempfile
import threading
import time

from sqlmodel import Session

from notation import registry
from pbem import create_app
from pbem.db import get_session
from pbem.services import games
from pbem.services.accounts import player_for_email
from pbem.services.errors import GameMovedOn
from pbem.services.turns import submit_turn


def main() -> None:
    url = sys.argv[1] if len(sys.argv) > 1 else f"sqlite:///{tempfile.mkdtemp()}/bench.sqlite3"
    app = create_app({"SECRET_KEY": "bench", "DATABASE_URL": url, "BASE_URL": "http://bench"})
    kind = registry.get("logger")
    with app.app_context():
        session = get_session()
        alice = player_for_email(session, "alice@bench.example")
        bob = player_for_email(session, "bob@bench.example")
        session.commit()
        played, started = 0, time.perf_counter()
        for _ in range(5):
            game = games.create_game(session, alice, "logger", [bob.email])
            games.accept(session, game.id, bob)
            while game.status == "active":
                state = kind.notation.parse_position(game.position, game.options)
                mover = alice if kind.rules.to_move(state) == 0 else bob
                turn = kind.notation.legal_texts(state)[0]
                game = submit_turn(session, game.id, mover, turn, game.ply, "cli").game
                played += 1
        elapsed = time.perf_counter() - started
        print(f"sequential: {played} turns in {elapsed:.2f}s, {played / elapsed:.0f} turns/s")

        game = games.create_game(session, alice, "logger", [bob.email])
        games.accept(session, game.id, bob)
        engine = app.extensions["pbem_engine"]
        gate = threading.Barrier(20)
        applied = []

        def race() -> None:
            with Session(engine) as own:
                gate.wait()
                try:
                    submit_turn(own, game.id, alice, "a1", 0, "api")
                    applied.append(1)
                except GameMovedOn:
                    pass

        threads = [threading.Thread(target=race) for _ in range(20)]
        started = time.perf_counter()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        print(f"race: 20 submissions in {time.perf_counter() - started:.3f}s, {len(applied)} applied")


if __name__ == "__main__":
    main()
