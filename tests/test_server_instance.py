"""Where a server keeps its data and how operators set it up: the instance
folder (``PBEM_INSTANCE`` or ``pbem --instance``), every setting from a
``PBEM_<KEY>`` environment variable with its proper type, and the command
line options of ``pbem serve``, ``pbem mail serve`` and ``pbem scheduler``."""

from __future__ import annotations

import os
import smtplib
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest
from click.testing import CliRunner
from test_server_serve import free_port, wait_for

from pbem import create_app
from pbem.cli import main
from pbem.config import ConfigError

#: variables of the developer's own shell that would change what is tested
_OWN = ("DATABASE_URL", "PBEM_SECRET_KEY", "PBEM_INSTANCE", "PBEM_BASE_URL")


@pytest.fixture
def clean_env(monkeypatch):
    for name in list(os.environ):
        if name in _OWN or (name.startswith("PBEM_") and name != "PBEM_TEST_POSTGRES_URL"):
            monkeypatch.delenv(name)
    return monkeypatch


def _app_in(folder: Path, env, **variables):
    env.setenv("PBEM_INSTANCE", str(folder))
    for name, value in variables.items():
        env.setenv(name, value)
    app = create_app()
    return app


def test_two_instance_folders_keep_separate_databases_secret_keys_and_mail(tmp_path, clean_env):
    from pbem.db import get_session
    from pbem.mailrobot.settings import eml_folder
    from pbem.services.accounts import player_for_email

    first = _app_in(tmp_path / "first", clean_env)
    second = _app_in(tmp_path / "second", clean_env)
    try:
        assert first.instance_path == str(tmp_path / "first")
        assert (tmp_path / "first" / "pbem.sqlite3").exists() and (tmp_path / "second" / "pbem.sqlite3").exists()
        assert first.config["SECRET_KEY"] != second.config["SECRET_KEY"]
        assert (tmp_path / "first" / "secret_key").read_text().strip() == first.config["SECRET_KEY"]
        assert eml_folder(first) == tmp_path / "first" / "mail"
        with first.app_context():
            player_for_email(get_session(), "ann@example.org")
            get_session().commit()
        with second.app_context():
            from sqlmodel import select

            from pbem.models import Player

            assert get_session().exec(select(Player)).all() == []
        # the same folder again: the same database and the same key
        again = _app_in(tmp_path / "first", clean_env)
        assert again.config["SECRET_KEY"] == first.config["SECRET_KEY"]
        with again.app_context():
            assert [p.email for p in get_session().exec(select(Player)).all()] == ["ann@example.org"]
        again.extensions["pbem_engine"].dispose()
    finally:
        first.extensions["pbem_engine"].dispose()
        second.extensions["pbem_engine"].dispose()


def test_a_relative_instance_folder_is_taken_from_the_current_directory(tmp_path, clean_env):
    clean_env.chdir(tmp_path)
    app = _app_in(Path("here"), clean_env, PBEM_AUTO_MIGRATE="off")
    assert app.instance_path == str(tmp_path / "here")
    assert (tmp_path / "here" / "secret_key").exists()


def test_environment_variables_set_every_setting_with_its_type(tmp_path, clean_env):
    from pbem import scheduler
    from pbem.mailrobot.settings import backoff, smtp_config

    app = _app_in(
        tmp_path, clean_env,
        PBEM_AUTO_MIGRATE="false",
        PBEM_SWEEP_SECONDS="15",
        PBEM_OUTBOX_SECONDS="5",
        PBEM_SIGN_IN_MAX_AGE="600",
        PBEM_MAIL_LISTENER="off",
        PBEM_MAIL_LISTENER_HOST="::1",
        PBEM_MAIL_LISTENER_PORT="2525",
        PBEM_SMTP_HOST="smtp.example.org",
        PBEM_SMTP_PORT="587",
        PBEM_SMTP_TIMEOUT="2.5",
        PBEM_MAIL_RETRY_BASE="5",
        PBEM_MAIL_MAX_ATTEMPTS="3",
        PBEM_DEV_MAILBOX="yes",
    )
    config = app.config
    assert config["AUTO_MIGRATE"] is False and not (tmp_path / "pbem.sqlite3").exists()
    assert config["SWEEP_SECONDS"] == 15 and config["SIGN_IN_MAX_AGE"] == 600
    assert config["MAIL_LISTENER"] is False and config["MAIL_LISTENER_HOST"] == "::1"
    assert config["MAIL_LISTENER_PORT"] == 2525 and config["SMTP_PORT"] == 587
    assert config["SMTP_TIMEOUT"] == 2.5 and config["DEV_MAILBOX"] is True
    # and the parts that use them see them
    assert smtp_config(config).timeout == 2.5 and smtp_config(config).port == 587
    assert backoff(config).base == 5 and backoff(config).max_attempts == 3
    jobs = scheduler.build(app)
    assert jobs.get_job("sweep").trigger.interval.total_seconds() == 15
    assert jobs.get_job("outbox").trigger.interval.total_seconds() == 5
    assert jobs.get_job("digest").trigger.interval.total_seconds() == 600  # untouched: the default


@pytest.mark.parametrize(
    "variable,value,expected",
    [
        ("PBEM_MAIL_LISTENER_PORT", "eighty", "a whole number from 1 to 65535"),
        ("PBEM_SMTP_PORT", "70000", "a whole number from 1 to 65535"),
        ("PBEM_SWEEP_SECONDS", "0", "a whole number from 1"),
        ("PBEM_SIGN_IN_MAX_AGE", "1h", "a whole number from 1"),
        ("PBEM_SMTP_TIMEOUT", "soon", "a number of seconds"),
        ("PBEM_AUTO_MIGRATE", "maybe", "true or false"),
        ("PBEM_DIGEST_HOUR", "24", "a whole number from 0 to 23"),
    ],
)
def test_a_bad_environment_value_is_a_clear_error_naming_the_variable(tmp_path, clean_env, variable, value, expected):
    clean_env.setenv("PBEM_INSTANCE", str(tmp_path))
    clean_env.setenv(variable, value)
    with pytest.raises(ConfigError) as error:
        create_app()
    message = str(error.value)
    assert variable in message and expected in message and repr(value) in message
    assert not (tmp_path / "pbem.sqlite3").exists()  # nothing was started
    result = CliRunner().invoke(main, ["migrate"])
    assert result.exit_code != 0
    assert variable in result.output and expected in result.output
    assert "Traceback" not in result.output and not isinstance(result.exception, ConfigError)


def test_pbem_instance_option_places_the_instance_folder_for_any_command(tmp_path, clean_env):
    folder = tmp_path / "elsewhere"
    result = CliRunner().invoke(main, ["--instance", str(folder), "migrate"])
    assert result.exit_code == 0, result.output
    assert (folder / "pbem.sqlite3").exists() and (folder / "secret_key").exists()
    assert str(folder / "pbem.sqlite3") in result.output
    assert "PBEM_INSTANCE" not in os.environ  # the option does not leak out of the command


def _start(args, env, instance: Path) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "pbem", "--instance", str(instance), *args], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def _clean_environ() -> dict:
    return {k: v for k, v in os.environ.items()
            if k not in _OWN and not (k.startswith("PBEM_") and k != "PBEM_TEST_POSTGRES_URL")}


def _line_with(words: str, process: subprocess.Popen) -> str:
    """The first line of the process's output that holds ``words`` (log lines come before)."""
    seen = []
    for line in process.stdout:
        if words in line:
            return line
        seen.append(line)
    raise AssertionError(f"no {words!r} in the output: {''.join(seen)}")


def test_two_servers_run_side_by_side_with_their_own_folders_and_ports(tmp_path):
    env = _clean_environ()
    servers = []
    try:
        for name in ("one", "two"):
            web, mail = free_port(), free_port()
            process = _start(["serve", "--port", str(web), "--mail-port", str(mail)], env, tmp_path / name)
            servers.append((name, web, mail, process))
        for name, web, mail, process in servers:
            wait_for(f"http://127.0.0.1:{web}/", process)
            assert b"Sign in" in urllib.request.urlopen(f"http://127.0.0.1:{web}/").read()
            with smtplib.SMTP("127.0.0.1", mail, timeout=10) as smtp:
                assert smtp.noop()[0] == 250
            assert (tmp_path / name / "pbem.sqlite3").exists()
        keys = {(tmp_path / name / "secret_key").read_text() for name in ("one", "two")}
        assert len(keys) == 2
    finally:
        for *_, process in servers:
            process.terminate()
            process.wait(timeout=10)
    output = servers[0][3].stdout.read()
    assert f"mail listener (SMTP) on 127.0.0.1:{servers[0][2]}" in output
    assert str(tmp_path / "one" / "pbem.sqlite3") in output


def test_pbem_mail_serve_takes_its_port_from_the_environment(tmp_path):
    port = free_port()
    env = dict(_clean_environ(), PBEM_MAIL_SERVE_PORT=str(port), PBEM_MAIL_SERVE_PROTOCOL="smtp")
    process = _start(["mail", "serve"], env, tmp_path)
    try:
        line = _line_with("listener on", process)
        assert f"SMTP listener on 127.0.0.1:{port}" in line, line + process.stdout.read()
        with smtplib.SMTP("127.0.0.1", port, timeout=10) as smtp:
            assert smtp.noop()[0] == 250
    finally:
        process.terminate()
        process.wait(timeout=10)


def test_pbem_scheduler_takes_job_intervals_on_the_command_line(tmp_path):
    process = _start(["scheduler", "--sweep-seconds", "7", "--outbox-seconds", "3"], _clean_environ(), tmp_path)
    try:
        line = _line_with("scheduler running", process)
        assert "sweep woken when work is committed, and every 7 s" in line, line
        assert "outbox woken when work is committed, and every 3 s" in line and "digest every 600 s" in line, line
    finally:
        process.terminate()
        process.wait(timeout=10)
    bad = CliRunner().invoke(main, ["--instance", str(tmp_path), "scheduler", "--sweep-seconds", "0"])
    assert bad.exit_code == 2 and "--sweep-seconds" in bad.output
