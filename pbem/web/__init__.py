"""Server-rendered pages: sign-in, my games, a game, a new game, API tokens,
and the local mailbox at /dev/mail (debug only).  Every form carries a CSRF
token (Flask-WTF); Jinja escapes everything."""

from __future__ import annotations

import re
from typing import Any

from flask import Flask, render_template, request
from flask.typing import ResponseReturnValue
from flask_wtf.csrf import CSRFError
from markupsafe import Markup, escape
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge

from pbem.config import dev_mailbox_enabled
from pbem.i18n import PLAYER_OF_REQUEST, gettext, lazy_gettext
from pbem.json_errors import error_response
from pbem.security import csrf
from pbem.services.errors import ServiceError

_URL = re.compile(r"https?://[^\s<>\"']+")


def linkify(text: str) -> Markup:
    """Escape ``text`` and make its http(s) links clickable."""
    out, last = [], 0
    source = str(text)
    for match in _URL.finditer(source):
        out.append(escape(source[last:match.start()]))
        url = match.group(0)
        out.append(Markup('<a href="{0}">{0}</a>').format(url))
        last = match.end()
    out.append(escape(source[last:]))
    return Markup("").join(out)


def _shown_in_language(text: object) -> str:
    """A text stored or drawn in English, in the page's language
    (``pbem.services.stored_words``)."""
    from flask_babel import get_locale

    from pbem.services.stored_words import shown

    locale = get_locale()
    return shown(text, locale.language if locale else None)


# Werkzeug's own descriptions of the errors a page can meet, in the catalogue
_HTTP_DESCRIPTIONS = {
    404: lazy_gettext("The requested URL was not found on the server. If you entered the URL manually please "
                      "check your spelling and try again."),
    405: lazy_gettext("The method is not allowed for the requested URL."),
    400: lazy_gettext("The browser (or proxy) sent a request that this server could not understand."),
    500: lazy_gettext("The server encountered an internal error and was unable to complete your request. Either "
                      "the server is overloaded or there is an error in the application."),
}
_CSRF_REASONS = (lazy_gettext("The CSRF token is missing."), lazy_gettext("The CSRF token has expired."),
                 lazy_gettext("The CSRF token is invalid."), lazy_gettext("The CSRF tokens do not match."))


def http_message(error: HTTPException) -> str:
    """The error's description in the reader's language: ours (given to
    ``abort``, already translated) or Werkzeug's default, from the catalogue."""
    description = error.description or error.name
    if description == type(error).description and error.code in _HTTP_DESCRIPTIONS:
        return str(_HTTP_DESCRIPTIONS[error.code])
    return gettext(description)


def enable_dev_mailbox(app: Flask) -> None:
    """Serve /dev/mail (once), logging ``devmail.WARNING``; for debug mode only."""
    from pbem.web import devmail

    if "devmail" not in app.blueprints:
        app.register_blueprint(devmail.bp)
        app.logger.warning(devmail.WARNING)


def init_app(app: Flask) -> None:
    from pbem.web import auth, games, guides, lobby, puzzles, refusal, schedule, tokens

    csrf.init_app(app)
    app.extensions[PLAYER_OF_REQUEST] = auth.current_player  # whose language setting a page is in
    app.register_blueprint(auth.bp)
    app.register_blueprint(games.bp)
    app.register_blueprint(guides.bp)
    app.register_blueprint(lobby.bp)
    app.register_blueprint(puzzles.bp)
    app.register_blueprint(tokens.bp)
    app.register_blueprint(schedule.bp)
    app.register_blueprint(refusal.bp)
    csrf.exempt(refusal.bp)  # authorised by the signed token in the link (RFC 8058 one-click POST)
    if dev_mailbox_enabled(app):
        enable_dev_mailbox(app)
    app.jinja_env.filters["linkify"] = linkify
    app.jinja_env.filters["shown"] = _shown_in_language

    @app.context_processor
    def _globals() -> dict[str, Any]:
        return {"me": auth.current_player(), "dev_mailbox": "devmail" in app.blueprints and dev_mailbox_enabled(app)}

    def wants_json() -> bool:
        return request.path.startswith("/api/")

    @app.errorhandler(ServiceError)
    def _service_error(error: ServiceError) -> ResponseReturnValue:
        return render_template("error.html", status=error.status, message=error.message), error.status

    @app.errorhandler(CSRFError)
    def _csrf_error(error: CSRFError) -> ResponseReturnValue:
        message = gettext("the form could not be accepted (%(reason)s); reload the page and try again",
                          reason=gettext(error.description))
        return render_template("error.html", status=400, message=message), 400

    @app.errorhandler(RequestEntityTooLarge)
    def _too_large(error: RequestEntityTooLarge) -> ResponseReturnValue:
        from pbem.limits import too_large

        if wants_json():
            return error_response(too_large(), 413)
        return render_template("error.html", status=413, message=too_large()), 413

    @app.errorhandler(HTTPException)
    def _http_error(error: HTTPException) -> ResponseReturnValue:
        if wants_json():
            return error_response(error.description or error.name, error.code or 500)
        page = render_template("error.html", status=error.code, message=http_message(error))
        return page if error.code is None else (page, error.code)  # Flask answers a None status with 200
