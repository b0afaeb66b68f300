"""Server-rendered pages: sign-in, my games, a game, a new game, API tokens,
and the local mailbox at /dev/mail (debug only).  Every form carries a CSRF
token (Flask-WTF); Jinja escapes everything."""

from __future__ import annotations

import re

from flask import Flask, render_template, request
from flask_wtf.csrf import CSRFError
from markupsafe import Markup, escape
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge

from pbem.config import dev_mailbox_enabled
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


def enable_dev_mailbox(app: Flask) -> None:
    """Serve /dev/mail (once), logging ``devmail.WARNING``; for debug mode only."""
    from pbem.web import devmail

    if "devmail" not in app.blueprints:
        app.register_blueprint(devmail.bp)
        app.logger.warning(devmail.WARNING)


def init_app(app: Flask) -> None:
    from pbem.web import auth, devmail, games, guides, lobby, puzzles, refusal, schedule, tokens

    csrf.init_app(app)
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

    @app.context_processor
    def _globals():
        return {"me": auth.current_player(), "dev_mailbox": "devmail" in app.blueprints and dev_mailbox_enabled(app)}

    def wants_json() -> bool:
        return request.path.startswith("/api/")

    @app.errorhandler(ServiceError)
    def _service_error(error: ServiceError):
        return render_template("error.html", status=error.status, message=error.message), error.status

    @app.errorhandler(CSRFError)
    def _csrf_error(error: CSRFError):
        message = f"the form could not be accepted ({error.description}); reload the page and try again"
        return render_template("error.html", status=400, message=message), 400

    @app.errorhandler(RequestEntityTooLarge)
    def _too_large(error: RequestEntityTooLarge):
        from pbem.limits import too_large

        if wants_json():
            return error_response(too_large(), 413)
        return render_template("error.html", status=413, message=too_large()), 413

    @app.errorhandler(HTTPException)
    def _http_error(error: HTTPException):
        if wants_json():
            return error_response(error.description or error.name, error.code or 500)
        return render_template("error.html", status=error.code, message=error.description), error.code
