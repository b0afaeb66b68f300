"""The one door for game state: the only place where a game's position,
ply, status, result and draw offer change.

Turns, whoever played them, are written by the one writer of turns
(``pbem.services.transition``: a player's from ``pbem.services.turns``, the
clock's from the sweep's timeouts) through ``advance``; lifecycle actions
(``pbem.services.games``), the deadline sweep's reminders and the endings of
its timeouts, and claims of a win on time (``pbem.services.sweep``) change a
game through ``claim`` or the other helpers built on it (the sweep's
reminders in bulk through ``claim_many``).  ``claim`` is one
conditional UPDATE that always checks the game's id, ply AND status as the
caller read them, so of two racing changes exactly one applies and the other
is told the game moved on (and ``take_open_seat``, the lobby's seats,
likewise).  This holds on SQLite (writes are serialised) and
on PostgreSQL (a second UPDATE waits for the first to commit, then re-checks
its WHERE clause against the new row).

``result_tag`` is the one builder of a record's Result tag, and
``draw_offer_seats``/``draw_offer_text`` the one codec of ``Game.draw_offer``
(a comma list of the seats agreeing to a draw).
"""

from __future__ import annotations

import functools
from datetime import datetime, timezone
from typing import Any, Callable, Iterable, Sequence

from sqlalchemy import Select, Update, bindparam, case, func, insert, select, tuple_, union_all, update
from sqlalchemy.orm.attributes import set_committed_value
from sqlalchemy.sql.dml import ReturningUpdate
from sqlmodel import Session, col

from engine import chance
from pbem import late_begin, wake
from pbem.db import insert_rows, rows_by_table
from pbem.models import ACTIVE, CANCELLED, FINISHED, INVITING, Game, table_of
from pbem.services import bulk

_UNCHECKED = object()


def result_tag(winners: Iterable[int] | None) -> str:
    """The record's Result tag for the seats (numbered from 0) that share
    the result: ``1`` (player 1 won), ``1=3`` (players 1 and 3 drew), ``=``
    (a draw between nobody in particular); ``*`` (no result) for None."""
    if winners is None:
        return "*"
    numbers = [int(n) for n in winners]
    return "=".join(str(n + 1) for n in numbers) if numbers else "="


def draw_offer_seats(game: Game) -> set[int]:
    """The seats that offered or agreed to the draw on offer (none: empty)."""
    return {int(n) for n in (game.draw_offer or "").split(",") if n.strip().isdigit()}


def draw_offer_text(seats: Iterable[int]) -> str | None:
    """``Game.draw_offer`` for ``seats`` agreeing to a draw (none: None)."""
    numbers = sorted({int(n) for n in seats})
    return ",".join(str(n) for n in numbers) if numbers else None


@functools.lru_cache(maxsize=64)
def _claim_statement(columns: tuple[str, ...], check: bool, check_none: bool) -> Update:
    """``claim``'s conditional UPDATE of ``columns``, built once for each set
    of columns (its cache key too); the values go in as parameters."""
    table = table_of(Game)  # the table, not the entity: the ORM's UPDATE machinery has nothing to do here
    c = table.c
    conditions = [c.id == bindparam("_id"), c.ply == bindparam("_ply"), c.status == bindparam("_status")]
    if check:
        conditions.append(c.next_check_at == bindparam("_check"))
    if check_none:
        conditions.append(c.next_check_at.is_(None))
    return update(table).where(*conditions).values({name: bindparam(f"v_{name}", type_=c[name].type)
                                                    for name in columns})


def claim(session: Session, game: Game, expected_ply: int, expected_status: str = ACTIVE,
          expected_check: Any = _UNCHECKED, **values: Any) -> bool:
    """Write ``values`` to the game row only if it still has ``expected_ply``
    and ``expected_status`` (and, for the sweep, ``next_check_at`` equal to
    ``expected_check``).  True when it did; then ``game`` holds the values.
    False when another change got there first; nothing is written."""
    params = {"_id": game.id, "_ply": expected_ply, "_status": expected_status,
              **{f"v_{name}": value for name, value in values.items()}}
    # on the session's connection: a Core UPDATE of the table needs none of the ORM's execution layer
    done = session.connection().execute(_claim_statement(tuple(values), *_checking(expected_check, params)), params)
    if done.rowcount != 1:
        return False
    for key, value in values.items():  # the row already holds these
        set_committed_value(game, key, value)
    changed(session, game.id, values)
    return True


def changed(session: Session, game_id: Any, values: dict[str, Any]) -> None:
    """When ``session`` commits, wake whoever follows games (the computer
    opponents, event streams) and, for a new next check, the sweep
    (``pbem.wake``)."""
    wake.on_commit(session, "games", game_id)
    check = values.get("next_check_at")
    if check is not None:
        wake.on_commit(session, "sweep", posix_time(check))


def posix_time(moment: datetime) -> float:
    """POSIX time of a stored moment (naive ones are UTC)."""
    return (moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)).timestamp()


def _checking(expected_check: Any, params: dict[str, Any]) -> tuple[bool, bool]:
    """Whether a claim checks ``next_check_at`` equal to a value or NULL
    (``expected_check``); the value goes into ``params``."""
    if expected_check is _UNCHECKED:
        return False, False
    if expected_check is not None:
        params["_check"] = expected_check
    return expected_check is not None, expected_check is None


def advance_values(position: str, ply: int, clock: dict[str, Any]) -> dict[str, Any]:
    """The row after a turn (a player's or the clock's) that leaves ``ply``
    turns played and ``position``: the clock columns ``clock`` of the next
    turn, and no draw on offer (a turn withdraws it)."""
    return {"position": position, "ply": ply, "draw_offer": None, **clock}


def finish_values(winners: Iterable[int] | None, termination: str, now: datetime,
                  status: str = FINISHED) -> dict[str, Any]:
    """The row of a game that ended (``status``) with ``winners`` sharing the
    result (see ``result_tag``) because of ``termination``: no deadline, no
    check due, no draw on offer."""
    return {"status": status, "result": result_tag(winners), "termination": termination, "finished_at": now,
            "deadline": None, "next_check_at": None, "draw_offer": None}


def advance(session: Session, game: Game, expected_ply: int, values: dict[str, Any],
            rows: Callable[[], Sequence[Any]] | None = None, *, last_write: bool = False,
            expected_check: Any = _UNCHECKED) -> bool:
    """Apply a turn read at ``expected_ply``: ``values`` from
    ``advance_values`` (updated with ``finish_values`` when it ended the
    game).  False when the game moved on; then nothing is written and
    ``game``'s attributes are expired (read again on use).

    ``rows``, when given, builds the new rows that come with the turn (the
    turn and its mail: model instances or ``PendingRow``s, as
    ``pbem.db.insert_rows`` takes them); it is called with ``game``
    already holding ``values``, and the rows are written only if the game
    advanced.  On PostgreSQL the claim and the INSERTs are then one
    statement (the UPDATE in a data-modifying WITH clause that the INSERTs
    select from): one round trip to the server, not one per table.  With
    ``last_write`` (the caller commits next and writes nothing else) and no
    other change pending in the session, that statement is the whole
    transaction: a request's session sends no BEGIN for it
    (``pbem.late_begin``).  ``expected_check``, as for ``claim``: the
    sweep's turns (a timeout) also check ``next_check_at`` as read."""
    if "position" not in values or values.get("ply") is None:
        raise ValueError("a turn sets the position and the ply")
    if rows is None:
        return claim(session, game, expected_ply, ACTIVE, expected_check, **values)
    if session.get_bind().dialect.name != "postgresql":
        if not claim(session, game, expected_ply, ACTIVE, expected_check, **values):
            return False
        insert_rows(session, list(rows()))
        return True
    for key, value in values.items():  # as it will be, for the rows to be built from
        set_committed_value(game, key, value)
    by_table = rows_by_table(list(rows()))
    lone = last_write and not (session.new or session.dirty or session.deleted)
    if not _claim_inserting(session, game, expected_ply, values, by_table, lone, expected_check):
        session.expire(game)
        return False
    changed(session, game.id, values)
    return True


@functools.lru_cache(maxsize=256)
def _claim_inserting_statement(columns: tuple[str, ...], shapes: tuple[tuple[Any, tuple[str, ...], int], ...],
                               check: bool = False, check_none: bool = False) -> Select[int]:
    """``claim``'s UPDATE as a WITH clause, and for each ``(table, columns,
    count)`` of ``shapes`` an INSERT of ``count`` rows selected from it (so
    they are written only if the UPDATE changed the game); the statement
    gives the number of games changed (1 or 0).  Built once per shape; the
    values go in as parameters (``r<t>_<i>_<column>``)."""
    claimed = _claim_statement(columns, check, check_none).returning(table_of(Game).c.id).cte("claimed")
    inserts = []
    for t, (table, names, count) in enumerate(shapes):
        selects = [select(*(bindparam(f"r{t}_{i}_{name}", type_=table.c[name].type) for name in names))
                   .select_from(claimed) for i in range(count)]
        source = selects[0] if count == 1 else union_all(*selects)
        inserts.append(insert(table).from_select(list(names), source).cte(f"inserted_{t}"))
    return select(func.count()).select_from(claimed).add_cte(*inserts)


def _claim_inserting(session: Session, game: Game, expected_ply: int, values: dict[str, Any],
                     by_table: dict[Any, list[dict[str, Any]]], lone: bool = False,
                     expected_check: Any = _UNCHECKED) -> bool:
    shapes: list[tuple[Any, tuple[str, ...], int]] = []
    params: dict[str, Any] = {"_id": game.id, "_ply": expected_ply, "_status": ACTIVE,
                          **{f"v_{name}": value for name, value in values.items()}}
    check, check_none = _checking(expected_check, params)
    for table, rows in by_table.items():
        for names in dict.fromkeys(tuple(row) for row in rows):  # rows of one shape each
            same = [row for row in rows if tuple(row) == names]
            t = len(shapes)
            shapes.append((table, names, len(same)))
            for i, row in enumerate(same):
                params.update({f"r{t}_{i}_{name}": value for name, value in row.items()})
    statement = _claim_inserting_statement(tuple(values), tuple(shapes), check, check_none)
    options = {late_begin.LONE_WRITE: True} if lone else {}
    return session.connection().execute(statement, params, execution_options=options).scalar_one() == 1


def finish(session: Session, game: Game, winners: Iterable[int] | None, termination: str, now: datetime,
           status: str = FINISHED, expected_status: str = ACTIVE, expected_ply: int | None = None) -> bool:
    """End the game as read (``expected_status``, ``expected_ply``: default
    the game's) with ``winners`` sharing the result.  False when it changed."""
    ply = game.ply if expected_ply is None else expected_ply
    return claim(session, game, ply, expected_status, **finish_values(winners, termination, now, status))


def start(session: Session, game: Game, position: str, now: datetime, clock: dict[str, Any],
          seed: str | None = None, start_chance: list[dict[str, Any]] | None = None) -> bool:
    """Start an invited game at ``position`` with no turns played and the
    clock columns ``clock``; a game that uses chance keeps the ``seed`` that
    dealt ``position`` (secret until the game ends), its SHA-256
    commitment (shown from the start) and the chance events settled before
    the first turn (``start_chance``).  False when it is no longer inviting."""
    if seed is not None:
        clock = {**clock, "seed": seed, "seed_hash": chance.commitment(seed), "start_chance": start_chance}
    return claim(session, game, game.ply, INVITING, status=ACTIVE, position=position, ply=0, started_at=now,
                 **clock)


@functools.cache
def _open_seat_statement() -> Update:
    """``take_open_seat``'s conditional UPDATE, built once."""
    c = table_of(Game).c
    return (update(table_of(Game))
            .where(c.id == bindparam("_id"), c.status == INVITING, c.open_seats == bindparam("_open"))
            .values(open_seats=bindparam("_left")))


def take_open_seat(session: Session, game: Game, expected_open: int) -> bool:
    """Take one of the open seats of an open challenge (``Game.open_seats``,
    the lobby) as read: ``expected_open`` seats open and the game still
    inviting.  One conditional UPDATE, so of players racing for the last
    seat exactly one gets it (on PostgreSQL the second UPDATE waits for the
    first to commit, then finds its condition false); False for the others,
    and nothing is written.  The caller adds the seat, and starts the game
    (``start``) when none is left."""
    if expected_open < 1:
        return False
    done = session.connection().execute(_open_seat_statement(),
                                        {"_id": game.id, "_open": expected_open, "_left": expected_open - 1})
    if done.rowcount != 1:
        return False
    set_committed_value(game, "open_seats", expected_open - 1)
    changed(session, game.id, {})
    return True


def cancel(session: Session, game: Game, termination: str, now: datetime) -> bool:
    """Cancel an invited game (an invitation was declined)."""
    return claim(session, game, game.ply, INVITING, status=CANCELLED, finished_at=now, termination=termination)


def offer_draw(session: Session, game: Game, seats: Iterable[int]) -> bool:
    """Record ``seats`` as agreeing to a draw in the game as read (its ply
    and status): a turn played since withdrew any offer, so then nothing is
    written and the answer is False."""
    return claim(session, game, game.ply, ACTIVE, draw_offer=draw_offer_text(seats))


def set_clock(session: Session, game: Game, expected_check: Any = _UNCHECKED, **clock: Any) -> bool:
    """Change only the current turn's clock columns (deadline,
    ``next_check_at``, ...) of the active game as read."""
    if set(clock) - {"turn_started_at", "deadline", "next_check_at"}:
        raise ValueError("set_clock changes only turn_started_at, deadline and next_check_at")
    return claim(session, game, game.ply, ACTIVE, expected_check=expected_check, **clock)


def claim_many(session: Session, claims: Sequence[tuple[int, int, Any, Any]], lock: bool = False) -> set[int]:
    """The sweep's reminders in bulk: for each ``(game_id, ply, check,
    next_check)``, set the game's ``next_check_at`` to ``next_check`` only
    if the game is still active with that ``ply`` and ``next_check_at``
    equal to ``check`` (as the sweep read it).  One conditional UPDATE ...
    RETURNING; the ids of the games it changed (the others moved on, or
    another sweep took them).  Changes nothing but ``next_check_at``.

    With ``lock`` (PostgreSQL) the rows are first locked with ``SELECT ...
    FOR NO KEY UPDATE SKIP LOCKED`` in id order: a game that a player's turn
    or another sweep holds at that moment is left to them, so the UPDATE
    never waits and two sweeps never deadlock."""
    wanted = {game_id: (ply, check, after) for game_id, ply, check, after in claims}
    if not wanted:
        return set()
    if lock:
        held = session.execute(
            select(col(Game.id)).where(col(Game.id).in_(sorted(wanted))).order_by(col(Game.id))
            .with_for_update(skip_locked=True, key_share=True)
        ).scalars().all()
        wanted = {game_id: wanted[game_id] for game_id in held}
        if not wanted:
            return set()
    if bulk.on_postgresql(session.connection()):  # the claims as arrays: one short statement, planned once
        arrays = bulk.arrays([(game_id, ply, check, after) for game_id, (ply, check, after) in wanted.items()],
                             "claims")
        return set(session.execute(_claims_from_arrays(), arrays).scalars().all())
    column = table_of(Game).c.next_check_at
    as_read = tuple_(Game.id, Game.ply, Game.next_check_at).in_(
        [(game_id, ply, check) for game_id, (ply, check, _) in wanted.items()])
    new = case({game_id: _typed(column, after) for game_id, (_, _, after) in wanted.items()}, value=Game.id)
    done = session.execute(
        update(Game).where(col(Game.id).in_(list(wanted)), col(Game.status) == ACTIVE, as_read)
        .values(next_check_at=new).returning(col(Game.id)).execution_options(synchronize_session=False)
    ).scalars().all()
    return set(done)


@functools.cache
def _claims_from_arrays() -> ReturningUpdate[Any]:
    """``claim_many``'s UPDATE on PostgreSQL, built once: the claims joined
    as a table of arrays (``pbem.services.bulk``), each game changed only if still
    active with the ply and ``next_check_at`` read."""
    c = table_of(Game).c
    claims = bulk.rows_table([c.id, c.ply, c.next_check_at, c.next_check_at], "claims")
    return (update(table_of(Game))
            .where(c.id == claims.c.c0, c.ply == claims.c.c1, c.next_check_at == claims.c.c2, c.status == ACTIVE)
            .values(next_check_at=claims.c.c3).returning(c.id))


def _typed(column: Any, value: Any) -> Any:
    """A bound parameter of ``value`` typed as ``column`` (a moment is
    stored and compared as the column stores it)."""
    return bindparam(None, value, type_=column.type)


@functools.cache
def _pending_statement(active: bool) -> Update:
    """``set_pending_settings``'s conditional UPDATE of a seat, built once."""
    from pbem.models import Seat  # the seats table: the game's own row is not touched

    seats, games = table_of(Seat).c, table_of(Game).c
    text = seats.pending_settings.type  # typed, so that PostgreSQL knows a NULL's type
    conditions = [seats.id == bindparam("_id"),
                  seats.pending_settings.is_not_distinct_from(bindparam("_old", type_=text))]
    if active:
        conditions.append(select(games.id).where(games.id == seats.game_id, games.status == ACTIVE).exists())
    return update(table_of(Seat)).where(*conditions).values(pending_settings=bindparam("_new", type_=text))


def set_pending_settings(session: Session, seat: Any, expected: str | None, new: str | None,
                         active: bool = True) -> bool:
    """Write a seat's pending settings (``Seat.pending_settings``: changes
    its player made outside their turn, ``pbem.services.seat_settings``)
    only if they are still ``expected`` as read (and, with ``active``, the
    game is still on): a compare-and-set, so a change is never lost between
    a player setting a value and a turn folding the earlier one in.  A turn
    clears what it folded this way in its own transaction, after its claim
    (``active`` False: the turn may just have ended the game); a change made
    meanwhile stays pending for the next turn.  False when the seat's
    settings changed (or the game is no longer on); nothing is written."""
    done = session.connection().execute(_pending_statement(active),
                                        {"_id": seat.id, "_old": expected, "_new": new})
    if done.rowcount != 1:
        return False
    set_committed_value(seat, "pending_settings", new)
    return True
