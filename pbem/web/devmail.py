"""/dev/mail: the local mailbox of the embedded default, showing what would
have been sent.  Registered only when debug is on (or ``DEV_MAILBOX``)."""

from __future__ import annotations

from flask import Blueprint, render_template

from pbem.db import get_session
from pbem.services import outbox

bp = Blueprint("devmail", __name__, url_prefix="/dev")


@bp.get("/mail")
def mailbox():
    return render_template("dev_mail.html", messages=outbox.recent(get_session(), 200))
