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
request and again per response.

A cookie's signature is checked once: what it signs (the payload, still
encoded, and when it was signed) is kept by the cookie's text, so the same
browser's next requests skip the HMAC and its decoding.  The cookie's age is
checked on every request as when it was first read, the payload is decoded
afresh for each request (no request sees another's changes), and a new
secret key forgets every cookie checked with the old one."""

from __future__ import annotations

import time
from typing import Any

from flask import Flask, Request, request
from flask.sessions import SecureCookieSession, SecureCookieSessionInterface, SessionMixin
from itsdangerous import BadSignature

#: what a browser sends as Sec-Fetch-Dest when it loads a page (a link, a form)
_PAGES = {"", "document", "iframe", "frame"}
#: cookies whose signature is remembered as checked, at most (then the memory starts again)
CHECKED_KEPT = 4096


class PageCookieSessionInterface(SecureCookieSessionInterface):
    """Flask's signed-cookie session, refreshed only on page loads."""

    def __init__(self) -> None:
        self._serializers: dict[tuple[Any, ...], Any] = {}
        #: cookie text -> (the payload it signs, still encoded; when it was signed, in seconds)
        self._checked: dict[str, tuple[bytes, int]] = {}

    def get_signing_serializer(self, app: Flask) -> Any:
        key = (app.secret_key, tuple(app.config.get("SECRET_KEY_FALLBACKS") or ()))
        found = self._serializers.get(key)
        if found is None:
            found = super().get_signing_serializer(app)
            if found is not None:
                self._serializers = {key: found}  # the one key in use (a new key replaces it)
                self._checked = {}  # cookies checked with another key are checked again
        return found

    def open_session(self, app: Flask, request: Request) -> SecureCookieSession | None:
        """Flask's ``open_session``: the session the cookie holds when its
        signature is right and it is no older than the session's lifetime,
        else an empty session; the signature of a cookie seen before is not
        checked again (see the module's docstring)."""
        serializer = self.get_signing_serializer(app)
        if serializer is None:
            return None
        text = request.cookies.get(self.get_cookie_name(app))
        if not text:
            return self.session_class()
        checked = self._checked
        found = checked.get(text)
        if found is None:
            found = _unsigned(serializer, text)
            if found is None:
                return self.session_class()
            if len(checked) >= CHECKED_KEPT:
                checked = self._checked = {}
            checked[text] = found
        payload, signed_at = found
        age = int(time.time()) - signed_at  # as itsdangerous counts it
        if not 0 <= age <= int(app.permanent_session_lifetime.total_seconds()):
            return self.session_class()
        return self.session_class(serializer.load_payload(payload))

    def should_set_cookie(self, app: Flask, session: SessionMixin) -> bool:
        if session.modified:
            return True
        if request.method not in ("GET", "HEAD"):  # a form posted: the page it leads to refreshes the cookie
            return False
        if request.headers.get("Sec-Fetch-Dest", "").strip().lower() not in _PAGES:
            return False
        return super().should_set_cookie(app, session)


def _unsigned(serializer: Any, text: str) -> tuple[bytes, int] | None:
    """What the cookie ``text`` signs and when it was signed, by the first
    of the serializer's keys whose signature it bears (as its ``loads``
    tries them); None when it bears none."""
    for signer in serializer.iter_unsigners():
        try:
            payload, signed = signer.unsign(text, return_timestamp=True)
        except BadSignature:
            continue
        return payload, int(signed.timestamp())
    return None


def init_app(app: Flask) -> None:
    app.session_interface = PageCookieSessionInterface()
