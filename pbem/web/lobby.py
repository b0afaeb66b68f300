"""Finding opponents: the lobby of open challenges (join one), a game
against the computer at once (a game and a level), and a player's page
with their games, results and ratings.  The lobby and players' pages are
open to visitors; taking a seat and playing need a signed-in player."""

from __future__ import annotations

from flask import Blueprint, flash, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue

from pbem.db import get_session
from pbem.i18n import gettext
from pbem.services import bot_seats, games, lobby
from pbem.services.errors import ServiceError
from pbem.web.auth import current_player, sign_in_required, signed_in_player

bp = Blueprint("lobby", __name__)


@bp.get("/lobby")
def index(error: str | None = None, status: int = 200) -> ResponseReturnValue:
    """Open to visitors, who are asked to sign in to take a seat or play."""
    viewer = current_player()
    challenges = lobby.open_challenges(get_session(), viewer)
    return render_template("lobby.html", challenges=challenges, error=error, visitor=viewer is None,
                           computer=bot_seats.opponent_games(), levels=bot_seats.offered_levels()), status


@bp.post("/lobby/computer")
@sign_in_required
def play_computer() -> ResponseReturnValue:
    """A game of the chosen kind against the computer at the chosen level
    ("": the game's default), the player first, no clock; the lobby again,
    with the reason, when it cannot be made."""
    player = signed_in_player()
    kind, level = request.form.get("kind", ""), request.form.get("level", "").strip()
    try:
        game = games.create_game(get_session(), player, kind, [player.email], bots=[level])
    except ServiceError as failure:
        return index(error=failure.message, status=failure.status)
    flash(gettext("Game %(id)s created against the computer.", id=game.id))
    return redirect(url_for("games.show", game_id=game.id))


@bp.post("/games/<game_id>/join")
@sign_in_required
def join(game_id: str) -> ResponseReturnValue:
    try:
        game = games.join(get_session(), game_id, signed_in_player())
    except ServiceError as failure:
        if failure.status == 404:
            raise
        return index(error=failure.message, status=failure.status)
    then = (gettext("Every seat is taken: the game has started.") if game.status == "active"
            else gettext("The game starts when every seat is taken."))
    flash(gettext("You took a seat.") + " " + then)
    return redirect(url_for("games.show", game_id=game.id))


@bp.get("/players/<player_id>")
def player(player_id: str) -> ResponseReturnValue:
    """Open to visitors."""
    return render_template("player.html", player=lobby.player_page(get_session(), player_id, current_player()))
