"""When the session cookie is written: on pages, not on what a page loads.

Flask re-sends a permanent session's cookie on every response, to slide its
expiry.  A page loads more than itself (board images, the preview board, the
click-to-play answers), and those responses can arrive after the response
to a later request of the same browser: a board preview asked for just
before the player pressed Play comes back after the Play's redirect and
puts back the cookie as it was, losing whatever the Play's answer wrote
into it (a note flashed by a settings change, say).  So the cookie is refreshed only on a navigation (the browser says
``Sec-Fetch-Dest: document``, or says nothing, as older clients and the
test client do), and not on a form's POST either: the page it redirects to
refreshes it.  Any response still writes it when the request changed the
session.  The signing serializer is made once per secret key, not once per
request and again per response."""

from __future__ import annotations

from typing import Any

from flask import Flask, request
from flask.sessions import SecureCookieSessionInterface, SessionMixin

#: what a browser sends as Sec-Fetch-Dest when it loads a page (a link, a form)
_PAGES = {"", "document", "iframe", "frame"}


class PageCookieSessionInterface(SecureCookieSessionInterface):
    """Flask's signed-cookie session, refreshed only on page loads."""

    def __init__(self) -> None:
        self._serializers: dict[tuple, Any] = {}

    def get_signing_serializer(self, app: Flask) -> Any:
        key = (app.secret_key, tuple(app.config.get("SECRET_KEY_FALLBACKS") or ()))
        found = self._serializers.get(key)
        if found is None:
            found = super().get_signing_serializer(app)
            if found is not None:
                self._serializers = {key: found}  # the one key in use (a new key replaces it)
        return found

    def should_set_cookie(self, app: Flask, session: SessionMixin) -> bool:
        if session.modified:
            return True
        if request.method not in ("GET", "HEAD"):  # a form posted: the page it leads to refreshes the cookie
            return False
        if request.headers.get("Sec-Fetch-Dest", "").strip().lower() not in _PAGES:
            return False
        return super().should_set_cookie(app, session)


def init_app(app: Flask) -> None:
    app.session_interface = PageCookieSessionInterface()
