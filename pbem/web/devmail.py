"""/dev/mail: the local mailbox of the embedded default, showing what would
have been sent, sign-in links included, to anyone who can reach it.
Registered only when debug mode is asked for (or ``DEV_MAILBOX``), never
because of the address served on; it then logs ``WARNING``."""

from __future__ import annotations

from flask import Blueprint, abort, current_app, render_template
from flask.typing import ResponseReturnValue

from pbem.config import dev_mailbox_enabled
from pbem.db import get_session
from pbem.services import outbox

bp = Blueprint("devmail", __name__, url_prefix="/dev")

WARNING = ("WARNING: debug mode is on: /dev/mail shows every sign-in link, so anyone who reaches this server "
           "can sign in as any player. It must never be reachable by others (no reverse proxy, no shared "
           "machine, no address but 127.0.0.1). Debug mode is on because of pbem serve --debug, DEBUG = True "
           "or PBEM_DEBUG=1; leave those out to turn it off.")


@bp.get("/mail")
def mailbox() -> ResponseReturnValue:
    if not dev_mailbox_enabled(current_app):  # debug turned off after start-up (pbem serve --no-debug)
        abort(404)
    return render_template("dev_mail.html", messages=outbox.recent(get_session(), 200))
