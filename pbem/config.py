"""Configuration: built-in defaults, then the instance folder's ``pbem.cfg``,
then environment variables, then the ``test_config`` given to ``create_app``.

The embedded default needs nothing installed: SQLite at
``instance/pbem.sqlite3`` and mail kept in the outbox table.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import Any

from flask import Flask

#: environment variables read at start-up, and the config key each sets
ENVIRONMENT = {
    "DATABASE_URL": "DATABASE_URL",
    "PBEM_SECRET_KEY": "SECRET_KEY",
    "PBEM_BASE_URL": "BASE_URL",
    "PBEM_MAIL_FROM": "MAIL_FROM",
}


def defaults(instance_path: str) -> dict[str, Any]:
    return {
        "SECRET_KEY": None,  # filled from instance/secret_key when unset
        "DATABASE_URL": "sqlite:///" + str(Path(instance_path) / "pbem.sqlite3"),
        "DATABASE_SCHEMA": None,  # PostgreSQL schema to use (tests use a fresh one)
        "AUTO_MIGRATE": True,  # run the Alembic migrations on start-up
        "BASE_URL": None,  # used in mailed links; None: the request's own host
        "MAIL_FROM": "pbem@localhost",
        "SIGN_IN_MAX_AGE": 3600,  # seconds a mailed sign-in link stays valid
        "DEV_MAILBOX": None,  # /dev/mail; None: on exactly when debug is on
        "DIAGRAM_CACHE_SIZE": 512,
        "WTF_CSRF_TIME_LIMIT": None,
        "SESSION_COOKIE_SAMESITE": "Lax",
        "SESSION_COOKIE_HTTPONLY": True,
    }


def load(app: Flask, test_config: dict[str, Any] | None) -> None:
    """Fill ``app.config`` in order: defaults, instance file, environment,
    ``test_config``."""
    app.config.from_mapping(defaults(app.instance_path))
    if test_config is None:
        app.config.from_pyfile("pbem.cfg", silent=True)
        for variable, key in ENVIRONMENT.items():
            if os.environ.get(variable):
                app.config[key] = os.environ[variable]
    else:
        app.config.from_mapping(test_config)
    if str(app.config.get("BASE_URL") or "").startswith("https://"):
        app.config["SESSION_COOKIE_SECURE"] = True
    if not app.config["SECRET_KEY"]:
        app.config["SECRET_KEY"] = _instance_secret(Path(app.instance_path))


def _instance_secret(instance: Path) -> str:
    """A random secret kept in ``instance/secret_key``, made on first run, so
    sign-in links and sessions survive a restart."""
    path = instance / "secret_key"
    try:
        text = path.read_text(encoding="ascii").strip()
        if text:
            return text
    except OSError:
        pass
    key = secrets.token_urlsafe(48)
    try:
        path.write_text(key + "\n", encoding="ascii")
        path.chmod(0o600)
    except OSError:
        pass
    return key


def dev_mailbox_enabled(app: Flask) -> bool:
    setting = app.config.get("DEV_MAILBOX")
    return bool(app.debug) if setting is None else bool(setting)
