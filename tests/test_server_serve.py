"""``pbem serve`` runs the server on the embedded defaults, as a user
starts it."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request

import pytest


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(url: str, process: subprocess.Popen, seconds: float = 30) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if process.poll() is not None:
            raise AssertionError(f"pbem serve exited early: {process.stdout.read()}")
        try:
            urllib.request.urlopen(url, timeout=2).close()
            return
        except (urllib.error.URLError, ConnectionError):
            time.sleep(0.2)
    raise AssertionError(f"pbem serve did not answer at {url}")


@pytest.fixture
def served(tmp_path):
    """``pbem serve --debug`` (for the local mailbox at /dev/mail) on a free
    port with a fresh SQLite file; yields the base URL."""
    port = free_port()
    env = dict(os.environ, DATABASE_URL=f"sqlite:///{tmp_path / 'served.sqlite3'}", PBEM_SECRET_KEY="serve-test")
    process = subprocess.Popen([sys.executable, "-m", "pbem", "serve", "--debug", "--port", str(port),
                                "--mail-port", str(free_port())], env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_for(base + "/", process)
        yield base
    finally:
        process.terminate()
        process.wait(timeout=10)


def test_pbem_serve_answers_with_pages_the_api_and_the_local_mailbox(served):
    assert b"Sign in" in urllib.request.urlopen(served + "/").read()
    assert b"Local mailbox" in urllib.request.urlopen(served + "/dev/mail").read()
    assert b'"openapi"' in urllib.request.urlopen(served + "/api/v1/openapi.json").read()


def test_pbem_migrate_brings_a_new_database_up_to_date(tmp_path):
    from click.testing import CliRunner

    from pbem.cli import main

    path = tmp_path / "migrated.sqlite3"
    env = {"DATABASE_URL": f"sqlite:///{path}", "PBEM_SECRET_KEY": "x"}
    result = CliRunner(env=env).invoke(main, ["migrate"])
    assert result.exit_code == 0, result.output
    assert "is up to date" in result.output and path.exists()
