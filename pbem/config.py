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
    "PBEM_MAIL_DOMAIN": "MAIL_DOMAIN",
    "PBEM_SMTP_HOST": "SMTP_HOST",
    "PBEM_SMTP_PORT": "SMTP_PORT",
    "PBEM_SMTP_SECURITY": "SMTP_SECURITY",
    "PBEM_SMTP_USERNAME": "SMTP_USERNAME",
    "PBEM_SMTP_PASSWORD": "SMTP_PASSWORD",
    "PBEM_IMAP_HOST": "IMAP_HOST",
    "PBEM_IMAP_PORT": "IMAP_PORT",
    "PBEM_IMAP_SECURITY": "IMAP_SECURITY",
    "PBEM_IMAP_USERNAME": "IMAP_USERNAME",
    "PBEM_IMAP_PASSWORD": "IMAP_PASSWORD",
    "PBEM_IMAP_FOLDER": "IMAP_FOLDER",
    "PBEM_MAIL_LISTENER_PORT": "MAIL_LISTENER_PORT",
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
        # invitation limits over 24 hours (pbem.services.invitations): sent by one player; received by one
        # address that has not played here yet; received by one that has
        "INVITATIONS_PER_DAY": 20,
        "INVITATIONS_TO_NEWCOMER_PER_DAY": 3,
        "INVITATIONS_TO_PLAYER_PER_DAY": 10,
        "DEV_MAILBOX": None,  # /dev/mail; None: on exactly when debug is on
        "DIAGRAM_CACHE_SIZE": 512,
        "WTF_CSRF_TIME_LIMIT": None,
        "SESSION_COOKIE_SAMESITE": "Lax",
        "SESSION_COOKIE_HTTPONLY": True,
        # mail (docs/mail.md): reply addresses, sending, receiving
        "MAIL_DOMAIN": None,  # domain of play+<token>@ reply addresses; None: MAIL_FROM's domain
        "MAIL_ROBOT_ADDRESS": None,  # the plain address for help/games/new; None: play@MAIL_DOMAIN
        "MAIL_TOKEN_SECRET": None,  # signs reply addresses (a list rotates keys); None: SECRET_KEY
        "SMTP_HOST": None,  # None: keep sent mail as .eml files in MAIL_EML_FOLDER
        "SMTP_PORT": None,  # None: 25, 587 with starttls, 465 with ssl
        "SMTP_SECURITY": "none",  # none, starttls or ssl
        "SMTP_USERNAME": None,
        "SMTP_PASSWORD": None,
        "SMTP_TIMEOUT": 30,
        "MAIL_EML_FOLDER": None,  # None: instance/mail
        "MAIL_RETRY_BASE": 60,  # seconds before the first retry; doubles each time, at most 6 hours
        "MAIL_MAX_ATTEMPTS": 12,  # failed delivery attempts before giving up
        "MAIL_LISTENER": True,  # pbem serve starts a listener on the embedded default
        "MAIL_LISTENER_PROTOCOL": "smtp",  # smtp or lmtp
        "MAIL_LISTENER_HOST": "127.0.0.1",
        "MAIL_LISTENER_PORT": 8025,
        "IMAP_HOST": None,  # None: no IMAP polling
        "IMAP_PORT": None,  # None: 993 with ssl, else 143
        "IMAP_SECURITY": "ssl",  # ssl, starttls or none
        "IMAP_USERNAME": None,
        "IMAP_PASSWORD": None,
        "IMAP_FOLDER": "INBOX",
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
