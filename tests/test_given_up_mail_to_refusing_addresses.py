"""Given-up outgoing mail and addresses that refused all mail: ``pbem mail
retry --outgoing`` never sends mail to an address that refused all mail from
the server, whether the mail was given up because of the refusal or, before
it, because the SMTP server was down."""

from __future__ import annotations

from aiosmtpd.controller import Controller
from click.testing import CliRunner
from test_email_commands import DOMAIN, mail_app
from test_mail_transport import SinkHandler, free_port
from test_outgoing_delivery import outbox_rows, queue

from pbem.cli import main
from pbem.db import get_session
from pbem.services import refusals


def test_retrying_given_up_mail_never_sends_to_an_address_that_refused_mail(database_config):
    port = free_port()
    handler = SinkHandler()
    controller = Controller(handler, hostname="127.0.0.1", port=port)
    controller.start()
    app = mail_app(database_config, SMTP_HOST="127.0.0.1", SMTP_PORT=port, SMTP_TIMEOUT=5)
    env = {"DATABASE_URL": app.config["DATABASE_URL"], "PBEM_DATABASE_SCHEMA": app.config.get("DATABASE_SCHEMA") or "",
           "PBEM_SECRET_KEY": app.config["SECRET_KEY"], "PBEM_MAIL_FROM": f"pbem@{DOMAIN}",
           "PBEM_SMTP_HOST": "127.0.0.1", "PBEM_SMTP_PORT": str(port), "PBEM_AUTO_MIGRATE": "0"}
    runner = CliRunner(env=env)
    try:
        refused_id, outage_id, other_id = queue(app, "bob@example.org", "carol@example.org", "dave@example.org")
        with app.app_context():
            session = get_session()
            # carol's and dave's mail given up after an outage, before carol refused all mail
            for row in outbox_rows(app)[1:]:
                row.failed_at, row.last_error = row.created_at, "cannot connect: the SMTP server is down"
                session.add(row)
            session.commit()
            refusals.refuse(session, "bob@example.org")
            refusals.refuse(session, "Carol@example.org")

        named = runner.invoke(main, ["mail", "retry", "--outgoing", str(outage_id)])
        assert named.exit_code == 1
        assert "to carol@example.org, which refused all mail from this server" in named.output
        assert "nothing was re-queued" in named.output

        everything = runner.invoke(main, ["mail", "retry", "--outgoing", "--all"])
        assert everything.exit_code == 0, everything.output
        assert f"1 outgoing message(s) re-queued: {other_id}" in everything.output
        assert "2 left given up: their addresses refused all mail" in everything.output

        sent = runner.invoke(main, ["mail", "send"])
        assert sent.exit_code == 0, sent.output
        assert [to for _, to, _ in handler.messages] == [["dave@example.org"]]
        rows = {row.id: row for row in outbox_rows(app)}
        assert rows[refused_id].sent_at is None and rows[refused_id].failed_at is not None
        assert rows[outage_id].sent_at is None and rows[outage_id].failed_at is not None
    finally:
        controller.stop()
        app.extensions["pbem_engine"].dispose()
