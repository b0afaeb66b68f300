"""The games' guide pages (public): the rules as this server applies them,
our rulings, the notation with examples and pictures
(``pbem.services.guides``), and each game's picture."""

from __future__ import annotations

from flask import Blueprint, Response, abort, render_template
from flask.typing import ResponseReturnValue
from flask_babel import get_locale

from engine.errors import PbemError
from pbem.services import guides

bp = Blueprint("guides", __name__)


@bp.get("/rules")
def index() -> ResponseReturnValue:
    return render_template("guides.html", kinds=guides.overview())


@bp.get("/rules/<kind>")
def show(kind: str) -> ResponseReturnValue:
    try:
        locale = get_locale()
        shown = guides.guide(kind, locale.language if locale else None)
    except PbemError:
        abort(404, description=f"there is no game called {kind[:40]!r}; the games are listed at /rules")
    return render_template("guide.html", guide=shown)


@bp.get("/rules/<kind>/picture.svg")
def picture(kind: str) -> ResponseReturnValue:
    try:
        body = guides.picture(kind)
    except PbemError:
        abort(404)
    response = Response(body, mimetype="image/svg+xml")
    response.headers["Cache-Control"] = "public, max-age=86400"
    return response
