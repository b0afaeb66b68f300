"""Request limits: a request body larger than ``MAX_CONTENT_LENGTH`` bytes
is refused with 413 before it is read, with a message saying how large it
was and what is accepted.

``init_app`` refuses a declared Content-Length over the limit before the
view runs (so before the sign-in check), without reading the body.  A body
sent without one (chunked) Werkzeug reads up to the limit and then silently
cuts there; ``init_app`` reads such a body first and refuses it with 413
when more follows, so no view or form parser ever sees a truncated body."""

from __future__ import annotations

from flask import Flask, current_app, request
from werkzeug.exceptions import RequestEntityTooLarge

#: the default ``MAX_CONTENT_LENGTH``: bytes in one request body
DEFAULT_MAX_CONTENT_LENGTH = 64 * 1024


def too_large() -> str:
    """What the 413 answer says: the size sent (when declared) and the limit."""
    limit = current_app.config.get("MAX_CONTENT_LENGTH") or DEFAULT_MAX_CONTENT_LENGTH
    sent = request.content_length
    size = f"is {sent} bytes" if sent else "is larger than that"
    return (f"the request is too large: this server accepts a body of at most {limit} bytes, and this one {size}; "
            "nothing was changed (a turn, a new game or a setting needs far less)")


def init_app(app: Flask) -> None:
    """Refuse over-long bodies before any view, sign-in check or form
    parser runs (register before anything that reads the body: the CSRF
    check reads the form)."""

    @app.before_request
    def _refuse_long_body() -> None:
        limit = current_app.config.get("MAX_CONTENT_LENGTH")
        if not limit:
            return
        if request.content_length is not None:
            if request.content_length > limit:
                raise RequestEntityTooLarge()
            return
        chunked = "chunked" in request.headers.get("Transfer-Encoding", "").lower()
        if not chunked or "wsgi.input_terminated" not in request.environ:
            return  # Werkzeug reads an unsized body the server does not end as empty
        data = request.get_data(cache=True)  # at most ``limit`` bytes: Werkzeug stops there
        if len(data) >= limit and request.environ["wsgi.input"].read(1):
            raise RequestEntityTooLarge()
