"""The refusal link at the foot of every mail: ``/mail/refuse/<token>``.

GET shows a page with a button (mail scanners fetch links, so opening one
changes nothing); POST refuses all mail to the address the token names, or
accepts it again.  A mail client's one-click POST (RFC 8058, body
``List-Unsubscribe=One-Click``) carries no CSRF token, so these routes are
exempt from CSRF: they are authorised by the signed token alone."""

from __future__ import annotations

from flask import Blueprint, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue

from pbem.db import get_session
from pbem.i18n import gettext
from pbem.services import refusals
from pbem.services.errors import BadInput
from pbem.web.auth import sign_in_required, signed_in_player

bp = Blueprint("refusal", __name__)


def _page(token: str, address: str, done: str | None = None, status: int = 200) -> ResponseReturnValue:
    refused = refusals.refuses(get_session(), address)
    return render_template("refuse_mail.html", token=token, address=address, refused=refused, done=done), status


@bp.get("/mail/refuse/<token>")
def page(token: str) -> ResponseReturnValue:
    return _page(token, refusals.address_from_token(token))


@bp.post("/mail/refuse/<token>")
def answer(token: str) -> ResponseReturnValue:
    address = refusals.address_from_token(token)
    action = request.form.get("action") or ("refuse" if request.form.get("List-Unsubscribe") == "One-Click" else "")
    if action == "refuse":
        refusals.refuse(get_session(), address)
        return _page(token, address, done="refused")
    if action == "accept":
        refusals.accept_again(get_session(), address)
        return _page(token, address, done="accepted")
    raise BadInput(gettext('say what to do: action=refuse or action=accept (or List-Unsubscribe=One-Click), not %(action)s', action=repr(action[:30])))


@bp.get("/settings/mail")
@sign_in_required
def mine() -> ResponseReturnValue:
    """The signed-in player's own refusal page."""
    return redirect(url_for("refusal.page", token=refusals.token_for(signed_in_player().email)))
