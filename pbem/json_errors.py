"""The JSON error answer, ``{"error": "..."}`` with a 4xx status: shared by
the API's routes and the app's error handlers for requests under /api/ (a
neutral module, so the pages and the API need not import each other)."""

from __future__ import annotations

from typing import Any

from flask import Response, jsonify


def error_response(message: str, status: int, **extra: Any) -> Response:
    """A JSON error: ``message`` under ``error``, any ``extra`` fields."""
    response = jsonify({"error": message, **extra})
    response.status_code = status
    return response
