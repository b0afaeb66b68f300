"""Waking workers when their work is committed.

A service that commits work for a worker says so on its session
(``on_commit(session, "outbox")``); when that transaction commits, every
subscriber of the channel in this process is called at once (``Hub``),
and on PostgreSQL a ``NOTIFY`` carries the same news to every other process
that listens (``listen``): gunicorn workers, ``pbem scheduler``, ``pbem
mail serve``.  A rolled-back transaction wakes nobody.

A wake-up is a hint, never the work itself: a worker woken finds its work
in the database by the usual claims and leases, so a doubled wake-up costs
one empty look, and a lost one (a worker restarting, a dropped
connection, a process that died between its commit and its ``NOTIFY``)
is made good by the worker's own timer, kept as a safety net.  After a
lost connection the listener wakes every channel, since what was sent
meanwhile is gone.

Channels and their payloads (strings):

* ``outbox``: mail was queued (no payload);
* ``inbox``: received mail was stored (no payload);
* ``games``: a game's row changed (a turn, a result, a draw offer, its
  clock, a seat taken): the game's id;
* ``sweep``: a game's next check (``next_check_at``) was set: its POSIX
  time, so the sweep can sleep until the earliest.

A subscriber is called with the set of payloads of one delivery; an empty
set means "anything may have changed" (a lost connection, a payload too
long for ``NOTIFY``).  Subscribers run in the committing thread (or the
listener's): they must be quick, such as setting an event.

The ``NOTIFY`` is sent after the commit by a small thread of the process
on a connection of its own, so a request that commits work waits for no
extra round trip.  Channels are per database schema, so deployments (and
tests) sharing a PostgreSQL database in different schemas do not wake
each other.
"""

from __future__ import annotations

import hashlib
import json
import logging
import queue
import threading
import time
from typing import Any, Callable, Iterable

from sqlalchemy import Engine, event
from sqlalchemy.orm import Session

log = logging.getLogger(__name__)

CHANNELS = ("outbox", "inbox", "games", "sweep")

#: session.info key of the wake-ups waiting for the session's commit
_PENDING = "pbem_wake"
#: PostgreSQL refuses a NOTIFY payload of 8000 bytes or more
_MAX_PAYLOAD = 7000
#: seconds between the listener's attempts to reconnect
RECONNECT_SECONDS = 2.0

Callback = Callable[[frozenset[str]], None]


class Hub:
    """The subscribers of one database in this process, by channel."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._subscribers: dict[str, list[Callback]] = {}

    def subscribe(self, channel: str, callback: Callback) -> Callable[[], None]:
        """Call ``callback`` on every wake-up of ``channel``; returns the
        function that ends the subscription."""
        if channel not in CHANNELS:
            raise ValueError(f"no wake-up channel {channel!r}; the channels are {', '.join(CHANNELS)}")
        with self._lock:
            self._subscribers.setdefault(channel, []).append(callback)

        def unsubscribe() -> None:
            with self._lock:
                found = self._subscribers.get(channel, [])
                if callback in found:
                    found.remove(callback)

        return unsubscribe

    def publish(self, channel: str, payloads: Iterable[str] = ()) -> None:
        """Call the channel's subscribers with ``payloads`` (empty: anything)."""
        with self._lock:
            callbacks = list(self._subscribers.get(channel, ()))
        given = frozenset(p for p in payloads if p)
        for callback in callbacks:
            try:
                callback(given)
            except Exception:  # noqa: BLE001 - one subscriber's trouble must not stop the others or the commit
                log.exception("wake: a subscriber of %s failed", channel)

    def publish_all(self) -> None:
        """Wake every channel with "anything may have changed"."""
        for channel in CHANNELS:
            self.publish(channel)


_hubs: dict[str, Hub] = {}
_hubs_lock = threading.RLock()


def _base(engine: Any) -> Any:
    """The engine an engine with options (``Engine.execution_options``) was made from."""
    while getattr(engine, "_proxied", None) is not None:
        engine = engine._proxied
    return engine


def schema_of(engine: Any) -> str | None:
    found: str | None = getattr(_base(engine), "pbem_schema", None)
    return found


def set_schema(engine: Engine, schema: str | None) -> None:
    """Record the PostgreSQL schema ``engine`` works in (``pbem.db.make_engine``)."""
    engine.pbem_schema = schema  # type: ignore[attr-defined]  # kept on the engine, so it goes with it


def _key(engine: Any) -> str:
    base = _base(engine)
    return f"{base.url.render_as_string(hide_password=False)}|{schema_of(base) or ''}"


def hub(engine: Any) -> Hub:
    """The hub of ``engine``'s database (and schema) in this process."""
    key = _key(engine)
    with _hubs_lock:
        found = _hubs.get(key)
        if found is None:
            found = _hubs[key] = Hub()
        return found


def pg_channel(engine: Any) -> str:
    """The PostgreSQL ``LISTEN`` channel of ``engine``'s schema (an identifier of at most 63 bytes)."""
    schema = schema_of(engine) or "public"
    return "pbem_wake_" + hashlib.sha256(schema.encode()).hexdigest()[:16]


def on_commit(session: Session, channel: str, payload: Any = "") -> None:
    """Wake ``channel`` (with ``payload``, made a string) when ``session``'s
    transaction commits; forgotten if it rolls back."""
    if channel not in CHANNELS:
        raise ValueError(f"no wake-up channel {channel!r}; the channels are {', '.join(CHANNELS)}")
    pending: dict[str, set[str]] = session.info.setdefault(_PENDING, {})
    pending.setdefault(channel, set()).add("" if payload is None else str(payload))


def _after_commit(session: Session) -> None:
    pending: dict[str, set[str]] | None = session.info.pop(_PENDING, None)
    if not pending:
        return
    bind = session.get_bind()
    engine = getattr(bind, "engine", bind)
    publish(engine, pending)


def _forget(session: Session, *_: Any) -> None:
    session.info.pop(_PENDING, None)


event.listen(Session, "after_commit", _after_commit)
event.listen(Session, "after_soft_rollback", _forget)


def publish(engine: Any, wakes: dict[str, set[str]]) -> None:
    """Wake the channels of ``wakes`` (channel -> payloads) for ``engine``'s
    database: here at once, and on PostgreSQL in the other processes too.
    For work committed without a session (``engine.begin()``): call it
    after the commit."""
    local = hub(engine)
    for channel, payloads in wakes.items():
        local.publish(channel, payloads)
    if _base(engine).dialect.name == "postgresql":
        _notifier(engine).send(engine, wakes)


def encode(wakes: dict[str, set[str]]) -> str:
    """A NOTIFY payload for ``wakes``: JSON, channel -> payloads; when too
    long, the channels alone (each then means "anything")."""
    text = json.dumps({channel: sorted(p for p in payloads if p) for channel, payloads in wakes.items()},
                      separators=(",", ":"))
    if len(text.encode()) > _MAX_PAYLOAD:
        text = json.dumps({channel: [] for channel in wakes}, separators=(",", ":"))
    return text


def decode(text: str) -> dict[str, set[str]]:
    """The wake-ups of a NOTIFY payload (every channel for one that is not ours)."""
    try:
        found = json.loads(text)
        if isinstance(found, dict):
            return {str(c): {str(p) for p in ps} if isinstance(ps, list) else set() for c, ps in found.items()
                    if c in CHANNELS}
    except ValueError:
        pass
    return {channel: set() for channel in CHANNELS}


def _conninfo(engine: Any) -> str:
    """A libpq connection string for ``engine``'s PostgreSQL database."""
    url = _base(engine).url.set(drivername="postgresql")
    return str(url.render_as_string(hide_password=False))


class _Notifier:
    """Sends the ``NOTIFY``s from a thread of its own, so the committing
    thread does not wait; wake-ups of one database queued together go in
    one statement.  Each database gets a connection of its own (not of the
    engine's pool, whose statements are the application's), closed after
    ``IDLE_SECONDS`` without use."""

    IDLE_SECONDS = 30.0

    def __init__(self) -> None:
        self._queue: queue.SimpleQueue[tuple[Any, dict[str, set[str]]]] = queue.SimpleQueue()
        self._connections: dict[str, tuple[Any, float]] = {}
        self._thread = threading.Thread(target=self._run, name="pbem-wake-notify", daemon=True)
        self._thread.start()

    def send(self, engine: Any, wakes: dict[str, set[str]]) -> None:
        self._queue.put((engine, wakes))

    def _run(self) -> None:
        while True:
            try:
                batch = [self._queue.get(timeout=self.IDLE_SECONDS / 2)]
            except queue.Empty:
                self._close_idle()
                continue
            while True:  # whatever else is waiting goes with it
                try:
                    batch.append(self._queue.get_nowait())
                except queue.Empty:
                    break
            merged: dict[str, tuple[Any, dict[str, set[str]]]] = {}
            for engine, wakes in batch:
                _, into = merged.setdefault(_key(engine), (engine, {}))
                for channel, payloads in wakes.items():
                    into.setdefault(channel, set()).update(payloads)
            for key, (engine, wakes) in merged.items():
                self._notify(key, engine, wakes)
            self._close_idle()

    def _notify(self, key: str, engine: Any, wakes: dict[str, set[str]]) -> None:
        import psycopg

        for attempt in range(2):
            connection = None
            try:
                held = self._connections.get(key)
                connection = held[0] if held is not None and not held[0].closed else \
                    psycopg.connect(_conninfo(engine), autocommit=True)
                connection.execute("SELECT pg_notify(%s, %s)", (pg_channel(engine), encode(wakes)))
                self._connections[key] = (connection, time.monotonic())
                return
            except Exception as error:  # noqa: BLE001 - the listeners' safety nets make up for a lost one
                self._connections.pop(key, None)
                if connection is not None:
                    try:
                        connection.close()
                    except Exception:  # noqa: BLE001 - it is being thrown away
                        pass
                log.warning("wake: NOTIFY failed (%s); %s", error, "trying again" if not attempt else "dropped")

    def _close_idle(self) -> None:
        now = time.monotonic()
        for key, (connection, used) in list(self._connections.items()):
            if now - used > self.IDLE_SECONDS:
                del self._connections[key]
                try:
                    connection.close()
                except Exception:  # noqa: BLE001 - it is being thrown away
                    pass


_notifier_made: list[_Notifier] = []


def _notifier(engine: Any) -> _Notifier:
    with _hubs_lock:
        if not _notifier_made:
            _notifier_made.append(_Notifier())
        return _notifier_made[0]


class _Listener:
    """``LISTEN`` on one database's channel, in a thread of its own,
    passing every notification to the hub of this process; reconnecting
    after a lost connection and then waking every channel."""

    def __init__(self, engine: Any) -> None:
        self._conninfo = _conninfo(engine)
        self._channel = pg_channel(engine)
        self._hub = hub(engine)
        self.users = 0
        self.connected = threading.Event()
        self.stopping = threading.Event()
        self._thread = threading.Thread(target=self._run, name="pbem-wake-listen", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        import psycopg

        first = True
        while not self.stopping.is_set():
            try:
                with psycopg.connect(self._conninfo, autocommit=True) as connection:
                    connection.execute(f'LISTEN "{self._channel}"')
                    self.connected.set()
                    if not first:
                        self._hub.publish_all()  # what was sent while we were away is lost
                    first = False
                    while not self.stopping.is_set():
                        for notice in connection.notifies(timeout=1.0):
                            for channel, payloads in decode(notice.payload).items():
                                self._hub.publish(channel, payloads)
                    return
            except Exception as error:  # noqa: BLE001 - reconnect; the workers' timers cover the gap
                self.connected.clear()
                if self.stopping.is_set():
                    return
                log.warning("wake: listening on PostgreSQL failed (%s); trying again in %s s", error,
                            RECONNECT_SECONDS)
                first = False
            self.stopping.wait(RECONNECT_SECONDS)

    def stop(self) -> None:
        self.stopping.set()
        self._thread.join(timeout=5)


_listeners: dict[str, _Listener] = {}


def listen(engine: Any, wait: float = 5.0) -> bool:
    """Make sure this process hears the other processes' wake-ups for
    ``engine``'s database (PostgreSQL; elsewhere there is only this
    process, and nothing is done).  Started once per database; waits up
    to ``wait`` seconds for the first ``LISTEN``; whether it is listening."""
    if _base(engine).dialect.name != "postgresql":
        return True
    key = _key(engine)
    with _hubs_lock:
        found = _listeners.get(key)
        if found is None:
            found = _listeners[key] = _Listener(engine)
        found.users += 1
    return found.connected.wait(wait)


def unlisten(engine: Any) -> None:
    """One user of ``listen`` is done; the last one stops the listener."""
    if _base(engine).dialect.name != "postgresql":
        return
    key = _key(engine)
    with _hubs_lock:
        found = _listeners.get(key)
        if found is None:
            return
        found.users -= 1
        if found.users > 0:
            return
        del _listeners[key]
    found.stop()
