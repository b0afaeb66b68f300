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

import click
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
        "DEV_MAILBOX": None,  # /dev/mail; None: on exactly when debug is on
        "DIAGRAM_CACHE_SIZE": 512,
        "MAX_CONTENT_LENGTH": 64 * 1024,  # bytes in a request body; a larger one is refused with 413
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
        "MAIL_QUEUE_LIFETIME": 5 * 24 * 3600,  # seconds of failing (the SMTP server down included) before giving up
        "MAIL_UNCERTAIN_RETRY": 2 * 3600,  # seconds before resending a message whose end went unanswered
        "SMTP_DATA_TIMEOUT": 600,  # seconds to wait for the answer to the end of a message (RFC 5321: 10 min)
        "MAIL_SEND_BUDGET": 25,  # seconds one outbox run may keep sending while mail is due (< OUTBOX_SECONDS)
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
        if "PBEM_DEBUG" in os.environ:  # debug mode (and /dev/mail) only when asked for
            app.config["DEBUG"] = env_flag("PBEM_DEBUG", os.environ["PBEM_DEBUG"])
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


def env_flag(name: str, value: str) -> bool:
    """An on/off environment variable: 1/true/yes/on or 0/false/no/off/empty."""
    text = value.strip().lower()
    if text in ("1", "true", "yes", "on") or text in ("", "0", "false", "no", "off"):
        return text in ("1", "true", "yes", "on")
    raise click.ClickException(f"{name} is {value!r}; write 1 to turn it on, or 0 (or leave it unset) for off")


def dev_mailbox_enabled(app: Flask) -> bool:
    """Whether /dev/mail is served: ``DEV_MAILBOX``, or else exactly when
    debug mode was asked for (``DEBUG``, ``PBEM_DEBUG``, ``pbem serve --debug``)."""
    setting = app.config.get("DEV_MAILBOX")
    return bool(app.debug) if setting is None else bool(setting)
