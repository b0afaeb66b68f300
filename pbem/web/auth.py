"""Passwordless sign-in: a player asks for a link, the link (a random,
single-use, expiring token) is mailed to them; opening it shows a page whose
button (a POST carrying that page's CSRF token) signs them in.  Sessions
live on the server (``pbem.services.web_sessions``): signing out ends them."""

from __future__ import annotations

from functools import wraps
from typing import Callable, ParamSpec

from flask import Blueprint, Response, flash, make_response, redirect, render_template, request, session, url_for
from flask.typing import ResponseReturnValue

from pbem.db import get_session
from pbem.i18n import gettext
from pbem.models import Player
from pbem.services import accounts, web_sessions
from pbem.services.errors import ServiceError
from pbem.services.web_sessions import current_player as current_player  # the pages import it from here

bp = Blueprint("auth", __name__, url_prefix="/auth")

P = ParamSpec("P")


def sign_in_required(view: Callable[P, ResponseReturnValue]) -> Callable[P, ResponseReturnValue]:
    @wraps(view)
    def wrapped(*args: P.args, **kwargs: P.kwargs) -> ResponseReturnValue:
        if current_player() is None:
            return redirect(url_for("auth.sign_in", next=request.full_path.rstrip("?")))
        return view(*args, **kwargs)

    return wrapped


def signed_in_player() -> Player:
    """The signed-in player, in a page behind ``sign_in_required`` (which
    sends anyone else to sign in first)."""
    player = current_player()
    if player is None:  # a page that forgot its sign_in_required
        raise RuntimeError("signed_in_player() in a page not behind sign_in_required")
    return player


def reads_game_with_player(view: Callable[P, ResponseReturnValue]) -> Callable[P, ResponseReturnValue]:
    """Put above ``sign_in_required`` on a page that plays in the game
    ``game_id``: the signed-in player and the game are read in one
    statement where they can be (``web_sessions.read_with_game``), the
    game kept as ``g.seated``."""
    @wraps(view)
    def wrapped(*args: P.args, **kwargs: P.kwargs) -> ResponseReturnValue:
        web_sessions.read_with_game(kwargs["game_id"])
        return view(*args, **kwargs)

    return wrapped


@bp.route("/sign-in", methods=["GET", "POST"])
def sign_in() -> ResponseReturnValue:
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


def _refused(error: ServiceError) -> tuple[str, int]:
    email = getattr(error, "email", "")
    return render_template("sign_in.html", error=error.message, email=email, next="/"), error.status


def _private(page: ResponseReturnValue) -> Response:
    """No caching, and no Referer carrying the link's token elsewhere."""
    response = make_response(page)
    response.headers["Cache-Control"] = "no-store"
    response.headers["Referrer-Policy"] = "no-referrer"
    return response


@bp.get("/verify")
def verify() -> ResponseReturnValue:
    """The page a mailed link opens: it signs nobody in and uses nothing up.
    Opened by its player already signed in here, it leads to its page."""
    token = request.args.get("token")
    try:
        player, next_path, refusal = accounts.check_sign_in_link(get_session(), token)
    except ServiceError as error:
        return _private(_refused(error))
    me = current_player()
    if me is not None and me.id == player.id:  # already signed in as its player: just go there
        return _private(redirect(next_path))
    if refusal is not None:
        return _private(_refused(refusal))
    return _private(render_template("confirm_sign_in.html", email=player.email, token=token))


@bp.post("/verify")
def confirm() -> ResponseReturnValue:
    """The sign-in button: uses the link up (once) and starts a session."""
    try:
        player, next_path = accounts.use_sign_in_link(get_session(), request.form.get("token"))
    except ServiceError as error:
        return _private(_refused(error))
    web_sessions.end(get_session(), session.get(web_sessions.COOKIE_KEY))
    session.clear()
    session[web_sessions.COOKIE_KEY] = web_sessions.start(get_session(), player)
    session.permanent = True
    flash(gettext('Signed in as %(email)s.', email=player.email))
    return redirect(next_path)


@bp.post("/sign-out")
def sign_out() -> ResponseReturnValue:
    web_sessions.end(get_session(), session.get(web_sessions.COOKIE_KEY))
    session.clear()
    flash(gettext('Signed out.'))
    return redirect(url_for("games.home"))


@bp.post("/sign-out-everywhere")
@sign_in_required
def sign_out_everywhere() -> ResponseReturnValue:
    """End every session of the signed-in player, this one included, and
    cancel their unused sign-in links."""
    count = web_sessions.end_all(get_session(), signed_in_player())
    session.clear()
    flash(gettext('Signed out on every device (%(count)s session%(value)s ended).', count=count, value='s' if count != 1 else ''))
    return redirect(url_for("games.home"))
