"""Debug mode, and with it the local mailbox at /dev/mail that shows every
sign-in link, is on only when asked for (``pbem serve --debug``, ``DEBUG``
or ``PBEM_DEBUG``), never because of the address served on, and says so
loudly when on."""

from __future__ import annotations

import os
import subprocess
import sys
import urllib.error
import urllib.request

import pytest
from click.testing import CliRunner
from conftest import make_test_app
from test_server_serve import free_port, wait_for


def serve(tmp_path, *args: str, **env: str):
    """``pbem serve`` on 127.0.0.1 and a free port; (base URL, process)."""
    port = free_port()
    environment = dict(os.environ, DATABASE_URL=f"sqlite:///{tmp_path / 'served.sqlite3'}",
                       PBEM_SECRET_KEY="serve-test", PBEM_MAIL_LISTENER_PORT=str(free_port()))
    environment.pop("PBEM_DEBUG", None)
    environment.pop("FLASK_DEBUG", None)
    environment.update(env)
    process = subprocess.Popen([sys.executable, "-m", "pbem", "serve", "--host", "127.0.0.1", "--port", str(port),
                                *args], env=environment, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_for(base + "/", process)
    except BaseException:
        process.kill()
        process.communicate(timeout=10)
        raise
    return base, process


def stop(process) -> str:
    process.terminate()
    output, _ = process.communicate(timeout=10)
    return output


def status(url: str) -> int:
    try:
        with urllib.request.urlopen(url) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


def test_serving_on_127_0_0_1_is_not_debug_mode(tmp_path):
    base, process = serve(tmp_path)
    try:
        assert status(base + "/dev/mail") == 404
        page = urllib.request.urlopen(base + "/auth/sign-in").read().decode()
        assert "Debug mode" not in page
    finally:
        output = stop(process)
    assert "every sign-in link" not in output and "/dev/mail\n" not in output
    assert "kept as .eml files in" in output


@pytest.mark.parametrize("args, env", [(("--debug",), {}), ((), {"PBEM_DEBUG": "1"})])
def test_debug_mode_when_asked_for_shows_the_mailbox_and_warns(tmp_path, args, env):
    base, process = serve(tmp_path, *args, **env)
    try:
        assert status(base + "/dev/mail") == 200
        page = urllib.request.urlopen(base + "/").read().decode()
        assert "Debug mode" in page and "/dev/mail" in page
    finally:
        output = stop(process)
    assert "WARNING" in output
    assert "/dev/mail shows every sign-in link" in output
    assert "must never be reachable by others" in output


def test_pages_show_a_banner_only_in_debug_mode(database_config):
    plain = make_test_app(database_config).test_client().get("/").get_data(as_text=True)
    assert "Debug mode" not in plain
    debug = make_test_app(database_config, DEBUG=True).test_client().get("/").get_data(as_text=True)
    assert "Debug mode" in debug


def test_a_bad_pbem_debug_value_is_named(tmp_path):
    from pbem.cli import main

    env = {"DATABASE_URL": f"sqlite:///{tmp_path / 'x.sqlite3'}", "PBEM_SECRET_KEY": "x", "PBEM_DEBUG": "maybe"}
    result = CliRunner(env=env).invoke(main, ["migrate"])
    assert result.exit_code != 0
    assert "PBEM_DEBUG" in result.output and "'maybe'" in result.output and "1" in result.output


@pytest.mark.parametrize("value", ["0", "false", "no", "off", ""])
def test_pbem_debug_off_values_leave_debug_off(tmp_path, monkeypatch, value):
    from pbem import create_app

    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'x.sqlite3'}")
    monkeypatch.setenv("PBEM_SECRET_KEY", "x")
    monkeypatch.setenv("PBEM_DEBUG", value)
    monkeypatch.delenv("FLASK_DEBUG", raising=False)
    app = create_app()
    assert not app.debug and app.test_client().get("/dev/mail").status_code == 404
