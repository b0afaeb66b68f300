"""Configuration: built-in defaults, then the instance folder's ``pbem.cfg``,
then environment variables, then the ``test_config`` given to ``create_app``.

The embedded default needs nothing installed: SQLite at
``instance/pbem.sqlite3`` and mail kept in the outbox table.

Every key of ``defaults`` can be set from the environment as ``PBEM_<KEY>``
(and the names in ``ENVIRONMENT``), read with the type of its default
(``TYPES`` where the default is None): a value that does not fit stops the
start-up with a ``ConfigError`` naming the variable and what it takes.
``PBEM_INSTANCE`` places the instance folder (``instance_folder``).
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path
from typing import Any

import click
from flask import Flask

#: the environment variable naming the instance folder (database, secret key,
#: pbem.cfg and kept mail); ``pbem --instance PATH`` sets it for one command
INSTANCE_VARIABLE = "PBEM_INSTANCE"

#: environment variables read at start-up, and the config key each sets
#: (besides PBEM_<KEY> for every key of ``defaults``)
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


class ConfigError(ValueError):
    """A setting that cannot be used; the message names it and what it takes."""


def _intervals() -> dict[str, int]:
    from pbem.scheduler import INTERVALS

    return {key: seconds for key, seconds in INTERVALS.values()}


def defaults(instance_path: str) -> dict[str, Any]:
    return {
        "SECRET_KEY": None,  # filled from instance/secret_key when unset
        "DATABASE_URL": "sqlite:///" + str(Path(instance_path) / "pbem.sqlite3"),
        "DATABASE_SCHEMA": None,  # PostgreSQL schema to use (tests use a fresh one)
        "AUTO_MIGRATE": True,  # run the Alembic migrations on start-up
        "BASE_URL": None,  # in mailed links, never from a request; None: pbem serve's own, else localhost:5000
        "MAIL_FROM": "pbem@localhost",
        "SIGN_IN_MAX_AGE": 3600,  # seconds a mailed sign-in link stays valid
        # invitation limits over 24 hours (pbem.services.invitations): sent by one player; received by one
        # address that has not played here yet; received by one that has
        "INVITATIONS_PER_DAY": 20,
        "INVITATIONS_TO_NEWCOMER_PER_DAY": 3,
        "INVITATIONS_TO_PLAYER_PER_DAY": 10,
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
        "MAIL_SEND_NICE": 10,  # the nice increment of the thread that sends mail (0: as the process; Linux)
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
        # pbem mail serve (the listener a mail server delivers to in production)
        "MAIL_SERVE_PROTOCOL": "lmtp",  # lmtp or smtp
        "MAIL_SERVE_HOST": "127.0.0.1",
        "MAIL_SERVE_PORT": 8024,
        # the scheduler (docs/schedule.md): embedded in pbem serve, or off; job intervals in seconds
        "SCHEDULER": "embedded",
        **_intervals(),  # SWEEP_SECONDS, DIGEST_SECONDS, OUTBOX_SECONDS, INBOX_SECONDS, IMAP_SECONDS
        "BOT_THREADS": 2,  # games whose computer opponents think at the same time (pbem.scheduler)
        "DIGEST_HOUR": 7,  # UTC hour after which the daily digest goes out
        "SIGN_IN_PER_HOUR": 3,  # sign-in links mailed to one address in any hour
        "VACATION_DAYS": 30,  # each player's yearly vacation allowance
        "PUZZLE_SOLVER_SECONDS": 10.0,  # the solver's budget for a new puzzle's par (notation/greenhouse/guide.md)
        # event streams (docs/api.md, "Event streams"): at most this many open in one process (more: 503),
        # a heartbeat every so many seconds, a safety-net read of new events, how long events are kept
        "EVENT_STREAMS": 200,
        "EVENT_HEARTBEAT_SECONDS": 15,
        "EVENT_POLL_SECONDS": 20,
        "EVENT_KEEP_HOURS": 72,
    }


#: the type of keys whose default (None, or a whole number where fractions
#: make sense) does not tell it
TYPES: dict[str, type] = {
    "SMTP_PORT": int,
    "IMAP_PORT": int,
    "DEV_MAILBOX": bool,
    "WTF_CSRF_TIME_LIMIT": int,
    "SMTP_TIMEOUT": float,
    "MAIL_RETRY_BASE": float,
    "PUZZLE_SOLVER_SECONDS": float,
}

#: the smallest and largest whole number a key takes (others: 0 and up)
_RANGES: dict[str, tuple[int, int | None]] = {"DIGEST_HOUR": (0, 23), "WTF_CSRF_TIME_LIMIT": (1, None),
                                              "SIGN_IN_MAX_AGE": (1, None), "MAIL_MAX_ATTEMPTS": (1, None),
                                              "DIAGRAM_CACHE_SIZE": (1, None), "MAX_CONTENT_LENGTH": (1024, None),
                                              "MAIL_SEND_BUDGET": (1, None), "BOT_THREADS": (1, 64),
                                              "MAIL_SEND_NICE": (0, 19)}
#: keys that take one of a few words
CHOICES: dict[str, tuple[str, ...]] = {
    "MAIL_LISTENER_PROTOCOL": ("smtp", "lmtp"),
    "MAIL_SERVE_PROTOCOL": ("lmtp", "smtp"),
    "SMTP_SECURITY": ("none", "starttls", "ssl"),
    "IMAP_SECURITY": ("ssl", "starttls", "none"),
    "SCHEDULER": ("embedded", "off"),
}
_TRUE = ("1", "true", "yes", "on")
_FALSE = ("0", "false", "no", "off")


def _range(key: str) -> tuple[int, int | None]:
    if key.endswith("_PORT"):
        return 1, 65535
    if key.endswith("_SECONDS"):
        return 1, None
    return _RANGES.get(key, (0, None))


def parse_value(key: str, text: str, default: Any, variable: str) -> Any:
    """``text`` read as the type of ``key`` (from ``TYPES`` or the type of
    its ``default``); ``ConfigError`` naming ``variable`` when it does not fit."""
    kind = TYPES.get(key) or (type(default) if default is not None else str)
    value = text.strip()
    if kind is bool:
        if value.lower() in _TRUE:
            return True
        if value.lower() in _FALSE:
            return False
        raise ConfigError(f"{variable} is true or false (1/0, yes/no, on/off), not {_shown(text)}")
    if kind is int:
        low, high = _range(key)
        expected = f"a whole number from {low}" + (f" to {high}" if high is not None else "")
        if not value.isascii() or not value.isdigit() or len(value) > 12 or not (
                low <= int(value) and (high is None or int(value) <= high)):
            raise ConfigError(f"{variable} is {expected}, not {_shown(text)}")
        return int(value)
    if kind is float:
        try:
            number = float(value)
        except ValueError:
            number = -1.0
        if not number > 0 or number == float("inf"):
            raise ConfigError(f"{variable} is a number of seconds greater than 0, such as 30 or 2.5, not {_shown(text)}")
        return number
    if key in CHOICES:
        if value.lower() not in CHOICES[key]:
            raise ConfigError(f"{variable} is one of {', '.join(CHOICES[key])}, not {_shown(text)}")
        return value.lower()
    return text


def _shown(text: str) -> str:
    return repr(text) if len(text) <= 40 else repr(text[:40]) + "..."


def environment(known: dict[str, Any]) -> dict[str, Any]:
    """The settings the environment gives: ``PBEM_<KEY>`` for every key of
    ``known`` (the defaults) and the names of ``ENVIRONMENT``, typed; empty
    variables count as unset."""
    variables = {f"PBEM_{key}": key for key in known} | ENVIRONMENT
    found: dict[str, Any] = {}
    for variable, key in variables.items():
        text = os.environ.get(variable)
        if text:
            found[key] = parse_value(key, text, known.get(key), variable)
    return found


def instance_folder() -> str | None:
    """The instance folder ``PBEM_INSTANCE`` names, made absolute (a
    relative path is taken from the current directory); None when unset."""
    text = os.environ.get(INSTANCE_VARIABLE, "").strip()
    return os.path.abspath(os.path.expanduser(text)) if text else None


def load(app: Flask, test_config: dict[str, Any] | None) -> None:
    """Fill ``app.config`` in order: defaults, instance file, environment,
    ``test_config``."""
    known = defaults(app.instance_path)
    app.config.from_mapping(known)
    if test_config is None:
        from_environment = environment(known)  # first: a bad value stops before anything is read or made
        app.config.from_pyfile("pbem.cfg", silent=True)
        app.config.update(from_environment)
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
