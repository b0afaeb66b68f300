"""The JSON API routes under ``/api/v1/``.  Every error is a JSON object
``{"error": "..."}`` with a 4xx status; see ``docs/api.md`` and
``/api/v1/openapi.json``."""

from __future__ import annotations

import logging
from typing import Any, Callable
from urllib.parse import quote_plus as quote_url

from flask import Blueprint, Response, jsonify, request
from flask.typing import ResponseReturnValue
from marshmallow import Schema, ValidationError
from sqlmodel import Session
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge

from engine.i18n import current_language
from notation import registry
from pbem.api import schemas
from pbem.api.auth import api_player, api_player_seated
from pbem.api.fast_dump import dumper
from pbem.api.validation_words import translated
from pbem.db import get_session
from pbem.i18n import gettext
from pbem.json_errors import error_response
from pbem.models import Game, Player
from pbem.services import games, present, puzzles, seat_settings, sweep, turns
from pbem.services import visibility as views
from pbem.services.bot_seats import offered_levels
from pbem.services.clock.deadlines import check_bank_cap
from pbem.services.errors import BadInput, NotFound, ServiceError
from pbem.services.schedule import schedule_data
from pbem.services.stored import game_for_player, kind_of
from pbem.services.turns import too_long

bp = Blueprint("api", __name__, url_prefix="/api/v1")
log = logging.getLogger(__name__)


@bp.errorhandler(ServiceError)
def _service_error(error: ServiceError) -> ResponseReturnValue:
    return error_response(error.message, error.status)


@bp.errorhandler(HTTPException)
def _http_error(error: HTTPException) -> ResponseReturnValue:
    return error_response(error.description or error.name, error.code or 500)


@bp.errorhandler(RequestEntityTooLarge)
def _too_large(error: RequestEntityTooLarge) -> ResponseReturnValue:
    from pbem.limits import too_large

    return error_response(too_large(), 413)


@bp.errorhandler(Exception)
def _unexpected(error: Exception) -> ResponseReturnValue:
    log.exception("API error")
    return error_response(gettext("the server failed on this request; it has been logged"), 500)


def _body(schema: Schema, example: str, plain: Callable[[dict[str, Any]], bool] | None = None) -> dict[str, Any]:
    """The request's JSON object loaded by ``schema``; ``BadInput`` naming
    what is wrong, with ``example`` of a right one.  ``plain``: a check that
    a body is one the schema would load unchanged (taken as it is, without
    the schema's work: a turn's body, on the hot path)."""
    try:
        data = request.get_json(force=True, silent=True)
    except RecursionError:
        raise BadInput(gettext("the request body is not valid JSON: it is nested too deeply; "
                               "send one such as %(example)s", example=example)) from None
    if data is None:
        raise BadInput(gettext("the request body must be JSON, such as %(example)s", example=example))
    if not isinstance(data, dict):
        raise BadInput(gettext("the request body must be a JSON object, such as %(example)s", example=example))
    if plain is not None and plain(data):
        return data
    try:
        loaded: dict[str, Any] = schema.load(data)
        return loaded
    except ValidationError as error:
        messages = translated(error.normalized_messages(), current_language())
        parts = "; ".join(f"{name}: {' '.join(map(str, m)) if isinstance(m, list) else m}" for name, m in messages.items())
        raise _Invalid(gettext("the request body is not valid (%(parts)s); send one such as %(example)s",
                               parts=parts, example=example), messages) from None


class _Invalid(BadInput):
    def __init__(self, message: str, fields: dict[str, Any]):
        super().__init__(message)
        self.fields = fields


@bp.errorhandler(_Invalid)
def _invalid(error: _Invalid) -> ResponseReturnValue:
    return error_response(error.message, error.status, fields=error.fields)


def _detail(game: Game, player: Player) -> dict[str, Any]:
    data = present.detail(get_session(), game, player)
    if views.has_reports(game):
        data["report"] = _report(game, data, game.ply)
    dumped: dict[str, Any] = _dump_game(data)
    return dumped


def _report(game: Game, data: dict[str, Any], ply: int) -> str:
    """The game's report of turn ``ply`` (``views.turn_report``) as the
    viewer of ``data`` (``present.detail``) sees it; "" for none."""
    seat = data.get("your_seat")
    return views.turn_report(get_session(), game, None if seat is None else seat - 1, ply) if ply > 0 else ""


# -- discovery ---------------------------------------------------------------
@bp.get("/openapi.json")
def openapi() -> ResponseReturnValue:
    from pbem.api.openapi import document

    return jsonify(document())


@bp.get("/kinds")
def kinds() -> ResponseReturnValue:
    result = []
    for name in registry.names():
        kind = registry.get(name)
        result.append(
            {
                "name": name,
                "title": kind.rules.title or name,
                "summary": kind.summary,
                "min_players": kind.rules.min_players,
                "max_players": kind.rules.max_players,
                "options": [vars(spec) | {"choices": list(spec.choices)} for spec in kind.rules.option_specs],
                "turn_examples": list(kind.notation.turn_examples),
                "bot_levels": offered_levels(kind.rules),
            }
        )
    return jsonify(schemas.KindOut(many=True).dump(result))


@bp.get("/me")
def me() -> ResponseReturnValue:
    player = api_player()
    return jsonify(schemas.MeOut().dump({"id": player.id, "email": player.email, "name": player.display_name}))


# -- games -------------------------------------------------------------------
@bp.get("/games")
def list_games() -> ResponseReturnValue:
    from pbem.services.stored import games_of

    player = api_player()
    session = get_session()
    data = [present.summary(session, game, player) for game, _ in games_of(session, player)]
    return jsonify(schemas.GameOut(many=True).dump(data))


@bp.post("/games")
def create_game() -> ResponseReturnValue:
    player = api_player()
    body = _body(schemas.GameIn(), '{"game": "logger", "players": ["you@example.org", "friend@example.org"]}')
    if body["time_control"]:
        check_bank_cap(body["time_control"])
    game = games.create_game(
        get_session(),
        player,
        body["game"],
        body["players"],
        options=body["options"],
        random_order=body["random_order"],
        hours_per_turn=body["hours_per_turn"],
        time_control=body["time_control"],
        open_seats=body["open_seats"],
        bots=body["bots"],
    )
    return jsonify(_detail(game, player)), 201


@bp.get("/lobby")
def lobby() -> ResponseReturnValue:
    from pbem.services import lobby as open_games

    player = api_player()
    return jsonify(schemas.ChallengeOut(many=True).dump(open_games.open_challenges(get_session(), player)))


@bp.get("/games/<game_id>")
def show_game(game_id: str) -> ResponseReturnValue:
    """The game; ``?legal=all``: ``legal_turns`` lists every legal turn
    (up to ``present.LEGAL_TURNS_ALL``), not only the first 100."""
    player = api_player()
    game, seat = game_for_player(get_session(), game_id, player)
    wanted = request.args.get("legal")
    if wanted not in (None, "all"):
        raise BadInput(gettext("legal is all (every legal turn, up to %(most)s) or left out (the first %(shown)s); "
                               "not %(value)s", most=present.LEGAL_TURNS_ALL, shown=present.LEGAL_TURNS_SHOWN,
                               value=repr(wanted[:60])))
    data = _detail(game, player)
    if wanted == "all" and data.get("legal_turns"):  # listed only on the player's turn
        data["legal_turns"], data["legal_turns_cut"] = views.legal(game, seat.number, present.LEGAL_TURNS_ALL)
    return jsonify(data)


@bp.get("/games/<game_id>/turns")
def list_turns(game_id: str) -> ResponseReturnValue:
    player = api_player()
    game, _ = game_for_player(get_session(), game_id, player)
    return jsonify(schemas.TurnOut(many=True).dump(present.detail(get_session(), game, player)["turns"]))


@bp.post("/games/<game_id>/turns")
def submit(game_id: str) -> ResponseReturnValue:
    player, seated = api_player_seated(game_id)  # 401, 404, 403 before looking at the body; one statement
    session = get_session()
    body = _body(_TURN_IN, '{"turn": "b1-b3 G P:b4", "ply": 4}', _plain_turn)
    done = turns.submit_turn(session, game_id, player, body["turn"], body["ply"], "api", seated=seated)
    # the game as after the turn, from the rows the turn read; its turns are those this turn stored
    assert done.seated is not None  # submit_turn hands back the game as it read it
    answer = present.after_turn(session, done.seated, player, [done.turn, *done.skipped])
    if views.has_reports(done.game):  # what happened in each turn stored (every check, die and hit)
        for item in answer["turns"]:
            item["report"] = _report(done.game, answer, item["ply"])
        answer["report"] = answer["turns"][-1]["report"] if answer["turns"] else ""
    return jsonify(_dump_game(answer)), 201


@bp.get("/games/<game_id>/turns/<ply>")
def show_turn(game_id: str, ply: str) -> ResponseReturnValue:
    """One turn played (1 for the first) with the game's report of it."""
    player = api_player()
    session = get_session()
    game, seat = game_for_player(session, game_id, player)
    number = int(ply) if ply.isdigit() and len(ply) < 10 else -1
    if not 1 <= number <= game.ply:
        if game.ply:
            raise NotFound(gettext("game %(game)s has no turn %(ply)s: its turns are numbered 1 to %(last)s",
                                   game=game.id, ply=ply, last=game.ply))
        raise NotFound(gettext("game %(game)s has no turn played yet", game=game.id))
    data = present.detail(session, game, player)
    item = next(t for t in data["turns"] if t["ply"] == number)
    if views.has_reports(game):
        item["report"] = views.turn_report(session, game, seat.number, number)
    return jsonify(schemas.TurnOut().dump(item))


@bp.get("/games/<game_id>/settings")
def list_settings(game_id: str) -> ResponseReturnValue:
    """Your settings in the game that you may change at any time."""
    player = api_player()
    session = get_session()
    game, seat = game_for_player(session, game_id, player)
    return jsonify(schemas.SettingOut(many=True).dump([s.to_dict() for s in seat_settings.shown_to(game, seat)]))


@bp.put("/games/<game_id>/settings/<name>")
def change_setting(game_id: str, name: str) -> ResponseReturnValue:
    """Change one of your settings, whoever's turn it is: in force from the
    next turn played."""
    player = api_player()
    session = get_session()
    game, _ = game_for_player(session, game_id, player)  # 404, 403 before the body
    example = next((s.example for s in seat_settings.declared(game) if s.name == name), "...")
    body = _body(_SETTING_IN, '{"value": "%s"}' % example)
    changed = seat_settings.change(session, game_id, player, name, body["value"])
    return jsonify(schemas.SettingOut().dump(changed.to_dict()))


_SETTING_IN = schemas.SettingIn()


_TURN_IN = schemas.TurnIn()  # made once: loading and dumping keep no state in a schema


def _plain_turn(data: dict[str, Any]) -> bool:
    """Whether ``data`` is a turn's body ``TurnIn`` loads unchanged: the two
    fields and no other, a turn of 1 to ``MAX_TURN`` characters and a whole
    ply from 0 (anything else is left to ``TurnIn``, which names the fault)."""
    turn, ply = data.get("turn"), data.get("ply")
    return (len(data) == 2 and type(turn) is str and 0 < len(turn) <= turns.MAX_TURN
            and type(ply) is int and ply >= 0)
#: a game's detail, as ``GameDetailOut`` dumps it, planned once (``fast_dump``): the answer to every turn
_dump_game = dumper(schemas.GameDetailOut())


@bp.get("/games/<game_id>/preview")
def preview(game_id: str) -> ResponseReturnValue:
    player = api_player()
    game, seat = game_for_player(get_session(), game_id, player)
    text = request.args.get("turn")
    if text is None:
        example = kind_of(game).notation.example_turn()
        assert example is not None  # its default ("...") when the notation has no example
        raise BadInput(gettext("give the turn to preview as ?turn=..., such as ?turn=%(example)s",
                               example=quote_url(example)))
    if len(text) > 500:
        raise BadInput(too_long(text, kind_of(game).notation.example_turn(None)))
    result = turns.preview_turn(get_session(), game_id, player, text)
    sight = views.of_preview(game, seat.number, result)
    return jsonify(schemas.PreviewOut().dump(
        {"turn": text, "canonical": result.canonical, "position": sight.position, "diagram": sight.text_diagram()}
    ))


@bp.get("/games/<game_id>/clicks")
def clicks(game_id: str) -> ResponseReturnValue:
    """Play by clicking, step by step: ``?click=a1&click=a3`` (the clicks
    so far, in order) answers what may be clicked next and which turns those
    clicks complete (``notation.clicks``)."""
    player = api_player()
    game, seat = game_for_player(get_session(), game_id, player)
    prefix = request.args.getlist("click")
    if len(prefix) > 100 or any(len(c) > 100 for c in prefix):
        raise BadInput(gettext("give at most 100 clicks of at most 100 characters each, as ?click=a1&click=a3"))
    options = views.clicks(game, seat.number, prefix)
    if options is None:
        raise BadInput(gettext("it is not your turn in game %(game)s, so there is nothing to click", game=game.id))
    return jsonify(options.as_dict())


@bp.get("/games/<game_id>/record")
def record(game_id: str) -> ResponseReturnValue:
    player = api_player()
    session = get_session()
    game, seat = game_for_player(session, game_id, player)
    fmt = request.args.get("format", "text")
    if fmt not in ("text", "json"):
        raise BadInput(gettext("the record format is text or json, not %(format)s", format=repr(fmt)))
    if game.status == "inviting" or game.position is None:
        raise BadInput(gettext("game %(game)s has not started, so it has no record yet", game=game.id))
    if fmt == "json":
        return Response(views.record_json(session, game, seat.number), mimetype="application/json")
    return Response(views.record_text(session, game, seat.number), mimetype="text/plain")


def _lifecycle(action: Callable[[Session, str, Player], Game]) -> Callable[[str], ResponseReturnValue]:
    def view(game_id: str) -> ResponseReturnValue:
        player = api_player()
        game = action(get_session(), game_id, player)
        return jsonify(_detail(game, player))

    return view


for _name, _action in (
    ("accept", games.accept),
    ("decline", games.decline),
    ("resign", games.resign),
    ("draw", games.offer_draw),
    ("abandon", games.abandon),
    ("claim", sweep.claim_win),
    ("join", games.join),
):
    bp.add_url_rule(f"/games/<game_id>/{_name}", f"game_{_name}", _lifecycle(_action), methods=["POST"])


# -- puzzles -------------------------------------------------------------------
@bp.get("/puzzles")
def list_puzzles() -> ResponseReturnValue:
    api_player()
    return jsonify(schemas.PuzzleOut(many=True).dump([puzzles.summary(p) for p in puzzles.listed(get_session())]))


@bp.get("/puzzles/<puzzle_id>")
def show_puzzle(puzzle_id: str) -> ResponseReturnValue:
    player = api_player()
    session = get_session()
    return jsonify(schemas.PuzzleDetailOut().dump(puzzles.detail(session, puzzles.load(session, puzzle_id), player)))


@bp.post("/puzzles/<puzzle_id>/games")
def play_puzzle(puzzle_id: str) -> ResponseReturnValue:
    player = api_player()
    game = puzzles.start_game(get_session(), player, puzzle_id)
    return jsonify(_detail(game, player)), 201


# -- schedule ------------------------------------------------------------------
@bp.get("/me/schedule")
def schedule() -> ResponseReturnValue:
    player = api_player()
    return jsonify(schemas.ScheduleOut().dump(schedule_data(get_session(), player)))


@bp.put("/me/schedule")
def set_schedule() -> ResponseReturnValue:
    from pbem.services import digest

    player = api_player()
    body = _body(schemas.ScheduleIn(), '{"reminder_hours": [24, 1], "digest": false}')
    digest.set_preferences(get_session(), player, reminder_hours=body.get("reminder_hours"), digest=body.get("digest"))
    return jsonify(schemas.ScheduleOut().dump(schedule_data(get_session(), player)))


@bp.post("/me/vacation")
def vacation() -> ResponseReturnValue:
    from pbem.services import vacations

    player = api_player()
    body = _body(schemas.VacationIn(), '{"days": 5}')
    vacations.take(get_session(), player, body["days"])
    return jsonify(schemas.ScheduleOut().dump(schedule_data(get_session(), player)))
