"""Security headers on every response (pages, the API, images, static
files and errors alike): a content security policy that allows only this
site's own scripts, styles and images and no framing, ``X-Frame-Options``
for older browsers, ``nosniff``, and a referrer policy that keeps sign-in
links (their tokens are in the URL) from leaking to other sites.

The templates keep to the policy: no inline scripts, event handlers or
``style`` attributes (tests/test_browser_pages.py checks it in Chromium)."""

from __future__ import annotations

from flask import Flask, Response
from flask_wtf.csrf import CSRFProtect

#: CSRF protection of every form (Flask-WTF), shared by the pages (which
#: register it) and the API (which exempts its bearer-token routes)
csrf = CSRFProtect()

CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "frame-ancestors 'none'; base-uri 'self'; form-action 'self'; object-src 'none'"
)

HEADERS = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
}


def secure_headers(response: Response) -> Response:
    """Add the security headers a response does not set itself."""
    for name, value in HEADERS.items():
        response.headers.setdefault(name, value)
    return response


def init_app(app: Flask) -> None:
    app.after_request(secure_headers)
