"""What a player sees of a game, as plain data: shared by the web pages and
the JSON API so both show the same thing.  Positions, diagrams, legal turns
and scores come from ``pbem.services.visibility`` as the viewer's seat may see
them (``viewer`` None, or not seated: a spectator's view)."""

from __future__ import annotations

from typing import Any

from sqlmodel import Session

from engine.errors import PbemError
from engine.i18n import current_language
from notation.base import GameKind, player_colour
from pbem.models import OPEN_STATUSES, Game, Player, Turn
from pbem.services import gamestate, par, results, seat_settings, sweep
from pbem.services import visibility as views
from pbem.services.clock import deadlines as time_control
from pbem.services.stored import Seated, kind_of, option_words, seat_of, seated_players, title_of, turns_of
from pbem.services.stored_words import shown


def summary(session: Session, game: Game, viewer: Player | None = None,
            seated: Seated | None = None) -> dict[str, Any]:
    """The game's summary for ``viewer``; ``seated`` (``play.load_seated``)
    saves reading its seats and players again."""
    kind = kind_of(game)
    mover = views.mover(game)
    players: list[dict[str, Any]] = []
    you = None
    agreeing = gamestate.draw_offer_seats(game)
    public = par.seed_is_public(session, game)
    puzzle = par.puzzle_of(session, game) if public else None
    for seat, player in (seated.seats if seated is not None else seated_players(session, game)):
        players.append(
            {
                "seat": seat.number + 1,
                "label": kind.notation.player_label(seat.number),
                "name": player.display_name,
                "email": player.email,
                "status": seat.status,
                "to_move": seat.number == mover,
                "offers_draw": seat.number in agreeing,
                "colour": player_colour(seat.number).name,
                "css": player_colour(seat.number).css,
                "player_id": player.id,
            }
        )
        if viewer is not None and player.id == viewer.id:
            you = seat.number + 1
    groups = results.standings(game, len(players))
    for entry in players:
        entry["result"] = results.result_words(groups, entry["seat"] - 1, len(players), you=False) if groups else None
        place = results.place_of(groups, entry["seat"] - 1)
        entry["place"] = None if place is None else place[0]
    ended = game.status in ("finished", "abandoned", "cancelled")
    your_result: str | None
    if you is not None and groups:
        your_result = results.result_words(groups, you - 1, len(players))
    else:
        your_result = results.unfinished_words(game.status) if ended else None
    return {
        "id": game.id,
        "game": game.kind,
        "title": title_of(game),
        "options": dict(game.options),
        "option_words": option_words(game.kind, game.options),
        "status": game.status,
        "ply": game.ply,
        "players": players,
        "to_move": None if mover is None else mover + 1,
        "your_seat": you,
        "your_turn": you is not None and mover is not None and mover + 1 == you,
        "hours_per_turn": game.hours_per_turn,
        "time_control": _time_control(game),
        "deadline": game.deadline,
        "created_at": game.created_at,
        "started_at": game.started_at,
        "finished_at": game.finished_at,
        "result": game.result,
        "termination": game.termination,
        "termination_text": shown(game.termination, current_language()) if game.termination else None,
        "draw_offered": bool(agreeing),
        # a finished game: the standings (groups of 1-based seats, best first), who won, the viewer's result
        "standings": [[seat + 1 for seat in group] for group in groups],
        "verdict": results.verdict(groups, [p["name"] for p in players]) if groups else None,
        "your_result": your_result,
        "open_seats": getattr(game, "open_seats", 0) or 0,
        "solitaire": len(players) == 1,
        "seed_hash": game.seed_hash,
        # the seed stays secret until the game is over, unless it was published (a puzzle)
        "seed": game.seed if game.status not in OPEN_STATUSES or public else None,
        "seed_public": public,
        "puzzle": None if puzzle is None else par.puzzle_brief(puzzle),
        "par_distance": None if puzzle is None else par.distance(session, game, puzzle),
    }


def detail(session: Session, game: Game, viewer: Player | None = None) -> dict[str, Any]:
    data = _current(session, game, viewer)
    kind = kind_of(game)
    seat = data.pop("_seat")
    played = turns_of(session, game)
    positions = views.turn_positions(session, game, seat, played)
    data["turns"] = [turn_data(t, kind, positions[t.ply], game, seat) for t in played]
    return data


def after_turn(session: Session, seated: Seated, viewer: Player, stored: list[Turn]) -> dict[str, Any]:
    """What the API answers to a turn ``viewer`` just played: the game as
    ``detail`` shows it, from the rows the turn read (``seated``), except
    that ``turns`` lists only the turns this submission stored (the
    viewer's, then any forfeited for players out on time), not every turn
    of the game again (``GET /games/{id}/turns`` lists them all)."""
    game = seated.game
    data = _current(session, game, viewer, seated)
    seat = data.pop("_seat")
    kind = kind_of(game)
    positions = views.turn_positions(session, game, seat, stored)
    data["turns"] = [turn_data(t, kind, positions[t.ply], game, seat) for t in stored]
    return data


def _current(session: Session, game: Game, viewer: Player | None, seated: Seated | None = None) -> dict[str, Any]:
    """``detail`` but the turns played; ``_seat`` the viewer's seat number."""
    data = summary(session, game, viewer, seated)
    kind = kind_of(game)
    if seated is not None:
        found = seated.seat_of(viewer)
        seat = None if found is None else found.number
    else:
        seat = views.seat_for(session, game, viewer)
    sight = views.at(session, game, seat)
    state = sight.state if sight is not None else None
    data["position"] = sight.position if sight is not None else None
    data["diagram"] = sight.text_diagram() if sight is not None else None
    data["scores"] = sight.scores() if sight is not None else []
    outcome = kind.rules.result(state) if state is not None and kind.rules.is_over(state) else None
    # the rules' own result when the game was played out (not resigned or timed out)
    data["outcome"] = None if outcome is None else {
        "winners": [n + 1 for n in outcome.winners], "reason": outcome.reason, "scores": list(outcome.scores)}
    try:
        listed, more = views.legal(game, seat, LEGAL_TURNS_SHOWN)
    except PbemError:
        listed, more = [], False
    data["legal_turns"] = listed
    data["legal_turns_cut"] = more
    try:
        groups, more = views.legal_groups(game, seat, LEGAL_TURNS_SHOWN)
    except PbemError:
        groups, more = [], False
    # the same turns as a person reads them (Taiga: by tile and place); ``count``: the turns a line stands for
    data["legal_groups"] = [{"text": group.text, "count": group.count} for group in groups]
    data["legal_groups_cut"] = more
    data["turn_examples"] = list(kind.notation.turn_examples)
    data["can_claim"] = viewer is not None and sweep.claimable(session, game, viewer)
    data["settings"] = _settings(session, game, viewer, seated)
    data["_seat"] = seat
    return data


def _settings(session: Session, game: Game, viewer: Player | None, seated: Seated | None) -> list[dict[str, Any]]:
    """The viewer's own settings they may change outside their turn
    (``seat_settings``), as only they see them; none for a spectator or a
    game without any, or once it is over."""
    if viewer is None or game.status != "active" or not seat_settings.declared(game):
        return []
    seat = seated.seat_of(viewer) if seated is not None else seat_of(session, game, viewer)
    return [] if seat is None else [item.to_dict() for item in seat_settings.shown_to(game, seat)]


#: the game page and the API list at most this many legal turns, and as many
#: groups of them (a game may have millions; ``legal_turns_cut`` and
#: ``legal_groups_cut`` then say the list is cut)
LEGAL_TURNS_SHOWN = 100

#: the API's ``legal=all`` lists at most this many legal turns: every one of
#: any position of most games (a Taiga position has some thousands), and a
#: bound for the games with millions (Martian Greenhouse), cut as above
LEGAL_TURNS_ALL = 20_000


def _time_control(game: Game) -> dict[str, Any] | None:
    control = time_control.control_of(game)
    return None if control is None else control.to_dict() | {"description": control.describe()}


def turn_data(turn: Turn, kind: GameKind, position: str, game: Game | None = None, seat: int | None = None) -> dict[str, Any]:
    """One played turn; ``position`` is the position after it as the viewer
    may see it (``views.turn_positions``); with ``game``, its texts as the
    viewer ``seat`` may read them (``views.turn_text``)."""
    def text(written: str) -> str:
        return written if game is None else views.turn_text(game, seat, turn.seat, written)

    return {
        "ply": turn.ply,
        "seat": turn.seat + 1,
        "player": kind.notation.player_label(turn.seat),
        "text": text(turn.text),
        "canonical": text(turn.canonical),
        "source": turn.source,
        "position": position,
        "created_at": turn.created_at,
    }
