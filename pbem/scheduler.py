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
from datetime import datetime, timezone
from typing import Callable

from apscheduler.schedulers.background import BackgroundScheduler
from apscheduler.schedulers.base import BaseScheduler
from apscheduler.schedulers.blocking import BlockingScheduler
from flask import Flask

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


def build(app: Flask, blocking: bool = False, names: list[str] | None = None) -> BaseScheduler:
    """A scheduler with every job (or those named), each at its interval,
    each first run at once, never two runs of one job at the same time."""
    scheduler = (BlockingScheduler if blocking else BackgroundScheduler)(timezone=timezone.utc)
    for name, job in jobs().items():
        if names and name not in names:
            continue
        key, default = INTERVALS.get(name, (None, 60))
        seconds = int(app.config.get(key, default)) if key else default
        scheduler.add_job(_guarded(name, job, app), "interval", seconds=seconds, id=name, name=name,
                          max_instances=1, coalesce=True, next_run_time=datetime.now(timezone.utc))
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
