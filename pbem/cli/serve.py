"""``pbem serve``: run the server on the embedded default (SQLite in
``instance/``, sent mail kept as ``.eml`` files in ``instance/mail/``).
Debug mode, which also shows every mail at /dev/mail, is on only when asked
for (``--debug``, ``DEBUG``, ``PBEM_DEBUG``), and then warns loudly.

Background work that belongs with the server (the deadline scheduler, the
mail listener) starts from ``pbem.runtime.start_background``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from pbem.cli.settings import setting_option

if TYPE_CHECKING:
    from flask import Flask


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="address to listen on")
@click.option("--port", default=5000, show_default=True, type=click.IntRange(1, 65535))
@click.option("--debug/--no-debug", default=None,
              help="debug mode: shows every mail, sign-in links included, at /dev/mail; for a machine of "
                   "your own only. Default: the DEBUG setting (PBEM_DEBUG), off unless set")
@setting_option("MAIL_LISTENER", "--mail-listener/--no-mail-listener",
                help="run the mail listener beside the server (default: on)")
@setting_option("MAIL_LISTENER_PROTOCOL", "--mail-protocol", type=click.Choice(["smtp", "lmtp"]),
                help="the mail listener's protocol (default: smtp)")
@setting_option("MAIL_LISTENER_HOST", "--mail-host", help="address the mail listener listens on (default: 127.0.0.1)")
@setting_option("MAIL_LISTENER_PORT", "--mail-port", type=click.IntRange(1, 65535),
                help="port of the mail listener (default: 8025)")
@setting_option("SCHEDULER", "--scheduler/--no-scheduler", to_text=lambda on: "embedded" if on else "off",
                help="run the scheduler's jobs in this process (default: on; off when 'pbem scheduler' runs them)")
def serve(host: str, port: int, debug: bool | None) -> None:
    """Run the pbem server (for production use gunicorn: see docs/server.md)."""
    from pbem import create_app
    from pbem.config import dev_mailbox_enabled
    from pbem.runtime import start_background

    app = create_app()
    if debug is not None:
        app.debug = debug
    debug = bool(app.debug)
    if not app.config.get("BASE_URL"):
        app.config["BASE_URL"] = own_base_url(host, port)
    if debug:
        from pbem.web import enable_dev_mailbox

        enable_dev_mailbox(app)
    if dev_mailbox_enabled(app):
        from pbem.web.devmail import WARNING

        click.secho(f"\n{'!' * 78}\n{WARNING}\n{'!' * 78}\n", err=True, fg="red", bold=True)
    start_background(app)
    click.echo(f"pbem: serving on http://{host}:{port}/ with {_where(app.config['DATABASE_URL'])}")
    from pbem.mailrobot.listener import start_for_serve

    if (mail_line := start_for_serve(app)) is not None:
        click.echo(mail_line)
    click.echo(_mail_line(app, host, port))
    app.run(host=host, port=port, debug=debug, use_reloader=False, use_debugger=False)


def _mail_line(app: Flask, host: str, port: int) -> str:
    """Where sent mail (sign-in links too) goes, for the start-up message."""
    from pbem.config import dev_mailbox_enabled
    from pbem.mailrobot.settings import eml_folder, smtp_config

    if smtp_config(app.config) is not None:
        return f"pbem: mail is sent through {app.config['SMTP_HOST']}"
    line = f"pbem: no SMTP_HOST is set, so sent mail (sign-in links too) is kept as .eml files in {eml_folder(app)}"
    if dev_mailbox_enabled(app):
        line += f"; read it at {own_base_url(host, port)}/dev/mail"
    return line


def own_base_url(host: str, port: int) -> str:
    """The address mailed links use when ``BASE_URL`` is not configured: this
    server's own (a wildcard address is written as localhost)."""
    if host in ("", "0.0.0.0", "::"):
        host = "localhost"
    elif ":" in host:
        host = f"[{host}]"
    return f"http://{host}:{port}"


def _where(url: str) -> str:
    from sqlalchemy.engine import make_url

    return make_url(url).render_as_string(hide_password=True)


@click.command("migrate")
def migrate() -> None:
    """Bring the database schema up to date (DATABASE_URL or the instance
    folder's database), then exit."""
    from pbem import create_app, db

    app = create_app()
    db.migrate(app.extensions["pbem_engine"])
    click.echo(f"pbem: the schema of {_where(app.config['DATABASE_URL'])} is up to date")
