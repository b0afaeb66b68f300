"""``pbem serve``: run the server on the embedded default (SQLite in
``instance/``, mail kept in the outbox and shown at /dev/mail).

Background work that belongs with the server (the deadline scheduler, the
mail listener) starts from ``pbem.runtime.start_background``.
"""

from __future__ import annotations

import click

from pbem.cli_settings import setting_option


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="address to listen on")
@click.option("--port", default=5000, show_default=True, type=click.IntRange(1, 65535))
@click.option("--debug/--no-debug", default=None,
              help="debug mode (shows the local mailbox at /dev/mail); default: on when serving on 127.0.0.1")
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
    from pbem.runtime import start_background

    if debug is None:
        debug = host in ("127.0.0.1", "localhost", "::1")
    app = create_app()
    app.debug = debug
    if not app.config.get("BASE_URL"):
        app.config["BASE_URL"] = own_base_url(host, port)
    if debug:
        from pbem.web import enable_dev_mailbox

        enable_dev_mailbox(app)
    start_background(app)
    click.echo(f"pbem: serving on http://{host}:{port}/ with {_where(app.config['DATABASE_URL'])}")
    from pbem.mailrobot.listener import start_for_serve

    if (mail_line := start_for_serve(app)) is not None:
        click.echo(mail_line)
    if debug:
        click.echo(f"pbem: mail is kept locally; read it at http://{host}:{port}/dev/mail")
    app.run(host=host, port=port, debug=debug, use_reloader=False, use_debugger=False)


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
