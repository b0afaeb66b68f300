"""Who is calling the API: a bearer token (``Authorization: Bearer
pbem_...``), or, for reading only, the web page's signed-in session."""

from __future__ import annotations

from flask import request

from pbem.db import get_session
from pbem.models import Player
from pbem.services.accounts import player_for_api_token
from pbem.services.errors import NotSignedIn
from pbem.services.web_sessions import current_player

HOW = "send your API token as the header 'Authorization: Bearer pbem_...'; make a token on the /tokens page"


def api_player() -> Player:
    header = request.headers.get("Authorization", "")
    if header:
        scheme, _, token = header.strip().partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            raise NotSignedIn(f"the Authorization header is not a bearer token; {HOW}")
        player = player_for_api_token(get_session(), token.strip())
        if player is None:
            raise NotSignedIn(f"that API token is not valid (revoked or mistyped); {HOW}")
        return player
    if request.method in ("GET", "HEAD"):
        player = current_player()
        if player is not None:
            return player
    raise NotSignedIn(f"you are not signed in; {HOW}")
