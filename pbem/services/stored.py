"""Stored games seen through the one game interface: a game's kind, its
state, seats and players.  Never names a particular game."""

from __future__ import annotations

import functools
from dataclasses import dataclass, field
from typing import Any, Mapping, cast

from sqlalchemy import bindparam, exists, true
from sqlmodel import Session, col, select
from sqlmodel.sql.expression import Select

from engine.base import ChanceEvent, settle_from_seed
from engine.errors import shown
from notation import registry
from notation.base import GameKind
from pbem.models import Game, Player, Seat, Turn
from pbem.models.clock import Preferences
from pbem.models.refusals import MailRefusal
from pbem.services.errors import Forbidden, NotFound


def kind_of(game: Game) -> GameKind:
    return registry.get(game.kind)


def title_of(game: Game) -> str:
    kind = kind_of(game)
    return kind.rules.title or kind.name


def option_words(kind_name: str, options: Mapping[str, Any]) -> str:
    """A game's options as a player reads them, in the reader's language
    ("mature trees spawn seedlings"; the game's ``Notation.option_words``),
    "" when it has none."""
    return "; ".join(registry.get(kind_name).notation.option_words(dict(options)))


#: states parsed lately, by (kind, options, position); a state is kept only
#: when it is hashable (every engine's states are frozen values), so one
#: handed out twice can never be changed by whoever got it first
_PARSED: dict[tuple[Any, ...], Any] = {}
_PARSED_KEPT = 256


def state_of(game: Game, position: str | None = None) -> Any:
    """The game's state (or the state of ``position``), or None before the
    start.  A turn asks for the same position several times (to check the
    turn, whose move it is next, what the mail and the answer show), so
    recently parsed states are kept."""
    text = position if position is not None else game.position
    if text is None:
        return None
    options = game.options or {}
    try:
        key = (game.kind, text, tuple(sorted(options.items())))
        found = _PARSED.get(key)
    except TypeError:  # options that are not hashable: parse every time
        return kind_of(game).notation.parse_position(text, game.options)
    if found is not None:
        return found
    state = kind_of(game).notation.parse_position(text, game.options)
    try:
        hash(state)  # a value (fields all hashable): safe to hand out again
    except TypeError:
        return state
    equality: object = type(state).__eq__
    if equality is object.__eq__:
        return state  # hashed by identity: not known to be a value
    try:
        while len(_PARSED) >= _PARSED_KEPT:
            _PARSED.pop(next(iter(_PARSED)))  # the oldest
    except (KeyError, RuntimeError, StopIteration):  # another thread trimmed it at the same moment
        pass
    _PARSED[key] = state
    return state


def start_state(game: Game, players: int, seed: str | None = None) -> Any:
    """The game's state before the first turn: dealt from ``seed`` (default
    the game's, set when it started) when its rules use chance."""
    kind = kind_of(game)
    if kind.rules.uses_chance:
        seed = seed or game.seed
        if not seed:
            raise ValueError(f"game {game.id} uses chance but has no seed yet")
        return kind.rules.seeded_state(players, game.options, seed)
    return kind.rules.initial_state(players, game.options)


def dealt_state(game: Game, players: int) -> Any:
    """The position before the first turn as it was played from: the start
    after the chance events settled before the first turn (a deal of
    cards), not the origin that waits for them (``start_state``)."""
    return settled(game, start_state(game, players), 0)[0]


def settled(game: Game, state: Any, ply: int, seed: str | None = None) -> tuple[Any, list[dict[str, Any]] | None]:
    """``state`` after the chance events it waits for (a draw, a roll) once
    ``ply`` turns are played (0: before the first), each decided from the
    game's seed (or ``seed``) by ``engine.chance.decide``; and the events as
    stored (``events_data``; None when there were none).  A game that waits
    for no chance comes back unchanged."""
    rules = kind_of(game).rules
    if rules.chance(state) is None:
        return state, None
    seed = seed or game.seed
    if not seed:
        raise ValueError(f"game {game.id} waits for chance but has no seed")
    state, happened = settle_from_seed(rules, state, seed, ply)
    return state, events_data(happened)


def events_data(happened: list[tuple[ChanceEvent, tuple[str, ...]]]) -> list[dict[str, Any]]:
    """Chance events and their outcomes as stored (``Game.start_chance``,
    ``Turn.chance``): purpose, kind, values, and who saw them (None: everyone)."""
    return [{"purpose": event.purpose, "kind": event.kind, "values": list(values),
             "seen_by": list(event.seen_by) if event.seen_by is not None else None}
            for event, values in happened]


def is_solitaire(session: Session, game: Game) -> bool:
    """True for a game of one player: no invitations, draws, claims or
    "out" policy there."""
    return len(seats_of(session, game)) == 1


def seats_of(session: Session, game: Game) -> list[Seat]:
    return list(session.exec(select(Seat).where(Seat.game_id == game.id).order_by(col(Seat.number))))


def seated_players(session: Session, game: Game) -> list[tuple[Seat, Player]]:
    rows = session.exec(
        select(Seat, Player).where(Seat.game_id == game.id, Seat.player_id == Player.id).order_by(col(Seat.number))
    )
    return [(seat, player) for seat, player in rows]


def seat_of(session: Session, game: Game, player: Player) -> Seat | None:
    return session.exec(select(Seat).where(Seat.game_id == game.id, Seat.player_id == player.id)).first()


def load_game(session: Session, game_id: Any) -> Game:
    """The game with this id; ``NotFound`` naming the id otherwise."""
    try:
        number = int(game_id)
    except (TypeError, ValueError):
        raise NotFound(f"there is no game {shown(game_id)}; games are numbered 1, 2, 3...") from None
    game = session.get(Game, number) if 0 < number < 2**31 else None
    if game is None:
        raise NotFound(f"there is no game {number}")
    return game


def game_for_player(session: Session, game_id: Any, player: Player) -> tuple[Game, Seat]:
    """The game and the player's seat in it; ``NotFound`` or ``Forbidden``."""
    game = load_game(session, game_id)
    seat = seat_of(session, game, player)
    if seat is None:
        raise Forbidden(f"you ({player.email}) are not a player in game {game.id}")
    return game, seat


@dataclass
class Seated:
    """A game read with everything a turn needs, in one statement
    (``load_seated``): its seats in order with their players, which of
    those players take the daily digest instead of a mail per move, and
    which refused all mail at their own address (``refused``: a refusal
    is stored as the trimmed, lower-cased address, as players' addresses
    are; ``notify`` still asks ``refusals.refusing`` about an address with a
    ``+detail``, which a refusal of the address without it covers too).
    Services that accept one (``submit_turn``, ``notify.position``,
    ``present.summary``) read none of it again.  ``credential``: the row
    of the credential read with it (see ``load_seated``), or None."""

    game: Game
    seats: list[tuple[Seat, Player]]
    digest: set[int] = field(default_factory=set)  # ids of players who prefer the daily digest
    refused: set[str] = field(default_factory=set)  # addresses of players refusing all mail
    credential: Any = None

    def seat_of(self, player: Player | None) -> Seat | None:
        if player is None:
            return None
        return next((seat for seat, seated in self.seats if seated.id == player.id), None)

    def player(self, player_id: Any) -> Player | None:
        """The seated player with this id, or None."""
        return next((seated for _, seated in self.seats if seated.id == player_id), None)

    def out(self) -> dict[int, int]:
        """The seats put out of the game on time (as ``sweep.out_seats``)."""
        return {seat.number: seat.out_after for seat, _ in self.seats if seat.out_after is not None}


@functools.cache
def _seated_statement(credential: Any = None) -> Select[*tuple[Any, ...]]:
    """``load_seated``'s statement, built once for each credential
    statement (its cache key too)."""
    # five columns: sqlmodel's select() is typed for four at most, and makes this Select
    statement: Select[*tuple[Any, ...]] = (
        Select(Game, Seat, Player, col(Preferences.digest),
               exists().where(col(MailRefusal.address) == Player.email).label("refused"))
        .select_from(Game)
        .outerjoin(Seat, col(Seat.game_id) == Game.id)
        .outerjoin(Player, col(Player.id) == Seat.player_id)
        .outerjoin(Preferences, col(Preferences.player_id) == Player.id))
    if credential is not None:
        found = credential.subquery("credential")
        # add_columns is typed as SQLAlchemy's Select; it copies this one, of sqlmodel's class
        statement = cast("Select[*tuple[Any, ...]]", statement.add_columns(*found.c).outerjoin(found, true()))
    return statement.where(col(Game.id) == bindparam("game_id")).order_by(col(Seat.number))


def load_seated(session: Session, game_id: Any, player: Player | None = None,
                credential: Any = None, params: dict[str, Any] | None = None) -> Seated:
    """The game with this id, its seats, players and their digest choice, in
    one statement; ``NotFound`` naming the id, and with ``player``,
    ``Forbidden`` when they have no seat in it (as ``game_for_player``).

    ``credential`` (a SELECT of at most one row, built once, with its
    ``params``) is read in the same statement: who is asking (an API token,
    a web session), so that a turn reads who plays it and the game they
    play in with one round trip; its row is ``Seated.credential``, a dict by column
    name (None when it found nothing)."""
    try:
        number = int(game_id)
    except (TypeError, ValueError):
        raise NotFound(f"there is no game {shown(game_id)}; games are numbered 1, 2, 3...") from None
    rows = (list(session.exec(_seated_statement(credential), params={"game_id": number, **(params or {})}))
            if 0 < number < 2**31 else [])
    if not rows:
        raise NotFound(f"there is no game {number}")
    game = rows[0][0]
    found = dict(zip(credential.selected_columns.keys(), rows[0][5:])) if credential is not None else None
    seated = Seated(game, [(row[1], row[2]) for row in rows if row[1] is not None and row[2] is not None],
                    {row[2].id for row in rows if row[2] is not None and row[3]},
                    {row[2].email for row in rows if row[2] is not None and row[4]},
                    found if found and any(value is not None for value in found.values()) else None)
    if player is not None and seated.seat_of(player) is None:
        raise Forbidden(f"you ({player.email}) are not a player in game {game.id}")
    return seated


def turns_of(session: Session, game: Game) -> list[Turn]:
    return list(session.exec(select(Turn).where(Turn.game_id == game.id).order_by(col(Turn.ply))))


def to_move(game: Game) -> int | None:
    """The 0-based seat to move, or None when nobody is."""
    state = state_of(game)
    if state is None or game.status != "active":
        return None
    return kind_of(game).rules.to_move(state)


def games_of(session: Session, player: Player) -> list[tuple[Game, Seat]]:
    rows = session.exec(
        select(Game, Seat).where(Seat.game_id == Game.id, Seat.player_id == player.id).order_by(col(Game.id).desc())
    )
    return [(game, seat) for game, seat in rows]
