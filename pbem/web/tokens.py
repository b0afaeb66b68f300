"""The API tokens page: make a token (shown once), see and revoke yours;
and the player's display name."""

from __future__ import annotations

from flask import Blueprint, flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue

from pbem.db import get_session
from pbem.i18n import gettext
from pbem.services import accounts
from pbem.services.errors import ServiceError
from pbem.web.auth import sign_in_required, signed_in_player

bp = Blueprint("tokens", __name__)


@bp.route("/tokens", methods=["GET", "POST"])
@sign_in_required
def tokens() -> ResponseReturnValue:
    player = signed_in_player()
    session = get_session()
    new_token, error = None, None
    if request.method == "POST":
        try:
            new_token, _row = accounts.create_api_token(session, player, request.form.get("label", ""))
        except ServiceError as failure:
            error = failure.message
    return render_template("tokens.html", tokens=accounts.tokens_of(session, player), new_token=new_token,
                           error=error), 400 if error else 200


@bp.post("/tokens/<int:token_id>/revoke")
@sign_in_required
def revoke(token_id: int) -> ResponseReturnValue:
    accounts.revoke_api_token(get_session(), signed_in_player(), token_id)
    flash(gettext('Token revoked.'))
    return redirect(url_for("tokens.tokens"))


@bp.post("/profile")
@sign_in_required
def profile() -> ResponseReturnValue:
    try:
        accounts.set_name(get_session(), signed_in_player(), request.form.get("name", ""))
        flash(gettext('Name saved.'))
    except ServiceError as failure:
        flash(failure.message)
    return redirect(url_for("tokens.tokens"))
