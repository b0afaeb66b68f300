"""The JSON API under ``/api/v1/``: bearer-token auth, marshmallow schemas,
JSON errors, and the OpenAPI document."""

from __future__ import annotations

from flask import Flask


def init_app(app: Flask) -> None:
    from pbem.api import streams  # noqa: F401  (its routes join the blueprint)
    from pbem.api.routes import bp
    from pbem.security import csrf

    csrf.exempt(bp)  # the API authenticates with bearer tokens, not cookies
    app.register_blueprint(bp)
