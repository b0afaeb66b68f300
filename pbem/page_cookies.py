"""When the session cookie is written: on pages, not on what a page loads.

Flask re-sends a permanent session's cookie on every response, to slide its
expiry.  A page loads more than itself (board images, the preview board, the
click-to-play answers), and those responses can arrive after the response
to a later request of the same browser: a board preview asked for just
before the player pressed Play comes back after the Play's redirect and
puts back the cookie as it was, losing the "You played ..." note flashed
into it.  So the cookie is refreshed only on a navigation (the browser says
``Sec-Fetch-Dest: document``, or says nothing, as older clients and the
test client do); any response still writes it when the request changed the
session."""

from __future__ import annotations

from flask import Flask, request
from flask.sessions import SecureCookieSessionInterface, SessionMixin

#: what a browser sends as Sec-Fetch-Dest when it loads a page (a link, a form)
_PAGES = {"", "document", "iframe", "frame"}


class PageCookieSessionInterface(SecureCookieSessionInterface):
    """Flask's signed-cookie session, refreshed only on page loads."""

    def should_set_cookie(self, app: Flask, session: SessionMixin) -> bool:
        if session.modified:
            return True
        if request.headers.get("Sec-Fetch-Dest", "").strip().lower() not in _PAGES:
            return False
        return super().should_set_cookie(app, session)


def init_app(app: Flask) -> None:
    app.session_interface = PageCookieSessionInterface()
