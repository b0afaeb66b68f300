"""The pbem server: Flask app, models, services, web pages, JSON API,
scheduler and command line.

``create_app`` is the application factory (``gunicorn 'pbem:create_app()'``).
"""

from __future__ import annotations

import os
from typing import Any

from flask import Flask


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
    """Build the app, configured from the instance folder and the
    environment (or from ``test_config`` alone, for tests).  The instance
    folder is ``PBEM_INSTANCE`` when set (``pbem --instance PATH``), else
    Flask's default (``instance/`` next to the code)."""
    from pbem import config, db

    app = Flask(__name__, instance_relative_config=True, instance_path=config.instance_folder())
    os.makedirs(app.instance_path, mode=0o700, exist_ok=True)  # it holds the secret key and kept mail

    config.load(app, test_config)
    db.init_app(app)

    from pbem import api, i18n, limits, page_cookies, security, web

    i18n.init_app(app)
    security.init_app(app)
    page_cookies.init_app(app)
    limits.init_app(app)
    web.init_app(app)
    api.init_app(app)
    return app
