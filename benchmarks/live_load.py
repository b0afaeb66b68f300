"""A busy production server: ``--players`` simulated players (200) moving
as soon as it is their turn, by the API, the web form and mail, in two-player
Logger games, at a paced total rate of turns a second, while ``--streams``
(1,000) event streams stay open; on gunicorn, PostgreSQL, one ``pbem
scheduler`` and one ``pbem mail serve`` (``live_latency.Server``).  Run by hand:

    .venv/bin/python benchmarks/live_load.py [--seconds 300] [--rates 20,40,60]

For each rate it runs ``--seconds`` and reports: turns played and asked
for, error answers, turns lost or doubled (each game's ply against the
turns its players had accepted), mail doubled (two sent rows of one
message) and the longest wait of a mail in the outbox (queued to sent), the
p50/p99 of a turn request (API and web form), and whether the streams
stayed open.  The highest rate whose run had no errors, nothing lost or
doubled, no mail waiting more than a minute and a turn request p99 under
100 ms is the rate this machine holds.  The floor is a ``GET /api/v1/me``
measured in the same run.  Figures go in ``benchmarks/results/live_load.md``.
"""

from __future__ import annotations

import argparse
import asyncio
import email
import email.policy
import http.cookiejar
import json
import multiprocessing
import re
import smtplib
import statistics
import sys
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from email.message import EmailMessage
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from live_latency import Server  # noqa: E402

from notation import registry  # noqa: E402

KIND = registry.get("logger")


class Stats:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.turn_times: dict[str, list[float]] = {"api": [], "web": [], "mail": []}
        self.errors: list[str] = []
        self.accepted: dict[int, int] = {}  # game id -> turns its players had accepted
        self.games: set[int] = set()

    def error(self, text: str) -> None:
        with self.lock:
            if len(self.errors) < 50:
                self.errors.append(text)
            else:
                self.errors.append("")


class Player:
    """One simulated player: an API token, and for web players a browser's cookies."""

    def __init__(self, server: Server, name: str, way: str) -> None:
        self.server, self.name, self.way = server, name, way
        self.address = f"{name}@bench.example"
        self.jar = http.cookiejar.CookieJar()
        self.browser = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))

    def api(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        request = urllib.request.Request(f"http://127.0.0.1:{self.server.port}/api/v1{path}", method=method,
                                         data=None if body is None else json.dumps(body).encode(),
                                         headers={"Authorization": f"Bearer {self.server.tokens[self.name]}",
                                                  "Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=60) as answer:
                return answer.status, json.loads(answer.read())
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode(errors="replace")

    def page(self, path: str, form: dict[str, str] | None = None) -> tuple[int, str]:
        data = None if form is None else urllib.parse.urlencode(form).encode()
        try:
            with self.browser.open(f"http://127.0.0.1:{self.server.port}{path}", data=data, timeout=60) as answer:
                return answer.status, answer.read().decode(errors="replace")
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode(errors="replace")

    def sign_in(self) -> None:
        """Sign in on the web as a player does: the form, the mailed link, the confirmation."""
        _, page = self.page("/auth/sign-in")
        before = set(self.server.mail.glob("*.eml"))
        self.page("/auth/sign-in", {"email": self.address, "next": "/", "csrf_token": csrf(page)})
        end = time.monotonic() + 60
        link = None
        while link is None and time.monotonic() < end:
            for path in set(self.server.mail.glob("*.eml")) - before:
                message = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
                if self.address in str(message.get("To", "")):
                    body = message.get_body(("plain",))
                    found = re.search(r"(/auth/verify\?token=\S+)", body.get_content() if body else "")
                    if found:
                        link = found.group(1)
            time.sleep(0.05)
        if link is None:
            raise SystemExit(f"no sign-in link came for {self.address}")
        _, opened = self.page(link)
        token = re.search(r'name="token" value="([^"]+)"', opened)
        assert token, opened[:500]
        self.page("/auth/verify", {"token": token.group(1), "csrf_token": csrf(opened)})


def csrf(page: str) -> str:
    found = re.search(r'name="csrf_token"[^>]*value="([^"]+)"', page) or \
        re.search(r'value="([^"]+)"[^>]*name="csrf_token"', page)
    return found.group(1) if found else ""


def play_turn(player: Player, game_id: int, stats: Stats, reply_to: dict[tuple[str, int], str]) -> bool:
    """``player`` plays their turn in the game, their way; False when the game is over."""
    status, game = player.api("GET", f"/games/{game_id}")
    if status != 200:
        stats.error(f"GET game {status}")
        return False
    if game["status"] != "active":
        return False
    if not game.get("your_turn"):
        return True
    ply, turn = game["ply"], game["legal_turns"][0]
    started = time.monotonic()
    if player.way == "api":
        status, answer = player.api("POST", f"/games/{game_id}/turns", {"turn": turn, "ply": ply})
        ok = status in (200, 201)
    elif player.way == "web":
        _, page = player.page(f"/games/{game_id}")
        started = time.monotonic()  # the form's request only, as the API's
        status, answer = player.page(f"/games/{game_id}/turn", {"turn": turn, "ply": str(ply), "csrf_token": csrf(page)})
        ok = status == 200
    else:
        address = reply_to.get((player.name, game_id)) or find_reply_address(player, game_id)
        reply_to[(player.name, game_id)] = address
        message = EmailMessage()
        message["From"], message["To"], message["Subject"] = player.address, address, "Re: your turn"
        message.set_content(f"#{ply + 1} {turn}\n")
        try:
            with smtplib.SMTP("127.0.0.1", player.server.mail_port, timeout=60) as smtp:
                smtp.send_message(message)
            ok, status = True, 250
        except (OSError, smtplib.SMTPException) as error:
            ok, status = False, str(error)
        end = time.monotonic() + 60
        while ok and time.monotonic() < end:  # a mail turn is played when the robot has read it
            _, now = player.api("GET", f"/games/{game_id}")
            if now["ply"] > ply:
                break
            time.sleep(0.2)  # a mail player looks now and then, not in a tight loop
        else:
            if ok:
                stats.error(f"mail turn in game {game_id} at ply {ply} never played")
                ok = False
    elapsed = time.monotonic() - started
    with stats.lock:
        if ok:
            stats.accepted[game_id] = stats.accepted.get(game_id, 0) + 1
            stats.turn_times[player.way].append(elapsed)
    if not ok:
        stats.error(f"{player.way} turn {status}")
    return True


def find_reply_address(player: Player, game_id: int) -> str:
    end = time.monotonic() + 60
    while time.monotonic() < end:
        for path in sorted(player.server.mail.glob("*.eml"), key=lambda p: p.stat().st_mtime, reverse=True):
            message = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
            threading_headers = " ".join(str(message.get(h, "")) for h in ("References", "In-Reply-To", "Message-ID"))
            reply = str(message.get("Reply-To", ""))
            if player.address in str(message.get("To", "")) and f"game-{game_id}@" in threading_headers \
                    and "play+" in reply:
                return reply.strip().strip("<>")
        time.sleep(0.1)
    raise SystemExit(f"no mail with a reply address for {player.address} in game {game_id}")


def drive(pair: tuple[Player, Player], rate: float, until: float, stats: Stats) -> None:
    """Games between the two players, one turn every 1/``rate`` seconds, new games as they end."""
    reply_to: dict[tuple[str, int], str] = {}
    first, second = pair
    while time.monotonic() < until:
        status, game = first.api("POST", "/games", {"game": "logger", "players": [first.address, second.address]})
        if status != 201:
            stats.error(f"new game {status} {game}")
            return
        if second.api("POST", f"/games/{game['id']}/accept")[0] != 200:
            stats.error("accept")
            return
        with stats.lock:
            stats.games.add(game["id"])
        going = True
        mover = 0
        next_at = time.monotonic()
        while going and time.monotonic() < until:
            next_at += 1 / rate
            time.sleep(max(0.0, next_at - time.monotonic()))
            going = play_turn(pair[mover], game["id"], stats, reply_to)
            mover = 1 - mover


async def _stream(port: int, token: str, counts: dict[str, int], stop: float) -> None:
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(f"GET /api/v1/me/events HTTP/1.1\r\nHost: bench\r\nAuthorization: Bearer {token}\r\n"
                     "Accept: text/event-stream\r\n\r\n".encode())
        await writer.drain()
        status = await asyncio.wait_for(reader.readline(), 60)
        if b" 200 " not in status:
            counts["refused"] += 1
            writer.close()
            return
        counts["open"] += 1
        while time.time() < stop:
            line = await asyncio.wait_for(reader.readline(), max(1.0, stop - time.time()) + 30)
            if not line:
                counts["closed early"] += 1
                return
            if line.startswith(b"data:"):
                counts["events"] += 1
        writer.close()
    except (OSError, asyncio.TimeoutError) as error:
        counts[f"failed: {error.__class__.__name__}"] = counts.get(f"failed: {error.__class__.__name__}", 0) + 1


def streams(port: int, tokens: list[str], count: int, stop: float, result: Any) -> None:
    """``count`` event streams open until ``stop`` (a process of its own); counts put in ``result``."""
    counts = {"open": 0, "refused": 0, "closed early": 0, "events": 0}

    async def main() -> None:
        tasks = []
        for i in range(count):
            tasks.append(asyncio.create_task(_stream(port, tokens[i % len(tokens)], counts, stop)))
            if i % 50 == 49:
                await asyncio.sleep(0.05)
        await asyncio.gather(*tasks)

    asyncio.run(main())
    result.put(counts)


def percentiles(times: list[float]) -> dict[str, float]:
    """p50 and p99 in ms (p99 only over 100 figures or more)."""
    found = {"p50": round(statistics.median(times) * 1000, 1)} if times else {}
    if len(times) >= 100:
        found["p99"] = round(statistics.quantiles(times, n=100)[98] * 1000, 1)
    return found


def floor(player: Player, count: int = 50) -> list[float]:
    times = []
    for _ in range(count):
        started = time.monotonic()
        player.api("GET", "/me")
        times.append(time.monotonic() - started)
    return times


def server_times(server: Server, skip_lines: int) -> dict[str, Any]:
    """The turn requests' times as gunicorn logged them (``%(D)s``, from the
    request read to the answer written), from line ``skip_lines`` of its
    access log on: the server's own view, without the client's waits."""
    lines = server.access_log.read_text().splitlines()[skip_lines:]
    times: dict[str, list[float]] = {"api": [], "web": [], "other": []}
    for line in lines:
        parts = line.split()
        if len(parts) != 4 or not parts[3].isdigit():
            continue
        method, path, seconds = parts[0], parts[1], int(parts[3]) / 1e6
        if method == "POST" and path.endswith("/turns"):
            times["api"].append(seconds)
        elif method == "POST" and path.endswith("/turn"):
            times["web"].append(seconds)
        elif "/events" not in path:
            times["other"].append(seconds)
    return {f"server {way} {name} (ms)": value for way in times for name, value in percentiles(times[way]).items()}


def check_database(server: Server, stats: Stats) -> dict[str, Any]:
    """Turns lost or doubled, mail doubled, the longest outbox wait: read from the database."""
    from sqlalchemy import text

    from pbem.db import make_engine

    engine = make_engine(server.env["DATABASE_URL"], server.env["PBEM_DATABASE_SCHEMA"])
    with engine.connect() as connection:
        plies = dict(connection.execute(text("SELECT id, ply FROM games")).all())
        waits = connection.execute(text(
            "SELECT max(extract(epoch from (coalesce(sent_at, now()) - created_at))), count(*), "
            "count(*) FILTER (WHERE sent_at IS NULL AND failed_at IS NULL) FROM outbox")).one()
        doubled_mail = connection.execute(text(
            "SELECT count(*) FROM (SELECT to_addr, game_id, ply, kind FROM outbox WHERE kind IN ('your_turn') "
            "GROUP BY to_addr, game_id, ply, kind HAVING count(*) > 1) d")).scalar()
        doubled_turns = connection.execute(text(
            "SELECT count(*) FROM (SELECT game_id, ply FROM turns GROUP BY game_id, ply HAVING count(*) > 1) d")).scalar()
    engine.dispose()
    mismatched = {g: (stats.accepted.get(g, 0), plies.get(g)) for g in stats.games
                  if stats.accepted.get(g, 0) != plies.get(g)}
    return {"games": len(stats.games), "turns lost or extra": mismatched, "doubled turns": doubled_turns,
            "doubled your-turn mails": doubled_mail, "longest outbox wait (s)": round(float(waits[0] or 0), 1),
            "mails": waits[1], "mails unsent at the end": waits[2]}


def run(server: Server, players: list[Player], rate: float, seconds: float, stream_count: int) -> dict[str, Any]:
    stats = Stats()
    until = time.monotonic() + seconds
    result: Any = multiprocessing.Queue()
    watcher = multiprocessing.Process(target=streams, args=(server.port, [server.tokens[p.name] for p in players],
                                                            stream_count, time.time() + seconds + 5, result))
    watcher.start()
    time.sleep(min(20.0, stream_count / 100))  # the streams open first
    pairs = [(players[i], players[i + 1]) for i in range(0, len(players), 2)]
    threads = [threading.Thread(target=drive, args=(pair, rate / len(pairs), until, stats), daemon=True)
               for pair in pairs]
    base = floor(players[0])
    logged = len(server.access_log.read_text().splitlines())
    started = time.monotonic()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=seconds + 120)
    elapsed = time.monotonic() - started
    time.sleep(5)  # the last mail goes out
    watcher.join(timeout=120)
    counts = result.get(timeout=10) if not result.empty() else {"no report": 1}
    request_times = stats.turn_times["api"] + stats.turn_times["web"]
    played = sum(len(t) for t in stats.turn_times.values())
    report = {
        "rate asked (turns/s)": rate,
        "turns played": played,
        "turns/s": round(played / elapsed, 1),
        "by way": {way: len(times) for way, times in stats.turn_times.items()},
        "errors": len(stats.errors),
        "first errors": stats.errors[:5],
        **{f"turn request {way} {name} (ms)": value for way in ("api", "web")
           for name, value in percentiles(stats.turn_times[way]).items()},
        "turn request p99, API and web (ms)": percentiles(request_times).get("p99"),
        "floor GET /me p50 (ms)": round(statistics.median(base) * 1000, 1),
        **server_times(server, logged),
        "streams": counts,
        **check_database(server, stats),
    }
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--streams", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=300)
    parser.add_argument("--rates", default="40")
    parser.add_argument("--database", default=None)
    args = parser.parse_args()
    import tempfile

    names = tuple(f"p{i:03d}" for i in range(args.players))
    server = Server(True, args.database, Path(tempfile.mkdtemp(prefix="pbem-load-")), players=names,
                    extra_env={"PBEM_INVITATIONS_PER_DAY": "100000", "PBEM_INVITATIONS_TO_NEWCOMER_PER_DAY": "100000",
                               "PBEM_INVITATIONS_TO_PLAYER_PER_DAY": "100000", "PBEM_SIGN_IN_PER_HOUR": "100"})
    try:
        ways = ["api", "api", "api", "web", "mail"]  # by pair: three of five by the API, one by the web, one by mail
        players = [Player(server, name, ways[(i // 2) % len(ways)]) for i, name in enumerate(names)]
        for player in players:
            if player.way == "web":
                player.sign_in()
        for rate in [float(r) for r in args.rates.split(",")]:
            report = run(server, players, rate, args.seconds, args.streams)
            print(json.dumps(report, indent=1, default=str), flush=True)
    finally:
        server.stop()
        print(f"logs: {server.folder}")


if __name__ == "__main__":
    main()
