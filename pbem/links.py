"""Absolute links for mail: from ``BASE_URL`` when configured, else the
current request's host, else localhost."""

from __future__ import annotations

from flask import current_app, has_app_context, has_request_context, request


def external(path: str) -> str:
    base = current_app.config.get("BASE_URL") if has_app_context() else None
    if not base:
        base = request.host_url if has_request_context() else "http://localhost:5000/"
    return base.rstrip("/") + "/" + path.lstrip("/")
