"""How long the mail parser takes on huge bodies (run by hand; prints figures).

    .venv/bin/python benchmarks/mail_parse.py

A ~4.5 MB plain-text reply with quoted history, and an HTML-only mail of
300,000 paragraphs, each parsed a few times with ``mail.inbound.parse_message``.
"""
from __future__ import annotations

import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from mail.commands import parse_commands
from mail.inbound import parse_message

HEAD = (b"From: Bob <bob@example.org>\r\nTo: play+a4bmaedirjoy5qklwprq@pbem.test\r\n"
        b"Subject: Re: Game 7\r\nMessage-ID: <huge@client.example>\r\n")


def bodies() -> dict[str, bytes]:
    filler = ("> " + "x" * 70 + "\r\n") * 60_000
    return {
        "plain 4.5 MB quoted": HEAD + b"Content-Type: text/plain\r\n\r\nb2-c2 G P:d3\r\n\r\n"
                               b"On Mon, 1 Jan 2024, pbem wrote:\r\n" + filler.encode(),
        "html 300k paragraphs": HEAD + b"Content-Type: text/html\r\n\r\n<div>legal</div>" + b"<p>word</p>" * 300_000,
    }


def main(rounds: int = 3) -> None:
    for name, raw in bodies().items():
        times = []
        for _ in range(rounds):
            start = time.perf_counter()
            parsed = parse_message(raw, loop_id="pbem@pbem.test", our_addresses=["robot@pbem.test"])
            parse_commands(parsed.lines)
            times.append(time.perf_counter() - start)
        print(f"{name:24} {len(raw) / 1e6:6.1f} MB  best {min(times):6.2f} s  worst {max(times):6.2f} s")


if __name__ == "__main__":
    main()
