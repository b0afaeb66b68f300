"""The mail settings, read from the Flask app's config (see docs/mail.md
for the keys)."""

from __future__ import annotations

from dataclasses import dataclass
from email.utils import parseaddr
from pathlib import Path
from typing import Any, Mapping

from flask import Flask

from mail.drain import Backoff
from mail.imap import ImapConfig
from mail.send import SmtpConfig

REPLY_PREFIX = "play"


@dataclass(frozen=True)
class MailSettings:
    from_addr: str  # the From header of everything we send
    address: str  # the bare address in from_addr
    domain: str  # of the reply addresses
    robot_address: str  # the plain address (no token)
    secrets: tuple[str, ...]  # newest first; the first signs reply addresses

    @property
    def loop_id(self) -> str:
        """Our X-Loop value: mail carrying it is our own, never answered."""
        return self.address

    @property
    def our_addresses(self) -> tuple[str, ...]:
        return (self.address, self.robot_address)


def _text(value: Any) -> str | None:
    return str(value).strip() if value not in (None, "") else None


def mail_settings(config: Mapping[str, Any]) -> MailSettings:
    from_addr = _text(config.get("MAIL_FROM")) or "pbem@localhost"
    address = parseaddr(from_addr)[1].lower() or "pbem@localhost"
    domain = (_text(config.get("MAIL_DOMAIN")) or address.rpartition("@")[2] or "localhost").lower()
    robot = (_text(config.get("MAIL_ROBOT_ADDRESS")) or f"{REPLY_PREFIX}@{domain}").lower()
    secret = config.get("MAIL_TOKEN_SECRET") or config["SECRET_KEY"]
    secrets = (secret,) if isinstance(secret, str) else tuple(str(s) for s in secret)
    return MailSettings(from_addr, address, domain, robot, secrets)


def smtp_config(config: Mapping[str, Any]) -> SmtpConfig | None:
    """The SMTP server to send through, or None for the .eml folder."""
    host = _text(config.get("SMTP_HOST"))
    if host is None:
        return None
    return SmtpConfig(
        host=host,
        port=int(config["SMTP_PORT"]) if config.get("SMTP_PORT") else None,
        security=(_text(config.get("SMTP_SECURITY")) or "none").lower(),
        username=_text(config.get("SMTP_USERNAME")),
        password=config.get("SMTP_PASSWORD") or None,
        timeout=float(config.get("SMTP_TIMEOUT") or 30),
        data_timeout=float(config.get("SMTP_DATA_TIMEOUT") or 600),
    )


def eml_folder(app: Flask) -> Path:
    folder = _text(app.config.get("MAIL_EML_FOLDER"))
    return Path(folder) if folder else Path(app.instance_path) / "mail"


def backoff(config: Mapping[str, Any]) -> Backoff:
    return Backoff(base=float(config.get("MAIL_RETRY_BASE", 60)), max_attempts=int(config.get("MAIL_MAX_ATTEMPTS", 12)),
                   lifetime=float(config.get("MAIL_QUEUE_LIFETIME", 5 * 24 * 3600)),
                   uncertain_delay=float(config.get("MAIL_UNCERTAIN_RETRY", 2 * 3600)))


def imap_config(config: Mapping[str, Any]) -> ImapConfig | None:
    """The mailbox to poll, or None when IMAP is not configured."""
    host = _text(config.get("IMAP_HOST"))
    if host is None or not _text(config.get("IMAP_USERNAME")):
        return None
    return ImapConfig(
        host=host,
        port=int(config["IMAP_PORT"]) if config.get("IMAP_PORT") else None,
        security=(_text(config.get("IMAP_SECURITY")) or "ssl").lower(),
        username=str(config["IMAP_USERNAME"]),
        password=str(config.get("IMAP_PASSWORD") or ""),
        folder=_text(config.get("IMAP_FOLDER")) or "INBOX",
    )
