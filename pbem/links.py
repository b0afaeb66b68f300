"""Absolute links for mail: from ``BASE_URL`` only, never from a request.

Links in mail must not follow the Host header of whatever request caused the
mail (a forged Host would put a valid sign-in token on someone else's
server), so they come from configuration alone: ``BASE_URL`` (``pbem serve``
sets it to its own address when it is not configured), else
``http://localhost:5000``.
"""

from __future__ import annotations

from flask import current_app, has_app_context

DEFAULT_BASE_URL = "http://localhost:5000"


def base_url() -> str:
    base = current_app.config.get("BASE_URL") if has_app_context() else None
    return str(base or DEFAULT_BASE_URL).rstrip("/")


def external(path: str) -> str:
    return base_url() + "/" + path.lstrip("/")


def guide_path(kind_name: str) -> str:
    """The path of the guide page of the game called ``kind_name`` (how to
    play it: ``pbem.services.guides``)."""
    from notation import registry

    return f"/rules/{registry.get(kind_name).name}"


def guide(kind_name: str) -> str:
    """The guide page's absolute address, for mail."""
    return external(guide_path(kind_name))
