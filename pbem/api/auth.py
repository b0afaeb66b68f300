"""Who is calling the API: a bearer token (``Authorization: Bearer
pbem_...``), or, for reading only, the web page's signed-in session."""

from __future__ import annotations

from flask import request

from pbem.db import get_session
from pbem.i18n import gettext, lazy_gettext, read_in_language_of
from pbem.models import Player
from pbem.services.accounts import player_for_api_token, seated_by_api_token
from pbem.services.errors import NotSignedIn
from pbem.services.stored import Seated, load_seated
from pbem.services.web_sessions import current_player

HOW = lazy_gettext("send your API token as the header 'Authorization: Bearer pbem_...'; make a token on the "
                   "/tokens page")


def _bearer() -> str | None:
    """The bearer token of the request, or None when it sends no
    Authorization header; ``NotSignedIn`` when the header is not one."""
    header = request.headers.get("Authorization", "")
    if not header:
        return None
    scheme, _, token = header.strip().partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise NotSignedIn(gettext("the Authorization header is not a bearer token; %(how)s", how=HOW))
    return token.strip()


def api_player_seated(game_id: str) -> tuple[Player, Seated]:
    """The caller and the game ``game_id`` they have a seat in, read in one
    statement when the call carries a valid token (else as ``api_player``
    and ``play.load_seated`` say: 401, then 404 or 403)."""
    token = _bearer()
    if token is not None:
        found = seated_by_api_token(get_session(), game_id, token)
        if found is not None:
            read_in_language_of(found[0])
            return found
    player = api_player()
    return player, load_seated(get_session(), game_id, player)


def api_player() -> Player:
    token = _bearer()
    if token is not None:
        player = player_for_api_token(get_session(), token)
        if player is None:
            raise NotSignedIn(gettext("that API token is not valid (revoked or mistyped); %(how)s", how=HOW))
        read_in_language_of(player)
        return player
    if request.method in ("GET", "HEAD"):
        player = current_player()
        if player is not None:
            return player
    raise NotSignedIn(gettext("you are not signed in; %(how)s", how=HOW))
