"""How many SQL statements a turn costs, counted with an SQLAlchemy
``before_cursor_execute`` listener (and commits with a ``commit``
listener), for a turn over the JSON API and a turn by the web form, early
in a game and late in one.  The numbers are exact, so a change that adds a
statement to a turn fails here (and one that removes one updates them).
No timing: ``benchmarks/fast_paths_turns.py`` times the same turns.

A turn (``docs/server.md``, "Turns and races") is these statements and one
commit, however many turns the game has:

1. who plays it (the API token or the web session) with the game, its
   seats, players, their digest choices and whether they refused all mail
   (``play.load_seated`` with a credential);
2. the conditional ``UPDATE games ... WHERE ply = :seen`` (``gamestate.advance``);
3. ``INSERT`` the turn;
4. ``INSERT`` the mail for the player to move (the outbox row).

On PostgreSQL 2 to 4 are one statement (the UPDATE in a WITH clause that
the INSERTs select from), so a turn there is two statements.

The API's answer reads nothing more (its ``turns`` are the turns stored).
"""

from __future__ import annotations

import re

import pytest
from sqlalchemy import event

from notation import registry
from pbem.db import get_session
from pbem.models import Player
from pbem.services import games, web_sessions
from pbem.services.accounts import create_api_token, player_for_email
from pbem.services.turns import submit_turn

#: statements of one turn (see the list above), by database
API_TURN = {"sqlite": 4, "postgresql": 2}
WEB_TURN = {"sqlite": 4, "postgresql": 2}
#: early and late in a game: Logger played by first legal turns ends at turn 60
EARLY, LATE = 5, 55

KIND = registry.get("logger")


class Counter:
    def __init__(self, engine):
        self.statements: list[str] = []
        self.commits = 0
        self.also: list = []
        event.listen(engine, "before_cursor_execute", self._statement)
        event.listen(engine, "commit", self._commit)

    def _statement(self, _conn, _cursor, statement, _params, _context, _many):
        self.statements.append(statement)

    def _commit(self, _conn):
        self.commits += 1

    def clear(self) -> None:
        self.statements.clear()
        self.commits = 0
        for other in self.also:  # counters of other things, cleared with this one (before the request)
            other.clear()

    def shown(self) -> str:
        return "\n".join(" ".join(s.split())[:120] for s in self.statements)


@pytest.fixture
def table(app):
    """Alice and Bob with API tokens and web sessions; ``game_at(n)`` plays
    a new game ``n`` turns in and gives (game id, ply, mover's id, a turn)."""
    with app.app_context():
        session = get_session()
        alice, bob = player_for_email(session, "alice@example.org"), player_for_email(session, "bob@example.org")
        session.commit()
        ids = (alice.id, bob.id)
        tokens = {p.id: create_api_token(session, p, "tests")[0] for p in (alice, bob)}
        sids = {p.id: web_sessions.start(session, p) for p in (alice, bob)}

    def game_at(turns: int):
        with app.app_context():
            session = get_session()
            first, second = session.get(Player, ids[0]), session.get(Player, ids[1])
            game = games.create_game(session, first, "logger", [first.email, second.email])
            games.accept(session, game.id, second)
            for _ in range(turns):
                state = KIND.notation.parse_position(game.position, game.options)
                mover = (first, second)[KIND.rules.to_move(state)]
                game = submit_turn(session, game.id, mover, KIND.notation.legal_texts(state)[0], game.ply, "cli").game
            state = KIND.notation.parse_position(game.position, game.options)
            assert game.status == "active"
            return game.id, game.ply, ids[KIND.rules.to_move(state)], KIND.notation.legal_texts(state)[0]

    class Table:
        pass

    found = Table()
    found.game_at, found.tokens, found.sids = game_at, tokens, sids
    found.counter = Counter(app.extensions["pbem_engine"])
    return found


def api_turn(app, table, turns: int) -> tuple[int, int]:
    game_id, ply, mover, turn = table.game_at(turns)
    client = app.test_client()
    headers = {"Authorization": f"Bearer {table.tokens[mover]}"}
    assert client.get("/api/v1/me", headers=headers).status_code == 200  # the token's last use is now written
    table.counter.clear()
    answer = client.post(f"/api/v1/games/{game_id}/turns", json={"turn": turn, "ply": ply}, headers=headers)
    assert answer.status_code == 201, answer.get_data(as_text=True)
    assert answer.get_json()["ply"] == ply + 1
    return len(table.counter.statements), table.counter.commits


def web_turn(app, table, turns: int) -> tuple[int, int]:
    game_id, ply, mover, turn = table.game_at(turns)
    client = app.test_client()
    with client.session_transaction() as cookie:
        cookie[web_sessions.COOKIE_KEY] = table.sids[mover]
    page = client.get(f"/games/{game_id}")
    token = re.search(r'name="csrf_token" value="([^"]+)"', page.get_data(as_text=True)).group(1)
    table.counter.clear()
    done = client.post(f"/games/{game_id}/turn", data={"csrf_token": token, "turn": turn, "ply": str(ply),
                                                       "action": "play"})
    assert done.status_code == 302, done.get_data(as_text=True)
    return len(table.counter.statements), table.counter.commits


@pytest.mark.parametrize("turns", [EARLY, LATE])
def test_an_api_turn_costs_its_few_statements_and_one_commit(app, table, turns):
    statements, commits = api_turn(app, table, turns)
    dialect = app.extensions["pbem_engine"].dialect.name
    assert (statements, commits) == (API_TURN[dialect], 1), table.counter.shown()


@pytest.mark.parametrize("turns", [EARLY, LATE])
def test_a_web_turn_costs_its_few_statements_and_one_commit(app, table, turns):
    statements, commits = web_turn(app, table, turns)
    dialect = app.extensions["pbem_engine"].dialect.name
    assert (statements, commits) == (WEB_TURN[dialect], 1), table.counter.shown()


def test_a_turn_costs_the_same_late_in_a_game(app, table):
    assert api_turn(app, table, EARLY) == api_turn(app, table, LATE)
    assert web_turn(app, table, EARLY) == web_turn(app, table, LATE)


@pytest.mark.parametrize("address, refused", [("bob@example.org", "bob@example.org"),
                                              ("bob+games@example.org", "bob+games@example.org"),
                                              ("bob+games@example.org", "bob@example.org")])
def test_a_turn_queues_no_mail_for_an_address_that_refused_it(session, start_game, address, refused):
    """The turn reads the refusals with the game (plain addresses) or asks
    once (``+detail`` addresses, which a refusal without it covers)."""
    from sqlmodel import select

    from pbem.models import OutboxMessage
    from pbem.services import refusals

    alice, bob, carol = (player_for_email(session, a) for a in ("alice@example.org", address, "carol@example.org"))
    session.commit()
    game = start_game(alice, bob, carol)
    refusals.refuse(session, refused)
    submit_turn(session, game.id, alice, "a1", 0, "web")
    mailed = set(session.exec(select(OutboxMessage.to_addr).where(OutboxMessage.game_id == game.id,
                                                                  OutboxMessage.ply == 1)))
    assert mailed == {"carol@example.org"}


# -- round trips on PostgreSQL: reads start no transaction (pbem.late_begin) --

class Transactions:
    """Which statements a connection ran with a transaction open on the
    server (after each, from the driver's own record), and how many
    commits reached the server (a commit with a transaction open)."""

    def __init__(self, engine):
        self.after: list[tuple[str, bool]] = []
        self.commits_sent = 0
        event.listen(engine, "after_cursor_execute", self._after)
        event.listen(engine, "commit", self._commit)

    @staticmethod
    def _open(dbapi_connection) -> bool:
        from psycopg.pq import TransactionStatus

        return dbapi_connection.info.transaction_status != TransactionStatus.IDLE

    def _after(self, _conn, cursor, statement, _params, _context, _many):
        self.after.append((" ".join(statement.split())[:40], self._open(cursor.connection)))

    def _commit(self, conn):
        self.commits_sent += self._open(conn.connection.dbapi_connection)

    def clear(self) -> None:
        self.after.clear()
        self.commits_sent = 0


@pytest.fixture
def on_postgres(app):
    if app.extensions["pbem_engine"].dialect.name != "postgresql":
        pytest.skip("round trips are counted on PostgreSQL (set PBEM_TEST_POSTGRES_URL)")
    return Transactions(app.extensions["pbem_engine"])


def test_a_turn_on_postgresql_is_two_round_trips_with_no_begin_or_commit(app, table, on_postgres):
    """The read and the one data-modifying WITH statement each stand alone:
    no BEGIN, no COMMIT reaches the server (four round trips would)."""
    table.counter.also.append(on_postgres)  # cleared just before the turn's request
    for turn in (api_turn, web_turn):
        turn(app, table, EARLY)
        assert [statement.split()[0] for statement, _ in on_postgres.after] == ["SELECT", "WITH"], on_postgres.after
        assert [open_ for _, open_ in on_postgres.after] == [False, False], on_postgres.after
        assert on_postgres.commits_sent == 0


def test_a_turn_that_also_charges_a_time_bank_is_one_transaction(app, session, start_game, on_postgres):
    """A turn that writes more than its one statement (the mover's time
    bank) begins a transaction before its first write and commits it."""
    from sqlmodel import select

    from pbem.models import Seat

    alice, bob = player_for_email(session, "alice@example.org"), player_for_email(session, "bob@example.org")
    session.commit()
    game = start_game(alice, bob, time_control={"hours_per_turn": 24, "bank_hours": 10})
    on_postgres.clear()
    submit_turn(session, game.id, alice, "a1", 0, "web")
    writes = [(statement, open_) for statement, open_ in on_postgres.after if not statement.startswith("SELECT")]
    assert writes and all(open_ for _, open_ in writes), on_postgres.after
    assert on_postgres.commits_sent == 1
    banks = {s.number: s.bank_seconds for s in session.exec(select(Seat).where(Seat.game_id == game.id))}
    assert banks[0] is not None and session.get(type(game), game.id).ply == 1
