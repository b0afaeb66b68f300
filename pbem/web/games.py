"""The game pages: my games, a new game, a game (board, moves, turn box with
preview, legal turns, lifecycle buttons), diagrams and record downloads."""

from __future__ import annotations

import re
from typing import Any

from flask import Blueprint, Response, abort, flash, g, redirect, render_template, request, url_for
from flask.typing import ResponseReturnValue
from sqlmodel import Session

from engine.errors import PbemError
from notation import registry
from notation.base import GameKind
from notation.drawing import render as diagrams
from pbem.db import get_session
from pbem.i18n import gettext, lazy_gettext
from pbem.models import ACTIVE, Game
from pbem.services import events, games, guides, present, puzzles, records, seat_settings, sweep, turns
from pbem.services import visibility as views
from pbem.services.bot_seats import fewer_levels
from pbem.services.bot_seats import offered_levels as bot_levels
from pbem.services.errors import ServiceError
from pbem.services.stored import game_for_player, games_of, kind_of
from pbem.services.turns import MAX_TURN, too_long
from pbem.web.auth import current_player, reads_game_with_player, sign_in_required, signed_in_player
from pbem.web.schedule import time_control_args, time_control_form

bp = Blueprint("games", __name__)
_WHOLE = re.compile(r"[0-9]{1,9}")


@bp.get("/")
def home() -> ResponseReturnValue:
    player = current_player()
    if player is None:
        return render_template("welcome.html", kinds=guides.overview())
    session = get_session()
    mine = [present.summary(session, game, player) for game, _ in games_of(session, player)]
    today = [puzzles.summary(puzzle) for puzzle in puzzles.today(session)]
    return render_template("home.html", games=mine, today=today, kinds=guides.overview())


def _kinds() -> list[GameKind]:
    return [registry.get(name) for name in registry.names()]


@bp.route("/games/new", methods=["GET", "POST"])
@sign_in_required
def new_game() -> ResponseReturnValue:
    player = signed_in_player()
    asked = request.args.get("kind", "")
    form = {"kind": asked if asked in registry.names() else
            ("logger" if "logger" in registry.names() else registry.names()[0]),
            "players": player.email + "\n", "hours": "", "random_order": False, "open_seats": "0", "bot": "",
            **time_control_form({})}
    error, status = None, 400
    if request.method == "POST":
        form = {
            "kind": request.form.get("kind", ""),
            "players": request.form.get("players", ""),
            "hours": request.form.get("hours", "").strip(),
            "random_order": request.form.get("random_order") == "on",
            "open_seats": request.form.get("open_seats", "0").strip() or "0",
            "bot": request.form.get("bot", "").strip(),
            **time_control_form(request.form),
        }
        options = {key[len("option-" + form["kind"] + "-"):]: value for key, value in request.form.items()
                   if key.startswith("option-" + form["kind"] + "-")}
        emails = [line.strip() for line in form["players"].replace(",", "\n").splitlines() if line.strip()]
        if not form["hours"]:
            hours = None
        elif _WHOLE.fullmatch(form["hours"]):
            hours = int(form["hours"])
        else:
            error = (f"the time per turn is a whole number of hours or days, such as 3, or empty for no limit; "
                     f"not {form['hours'][:20]!r}")
        if error is None:
            try:
                game = games.create_game(get_session(), player, form["kind"], emails, options=options,
                                         random_order=form["random_order"], open_seats=form["open_seats"],
                                         bots=[form["bot"]] if form["bot"] else [],
                                         **time_control_args(form, hours))
            except ServiceError as failure:
                error, status = failure.message, failure.status
            else:
                flash(gettext("Game %(id)s created; it waits in the lobby for players to take its open seats.",
                              id=game.id) if game.open_seats else
                      gettext("Game %(id)s created; the invitations are on their way.", id=game.id))
                return redirect(url_for("games.show", game_id=game.id))
    kinds = _kinds()
    chosen = next((k for k in kinds if k.name == form["kind"]), kinds[0])
    rows = max(1, min(chosen.rules.min_players, 4))  # the chosen game's fewest players (the box can grow)
    return (render_template("new_game.html", kinds=kinds, form=form, error=error, player_rows=rows,
                            seed_option=games.SEED_OPTION, bot_levels=bot_levels(),
                            bot_fewer=[([registry.get(name).rules.title or name for name in names], levels)
                                       for names, levels in fewer_levels()]), status if error else 200)


def _shown_ply(game_ply: int) -> int:
    """The position the page shows: ``?ply=N`` (0: the start) when it is
    one the game has reached, else the current one."""
    asked = request.args.get("ply", "").strip()
    if _WHOLE.fullmatch(asked) and int(asked) <= game_ply:
        return int(asked)
    return game_ply


def _viewed_position(session: Session, game: Game, seat: int, ply: int) -> str:
    """The position string after ``ply`` turns as ``seat`` may see it ("" before the start)."""
    sight = views.at(session, game, seat, ply) if game.position is not None else None
    return sight.position if sight is not None else ""


def _game_page(game_id: str, *, turn_text: str = "", error: str | None = None, preview: turns.Preview | None = None,
               status: int = 200) -> ResponseReturnValue:
    player = signed_in_player()
    session = get_session()
    game, seat = game_for_player(session, game_id, player)
    data = present.detail(session, game, player)
    preview_svg = None
    if preview is not None:
        preview_svg = views.of_preview(game, seat.number, preview).svg()
    rounds = _rounds(data["turns"])
    shown = _shown_ply(game.ply)
    sight = views.at(session, game, seat.number, shown) if game.position is not None else None
    legend = sight.legend() if sight is not None else ((), 0)
    report = views.turn_report(session, game, seat.number, shown) if sight is not None else ""
    return render_template("game.html", game=data, rounds=rounds, turn_text=turn_text, error=error,
                           notes=_played_note(data["turns"], seat.number),
                           turn_report=report, has_reports=views.has_reports(game),
                           preview=preview, preview_svg=preview_svg, shown=shown,
                           shown_position=sight.position if sight is not None else None,
                           legend_lines=legend[0], start_position=_viewed_position(session, game, seat.number, 0), guide=guides.link(game.kind),
                           created_by_you=game.creator_id == player.id, live_key=events.page_key(game),
                           clicking=views.click_board(game, seat.number) if shown == game.ply else None), status


def _played_note(turn_list: list[dict[str, Any]], seat: int) -> list[str]:
    """"You played ..." on the page a turn played on the web redirects to
    (``?played=N``), when turn N is the viewer's: its text as they may read
    it (with their own settings)."""
    asked = request.args.get("played", "").strip()
    if not _WHOLE.fullmatch(asked):
        return []
    ply = int(asked)
    return [gettext('You played %(canonical)s.', canonical=turn["canonical"])
            for turn in turn_list if turn["ply"] == ply and turn["seat"] == seat + 1]


def _rounds(turn_list: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    rounds: list[list[dict[str, Any]]] = []
    last = None
    for turn in turn_list:
        if not rounds or (last is not None and turn["seat"] <= last):
            rounds.append([])
        rounds[-1].append(turn)
        last = turn["seat"]
    return rounds


@bp.get("/games/<game_id>")
@sign_in_required
def show(game_id: str) -> ResponseReturnValue:
    return _game_page(game_id)


@bp.post("/games/<game_id>/turn")
@reads_game_with_player
@sign_in_required
def play(game_id: str) -> ResponseReturnValue:
    player = signed_in_player()
    text = request.form.get("turn", "")
    ply_text = request.form.get("ply", "")
    if len(text) > MAX_TURN:
        try:
            game, _ = game_for_player(get_session(), game_id, player)
            example = kind_of(game).notation.example_turn(None)
        except ServiceError:
            example = None  # the page explains the missing game
        return _game_page(game_id, turn_text="", error=too_long(text, example), status=400)
    try:
        if request.form.get("action") == "preview":
            preview = turns.preview_turn(get_session(), game_id, player, text)
            return _game_page(game_id, turn_text=text, preview=preview)
        ply = int(ply_text.strip()) if _WHOLE.fullmatch(ply_text.strip()) else ply_text
        done = turns.submit_turn(get_session(), game_id, player, text, ply, "web", seated=g.get("seated"))
    except ServiceError as failure:
        if failure.status in (403, 404):
            raise
        return _game_page(game_id, turn_text=text, error=failure.message, status=failure.status)
    # the page says "You played ..." from the turn it reads anyway (``_played_note``): no note in the cookie
    return redirect(url_for("games.show", game_id=done.game.id, played=done.turn.ply))


_ACTIONS = {
    "accept": (games.accept, lazy_gettext("You accepted the invitation.")),
    "decline": (games.decline, lazy_gettext("You declined the invitation; the game is cancelled.")),
    "resign": (games.resign, lazy_gettext("You resigned.")),
    "draw": (games.offer_draw, lazy_gettext("Your draw offer (or agreement) is recorded.")),
    "abandon": (games.abandon, lazy_gettext("The game is abandoned; the invitations are cancelled.")),
    "claim": (sweep.claim_win, lazy_gettext("You claimed the win on time.")),
}


#: what a resignation posted without its confirmation is told
RESIGN_UNCONFIRMED = ("Nothing was changed: resigning ends the game and cannot be undone, so it needs "
                      "confirming; press \u201cYes, I resign\u201d below, or go back to the game.")


@bp.get("/games/<game_id>/resign")
@sign_in_required
def confirm_resign(game_id: str) -> ResponseReturnValue:
    """Ask before resigning: a page whose form posts the confirmation."""
    return _resign_page(game_id)


def _resign_page(game_id: str, *, error: str | None = None, status: int = 200) -> ResponseReturnValue:
    game, _ = game_for_player(get_session(), game_id, signed_in_player())
    if game.status != ACTIVE:
        return _game_page(game_id, error=f"game {game.id} is {game.status}, so you cannot resign", status=409)
    return render_template("resign.html", game=present.summary(get_session(), game, signed_in_player()),
                           error=error), status


@bp.post("/games/<game_id>/settings")
@sign_in_required
def change_setting(game_id: str) -> ResponseReturnValue:
    """A setting the player may change at any time (``seat_settings``),
    from the small form on the game page."""
    try:
        changed = seat_settings.change(get_session(), game_id, signed_in_player(), request.form.get("name", ""),
                                       request.form.get("value", ""))
    except ServiceError as failure:
        if failure.status in (403, 404):
            raise
        return _game_page(game_id, error=failure.message, status=failure.status)
    if changed.pending is None:
        flash(gettext('Your %(name)s is %(value)s.', name=changed.setting.name, value=changed.value))
    else:
        flash(gettext('Your %(name)s becomes %(value)s when the next turn is played (by anyone); only you see it.',
                      name=changed.setting.name, value=changed.pending))
    return redirect(url_for("games.show", game_id=game_id))


@bp.post("/games/<game_id>/<action>")
@sign_in_required
def lifecycle(game_id: str, action: str) -> ResponseReturnValue:
    if action not in _ACTIONS:
        abort(404)
    if action == "resign" and request.form.get("confirm") != "yes":
        return _resign_page(game_id, error=RESIGN_UNCONFIRMED, status=400)
    service, message = _ACTIONS[action]
    try:
        game = service(get_session(), game_id, signed_in_player())
    except ServiceError as failure:
        if failure.status in (403, 404):
            raise
        return _game_page(game_id, error=failure.message, status=failure.status)
    flash(str(message))
    return redirect(url_for("games.show", game_id=game.id))


@bp.get("/games/<game_id>/record.<fmt>")
@sign_in_required
def record(game_id: str, fmt: str) -> ResponseReturnValue:
    session = get_session()
    game, seat = game_for_player(session, game_id, signed_in_player())
    if fmt not in ("pgn", "json") or game.position is None:
        abort(404)
    body = (views.record_json if fmt == "json" else views.record_text)(session, game, seat.number)
    mimetype = "application/json" if fmt == "json" else "text/plain"
    return Response(body, mimetype=mimetype,
                    headers={"Content-Disposition": f'attachment; filename="{records.filename(game, fmt)}"'})


@bp.get("/games/<game_id>/board/<int:ply>.<fmt>")
@sign_in_required
def board(game_id: str, ply: int, fmt: str) -> ResponseReturnValue:
    session = get_session()
    # the viewer is the signed-in player: the URL names no seat, so nobody fetches another seat's view
    game, seat = game_for_player(session, game_id, signed_in_player())
    if fmt not in diagrams.FORMATS or game.position is None or not 0 <= ply <= game.ply:
        abort(404)
    sight = views.at(session, game, seat.number, ply)
    if sight is None:
        abort(404)
    try:
        body = sight.image(fmt)
    except PbemError:
        abort(404)
    response = Response(body, mimetype=diagrams.FORMATS[fmt])
    response.headers["Cache-Control"] = "private, max-age=86400"
    response.headers["Vary"] = "Accept-Language"  # its captions are in the reader's language
    return response


@bp.get("/games/<game_id>/report/<int:ply>.txt")
@sign_in_required
def report(game_id: str, ply: int) -> ResponseReturnValue:
    """The game's report of turn ``ply`` as plain text (empty for the start
    or a game without reports): what the page's history stepping shows
    under the board of the turn stepped to."""
    session = get_session()
    game, seat = game_for_player(session, game_id, signed_in_player())
    if game.position is None or not 0 <= ply <= game.ply:
        abort(404)
    response = Response(views.turn_report(session, game, seat.number, ply), mimetype="text/plain")
    response.headers["Cache-Control"] = "private, max-age=86400"
    return response


@bp.get("/games/<game_id>/preview.svg")
@sign_in_required
def preview_board(game_id: str) -> ResponseReturnValue:
    """The board after ``?turn=...`` as the signed-in player would play it
    now, the squares it changes outlined (play by clicking shows it); 400
    with the reason as text when the turn cannot be played."""
    player = signed_in_player()
    session = get_session()
    game, seat = game_for_player(session, game_id, player)
    text = request.args.get("turn", "")
    if len(text) > MAX_TURN:
        return Response(too_long(text, kind_of(game).notation.example_turn(None)), status=400, mimetype="text/plain")
    try:
        preview = turns.preview_turn(session, game_id, player, text)
    except ServiceError as failure:
        return Response(str(failure), status=failure.status, mimetype="text/plain")
    response = Response(views.preview_marked_svg(game, seat.number, preview), mimetype=diagrams.FORMATS["svg"])
    response.headers["Cache-Control"] = "private, no-store"
    return response
