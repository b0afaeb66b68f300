"""Ratings per game, computed from finished games with Glicko-2
(``pbem.services.glicko2``; ``docs/ratings.md``).

Each kind of game has its own ratings.  Finished games of two or more
players with a result count; abandoned and cancelled games, and one-player
games, do not.  A rating period is a week (Monday 00:00 UTC to the next);
the games finished in it are rated together.  A game of several players
counts as a game between each pair of them: 1 to the one placed higher,
0.5 each when tied (``pbem.services.results``).  A rated player who
plays nothing in a week gets the period without games (their deviation
grows), up to the last week in which anyone finished a game of that kind.

Computed from the stored games, and kept in memory per database and kind
of game: a view asks the database one small question (how many rated games,
their highest id and latest finish), and the ratings are computed again only
when the answer changed, that is when a game of that kind finished (through
the game-state door) since.  Nothing is stored, so several server processes
each keep their own and all agree.
"""

from __future__ import annotations

import threading
import weakref
from collections import defaultdict
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import func
from sqlmodel import Session, col, select
from sqlmodel.sql.expression import Select

from pbem.models import FINISHED, Game, Player, Seat
from pbem.services import results
from pbem.services.glicko2 import Rating, update

#: a rating period
PERIOD = timedelta(days=7)
_MONDAY = datetime(2024, 1, 1)  # a Monday: periods start on Mondays, 00:00 UTC


def _period(moment: datetime) -> int:
    return int((moment.replace(tzinfo=None) - _MONDAY) // PERIOD)


def rated_games(session: Session, kind: str) -> list[tuple[Game, dict[int, int]]]:
    """The finished games of ``kind`` that count, oldest first, each with
    its players by 0-based seat (player ids)."""
    rows = session.exec(
        select(Game, Seat).where(Game.kind == kind, Game.status == FINISHED, Game.result != "*",
                                 Seat.game_id == Game.id)
        .order_by(col(Game.finished_at), col(Game.id), col(Seat.number))
    )
    games: dict[int, tuple[Game, dict[int, int]]] = {}
    for game, seat in rows:
        assert game.id is not None  # a stored game
        games.setdefault(game.id, (game, {}))[1][seat.number] = seat.player_id
    return [entry for entry in games.values() if len(entry[1]) > 1 and entry[0].finished_at is not None]


def pairwise(game: Game, seats: dict[int, int]) -> list[tuple[int, int, float]]:
    """The game as pairs: (player id, opponent id, score of the first)."""
    groups = results.standings(game, len(seats))
    pairs = []
    for seat, player in seats.items():
        for other, opponent in seats.items():
            if other != seat:
                score = results.score_against(groups, seat, other)
                if score is not None:
                    pairs.append((player, opponent, score))
    return pairs


#: engine -> kind -> (fingerprint of its finished games, ratings computed from them)
_KEPT: "weakref.WeakKeyDictionary[Any, dict[str, tuple[tuple[str, ...], dict[int, tuple[Rating, int]]]]]" = \
    weakref.WeakKeyDictionary()
_KEPT_LOCK = threading.Lock()


def _fingerprint(session: Session, kind: str) -> tuple[str, ...]:
    """What changes whenever a game of ``kind`` finishes: one statement."""
    # five columns: sqlmodel's select() is typed for four at most, and makes this Select
    statement: Select[*tuple[Any, ...]] = Select(
        func.count(col(Game.id)), func.max(col(Game.id)), func.sum(col(Game.id)), func.min(col(Game.finished_at)),
        func.max(col(Game.finished_at))).where(Game.kind == kind, Game.status == FINISHED)
    row = session.exec(statement).one()
    return tuple(str(value) for value in row)


def ratings(session: Session, kind: str) -> dict[int, tuple[Rating, int]]:
    """Every rated player of ``kind``: player id -> (rating, rated games);
    computed again only when a game of ``kind`` finished since the last
    time (``_fingerprint``)."""
    engine = session.get_bind()
    key = _fingerprint(session, kind)
    with _KEPT_LOCK:
        kept = _KEPT.get(engine, {}).get(kind)
    if kept is not None and kept[0] == key:
        return kept[1]
    computed = compute(session, kind)
    with _KEPT_LOCK:
        _KEPT.setdefault(engine, {})[kind] = (key, computed)
    return computed


def compute(session: Session, kind: str) -> dict[int, tuple[Rating, int]]:
    """Every rated player of ``kind``, computed from all its finished games."""
    by_period: dict[int, list[tuple[int, int, float]]] = defaultdict(list)
    played: dict[int, int] = defaultdict(int)
    for game, seats in rated_games(session, kind):
        assert game.finished_at is not None  # rated_games keeps the games with an end
        by_period[_period(game.finished_at)].extend(pairwise(game, seats))
        for player in seats.values():
            played[player] += 1
    current: dict[int, Rating] = {}
    if not by_period:
        return {}
    for period in range(min(by_period), max(by_period) + 1):
        pairs = by_period.get(period, [])
        before = dict(current)
        faced: dict[int, list[tuple[Rating, float]]] = defaultdict(list)
        for player, opponent, score in pairs:
            faced[player].append((before.get(opponent, Rating()), score))
        for player in set(before) | set(faced):
            current[player] = update(before.get(player, Rating()), faced.get(player, []))
    return {player: (rating, played[player]) for player, rating in current.items()}


def player_ratings(session: Session, player: Player) -> list[dict[str, Any]]:
    """``player``'s rating in each kind of game they finished a rated game of."""
    kinds = sorted(set(session.exec(
        select(Game.kind).where(Game.status == FINISHED, Seat.game_id == Game.id, Seat.player_id == player.id))))
    shown = []
    for kind in kinds:
        found = ratings(session, kind).get(player.id) if player.id is not None else None
        if found is not None:
            rating, games = found
            shown.append({"kind": kind, "rating": round(rating.rating), "rd": round(rating.rd),
                          "volatility": rating.volatility, "games": games})
    return shown
