"""Passwordless sign-in: a player asks for a link, the link (a signed,
expiring token) is mailed to them, and following it signs them in."""

from __future__ import annotations

from functools import wraps
from typing import Callable

from flask import Blueprint, flash, g, redirect, render_template, request, session, url_for

from pbem.db import get_session
from pbem.models import Player
from pbem.services import accounts
from pbem.services.errors import ServiceError

bp = Blueprint("auth", __name__, url_prefix="/auth")


def current_player() -> Player | None:
    """The signed-in player, or None."""
    if "player" not in g:
        player_id = session.get("player_id")
        g.player = get_session().get(Player, player_id) if isinstance(player_id, int) else None
    return g.player


def sign_in_required(view: Callable) -> Callable:
    @wraps(view)
    def wrapped(*args, **kwargs):
        if current_player() is None:
            return redirect(url_for("auth.sign_in", next=request.full_path.rstrip("?")))
        return view(*args, **kwargs)

    return wrapped


@bp.route("/sign-in", methods=["GET", "POST"])
def sign_in():
    next_path = accounts.safe_next(request.values.get("next", "/"))
    if request.method == "POST":
        email = request.form.get("email", "")
        try:
            player = accounts.send_sign_in_link(get_session(), email, next_path)
        except ServiceError as error:
            return render_template("sign_in.html", error=error.message, email=email[:320], next=next_path), error.status
        return render_template("check_mail.html", email=player.email, dev_mailbox=dev_mailbox_enabled_here())
    return render_template("sign_in.html", error=None, email="", next=next_path)


def dev_mailbox_enabled_here() -> bool:
    from flask import current_app

    return "devmail" in current_app.blueprints


@bp.get("/verify")
def verify():
    try:
        email = accounts.email_from_token(request.args.get("token"))
    except ServiceError as error:
        return render_template("sign_in.html", error=error.message, email="", next="/"), 400
    player = accounts.player_for_email(get_session(), email)
    get_session().commit()
    session.clear()
    session["player_id"] = player.id
    session.permanent = True
    flash(f"Signed in as {player.email}.")
    return redirect(accounts.safe_next(request.args.get("next", "/")))


@bp.post("/sign-out")
def sign_out():
    session.clear()
    flash("Signed out.")
    return redirect(url_for("games.home"))
