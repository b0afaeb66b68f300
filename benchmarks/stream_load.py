"""Many open event streams on one production deployment: do they starve
the other requests?  gunicorn (gthread workers, the settings of
docs/server.md, "Event streams under gunicorn"), PostgreSQL, ``pbem
scheduler`` and ``pbem mail serve`` (``live_latency.Server``).  Run by hand:

    .venv/bin/python benchmarks/stream_load.py [--streams 1000] [--seconds 30] [--rate 20]

Two runs of ``--seconds`` each on the same server, the same paced load:
players play Logger turns through the API at ``--rate`` turns a second
(each turn: a ``GET`` of the game, then the ``POST`` of the first legal
turn) in 40 games; first with no stream open, then with ``--streams`` event
streams open (``/api/v1/games/{id}/events``, spread over the games being
played, so every turn is an event on about ``streams / 20`` streams).  It
reports, for each run, the p50/p99/max of the ``GET`` and of the turn
``POST``, the error answers, and with the streams: how many opened (200) or
were refused (503), the events they received, and the time from a turn's
answer to its event on the streams (p50/p99 over every stream that got it).
Figures go in ``benchmarks/results/stream_load.md``; asserts nothing.
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import multiprocessing
import os
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from live_latency import Server  # noqa: E402  (the deployment, as the latency benchmark starts it)

#: 4 gthread workers of 400 threads, each answering at most 350 streams (so 50 threads are always left)
GUNICORN = ("--workers", "4", "--worker-class", "gthread", "--threads", "400", "--graceful-timeout", "5")
STREAMS_PER_PROCESS = "350"
GAMES = 40
PLAYERS = tuple(f"p{n}" for n in range(2 * GAMES))


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else float("nan")


def figures(values: list[float]) -> str:
    if not values:
        return "none"
    return (f"p50 {statistics.median(values) * 1000:.1f} ms, p99 {percentile(values, 0.99) * 1000:.1f} ms, "
            f"max {max(values) * 1000:.1f} ms ({len(values)})")


class Client:
    """One kept-alive HTTP/1.1 connection of a player."""

    def __init__(self, port: int, token: str):
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}

    def call(self, method: str, path: str, body: Any = None) -> tuple[int, Any, float]:
        for attempt in range(2):
            started = time.perf_counter()
            try:
                self.connection.request(method, "/api/v1" + path, None if body is None else json.dumps(body),
                                        self.headers)
                answer = self.connection.getresponse()
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
                # the server closed the kept-alive connection while it was idle (gunicorn's keep-alive): the
                # request was not read; send it again on a new connection, timing that one
                self.connection.close()
                if attempt:
                    raise
                continue
            data = answer.read()
            took = time.perf_counter() - started
            return answer.status, json.loads(data) if data else None, took
        raise AssertionError("unreachable")


def play(server: Server, games: list[dict[str, Any]], rate: float, seconds: float) -> dict[str, Any]:
    """Turns at ``rate`` a second for ``seconds`` in ``games``; the timings."""
    gets: list[float] = []
    posts: list[float] = []
    errors: list[str] = []
    answered: list[tuple[int, int, float]] = []  # game, ply, when the turn's answer came (monotonic)
    lock = threading.Lock()
    interval = len(games) / rate  # each game plays a turn this often
    end = time.monotonic() + seconds

    def run(game: dict[str, Any], start: float) -> None:
        clients = {name: Client(server.port, server.tokens[name]) for name in game["players"]}
        due = time.monotonic() + start
        while time.monotonic() < end:
            now = time.monotonic()
            if now < due:
                time.sleep(due - now)
            due += interval
            mover, data = None, None
            for name in game["players"]:
                status, data, took = clients[name].call("GET", f"/games/{game['id']}")
                with lock:
                    gets.append(took)
                    if status != 200:
                        errors.append(f"GET {status}")
                if status != 200 or data["status"] != "active":
                    return
                if data.get("legal_turns"):
                    mover = name
                    break
            if mover is None or data is None:
                continue
            status, answer, took = clients[mover].call("POST", f"/games/{game['id']}/turns",
                                                       {"turn": data["legal_turns"][0], "ply": data["ply"]})
            with lock:
                posts.append(took)
                if status != 201:
                    errors.append(f"POST {status}: {answer}")
                else:
                    answered.append((game["id"], answer["ply"], time.monotonic()))

    threads = [threading.Thread(target=run, args=(game, n * interval / len(games)), daemon=True)
               for n, game in enumerate(games)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return {"gets": gets, "posts": posts, "errors": errors, "answered": answered}


async def _one_stream(port: int, token: str, game_id: int, arrivals: list[tuple[int, int, float]],
                      statuses: list[int], stop: float) -> None:
    try:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
    except OSError:
        statuses.append(0)
        return
    writer.write(f"GET /api/v1/games/{game_id}/events HTTP/1.1\r\nHost: bench\r\nAuthorization: Bearer {token}\r\n"
                 "Accept: text/event-stream\r\n\r\n".encode())
    await writer.drain()
    status_line = await reader.readline()
    status = int(status_line.split()[1]) if status_line else 0
    statuses.append(status)
    if status != 200:
        writer.close()
        return
    buffer = b""
    try:
        while time.monotonic() < stop:
            try:
                chunk = await asyncio.wait_for(reader.read(65536), timeout=max(0.1, stop - time.monotonic()))
            except asyncio.TimeoutError:
                break
            if not chunk:
                break
            at = time.monotonic()
            buffer += chunk
            while b"\n\n" in buffer:
                block, buffer = buffer.split(b"\n\n", 1)
                for line in block.split(b"\n"):
                    if line.startswith(b"data: ") and b'"ply"' in line:
                        try:
                            data = json.loads(line[6:])
                        except ValueError:
                            continue  # a chunk-size line of the chunked encoding cut it: skip
                        arrivals.append((data["game"], data["ply"], at))
    finally:
        writer.close()


def streams_process(port: int, tokens: list[tuple[str, int]], seconds: float, opened: Any, out: Any) -> None:
    """Open the streams (in a process of its own), read them for ``seconds``, report."""
    arrivals: list[tuple[int, int, float]] = []
    statuses: list[int] = []

    async def main() -> None:
        stop = time.monotonic() + seconds
        tasks = []
        for n, (token, game_id) in enumerate(tokens):
            tasks.append(asyncio.create_task(_one_stream(port, token, game_id, arrivals, statuses, stop)))
            if n % 50 == 49:
                await asyncio.sleep(0.05)
        while len(statuses) < len(tokens) and time.monotonic() < stop:
            await asyncio.sleep(0.1)
        opened.set()
        await asyncio.gather(*tasks)

    asyncio.run(main())
    out.put({"arrivals": arrivals, "statuses": statuses})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--streams", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--rate", type=float, default=20, help="turns a second, over all games")
    parser.add_argument("--database", default=None)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="pbem-streams-"))
    server = Server(True, args.database, folder, players=PLAYERS, gunicorn=GUNICORN,
                    extra_env={"PBEM_EVENT_STREAMS": STREAMS_PER_PROCESS})
    try:
        games = []
        for n in range(GAMES):
            first, second = PLAYERS[2 * n], PLAYERS[2 * n + 1]
            game = server.api(first, "POST", "/games", {"game": "logger", "players": [f"{first}@bench.example",
                                                                                      f"{second}@bench.example"]})
            server.api(second, "POST", f"/games/{game['id']}/accept")
            games.append({"id": game["id"], "players": (first, second)})
        quiet = play(server, games[:GAMES // 2], args.rate, args.seconds)
        busy_games = games[GAMES // 2:]
        tokens = [(server.tokens[busy_games[n % len(busy_games)]["players"][n % 2]], busy_games[n % len(busy_games)]["id"])
                  for n in range(args.streams)]
        opened, out = multiprocessing.Event(), multiprocessing.Queue()
        reader = multiprocessing.Process(target=streams_process,
                                         args=(server.port, tokens, args.seconds + 60, opened, out))
        reader.start()
        opened.wait(120)
        time.sleep(2)
        busy = play(server, busy_games, args.rate, args.seconds)
        time.sleep(2)
        result = out.get(timeout=args.seconds + 120)
        reader.join()
    finally:
        server.stop()
    answered = {(g, p): at for g, p, at in busy["answered"]}
    delays = [at - answered[(g, p)] for g, p, at in result["arrivals"] if (g, p) in answered]
    statuses = result["statuses"]
    lines = [
        f"setup: gunicorn {' '.join(GUNICORN)}, PBEM_EVENT_STREAMS={STREAMS_PER_PROCESS}, PostgreSQL, pbem scheduler, "
        f"pbem mail serve; {os.cpu_count()} cores; {args.rate:g} turns/s for {args.seconds:g} s a run",
        f"no stream open:   GET {figures(quiet['gets'])}; turn POST {figures(quiet['posts'])}; "
        f"errors {len(quiet['errors'])}",
        f"{args.streams} streams asked: {statuses.count(200)} open (200), {statuses.count(503)} refused (503), "
        f"{len(statuses) - statuses.count(200) - statuses.count(503)} other",
        f"with the streams: GET {figures(busy['gets'])}; turn POST {figures(busy['posts'])}; "
        f"errors {len(busy['errors'])}",
        f"events received: {len(result['arrivals'])}; a turn's answer to its event on a stream: {figures(delays)}",
    ]
    print("\n".join(lines))
    for error in (quiet["errors"] + busy["errors"])[:5]:
        print("error:", error)


if __name__ == "__main__":
    main()
