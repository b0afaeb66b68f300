"""The computer opponents' worker (bots are seated by
``pbem.services.bot_seats``).

``play_due`` is the worker: for every active game where a bot is to move,
it asks ``engine.bots.choose`` for a turn from the bot's view (through the
views chokepoint, ``pbem.services.visibility.at``) and submits it through the one
turn service (``submit_turn``), like any player.  It runs in the
scheduler's ``bots`` job, never in a web request.  A bot resigns only when
its search proves the game lost, and never offers or answers a draw.
"""

from __future__ import annotations

import logging

from sqlalchemy import Engine
from sqlmodel import Session, col, select

from engine.bots import choose
from pbem.models import ACTIVE, Game, Player, Seat
from pbem.services import games
from pbem.services import visibility as views
from pbem.services.bot_seats import BOT_DOMAIN, address_of, is_bot_address, level_of, offered_levels  # noqa: F401 - the worker's callers read them here
from pbem.services.errors import ServiceError
from pbem.services.stored import kind_of
from pbem.services.turns import submit_turn

log = logging.getLogger(__name__)


def _due(session: Session) -> list[tuple[int, int]]:
    """(game id, bot player id) of the active games with a bot seated."""
    rows = session.exec(
        select(Game.id, Player.id).join(Seat, col(Seat.game_id) == Game.id).join(Player, col(Player.id) == Seat.player_id)
        .where(Game.status == ACTIVE, Player.email.endswith("@" + BOT_DOMAIN))
        .order_by(col(Game.id))
    ).all()
    return [(g, p) for g, p in rows if g is not None and p is not None]  # primary keys: never None


def play_turn(session: Session, game_id: int, player: Player) -> bool:
    """The bot's turn in the game if it is to move there; True if it played (or resigned)."""
    game = session.get(Game, game_id)
    seat = session.exec(select(Seat).where(Seat.game_id == game_id, Seat.player_id == player.id)).first()
    if game is None or seat is None or game.status != ACTIVE or views.mover(game) != seat.number:
        return False
    ply = game.ply
    view = views.at(session, game, seat.number)
    if view is None:
        return False
    kind = kind_of(game)
    choice = choose(kind.rules, view.state, seat.number, level_of(player), seed=f"{game.id}/{ply}")
    if choice.resign:
        games.resign(session, game.id, player)
        return True
    text = kind.notation.format_turn(view.state, choice.turn)
    submit_turn(session, game.id, player, text, ply, "bot")
    return True


def play_due(engine: Engine) -> int:
    """Every turn bots are to play now (one each per game, repeated while a
    bot is still to move, as in a game of bots only); how many were played."""
    played = 0
    for _ in range(1000):
        done_now = 0
        with Session(engine) as session:
            due = _due(session)
        for game_id, player_id in due:
            with Session(engine) as session:
                player = session.get(Player, player_id)
                if player is None:  # no such player: no seat to play from
                    continue
                try:
                    done_now += play_turn(session, game_id, player)
                except ServiceError as error:  # the game moved on, or ended, meanwhile
                    log.info("bots: game %s: %s", game_id, error)
                except Exception:  # one game's trouble must not stop the others' bots
                    log.exception("bots: game %s: the bot could not play", game_id)
        played += done_now
        if not done_now:
            break
    return played
