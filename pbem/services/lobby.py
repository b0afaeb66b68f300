"""Finding opponents: the open challenges (games created with open seats,
which any signed-in player may join: ``pbem.services.games.join``) and a
player's page (their games, results and ratings), both open to visitors,
so players are named as strangers may see them (``Player.public_name``).
Reads only; taking a seat goes through the game-state door
(``gamestate.take_open_seat``)."""

from __future__ import annotations

from typing import Any

from sqlmodel import Session, col, select

from notation import registry
from pbem.i18n import gettext
from pbem.models import INVITING, Game, Player
from pbem.services import ratings, results
from pbem.services.clock import deadlines as time_control
from pbem.services.errors import NotFound
from pbem.services.stored import games_of, option_words, seated_players, title_of


def open_challenges(session: Session, viewer: Player | None = None) -> list[dict[str, Any]]:
    """Every game waiting for players to take its open seats, oldest first:
    the game, who is in, how many seats are open, and whether ``viewer``
    may join (not already seated)."""
    games = session.exec(select(Game).where(Game.status == INVITING, Game.open_seats > 0).order_by(
        col(Game.created_at), col(Game.id)))
    shown = []
    for game in games:
        seated = seated_players(session, game)
        seated_ids = {player.id for _, player in seated}
        shown.append({
            "id": game.id,
            "game": game.kind,
            "title": title_of(game),
            "options": dict(game.options),
            "option_words": option_words(game.kind, game.options),
            "players": [{"name": player.public_name, "player_id": player.id} for _, player in seated],
            "open_seats": game.open_seats,
            "seats": len(seated) + game.open_seats,
            "time_control": _time_words(game),
            "created_at": game.created_at,
            "yours": viewer is not None and viewer.id in seated_ids,
            "can_join": viewer is not None and viewer.id not in seated_ids,
        })
    return shown


def player_page(session: Session, player_id: Any, viewer: Player | None = None) -> dict[str, Any]:
    """A player's page: their name, their games (newest first) with each
    one's result for them, and their rating in each game they have rated
    games of; ``NotFound`` for no such player."""
    try:
        number = int(player_id)
    except (TypeError, ValueError):
        number = 0
    player = session.get(Player, number) if 0 < number < 2**31 else None
    if player is None:
        raise NotFound(gettext('there is no player %(value)s', value=str(player_id)[:20]))
    listed = []
    wins = finished = 0
    for game, seat in games_of(session, player):
        seats = seated_players(session, game)
        groups = results.standings(game, len(seats))
        words = results.result_words(groups, seat.number, len(seats), you=False) if groups else None
        if groups:
            finished += 1
            wins += 1 if words in ("won", "shared the win") else 0
        listed.append({
            "id": game.id,
            "title": title_of(game),
            "status": game.status,
            "result": words if words else (results.unfinished_words(game.status)
                                           if game.status in ("abandoned", "cancelled") else game.status),
            "opponents": [other.public_name for other_seat, other in seats if other.id != player.id],
            "finished_at": game.finished_at,
            "viewer_seated": viewer is not None and any(other.id == viewer.id for _, other in seats),
        })
    return {"id": player.id, "name": player.public_name, "games": listed, "finished": finished, "wins": wins,
            "ratings": [dict(entry, title=_title(entry["kind"])) for entry in ratings.player_ratings(session, player)],
            "is_viewer": viewer is not None and viewer.id == player.id}


def _time_words(game: Game) -> str:
    control = time_control.control_of(game)
    return "no time limit" if control is None else control.describe()


def _title(kind: str) -> str:
    found = registry.get(kind)
    return found.rules.title or found.name
