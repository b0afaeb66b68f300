"""``pbem scheduler``: the background jobs (deadline sweep, digest, mail,
bots) as a process of their own, for production next to gunicorn; the
workers among them wake when their work is committed (``pbem.scheduler``)."""

from __future__ import annotations

import logging

import click

from pbem.cli.settings import FC, setting_option
from pbem.scheduler import INTERVALS


def _interval_options(command: FC) -> FC:
    """``--sweep-seconds N`` and so on: one option per job's interval."""
    for name, (key, seconds) in reversed(sorted(INTERVALS.items())):
        command = setting_option(key, f"--{name}-seconds", type=click.IntRange(min=1), metavar="SECONDS",
                                 help=f"run the {name} job every SECONDS (default: {seconds})")(command)
    return command


@click.command("scheduler")
@click.option("--once", is_flag=True, help="run each job once, print what it did, and exit")
@click.option("--job", "names", multiple=True, type=click.Choice(sorted(INTERVALS) + []),
              help="run only this job (repeatable); default: all")
@_interval_options
def scheduler(once: bool, names: tuple[str, ...]) -> None:
    """Run the deadline sweep, the daily digest and the mail jobs on a
    schedule (DATABASE_URL or the instance folder's database).  Run one of
    these per deployment, never one per web worker."""
    from pbem import create_app
    from pbem import scheduler as jobs

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s: %(message)s")
    app = create_app()
    if once:
        for name, done in jobs.run_once(app, list(names) or None).items():
            click.echo(f"{name}: {done}")
        return
    running = jobs.build(app, blocking=True, names=list(names) or None)
    woken = {worker.name for worker in running.pbem_workers}
    every = ", ".join(f"{job.id} {'woken when work is committed, and ' if job.id in woken else ''}"
                      f"every {int(job.trigger.interval.total_seconds())} s" for job in running.get_jobs())
    click.echo(f"pbem: scheduler running ({every}); stop it with Ctrl-C")
    try:
        running.start()
    except (KeyboardInterrupt, SystemExit):
        pass
