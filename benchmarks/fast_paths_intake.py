"""Fast-paths row for storing an incoming message: the mail listener's
throughput (messages stored and answered 250 per second) against its floor,
an aiosmtpd listener whose store writes the message to a file and fsyncs it.

Both are ``mail.receive`` listeners on loopback (LMTP, like ``pbem mail
serve`` behind a mail server), fed by a real ``smtplib.LMTP`` client sending
distinct turn replies over one connection each; the real one stores
through ``pbem.mailrobot.listener.start`` (``process=False``: what happens
before the 250).  The two get a message in turn (floor, real, floor, ...;
``fast_paths_common.interleaved_ms``), so both share the machine's ups and
downs; throughput is one over the median time of a message, and the figure
is the ratio of the two.  Run by hand:

    .venv/bin/python benchmarks/fast_paths_intake.py

(with ``PBEM_TEST_POSTGRES_URL`` set, PostgreSQL too).
"""

from __future__ import annotations

import itertools
import os
import smtplib
import socket
import sys
import tempfile
import uuid
from typing import Any, Callable

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))  # fast_paths_common, however we were imported

from fast_paths_common import Database, Row, databases, interleaved_ms

REPEATS = 400
GOAL = 0.7
_numbers = itertools.count()


def turn_reply() -> bytes:
    """A distinct reply to a game's mail carrying a turn, about 1.5 KB."""
    n = next(_numbers)
    quoted = "\r\n".join(f"> line {i} of the board mail we quote back" for i in range(25))
    return (f"From: Bob <bob@example.org>\r\nTo: play+g1p2.tok@pbem.test\r\nSubject: Re: Game 1: your turn\r\n"
            f"Message-ID: <{uuid.uuid4().hex}.{n}@client.example>\r\nDate: Wed, 25 Nov 2026 12:00:00 +0000\r\n"
            f"In-Reply-To: <g1.p3@pbem.test>\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n"
            f"\r\n#4 b2-c2 G P:d3\r\n\r\n{quoted}\r\n").encode()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def file_store(folder: str) -> Callable[[bytes, Any, Any], None]:
    """The floor's store: the message to a file of its own, fsynced."""
    numbers = itertools.count()

    def store(raw: bytes, _from: Any, _to: Any) -> None:
        fd = os.open(os.path.join(folder, f"{next(numbers)}.eml"), os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            os.write(fd, raw)
            os.fsync(fd)
        finally:
            os.close(fd)

    return store


class Sender:
    """One LMTP connection sending distinct turn replies, each answered
    250 before the next is sent."""

    def __init__(self, port: int) -> None:
        self.client = smtplib.LMTP("127.0.0.1", port)

    def send(self) -> None:
        refused = self.client.sendmail("bob@example.org", ["play+g1p2.tok@pbem.test"], turn_reply())
        assert refused == {}, refused

    def close(self) -> None:
        self.client.quit()


def rows(database: Database, repeats: int = REPEATS) -> list[Row]:
    from mail.receive import start_listener
    from pbem import create_app
    from pbem.mailrobot import listener

    app = create_app({"SECRET_KEY": "bench", "BASE_URL": "http://bench", "DATABASE_URL": database.fresh_url()})
    floor_port, real_port = free_port(), free_port()
    floor = start_listener(file_store(tempfile.mkdtemp(prefix="pbem-bench-eml-")), protocol="lmtp",
                           host="127.0.0.1", port=floor_port)
    real = listener.start(app, protocol="lmtp", host="127.0.0.1", port=real_port, process=False)
    senders = {"floor": Sender(floor_port), "real": Sender(real_port)}
    try:
        found = interleaved_ms({name: sender.send for name, sender in senders.items()}, repeats=repeats, warmup=20)
    finally:
        for sender in senders.values():
            sender.close()
        floor.stop()
        real.stop()
        app.extensions["pbem_engine"].dispose()
    measured, floored = 1000 / found["real"], 1000 / found["floor"]
    return [Row("storing an incoming message (LMTP listener, before the 250)", database.name, "at least x", GOAL,
                measured, floor=floored, unit="messages/s",
                floor_name="an aiosmtpd handler that writes the message to a file and fsyncs it",
                note=f"1 / median time of {repeats} messages each, sent alternately")]


def main() -> None:
    for database in databases():
        for row in rows(database):
            print(f"{row.database:10} {row.path}: {row.measured:.0f} {row.unit} vs {row.floor:.0f} "
                  f"({row.figure:.2f}x), goal {row.kind} {row.goal}: {'ok' if row.passed else 'MISSED'}  "
                  f"[{row.note}]", flush=True)


if __name__ == "__main__":
    main()
