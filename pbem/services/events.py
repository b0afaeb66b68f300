"""Event streams: what ``GET /api/v1/games/<id>/events`` and ``GET
/api/v1/me/events`` send (``docs/api.md``, "Event streams").

Every change of a game leaves a row in ``game_events`` (written by
triggers on ``games`` in the changing transaction, ``pbem.models.events``);
its id orders the changes and is the stream's event id.  One ``Dispatcher``
per process and database reads the new rows once for all the streams of
the process, when ``pbem.wake`` says a game changed (and every
``EVENT_POLL_SECONDS`` as a safety net), renders each row once per seat
that follows it, and hands the text to the streams' queues: a stream
thread only waits on its queue and writes.

Ids are handed out when a row is written but become visible when its
transaction commits, so on PostgreSQL id 11 may be seen before id 10.  The
dispatcher delivers in id order: it holds back the rows above a hole for up
to ``HOLE_SECONDS`` (a transaction that changed a game and has not yet
committed), then goes on, watching the ids of the hole for
``LATE_SECONDS`` more and sending any that turns up late (a hole is mostly
a rolled-back change, which never turns up).  Its horizon (every id up to
it delivered or given up on) is where a resuming stream's replay from the
database stops and its queue takes over, so resuming loses nothing.

What a viewer sees of an event goes through the view chokepoint
(``pbem.services.visibility``): a turn's text as ``views.turn_text`` gives
it to their seat, whose turn it is as ``views.mover``; never a position.
"""

from __future__ import annotations

import json
import logging
import queue
import threading
import time
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from typing import Any, Iterable, Iterator, Sequence

from sqlalchemy import Engine, delete, func, select, tuple_
from sqlmodel import Session, col

from pbem import late_begin, wake
from pbem.models import ACTIVE, DECLINED, Game, Seat, Turn, table_of
from pbem.models.events import GameEvent
from pbem.services import gamestate
from pbem.services import visibility as views

log = logging.getLogger(__name__)

#: seconds the rows above a hole in the ids wait for it to fill
HOLE_SECONDS = 2.0
#: seconds the ids of a hole given up on are still looked for
LATE_SECONDS = 600.0
#: rows read at a time
BATCH = 2000
#: events waiting for one stream past which it is closed (a client that reads nothing)
QUEUE_LIMIT = 2000
#: events a resuming stream is sent from the database at most; more: a ``reset``
REPLAY_LIMIT = 1000
#: seconds between two prunings of old rows
PRUNE_SECONDS = 3600.0
#: seconds without any stream after which a dispatcher stops (the next stream starts another)
IDLE_SECONDS = 60.0

_COLUMNS = ("id", "game_id", "old_ply", "ply", "status", "result", "termination", "draw_offer", "deadline",
            "open_seats")


@dataclass(frozen=True)
class Change:
    """A row of ``game_events``: a game as one change left it."""

    id: int
    game_id: int
    old_ply: int
    ply: int
    status: str
    result: str
    termination: str | None
    draw_offer: str | None
    deadline: datetime | None
    open_seats: int


def _reading(engine: Engine) -> Session:
    """A session whose reads each run on their own (no transaction held
    across them: on PostgreSQL ``pbem.late_begin``), so a dispatcher never
    holds a lock between two statements."""
    return Session(late_begin.session_bind(engine))


def _rows(session: Session, *conditions: Any, limit: int = BATCH) -> list[Change]:
    c = table_of(GameEvent).c
    found = session.connection().execute(
        select(*(c[name] for name in _COLUMNS)).where(*conditions).order_by(c.id).limit(limit)).all()
    return [Change(*row) for row in found]


def newest_id(session: Session) -> int:
    """The highest event id written so far (0: none)."""
    return int(session.connection().execute(select(func.max(table_of(GameEvent).c.id))).scalar() or 0)


def _moment(value: datetime | None) -> str | None:
    if value is None:
        return None
    value = value if value.tzinfo else value.replace(tzinfo=timezone.utc)
    return value.astimezone(timezone.utc).isoformat().replace("+00:00", "Z")


class Rendering:
    """The games, turns and seats that a set of changes needs, read in a few
    statements, and each change rendered once per seat."""

    def __init__(self, session: Session, changes: Sequence[Change], players: bool = False):
        self.changes = changes
        ids = sorted({change.game_id for change in changes})
        self.games: dict[int, Game] = {}
        self.turns: dict[tuple[int, int], Turn] = {}
        self.seats: dict[int, dict[int, int]] = {}  # game -> player -> seat
        self._done: dict[tuple[int, int | None], str] = {}
        if not ids:
            return
        for game in session.scalars(select(Game).where(col(Game.id).in_(ids))).all():
            self.games[game.id] = game  # type: ignore[index]  # stored games have ids
        wanted = {(change.game_id, ply) for change in changes
                  for ply in range(change.old_ply + 1, change.ply + 2)}  # its turns, and the next one's mover
        if wanted:
            for turn in session.scalars(select(Turn).where(tuple_(col(Turn.game_id), col(Turn.ply)).in_(sorted(wanted)))):
                self.turns[(turn.game_id, turn.ply)] = turn
        if players:
            seat = table_of(Seat).c
            found = session.connection().execute(select(seat.game_id, seat.player_id, seat.number)
                                                 .where(seat.game_id.in_(ids), seat.status != DECLINED)).all()
            for game_id, player_id, number in found:
                self.seats.setdefault(game_id, {})[player_id] = number

    def frame(self, change: Change, seat: int | None) -> str:
        """The SSE frame of ``change`` as ``seat`` (0-based; None: no seat) sees it."""
        key = (change.id, seat)
        found = self._done.get(key)
        if found is None:
            game = self.games.get(change.game_id)
            data = payload(change, game, seat, self.turns) if game is not None else None
            found = self._done[key] = frame("game", change.id, data) if data is not None else ""
        return found


def payload(change: Change, game: Game, seat: int | None, turns: dict[tuple[int, int], Turn]) -> dict[str, Any]:
    """What ``seat`` (0-based; None: a spectator) is told of ``change`` of
    ``game`` (the game as it is now): numbers and words of the game row,
    and the turns played in the change as the seat may read them."""
    played = []
    for ply in range(change.old_ply + 1, change.ply + 1):
        turn = turns.get((change.game_id, ply))
        if turn is not None:
            played.append({"ply": turn.ply, "seat": turn.seat + 1, "source": turn.source,
                           "text": views.turn_text(game, seat, turn.seat, turn.text),
                           "canonical": views.turn_text(game, seat, turn.seat, turn.canonical)})
    to_move: int | None = None
    if change.status == ACTIVE:
        following = turns.get((change.game_id, change.ply + 1))
        if following is not None:  # a later turn says who moved next
            to_move = following.seat
        elif game.ply == change.ply:
            to_move = views.mover(game)
    offer = sorted(n + 1 for n in gamestate.draw_offer_seats(change))  # type: ignore[arg-type]  # draw_offer
    return {"id": change.id, "game": change.game_id, "ply": change.ply, "status": change.status,
            "result": change.result, "termination": change.termination,
            "to_move": None if to_move is None else to_move + 1,
            "your_seat": None if seat is None else seat + 1,
            "your_turn": seat is not None and to_move == seat,
            "draw_offer": offer, "deadline": _moment(change.deadline), "open_seats": change.open_seats,
            "turns": played}


def state_key(data: dict[str, Any]) -> str:
    """What a page compares to know whether an event changes what it shows:
    the ply, status, result, draw offer, deadline and open seats of an
    event's data (``payload``); ``pbem/static/live.js`` builds the same."""
    return "|".join([str(data["ply"]), data["status"], data["result"], ",".join(str(n) for n in data["draw_offer"]),
                     data["deadline"] or "", str(data["open_seats"])])


def page_key(game: Game) -> str:
    """``state_key`` of the game as it is (what its page shows)."""
    return state_key({"ply": game.ply, "status": game.status, "result": game.result,
                      "draw_offer": sorted(n + 1 for n in gamestate.draw_offer_seats(game)),
                      "deadline": _moment(game.deadline), "open_seats": game.open_seats})


def frame(event: str, event_id: int, data: dict[str, Any] | None) -> str:
    """One Server-Sent Events frame."""
    return f"id: {event_id}\nevent: {event}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n"


def snapshot(game: Game, event_id: int) -> Change:
    """The game as it is now, as a change (the first event of a game stream)."""
    assert game.id is not None
    return Change(event_id, game.id, max(0, game.ply - 1), game.ply, game.status, game.result, game.termination,
                  game.draw_offer, game.deadline, game.open_seats)


class Stopped(Exception):
    """The dispatcher stopped (no stream for a while): start another."""


class Stream:
    """One open stream: whose it is, what it follows, and its queue of frames
    (None: the stream must end)."""

    def __init__(self, player_id: int, game_id: int | None, seat: int | None):
        self.player_id, self.game_id, self.seat = player_id, game_id, seat
        self.queue: queue.SimpleQueue[tuple[int, str] | None] = queue.SimpleQueue()
        self.horizon = 0  # the dispatcher's horizon when the stream opened: replay stops there

    def put(self, event_id: int, text: str) -> None:
        if self.queue.qsize() > QUEUE_LIMIT:
            self.queue.put(None)
            return
        self.queue.put((event_id, text))


class Dispatcher:
    """The one reader of ``game_events`` for the streams of this process."""

    def __init__(self, engine: Engine, poll_seconds: float = 20.0, keep_hours: float = 72.0):
        self.engine, self.poll_seconds, self.keep_hours = engine, poll_seconds, keep_hours
        self.lock = threading.Lock()
        self.by_game: dict[int, set[Stream]] = {}
        self.by_player: dict[int, set[Stream]] = {}
        self.count = 0
        self.woken = threading.Event()
        self.horizon = 0
        self.hole_since: float | None = None
        self.late: dict[int, float] = {}  # ids of holes given up on -> when
        self.pruned_at = 0.0
        self.idle_since = time.monotonic()
        self.stopped = False
        self.ready = threading.Event()
        self._unsubscribe = wake.hub(engine).subscribe("games", lambda _ids: self.woken.set())
        wake.listen(engine, wait=0)  # other processes' commits too (PostgreSQL; nothing elsewhere)
        self._thread = threading.Thread(target=self._run, name="pbem-events", daemon=True)
        self._thread.start()

    # -- streams ----------------------------------------------------------------------------
    def open(self, player_id: int, game_id: int | None, seat: int | None, cap: int) -> Stream | None:
        """A new stream, registered; None when ``cap`` streams are open
        already; ``Stopped`` when this dispatcher stopped for want of streams."""
        self.ready.wait(10)
        stream = Stream(player_id, game_id, seat)
        with self.lock:
            if self.stopped:
                raise Stopped()
            if self.count >= cap:
                return None
            self.count += 1
            if game_id is None:
                self.by_player.setdefault(player_id, set()).add(stream)
            else:
                self.by_game.setdefault(game_id, set()).add(stream)
            stream.horizon = self.horizon
        return stream

    def close(self, stream: Stream) -> None:
        with self.lock:
            into = self.by_player if stream.game_id is None else self.by_game
            key = stream.player_id if stream.game_id is None else stream.game_id
            found = into.get(key)
            if found is None or stream not in found:
                return
            found.discard(stream)
            if not found:
                del into[key]
            self.count -= 1
            if not self.count:
                self.idle_since = time.monotonic()

    def open_streams(self) -> int:
        with self.lock:
            return self.count

    # -- the reader ---------------------------------------------------------------------------
    def _run(self) -> None:
        while True:
            try:
                self._start()
                break
            except Exception:  # noqa: BLE001 - the database may be starting; try again
                log.exception("events: reading the newest event failed; trying again")
                time.sleep(1)
        self.ready.set()
        while True:
            self.woken.wait(0.05 if self.hole_since is not None else min(self.poll_seconds, IDLE_SECONDS))
            self.woken.clear()
            with self.lock:
                if not self.count and time.monotonic() - self.idle_since > IDLE_SECONDS:
                    self.stopped = True
            if self.stopped:
                self._unsubscribe()
                wake.unlisten(self.engine)
                return
            try:
                self.poll()
                if time.monotonic() - self.pruned_at > PRUNE_SECONDS:
                    self.prune()
            except Exception:  # noqa: BLE001 - a lost connection: the next wake-up or poll reads again
                log.exception("events: reading new events failed")
                time.sleep(0.5)

    def _start(self) -> None:
        """The horizon at start: the newest id; the holes among the last
        ids are watched, in case their transactions are still going."""
        with _reading(self.engine) as session:
            newest = newest_id(session)
            c = table_of(GameEvent).c
            present = set(session.connection().execute(select(c.id).where(c.id > newest - 100)).scalars())
        now = time.monotonic()
        self.late = {n: now for n in range(max(1, newest - 99), newest + 1) if n not in present}
        self.horizon = newest

    def poll(self) -> None:
        """Read the rows past the horizon (and late ones), deliver those that
        are in order."""
        c = table_of(GameEvent).c
        condition = c.id > self.horizon
        if self.late:
            condition = condition | c.id.in_(sorted(self.late))
        with _reading(self.engine) as session:
            rows = _rows(session, condition)
            deliver = [row for row in rows if row.id in self.late]
            for row in deliver:
                del self.late[row.id]
            expected, now = self.horizon + 1, time.monotonic()
            for row in (r for r in rows if r.id > self.horizon):
                if row.id > expected:  # a hole: wait for it a little, then go on and watch it
                    if self.hole_since is None:
                        self.hole_since = now
                    if now - self.hole_since < HOLE_SECONDS:
                        break
                    self.late.update({n: now for n in range(expected, row.id)})
                self.hole_since = None
                deliver.append(row)
                expected = row.id + 1
            else:
                self.hole_since = None
            self.late = {n: t for n, t in self.late.items() if now - t < LATE_SECONDS}
            if deliver:
                self._deliver(session, deliver)
            with self.lock:
                self.horizon = max(self.horizon, expected - 1)
            if len(rows) >= BATCH:
                self.woken.set()  # more to read

    def _deliver(self, session: Session, changes: list[Change]) -> None:
        with self.lock:
            games = {change.game_id for change in changes}
            watched = {g: list(self.by_game.get(g, ())) for g in games}
            players = {p: list(streams) for p, streams in self.by_player.items()}
        if not any(watched.values()) and not players:
            return
        rendering = Rendering(session, changes, players=bool(players))
        for change in changes:
            for stream in watched.get(change.game_id, ()):
                stream.put(change.id, rendering.frame(change, stream.seat))
            for player_id, seat in rendering.seats.get(change.game_id, {}).items():
                for stream in players.get(player_id, ()):
                    stream.put(change.id, rendering.frame(change, seat))

    def prune(self) -> None:
        """Delete the rows older than ``keep_hours`` (never the newest)."""
        self.pruned_at = time.monotonic()
        cutoff = datetime.now(timezone.utc) - timedelta(hours=self.keep_hours)
        c = table_of(GameEvent).c
        with Session(self.engine) as session:
            # ids grow with time: delete below the first id still young enough (found along the primary key,
            # so neither statement reads the whole table), never the newest
            keep = session.connection().execute(
                select(c.id).where(c.at >= cutoff).order_by(c.id).limit(1)).scalar()
            if keep is None:
                keep = newest_id(session)
            session.connection().execute(delete(table_of(GameEvent)).where(c.id < keep))
            session.commit()


def replay(engine: Engine, stream: Stream, after: int) -> Iterator[tuple[int, str]]:
    """The frames a stream resuming after event ``after`` missed, up to the
    horizon it opened at; a ``reset`` frame when they can no longer all be
    sent (pruned, too many, or an id this database never wrote)."""
    c = table_of(GameEvent).c
    with _reading(engine) as session:
        oldest = session.connection().execute(select(func.min(c.id))).scalar()
        seats: dict[int, int | None]
        if stream.game_id is not None:
            seats = {stream.game_id: stream.seat}
        else:
            seat = table_of(Seat).c
            seats = {game_id: number for game_id, number in session.connection().execute(
                select(seat.game_id, seat.number).where(seat.player_id == stream.player_id,
                                                        seat.status != DECLINED)).all()}
        lost = after > stream.horizon or (oldest is not None and after + 1 < oldest and after < stream.horizon)
        rows = [] if lost or not seats else _rows(
            session, c.game_id.in_(sorted(seats)), c.id > after, c.id <= stream.horizon, limit=REPLAY_LIMIT + 1)
        if lost or len(rows) > REPLAY_LIMIT:
            yield stream.horizon, frame("reset", stream.horizon, {
                "reason": "the events since the id asked for are no longer all kept: read the game again"})
            if stream.game_id is not None:
                yield from current(session, stream)
            return
        rendering = Rendering(session, rows)
        for row in rows:
            text = rendering.frame(row, seats.get(row.game_id))
            if text:
                yield row.id, text


def first(engine: Engine, stream: Stream) -> list[tuple[int, str]]:
    """``current`` on a session of its own."""
    with _reading(engine) as session:
        return list(current(session, stream))


def current(session: Session, stream: Stream) -> Iterable[tuple[int, str]]:
    """A game stream's first frame: the game as it is now, with the id of
    the stream's horizon (so resuming from it loses nothing)."""
    if stream.game_id is None:
        return [(stream.horizon, frame("ready", stream.horizon, {"id": stream.horizon}))]
    game = session.get(Game, stream.game_id)
    if game is None:
        return []
    now = snapshot(game, stream.horizon)
    return [(now.id, Rendering(session, [now]).frame(now, stream.seat))]


_dispatchers: dict[int, Dispatcher] = {}
_lock = threading.Lock()


def dispatcher(engine: Engine, poll_seconds: float = 20.0, keep_hours: float = 72.0) -> Dispatcher:
    """This process's dispatcher for ``engine``, started on first use (and
    again after it stopped for want of streams)."""
    with _lock:
        found = _dispatchers.get(id(engine))
        if found is None or found.engine is not engine or found.stopped:
            found = _dispatchers[id(engine)] = Dispatcher(engine, poll_seconds, keep_hours)
        return found


def open_stream(engine: Engine, player_id: int, game_id: int | None, seat: int | None, cap: int,
                poll_seconds: float = 20.0, keep_hours: float = 72.0) -> tuple[Dispatcher, Stream | None]:
    """A new stream on this process's dispatcher (None: ``cap`` are open)."""
    while True:
        found = dispatcher(engine, poll_seconds, keep_hours)
        try:
            return found, found.open(player_id, game_id, seat, cap)
        except Stopped:
            continue
