"""The puzzle pages: the list with today's puzzle, one puzzle with its deal,
par and leaderboard, and its "Play this puzzle" button.  Open to
visitors; playing one needs a signed-in player."""

from __future__ import annotations

from flask import Blueprint, flash, redirect, render_template, url_for
from flask.typing import ResponseReturnValue

from pbem.db import get_session
from pbem.i18n import gettext
from pbem.services import puzzles
from pbem.services.errors import ServiceError
from pbem.web.auth import current_player, sign_in_required, signed_in_player

bp = Blueprint("puzzles", __name__)


@bp.get("/puzzles")
def index() -> ResponseReturnValue:
    session = get_session()
    return render_template("puzzles.html", today=[puzzles.summary(p) for p in puzzles.today(session)],
                           puzzles=[puzzles.summary(p) for p in puzzles.listed(session)])


def _page(puzzle_id: str, error: str | None = None, status: int = 200) -> ResponseReturnValue:
    session = get_session()
    puzzle = puzzles.load(session, puzzle_id)
    viewer = current_player()
    return render_template("puzzle.html", puzzle=puzzles.detail(session, puzzle, viewer), visitor=viewer is None,
                           error=error), status


@bp.get("/puzzles/<puzzle_id>")
def show(puzzle_id: str) -> ResponseReturnValue:
    return _page(puzzle_id)


@bp.post("/puzzles/<puzzle_id>/games")
@sign_in_required
def play(puzzle_id: str) -> ResponseReturnValue:
    try:
        game = puzzles.start_game(get_session(), signed_in_player(), puzzle_id)
    except ServiceError as failure:
        if failure.status in (403, 404):
            raise
        return _page(puzzle_id, error=failure.message, status=failure.status)
    flash(gettext('Game %(id)s started from puzzle %(puzzle_id)s; the board is below and in your mail.', id=game.id, puzzle_id=puzzle_id))
    return redirect(url_for("games.show", game_id=game.id))
