"""APScheduler 3 runs the periodic jobs: the deadline sweep, the daily
digest, the daily puzzles, the computer opponents' turns, and the mail jobs of ``pbem.mailrobot.jobs`` (outbox drain, inbox
processing, IMAP polling) when that module is there.

Deadlines live in the database, not in APScheduler's (memory) job store;
each job is a function of the app that does what is due and returns how
much it did.  ``pbem serve`` starts a background scheduler in its process
(``start_embedded``, registered in ``pbem.runtime.BACKGROUND``); production
runs ``pbem scheduler`` as one process of its own.  gunicorn workers never
start one.  Running two at once is safe (see ``pbem.services.sweep``),
only wasteful.
"""

from __future__ import annotations

import logging
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timezone
from typing import Any, Callable, Iterable

from apscheduler.events import EVENT_SCHEDULER_SHUTDOWN
from apscheduler.schedulers.background import BackgroundScheduler
from apscheduler.schedulers.base import BaseScheduler
from apscheduler.schedulers.blocking import BlockingScheduler
from flask import Flask
from sqlalchemy import func
from sqlmodel import Session, select

from pbem import wake

log = logging.getLogger(__name__)

Job = Callable[[Flask], int]

#: job name -> (config key of its interval in seconds, default seconds)
INTERVALS = {
    "sweep": ("SWEEP_SECONDS", 60),
    "digest": ("DIGEST_SECONDS", 600),
    "outbox": ("OUTBOX_SECONDS", 30),
    "inbox": ("INBOX_SECONDS", 30),
    "imap": ("IMAP_SECONDS", 60),
    "puzzles": ("PUZZLES_SECONDS", 600),
    "bots": ("BOTS_SECONDS", 10),
}


def sweep_job(app: Flask) -> int:
    """Reminders and timeouts due now; how many were done."""
    from pbem import db
    from pbem.services import sweep

    with app.app_context():
        done = sweep.sweep(db.engine())
    return done.reminders + done.timeouts


def digest_job(app: Flask) -> int:
    from pbem import db
    from pbem.services import digest

    with app.app_context():
        return digest.send_digests(db.engine())


def puzzles_job(app: Flask) -> int:
    """Today's puzzle of each game that offers puzzles, if not made yet;
    how many were made (two schedulers never make two: unique per day)."""
    from pbem import db
    from pbem.services import puzzles

    with app.app_context():
        return puzzles.make_daily(db.engine())


def bots_job(app: Flask) -> int:
    """The turns computer opponents are to play now (``pbem.services.bots``);
    how many were played."""
    from pbem import db
    from pbem.services import bots

    with app.app_context():
        return bots.play_due(db.engine())


def jobs() -> dict[str, Job]:
    """Every job there is: ours, and the mail jobs when their module exists."""
    found: dict[str, Job] = {"sweep": sweep_job, "digest": digest_job, "puzzles": puzzles_job, "bots": bots_job}
    try:
        from pbem.mailrobot import jobs as mail
    except ImportError:
        log.info("scheduler: pbem.mailrobot.jobs is not there, so no outbox, inbox or IMAP jobs")
        return found
    for name, attribute in (("outbox", "drain_outbox"), ("inbox", "process_inbox"), ("imap", "poll_imap")):
        function = getattr(mail, attribute, None)
        if function is None:
            log.info("scheduler: pbem.mailrobot.jobs has no %s; skipping the %s job", attribute, name)
        else:
            found[name] = function
    return found


def _guarded(name: str, job: Job, app: Flask) -> Callable[[], int]:
    def run() -> int:
        try:
            done = job(app)
        except Exception:  # a failing job must not stop the scheduler
            log.exception("scheduler: job %s failed", name)
            return 0
        if done:
            log.info("scheduler: %s did %s", name, done)
        return done or 0

    return run


#: a woken job: given the payloads of the wake-ups since its last run
#: (None: look at everything), does its work; returns the seconds until it
#: wants to run again unwoken (None: at its safety net)
Woken = Callable[[frozenset[str] | None], float | None]


class Worker:
    """A job in a thread of its own, run whenever a channel it follows is
    woken (``pbem.wake``) or ``wake`` is called (the safety net), never two
    runs at once; a wake-up during a run makes one more run after it."""

    def __init__(self, name: str, run: Woken, channels: Iterable[str] = ()) -> None:
        self.name = name
        self._run = run
        self.channels = tuple(channels)
        self._lock = threading.Lock()
        self._event = threading.Event()
        self._payloads: set[str] = set()
        self._everything = True  # the first run looks at everything
        self._stopping = threading.Event()
        self._unsubscribe: list[Callable[[], None]] = []
        self._thread = threading.Thread(target=self._loop, name=f"pbem-{name}", daemon=True)
        self.runs = 0

    def start(self, hub: wake.Hub | None = None) -> None:
        if hub is not None:
            self._unsubscribe = [hub.subscribe(channel, self.woken) for channel in self.channels]
        self._thread.start()

    def woken(self, payloads: frozenset[str] = frozenset()) -> None:
        """Run soon: for ``payloads``, or for everything when there are none."""
        with self._lock:
            if payloads:
                self._payloads |= payloads
            else:
                self._everything = True
        self._event.set()

    def wake(self) -> None:
        """Run soon, looking at everything (the safety net)."""
        self.woken()

    def stop(self) -> None:
        for unsubscribe in self._unsubscribe:
            unsubscribe()
        self._stopping.set()
        self._event.set()

    def _loop(self) -> None:
        while not self._stopping.is_set():
            self._event.clear()
            with self._lock:
                given = None if self._everything else frozenset(self._payloads)
                self._payloads, self._everything = set(), False
            again: float | None = None
            try:
                again = self._run(given)
            except Exception:  # a failing job must not stop its worker
                log.exception("scheduler: worker %s failed", self.name)
            self.runs += 1
            if not self._event.wait(timeout=max(0.0, again) if again is not None else None):
                with self._lock:
                    self._everything = True  # its own time came: look at everything


def _counted(name: str, job: Job, app: Flask) -> Woken:
    """A job that looks at everything each time, as a woken job."""
    run = _guarded(name, job, app)

    def woken(_given: frozenset[str] | None) -> None:
        run()
        return None

    return woken


def _sweeper(app: Flask) -> Woken:
    """The sweep as a woken job: sweeps when a check is due (or on the
    safety net), then sleeps until the earliest next check; a new check
    woken (channel ``sweep``, its POSIX time) brings that forward."""
    from pbem import db
    from pbem.models import ACTIVE, Game
    from pbem.services import gamestate

    run = _guarded("sweep", sweep_job, app)
    earliest: list[float | None] = [None]

    def woken(given: frozenset[str] | None) -> float | None:
        now = time.time()
        times = []
        for payload in given or ():
            try:
                times.append(float(payload))
            except ValueError:
                given = None
        if times:
            earliest[0] = min([t for t in (earliest[0],) if t is not None] + times)
        if given is None or (earliest[0] is not None and earliest[0] <= now + 0.05):
            run()
            with app.app_context(), Session(db.engine()) as session:
                first = session.exec(select(func.min(Game.next_check_at)).where(Game.status == ACTIVE)).one()
            earliest[0] = None if first is None else gamestate.posix_time(first)
        return None if earliest[0] is None else max(0.05, earliest[0] - time.time())

    return woken


def _bot_pool(app: Flask) -> tuple[Woken, ThreadPoolExecutor]:
    """The bots as a woken job: the games woken (channel ``games``, their
    ids; all of them on the safety net) where a bot is seated are each
    played in a thread of a pool of ``BOT_THREADS``, one thread per game at
    a time (a game woken while its bot thinks is looked at again after)."""
    from pbem import db
    from pbem.services import bots

    with app.app_context():
        engine = db.engine()
    pool = ThreadPoolExecutor(max_workers=max(1, int(app.config.get("BOT_THREADS", 2))),
                              thread_name_prefix="pbem-bot")
    lock = threading.Lock()
    busy: set[int] = set()
    again: set[int] = set()

    def play(game_id: int) -> None:
        while True:
            try:
                with app.app_context():
                    played = bots.play_game(engine, game_id)
                if played:
                    log.info("scheduler: bots played %s in game %s", played, game_id)
            except Exception:  # one game's trouble must not stop the others' bots
                log.exception("scheduler: bots: game %s", game_id)
            with lock:
                if game_id not in again:
                    busy.discard(game_id)
                    return
                again.discard(game_id)

    def woken(given: frozenset[str] | None) -> None:
        ids = None if given is None else {int(p) for p in given if p.isdigit()}
        if ids == set():
            return None
        for game_id in dict.fromkeys(g for g, _ in bots.due(engine, ids)):
            with lock:
                if game_id in busy:
                    again.add(game_id)
                    continue
                busy.add(game_id)
            pool.submit(play, game_id)
        return None

    return woken, pool


#: the jobs run by woken workers, and the channels that wake them
WOKEN = {"outbox": ("outbox",), "inbox": ("inbox",), "bots": ("games",), "sweep": ("sweep",)}


def build(app: Flask, blocking: bool = False, names: list[str] | None = None) -> BaseScheduler:
    """A scheduler with every job (or those named), each at its interval,
    each first run at once, never two runs of one job at the same time;
    the jobs of ``WOKEN`` run in ``Worker``s, woken at once when their work
    is committed and by the scheduler at their intervals."""
    from pbem import db

    scheduler = (BlockingScheduler if blocking else BackgroundScheduler)(timezone=timezone.utc)
    with app.app_context():
        engine = db.engine()
    workers: list[Worker] = []
    pools: list[ThreadPoolExecutor] = []
    for name, job in jobs().items():
        if names and name not in names:
            continue
        key, default = INTERVALS.get(name, (None, 60))
        seconds = int(app.config.get(key, default)) if key else default
        target: Callable[[], Any] = _guarded(name, job, app)
        if name in WOKEN:
            if name == "sweep":
                run = _sweeper(app)
            elif name == "bots":
                run, pool = _bot_pool(app)
                pools.append(pool)
            else:
                run = _counted(name, job, app)
            worker = Worker(name, run, WOKEN[name])
            workers.append(worker)
            target = worker.wake
        scheduler.add_job(target, "interval", seconds=seconds, id=name, name=name,
                          max_instances=1, coalesce=True, next_run_time=datetime.now(timezone.utc))
    listening = bool(workers) and engine.dialect.name == "postgresql"

    def started(_event: Any = None) -> None:
        if listening:
            wake.listen(engine)
        for worker in workers:
            worker.start(wake.hub(engine))

    def stopped(_event: Any = None) -> None:
        for worker in workers:
            worker.stop()
        for pool in pools:
            pool.shutdown(wait=False, cancel_futures=True)
        if listening:
            wake.unlisten(engine)

    scheduler.add_listener(stopped, EVENT_SCHEDULER_SHUTDOWN)
    scheduler.pbem_workers = workers  # for tests and the command's message
    original_start = scheduler.start

    def start(*args: Any, **kwargs: Any) -> None:
        started()
        original_start(*args, **kwargs)

    scheduler.start = start  # the workers start with the scheduler
    return scheduler


def run_once(app: Flask, names: list[str] | None = None) -> dict[str, int]:
    """Run each job (or those named) once, in order; what each did."""
    return {name: _guarded(name, job, app)() for name, job in jobs().items() if not names or name in names}


def start_embedded(app: Flask) -> None:
    """For ``pbem serve``: run the jobs in a background thread of this
    process, unless ``SCHEDULER`` is "off" (then run ``pbem scheduler``)."""
    if str(app.config.get("SCHEDULER", "embedded")).lower() == "off":
        log.info("scheduler: SCHEDULER is off; run 'pbem scheduler' to send reminders and time turns out")
        return
    scheduler = build(app)
    scheduler.start()
    app.extensions["pbem_scheduler"] = scheduler
