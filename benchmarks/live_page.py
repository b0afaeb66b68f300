"""How soon an open game page in Chromium shows a turn played by the other
player: a real ``pbem serve`` on its embedded defaults (or ``--production``:
gunicorn, PostgreSQL, ``pbem scheduler``, ``pbem mail serve``; the servers
of ``live_latency.Server``), Alice's game page open in the system Chromium
(Playwright, as the browser tests), Bob playing through the API.  Run by hand:

    .venv/bin/python benchmarks/live_page.py [--turns 20] [--production]

For each of ``--turns`` turns of Bob's: from the answer to his turn to the
page showing it (his turn in the move list and "Your turn", found by a
``MutationObserver`` in the page, stamped with the page's clock against the
client's), then Alice plays hers through the API too.  Prints p50 and worst;
issue 52 asks under a second.  Asserts nothing.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from live_latency import Server, legal  # noqa: E402  (the deployment, as the latency benchmark starts it)

CHROMIUM = os.environ.get("PBEM_CHROMIUM") or ("/usr/bin/chromium" if os.path.exists("/usr/bin/chromium") else None)
#: watches for the move list entry of ply ``window.__want`` and notes when it appeared (performance.now)
WATCH = """() => {
  window.__seen = {};
  new MutationObserver(() => {
    const want = window.__want;
    if (want && !window.__seen[want] && document.getElementById('ply-' + want)
        && document.getElementById('turn')) window.__seen[want] = performance.now() + performance.timeOrigin;
  }).observe(document.documentElement, {childList: true, subtree: true});
}"""


def main() -> None:
    from playwright.sync_api import sync_playwright

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--turns", type=int, default=20)
    parser.add_argument("--production", action="store_true")
    args = parser.parse_args()
    if CHROMIUM is None:
        raise SystemExit("no Chromium at /usr/bin/chromium (apt-get install chromium) nor in PBEM_CHROMIUM")
    server = Server(args.production, None, Path(tempfile.mkdtemp(prefix="pbem-page-")))
    times: list[float] = []
    try:
        game = server.api("alice", "POST", "/games", {"game": "logger", "players": ["alice@bench.example",
                                                                                    "bob@bench.example"]})
        server.api("bob", "POST", f"/games/{game['id']}/accept")
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM, args=["--headless", "--no-sandbox"])
            context = browser.new_context()
            page = context.new_page()
            # alice is signed in as a sign-in link would sign her in: a server-side session in the signed cookie
            context.add_cookies([{"name": "session", "value": server_session(server),
                                  "url": f"http://127.0.0.1:{server.port}"}])
            page.goto(f"http://127.0.0.1:{server.port}/games/{game['id']}")
            page.wait_for_selector("#live[data-listening=true]", state="attached")
            page.evaluate(WATCH)
            for _ in range(args.turns):
                ply, turn = legal(server, "alice", game["id"])
                server.api("alice", "POST", f"/games/{game['id']}/turns", {"turn": turn, "ply": ply})
                ply, turn = legal(server, "bob", game["id"])
                page.evaluate(f"window.__want = {ply + 1}")
                server.api("bob", "POST", f"/games/{game['id']}/turns", {"turn": turn, "ply": ply})
                answered = time.time() * 1000
                page.wait_for_function(f"() => window.__seen[{ply + 1}]", timeout=30000)
                seen = page.evaluate(f"window.__seen[{ply + 1}]")
                times.append(max(0.0, seen - answered) / 1000)
            browser.close()
    finally:
        server.stop()
    setup = "gunicorn, PostgreSQL, pbem scheduler, pbem mail serve" if args.production else "pbem serve (embedded)"
    print(f"{setup}: the other player's turn on an open page in Chromium, {len(times)} turns: "
          f"p50 {statistics.median(times) * 1000:.0f} ms, worst {max(times) * 1000:.0f} ms (goal: under 1 s)")


def server_session(server: Server) -> str:
    """A signed session cookie for alice, made with the server's settings (as signing in would)."""
    import subprocess

    script = (
        "from pbem import create_app\n"
        "from pbem.db import get_session\n"
        "from pbem.services import web_sessions\n"
        "from pbem.services.accounts import player_for_email\n"
        "app = create_app()\n"
        "with app.app_context():\n"
        "    s = get_session()\n"
        "    sid = web_sessions.start(s, player_for_email(s, 'alice@bench.example'))\n"
        "    s.commit()\n"
        "    serializer = app.session_interface.get_signing_serializer(app)\n"
        "    print(serializer.dumps({'sid': sid}))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], env=server.env, capture_output=True, text=True, check=True)
    return done.stdout.strip().splitlines()[-1]


if __name__ == "__main__":
    main()
