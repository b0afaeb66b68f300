"""The computer opponents' worker (bots are seated by
``pbem.services.bot_seats``).

For every active game where a bot is to move, ``play_game`` asks
``engine.bots.choose`` for a turn from the bot's view (through the views
chokepoint, ``pbem.services.visibility.at``) and submits it through the
one turn service (``submit_turn``), like any player.  The scheduler's
``bots`` worker (``pbem.scheduler``) runs it in a pool of threads of its
own as soon as a game changes (``pbem.wake``, channel ``games``), one
game per thread, so one slow bot holds up neither another game's bot nor
the mail; ``play_due`` does every game in turn (``pbem scheduler --once``,
the worker's safety net).  Never in a web request.  A bot resigns only when
its search proves the game lost, and never offers or answers a draw.
"""

from __future__ import annotations

import logging
from typing import Collection

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


def _due(session: Session, game_ids: Collection[int] | None = None) -> list[tuple[int, int]]:
    """(game id, bot player id) of the active games with a bot seated
    (among ``game_ids`` when given)."""
    query = (
        select(Game.id, Player.id).join(Seat, col(Seat.game_id) == Game.id).join(Player, col(Player.id) == Seat.player_id)
        .where(Game.status == ACTIVE, Player.email.endswith("@" + BOT_DOMAIN))
    )
    if game_ids is not None:
        query = query.where(col(Game.id).in_(sorted(game_ids)))
    rows = session.exec(query.order_by(col(Game.id))).all()
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


def due(engine: Engine, game_ids: Collection[int] | None = None) -> list[tuple[int, int]]:
    """(game id, bot player id) of the active games with a bot seated
    (among ``game_ids`` when given): where a bot may be to move."""
    with Session(engine) as session:
        return _due(session, game_ids)


def play_once(engine: Engine, game_id: int, player_id: int) -> bool:
    """The bot's turn in the game, if it is to move there, stored through
    the one door in a session of its own; True if it played (or resigned)."""
    with Session(engine) as session:
        player = session.get(Player, player_id)
        if player is None:  # no such player: no seat to play from
            return False
        try:
            return play_turn(session, game_id, player)
        except ServiceError as error:  # the game moved on, or ended, meanwhile
            log.info("bots: game %s: %s", game_id, error)
        except Exception:  # one game's trouble must not stop the others' bots
            log.exception("bots: game %s: the bot could not play", game_id)
        return False


def play_game(engine: Engine, game_id: int) -> int:
    """Every turn the bots seated in the game are to play now, one after
    another while a bot is still to move (a game of bots only plays on);
    how many were played."""
    played = 0
    for _ in range(MAX_TURNS_AT_ONCE):
        done_now = sum(play_once(engine, g, p) for g, p in due(engine, [game_id]))
        played += done_now
        if not done_now:
            break
    return played


#: at most this many bot turns of one game are played in one go
MAX_TURNS_AT_ONCE = 1000


def play_due(engine: Engine) -> int:
    """Every turn bots are to play now, game after game; how many were played."""
    return sum(play_game(engine, game_id) for game_id in dict.fromkeys(g for g, _ in due(engine)))
