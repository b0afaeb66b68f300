"""How soon a turn's consequences happen on a running server, end to end:
a real ``pbem serve`` on its embedded defaults (SQLite in a fresh instance
folder, mail kept as ``.eml`` files, the embedded scheduler and mail
listener, no interval shortened), or with ``--production`` gunicorn
(4 workers), PostgreSQL, a ``pbem scheduler`` and a ``pbem mail serve`` of
their own.  Run by hand:

    .venv/bin/python benchmarks/live_latency.py [--turns 20]
    .venv/bin/python benchmarks/live_latency.py --production [--database postgresql+psycopg://postgres@127.0.0.1:5432/test]

It measures, over ``--turns`` turns each, the p50 and the worst of:

* ``notification``: a turn played through the API (its answer received)
  to the opponent's your-turn mail handed to the transport (its ``.eml``
  written);
* ``mail turn``: a turn mailed to the listener (SMTP accepted it) to the
  "you played" answer handed to the transport;
* ``bot logger``, ``bot ataxx``: a turn played through the API against the
  computer at its lowest level to the bot's reply stored (seen through the
  API);
* ``event``: a turn by the opponent to its event on an open
  ``/api/v1/games/{id}/events`` stream (when the server has the stream).

The floor of each measure is the time this machine takes to see a change
at all: a plain ``GET`` of the game (the round trip a poller would need).
Prints a table; asserts nothing about speed.  Figures go in
``benchmarks/results/live_latency.md``.
"""

from __future__ import annotations

import argparse
import email
import email.policy
import email.utils
import json
import os
import shutil
import smtplib
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from email.message import EmailMessage
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parent.parent
#: gunicorn's settings for the production set-up (docs/server.md, "Event streams under gunicorn")
GUNICORN = ("--workers", "4", "--worker-class", "gthread", "--threads", "400", "--graceful-timeout", "5")
PYTHON = sys.executable


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """A running deployment: its base URL, mail folder and listener port."""

    def __init__(self, production: bool, database: str | None, folder: Path,
                 players: tuple[str, ...] = ("alice", "bob"), gunicorn: tuple[str, ...] = (),
                 extra_env: dict[str, str] | None = None) -> None:
        self.players = players
        self.folder = folder
        self.mail = folder / "mail"
        self.port = free_port()
        self.mail_port = free_port()
        self.processes: list[subprocess.Popen[bytes]] = []
        env = {**os.environ, "PBEM_INSTANCE": str(folder), "PBEM_SECRET_KEY": "bench", "PBEM_MAIL_DOMAIN": "bench.test",
               "PBEM_BASE_URL": f"http://127.0.0.1:{self.port}", "PBEM_MAIL_EML_FOLDER": str(self.mail)}
        if production:
            schema = f"bench_{os.getpid()}"
            url = database or "postgresql+psycopg://postgres@127.0.0.1:5432/test"
            self._schema(url, schema)
            env.update({"DATABASE_URL": url, "PBEM_DATABASE_SCHEMA": schema, "PBEM_SCHEDULER": "off",
                        "PBEM_EVENT_STREAMS": "350",
                        "PBEM_MAIL_SERVE_PORT": str(self.mail_port), "PBEM_MAIL_SERVE_PROTOCOL": "smtp"})
        self.env = {**env, **(extra_env or {})}
        self._prepare()
        if production:
            if shutil.which("gunicorn", path=str(Path(PYTHON).parent)) is None:
                subprocess.run([PYTHON, "-m", "pip", "install", "--quiet", "gunicorn"], check=True)
            self.access_log = folder / "access.log"
            self._start([str(Path(PYTHON).parent / "gunicorn"), *(gunicorn or GUNICORN),
                         "--access-logfile", str(self.access_log), "--access-logformat", "%(m)s %(U)s %(s)s %(D)s",
                         "--bind", f"127.0.0.1:{self.port}", "pbem:create_app()"])
            self._start([PYTHON, "-m", "pbem", "scheduler"])
            self._start([PYTHON, "-m", "pbem", "mail", "serve"])
        else:
            self._start([PYTHON, "-m", "pbem", "serve", "--port", str(self.port), "--mail-port", str(self.mail_port)])
        self._wait_up()

    @staticmethod
    def _schema(url: str, schema: str) -> None:
        sys.path.insert(0, str(ROOT))
        from sqlalchemy import text

        from pbem.db import make_engine

        engine = make_engine(url)
        with engine.begin() as connection:
            connection.execute(text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
            connection.execute(text(f'CREATE SCHEMA "{schema}"'))
        engine.dispose()

    def _prepare(self) -> None:
        """Migrate, and make alice and bob with API tokens (a process of its own, with the server's settings)."""
        script = (
            "import json\n"
            "from pbem import create_app\n"
            "from pbem.db import get_session\n"
            "from pbem.services.accounts import create_api_token, player_for_email\n"
            "app = create_app()\n"
            "tokens = {}\n"
            "with app.app_context():\n"
            "    s = get_session()\n"
            f"    for name in {list(self.players)!r}:\n"
            "        p = player_for_email(s, name + '@bench.example'); p.name = name.title(); s.commit()\n"
            "        tokens[name] = create_api_token(s, p, 'bench')[0]\n"
            "print(json.dumps(tokens))\n"
        )
        done = subprocess.run([PYTHON, "-c", script], env=self.env, cwd=ROOT, capture_output=True, text=True, check=True)
        self.tokens: dict[str, str] = json.loads(done.stdout.strip().splitlines()[-1])

    def _start(self, command: list[str]) -> None:
        log = open(self.folder / f"{Path(command[0]).name}-{len(self.processes)}.log", "wb")
        self.processes.append(subprocess.Popen(command, env=self.env, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT))

    def _wait_up(self) -> None:
        end = time.monotonic() + 60
        while time.monotonic() < end:
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{self.port}/api/v1/kinds", timeout=2).read()
                with socket.create_connection(("127.0.0.1", self.mail_port), timeout=2):
                    return
            except OSError:
                time.sleep(0.2)
        raise SystemExit(f"the server did not start; see the logs in {self.folder}")

    def stop(self) -> None:
        for process in self.processes:
            process.terminate()
        for process in self.processes:
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()

    def api(self, who: str, method: str, path: str, body: Any = None) -> Any:
        request = urllib.request.Request(f"http://127.0.0.1:{self.port}/api/v1{path}", method=method,
                                         data=None if body is None else json.dumps(body).encode(),
                                         headers={"Authorization": f"Bearer {self.tokens[who]}",
                                                  "Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=30) as answer:
            return json.loads(answer.read())


class Mailbox:
    """The ``.eml`` files the server writes, watched: each new one's time of appearance, To and Subject."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.seen: set[str] = set()
        self.arrived: list[tuple[float, EmailMessage]] = []
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self.folder.mkdir(parents=True, exist_ok=True)
        self.seen = {p.name for p in self.folder.glob("*.eml")}
        threading.Thread(target=self._watch, daemon=True).start()

    def _watch(self) -> None:
        while not self._stop.is_set():
            for path in self.folder.glob("*.eml"):
                if path.name in self.seen:
                    continue
                at = time.monotonic()
                try:
                    message = email.message_from_bytes(path.read_bytes(), _class=EmailMessage, policy=email.policy.default)
                except OSError:
                    continue
                if not message.get("To"):
                    continue  # still being written
                self.seen.add(path.name)
                with self._lock:
                    self.arrived.append((at, message))
            time.sleep(0.002)

    def wait(self, since: float, test: Callable[[EmailMessage], bool], timeout: float = 60) -> tuple[float, EmailMessage]:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            with self._lock:
                for at, message in self.arrived:
                    if at >= since and test(message):
                        return at, message
            time.sleep(0.002)
        raise SystemExit("a mail never came")


def legal(server: Server, who: str, game_id: int) -> tuple[int, str]:
    game = server.api(who, "GET", f"/games/{game_id}")
    return game["ply"], game["legal_turns"][0]


def to(address: str) -> Callable[[EmailMessage], bool]:
    return lambda message: address in str(message.get("To", ""))


def measure_notifications(server: Server, mailbox: Mailbox, turns: int) -> list[float]:
    game = server.api("alice", "POST", "/games", {"game": "logger", "players": ["alice@bench.example", "bob@bench.example"]})
    server.api("bob", "POST", f"/games/{game['id']}/accept")
    times = []
    who, other = "alice", "bob"
    for _ in range(turns):
        ply, turn = legal(server, who, game["id"])
        server.api(who, "POST", f"/games/{game['id']}/turns", {"turn": turn, "ply": ply})
        answered = time.monotonic()
        at, _ = mailbox.wait(answered - 0.001, lambda m, o=other, p=ply: to(f"{o}@bench.example")(m)
                             and f"#{p + 2}" in m.get_body(("plain",)).get_content())
        times.append(at - answered)
        who, other = other, who
    return times


def measure_mail_turns(server: Server, mailbox: Mailbox, turns: int) -> list[float]:
    game = server.api("alice", "POST", "/games", {"game": "logger", "players": ["alice@bench.example", "bob@bench.example"]})
    server.api("bob", "POST", f"/games/{game['id']}/accept")
    times = []
    who = "alice"
    for _ in range(turns):
        ply, turn = legal(server, who, game["id"])
        reply_to = _reply_address(mailbox, who, game["id"])
        message = EmailMessage()
        message["From"] = f"{who}@bench.example"
        message["To"] = reply_to
        message["Subject"] = "Re: your turn"
        message["Message-ID"] = email.utils.make_msgid(domain="bench.example")
        message.set_content(f"#{ply + 1} {turn}\n")
        with smtplib.SMTP("127.0.0.1", server.mail_port, timeout=30) as smtp:
            smtp.send_message(message)
        sent = time.monotonic()
        mailbox.wait(sent - 0.001, lambda m, w=who, t=turn: to(f"{w}@bench.example")(m) and t in m.get_body(("plain",))
                     .get_content() and "You played" in m.get_body(("plain",)).get_content())
        times.append(time.monotonic() - sent)
        who = "bob" if who == "alice" else "alice"
        _wait_ply(server, who, game["id"], ply + 1)
    return times


def _reply_address(mailbox: Mailbox, who: str, game_id: int) -> str:
    """The reply address (``play+<token>@``) of the newest mail to ``who`` about the game."""

    def fits(message: EmailMessage) -> bool:
        threading_headers = " ".join(str(message.get(h, "")) for h in ("References", "In-Reply-To", "Message-ID"))
        return (to(f"{who}@bench.example")(message) and "play+" in str(message.get("Reply-To", ""))
                and f"game-{game_id}@" in threading_headers)

    with mailbox._lock:
        found = [message for _, message in mailbox.arrived if fits(message)]
    message = found[-1] if found else mailbox.wait(0, fits)[1]
    return str(message["Reply-To"]).strip().strip("<>")


def _wait_ply(server: Server, who: str, game_id: int, ply: int, timeout: float = 60) -> float:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if server.api(who, "GET", f"/games/{game_id}")["ply"] >= ply:
            return time.monotonic()
        time.sleep(0.01)
    raise SystemExit(f"game {game_id} never reached ply {ply}")


def measure_bot(server: Server, game_kind: str, turns: int) -> list[float]:
    times: list[float] = []
    while len(times) < turns:
        game = server.api("alice", "POST", "/games", {"game": game_kind, "players": ["alice@bench.example"],
                                                       "bots": ["beginner"]})
        while len(times) < turns:
            state = server.api("alice", "GET", f"/games/{game['id']}")
            if state["status"] != "active":
                break
            if not state.get("your_turn"):
                _wait_ply(server, "alice", game["id"], state["ply"] + 1)
                continue
            ply, turn = state["ply"], state["legal_turns"][0]
            server.api("alice", "POST", f"/games/{game['id']}/turns", {"turn": turn, "ply": ply})
            answered = time.monotonic()
            end = time.monotonic() + 60
            while time.monotonic() < end:
                now = server.api("alice", "GET", f"/games/{game['id']}")
                if now["ply"] >= ply + 2 or now["status"] != "active":
                    break
                time.sleep(0.005)
            if now["status"] == "active":
                times.append(time.monotonic() - answered)
    return times


def measure_events(server: Server, turns: int) -> list[float] | None:
    """A turn by bob to its event on alice's open stream (None: no stream here)."""
    game = server.api("alice", "POST", "/games", {"game": "logger", "players": ["alice@bench.example", "bob@bench.example"]})
    server.api("bob", "POST", f"/games/{game['id']}/accept")
    request = urllib.request.Request(f"http://127.0.0.1:{server.port}/api/v1/games/{game['id']}/events",
                                     headers={"Authorization": f"Bearer {server.tokens['alice']}",
                                              "Accept": "text/event-stream"})
    try:
        stream = urllib.request.urlopen(request, timeout=30)
    except urllib.error.HTTPError as error:
        print(f"no event stream here: {error.code} {error.reason}", file=sys.stderr)
        return None
    plies: dict[int, float] = {}
    ready = threading.Event()

    def read() -> None:
        ready.set()
        try:
            for raw in list_lines(stream):
                line = raw.decode().strip()
                if line.startswith("data:"):
                    try:
                        data = json.loads(line[5:])
                    except ValueError:
                        continue
                    if isinstance(data, dict) and isinstance(data.get("ply"), int):
                        plies.setdefault(data["ply"], time.monotonic())
        except (OSError, ValueError, AttributeError):  # the stream was closed under it
            return

    threading.Thread(target=read, daemon=True).start()
    ready.wait()
    time.sleep(0.5)
    times = []
    for _ in range(turns):
        ply, turn = legal(server, "alice", game["id"])
        server.api("alice", "POST", f"/games/{game['id']}/turns", {"turn": turn, "ply": ply})
        ply, turn = legal(server, "bob", game["id"])
        server.api("bob", "POST", f"/games/{game['id']}/turns", {"turn": turn, "ply": ply})
        answered = time.monotonic()
        end = time.monotonic() + 30
        while ply + 1 not in plies and time.monotonic() < end:
            time.sleep(0.001)
        if ply + 1 not in plies:
            raise SystemExit("an event never came")
        times.append(max(0.0, plies[ply + 1] - answered))
    stream.close()
    return times


def list_lines(stream: Any) -> Any:
    """The stream's lines as they come (an iterator; ends when the stream is closed)."""
    while True:
        line = stream.readline()
        if not line:
            return
        yield line


def floor(server: Server, count: int) -> list[float]:
    game = server.api("alice", "GET", "/games")
    del game
    times = []
    for _ in range(count):
        started = time.monotonic()
        server.api("alice", "GET", "/me")
        times.append(time.monotonic() - started)
    return times


def row(name: str, times: list[float] | None, goal: str) -> str:
    if not times:
        return f"| {name} | - | - | - | {goal} |"
    return (f"| {name} | {len(times)} | {statistics.median(times) * 1000:.0f} ms | {max(times) * 1000:.0f} ms "
            f"| {goal} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--turns", type=int, default=20)
    parser.add_argument("--production", action="store_true")
    parser.add_argument("--database", default=None)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="pbem-live-"))
    server = Server(args.production, args.database, folder)
    try:
        mailbox = Mailbox(server.mail)
        base = floor(server, 50)
        results = [
            ("floor: a GET /me round trip", base, ""),
            ("notification .eml after the turn's answer", measure_notifications(server, mailbox, args.turns),
             "< 500 ms / < 2 s"),
            ("mail turn to its 'you played' .eml", measure_mail_turns(server, mailbox, args.turns), "< 1 s / < 3 s"),
            ("bot reply stored, Logger beginner", measure_bot(server, "logger", args.turns), "< 1.5 s / < 3 s"),
            ("bot reply stored, Ataxx beginner", measure_bot(server, "ataxx", args.turns), "< 1.5 s / < 3 s"),
            ("event on an open stream after the opponent's turn", measure_events(server, args.turns), "< 500 ms p50"),
        ]
    finally:
        server.stop()
    setup = "gunicorn (4 gthread workers of 400 threads), PostgreSQL, pbem scheduler, pbem mail serve" \
        if args.production else \
        "pbem serve on its embedded defaults (SQLite, .eml folder, embedded scheduler and listener)"
    print(f"{setup}; {args.turns} turns each\n")
    print("| measure | n | p50 | worst | issue 52's goal (p50 / worst) |")
    print("|---|---|---|---|---|")
    for name, times, goal in results:
        print(row(name, times, goal))
    shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
