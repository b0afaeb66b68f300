"""Email in and out for pbem: parsing, composing, SMTP/LMTP/IMAP.  No Flask.

The package is a library the server calls; it never touches the database.

* :mod:`mail.receive` -- LMTP/SMTP listeners and pipe delivery that hand the raw
  message to a ``store`` callback before answering 250; :func:`message_key`.
* :mod:`mail.keys` -- :func:`message_key`, the deduplication key of a raw message.
* :mod:`mail.imap` -- IMAP polling, resuming by UID.
* :mod:`mail.worker` -- processing stored messages, with a shunt for failures.
* :mod:`mail.inbound` -- parse a raw message into sender, tokens, threading
  headers and command lines; :func:`should_not_reply` (loop/auto-reply guard).
* :mod:`mail.body` -- the text a person wrote (charsets, HTML, quotes, signatures).
* :mod:`mail.commands` -- the command language of mail to the robot.
* :mod:`mail.tokens` -- signed ``play+<token>@<domain>`` reply addresses.
* :mod:`mail.compose` -- notifications and replies as ``EmailMessage``.
* :mod:`mail.send` -- SMTP sender and ``.eml`` folder sink.
* :mod:`mail.drain` -- the outbox drain loop (backoff, kinds of failure).

See ``docs/mail.md`` for the design and the command syntax.
"""
from mail.errors import MailError

__all__ = ["MailError"]
