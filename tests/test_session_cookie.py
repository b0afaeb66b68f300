"""The signed session cookie (``pbem.page_cookies``): a cookie read again
is not checked again, yet every read refuses what Flask's own reading
refuses: a changed cookie, one older than the session's lifetime, one
signed with a key no longer in use; and no request sees another's changes."""

from __future__ import annotations

import time

import pytest
from flask.sessions import SecureCookieSessionInterface


@pytest.fixture
def cookie_of(app):
    """``cookie_of(data)``: the cookie text of a session holding ``data``."""
    def make(data: dict) -> str:
        client = app.test_client()
        with client.session_transaction() as session:
            session.update(data)
        return client.get_cookie(app.config.get("SESSION_COOKIE_NAME", "session")).value

    return make


def read(app, text: str) -> dict:
    """The session the app's interface reads from cookie ``text``, and
    Flask's own reading of it: they must agree."""
    name = app.config.get("SESSION_COOKIE_NAME", "session")
    with app.test_request_context("/", headers={"Cookie": f"{name}={text}"}):
        from flask import request

        ours = app.session_interface.open_session(app, request)
        flasks = SecureCookieSessionInterface().open_session(app, request)
    assert dict(ours) == dict(flasks)
    return ours


def test_a_cookie_read_again_gives_the_same_session_each_time_afresh(app, cookie_of):
    text = cookie_of({"sid": "abc", "notes": ["one"]})
    first = read(app, text)
    assert dict(first) == {"sid": "abc", "notes": ["one"]}
    first["notes"].append("changed by one request")
    first["sid"] = "other"
    assert dict(read(app, text)) == {"sid": "abc", "notes": ["one"]}


@pytest.mark.parametrize("where", [0, 10, -3])
def test_a_changed_cookie_is_refused_even_after_the_right_one_was_read(app, cookie_of, where):
    text = cookie_of({"sid": "abc"})
    assert dict(read(app, text)) == {"sid": "abc"}
    changed = text[:where] + ("A" if text[where] != "A" else "B") + text[where:][1:]
    assert dict(read(app, changed)) == {}


def test_a_cookie_older_than_the_session_lifetime_is_refused_at_every_read(app, cookie_of, monkeypatch):
    text = cookie_of({"sid": "abc"})
    assert dict(read(app, text)) == {"sid": "abc"}  # read once, now remembered as checked
    lifetime = int(app.permanent_session_lifetime.total_seconds())
    now = time.time()
    monkeypatch.setattr(time, "time", lambda: now + lifetime + 5)
    assert dict(read(app, text)) == {}
    monkeypatch.setattr(time, "time", lambda: now - 3600)  # signed in the future: refused too
    assert dict(read(app, text)) == {}


def test_a_new_secret_key_refuses_cookies_checked_with_the_old_one(app, cookie_of):
    text = cookie_of({"sid": "abc"})
    assert dict(read(app, text)) == {"sid": "abc"}
    old = app.secret_key
    app.secret_key = app.config["SECRET_KEY"] = "a new key"
    assert dict(read(app, text)) == {}
    app.config["SECRET_KEY_FALLBACKS"] = [old]  # the old key kept as a fallback: still read
    assert dict(read(app, text)) == {"sid": "abc"}
