"""Background work that runs beside the web server: the hook where the
deadline scheduler (APScheduler) and the mail listener start.  Nothing runs
here yet; ``pbem serve`` calls ``start_background`` once before serving, and
a gunicorn deployment runs these as their own processes instead."""

from __future__ import annotations

from typing import Callable

from flask import Flask

#: callables run once, in order, with the app, when ``pbem serve`` starts
BACKGROUND: list[Callable[[Flask], None]] = []


def _scheduler(app: Flask) -> None:
    from pbem.scheduler import start_embedded

    start_embedded(app)


BACKGROUND.append(_scheduler)


def start_background(app: Flask) -> None:
    for start in BACKGROUND:
        start(app)
