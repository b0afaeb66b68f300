"""Mail that costs little to send (issue 52, point 6): mails sent per
CPU-second through the real outbox drain, with the PNG board attached.

    .venv/bin/python benchmarks/mail_cost.py [--games N] [--plies N] [--passes N] [--sink eml|smtp|both]

How it measures: the pbem app on a fresh SQLite database (a PostgreSQL
schema too when ``PBEM_TEST_POSTGRES_URL`` is set) and players who play
games of every registered game against each other by random play (a
seeded ``random.Random``; for a game with very many turns, a random one of
its first ``FIRST_TURNS`` legal turns) through the service's door
(``pbem.services.turns.submit_turn``), untimed: the outbox then holds the
mail those games queue (invitations, the start, "your turn", "turn
played", game over..., and for half the turns, as if played by mail,
the robot's answer "You played ...", with the board), one row a recipient, each to be drawn at send time
at its own ply for its own seat.  Then ``pbem.mailrobot.outgoing.drain``
sends all of them, once into the ``.eml`` folder sink of the embedded
default and once over SMTP to an aiosmtpd sink (a separate process, so its
CPU is not counted), and the figure is the rows sent divided by the
benchmark process's CPU time (``time.process_time``) spent in the drain.
Between passes the rows are made due again and the cache of drawn boards
(``notation.drawing.render``'s) and of composed messages are emptied, so
every pass draws every board as a server sending that mail the first time
does; the sprite and empty-board caches stay warm, as on a server that has
mailed the game before.

The floor, measured in the same run and the same way: as many mails
without a game (a "reply" row of plain text, no board: the outbox's
claims and marks, composing and the transport alone) sent by the same
drain into the same sink.  The goal (issue 52) is at least 300 mails per
CPU-second with the board attached; the floor says how much of a mail's
cost is the outbox and the transport, which no board drawing can save.

Not part of the test command; results go in ``benchmarks/results/mail_cost.md``.
"""

from __future__ import annotations

import argparse
import logging
import os
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from itertools import islice
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from fast_paths_common import Database, databases

GOAL = 300.0  # mails per CPU-second, the PNG board attached
#: a random one of at most this many of a position's first legal turns is played (Martian Greenhouse has millions)
FIRST_TURNS = 400
#: the share of turns played by mail, answered by the robot's "You played ... The board now:" (the only
#: mail a one-player game such as Martian Greenhouse sends during play)
MAIL_PLAYED = 0.5
#: players per game beyond the fewest, for games that take more (a sample of both)
EXTRA_PLAYERS = {"logger": 1, "attactics": 2, "alheimur": 2, "taiga": 1}


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class SmtpSink:
    """An aiosmtpd sink in a child process (its CPU is not ours), keeping nothing."""

    def __init__(self) -> None:
        from mail.send import wait_for_port

        self.port = _free_port()
        self.process = subprocess.Popen([sys.executable, "-m", "aiosmtpd", "-n", "-l", f"127.0.0.1:{self.port}",
                                         "-c", "aiosmtpd.handlers.Sink"], stdout=subprocess.DEVNULL,
                                        stderr=subprocess.DEVNULL)
        if not wait_for_port("127.0.0.1", self.port, 20.0):
            self.close()
            raise SystemExit("the aiosmtpd sink did not start")

    def close(self) -> None:
        self.process.terminate()
        self.process.wait(10)


class Bench:
    """The app on a fresh database, the games played and their mail queued."""

    def __init__(self, database: Database, folder: str) -> None:
        from pbem import create_app

        self.folder = folder
        self.app = create_app({"SECRET_KEY": "bench", "DATABASE_URL": database.fresh_url(),
                               "BASE_URL": "http://bench.example", "MAIL_FROM": "pbem <pbem@bench.example>",
                               "MAIL_EML_FOLDER": os.path.join(folder, "mail")})
        self.engine = self.app.extensions["pbem_engine"]

    # -- the games --------------------------------------------------------
    def play(self, games: int, plies: int, seed: int) -> Counter[str]:
        """``games`` games of every registered game (of the fewest players,
        and of more where the game takes more), each played by random turns
        for at most ``plies`` turns; the rows queued, by game."""
        from sqlmodel import func, select

        from notation import registry
        from pbem.db import get_session
        from pbem.models import OutboxMessage
        from pbem.services.accounts import player_for_email

        chooser = random.Random(seed)
        queued: Counter[str] = Counter()
        with self.app.app_context():
            session = get_session()
            players = [player_for_email(session, f"p{n}@bench.example") for n in range(8)]
            # a few read their mail in French: a message is built per language
            for player in players[5:]:
                player.language = "fr"
                session.add(player)
            session.commit()
            for name in registry.names():
                rules = registry.get(name).rules
                for index in range(games):
                    count = min(rules.max_players, rules.min_players + (EXTRA_PLAYERS.get(name, 0) if index % 2 else 0))
                    seated = chooser.sample(players, count)
                    before = session.exec(select(func.count()).select_from(OutboxMessage)).one()
                    self._one_game(session, name, seated, plies, chooser)
                    queued[name] += session.exec(select(func.count()).select_from(OutboxMessage)).one() - before
        return queued

    def _one_game(self, session: Any, name: str, seated: list[Any], plies: int, chooser: random.Random) -> None:
        from pbem.models import Game
        from pbem.services import games, outbox
        from pbem.services.stored import kind_of, state_of
        from pbem.services.turns import submit_turn

        game = games.create_game(session, seated[0], name, [p.email for p in seated])
        for player in seated[1:]:
            game = games.accept(session, game.id, player)
        kind = kind_of(game)
        for _ in range(plies):
            session.refresh(game)
            if game.status != "active":
                break
            state = state_of(game)
            lazy = getattr(kind.rules, "iter_turns", None)
            if callable(lazy):
                turns = list(islice(lazy(state), FIRST_TURNS))
                text = kind.notation.format_turn(state, chooser.choice(turns))
            else:
                text = chooser.choice(kind.notation.legal_texts(state))
            mover = seated[kind.rules.to_move(state)]
            seat = kind.rules.to_move(state)
            by_mail = chooser.random() < MAIL_PLAYED
            game = submit_turn(session, game.id, mover, text, game.ply, "email" if by_mail else "cli").game
            if by_mail:  # the robot's answer, "You played ...": the board after it, for the mover's seat
                row = outbox.queue(session, mover.email, f"Re: Game {game.id}",
                                   f"You played {text} in game {game.id} (turn {game.ply}). The board now:",
                                   game_id=game.id, ply=game.ply, kind="reply", seat=seat)
                assert row is not None
                row.in_reply_to = f"<turn-{game.id}-{game.ply}@client.example.org>"
                session.commit()
        session.refresh(game)
        assert isinstance(game, Game)

    # -- sending ----------------------------------------------------------
    def due_again(self, with_game: bool) -> int:
        """Every row with a game (or without, for the floor) made due as
        if never sent; the others marked sent.  How many are due."""
        from sqlalchemy import update
        from sqlmodel import Session, col

        from pbem.models import OutboxMessage, utcnow

        fresh = {"sent_at": None, "failed_at": None, "next_attempt_at": None, "uncertain_at": None, "lease": None,
                 "attempts": 0, "outages": 0, "failing_since": None}
        has_game = col(OutboxMessage.game_id).is_not(None)
        with Session(self.engine) as session:
            due = session.execute(update(OutboxMessage).where(has_game if with_game else ~has_game).values(**fresh))
            session.execute(update(OutboxMessage).where(~has_game if with_game else has_game)
                            .values(sent_at=utcnow()))
            session.commit()
        return int(due.rowcount)

    def floor_rows(self, count: int) -> None:
        """``count`` mails without a game, plain text of a notification's
        length, to the same players."""
        from pbem.db import get_session
        from pbem.services import outbox

        text = "\n".join(f"line {n} of a plain mail with no board, as long as a notification's words" for n in range(12))
        with self.app.app_context():
            session = get_session()
            for n in range(count):
                outbox.queue(session, f"p{n % 8}@bench.example", f"plain mail {n}", text, kind="reply")
            session.commit()

    def send_all(self, sink: str, smtp_port: int | None) -> tuple[int, float, float]:
        """Drain every due row into ``sink``: the rows sent, the CPU
        seconds and the wall seconds it took."""
        from mail.send import EmlFolderSink, SmtpConfig, SmtpSender
        from pbem.mailrobot import outgoing

        clear_caches()
        if sink == "smtp":
            assert smtp_port is not None
            sender: Any = SmtpSender(SmtpConfig(host="127.0.0.1", port=smtp_port))
        else:
            target = os.path.join(self.folder, "eml")
            shutil.rmtree(target, ignore_errors=True)
            sender = EmlFolderSink(target)
        cpu, wall = time.process_time(), time.perf_counter()
        result = outgoing.drain(self.app, self.engine, sender, budget=3600)
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        if result.gave_up or result.retry or result.stopped:
            raise SystemExit(f"the drain did not send everything: {result}")
        return len(result.sent), cpu, wall


def clear_caches() -> None:
    """Empty the caches of drawn boards and composed mail (the sprite and
    empty-board caches stay warm)."""
    from notation.drawing import render

    render._render.cache_clear()
    try:
        from pbem.mailrobot import outgoing
    except ImportError:  # pragma: no cover
        return
    forget = getattr(outgoing, "forget_drawn", None)
    if callable(forget):
        forget()


def run(database: Database, games: int, plies: int, passes: int, sinks: list[str], seed: int) -> list[str]:
    folder = tempfile.mkdtemp(prefix="pbem-mail-cost-")
    lines: list[str] = []
    smtp = SmtpSink() if "smtp" in sinks else None
    try:
        bench = Bench(database, folder)
        started = time.perf_counter()
        queued = bench.play(games, plies, seed)
        total = sum(queued.values())
        bench.floor_rows(total)
        lines.append(f"{database.name}: {total} mails queued by {games} games of each game "
                     f"({', '.join(f'{k} {v}' for k, v in sorted(queued.items()))}), "
                     f"played in {time.perf_counter() - started:.0f} s")
        for sink in sinks:
            rates: dict[str, list[float]] = {"board": [], "floor": []}
            for _ in range(passes):
                for what in ("board", "floor"):
                    due = bench.due_again(with_game=what == "board")
                    sent, cpu, wall = bench.send_all(sink, smtp.port if smtp else None)
                    assert sent == due, (sent, due)
                    rates[what].append(sent / cpu)
            board, floor = statistics.median(rates["board"]), statistics.median(rates["floor"])
            verdict = "PASS" if board >= GOAL else "MISS"
            lines.append(f"  {sink}: {board:.0f} mails/CPU-s with the board ({1000 / board:.2f} ms a mail; "
                         f"passes {', '.join(f'{r:.0f}' for r in rates['board'])}); floor (no board) "
                         f"{floor:.0f} mails/CPU-s ({1000 / floor:.2f} ms); {board / floor:.2f}x the floor; "
                         f"goal >= {GOAL:g}: {verdict}")
    finally:
        if smtp is not None:
            smtp.close()
        shutil.rmtree(folder, ignore_errors=True)
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=4, help="games of each registered game (default 4)")
    parser.add_argument("--plies", type=int, default=60, help="turns at most a game (default 60)")
    parser.add_argument("--passes", type=int, default=3, help="drains of every row per sink (default 3)")
    parser.add_argument("--sink", choices=("eml", "smtp", "both"), default="both")
    parser.add_argument("--seed", type=int, default=52)
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.WARNING)
    sinks = ["eml", "smtp"] if args.sink == "both" else [args.sink]
    for database in databases():
        for line in run(database, args.games, args.plies, args.passes, sinks, args.seed):
            print(line, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
