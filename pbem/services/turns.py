"""The one turn submission service for players.  Web pages, the JSON API,
mail, the command line and the bots all submit turns through
``submit_turn``, which checks the turn and hands it to the one writer of
turns, ``pbem.services.transition`` (the deadline sweep's forfeits go
through it too); nothing else changes a game's position.

A submission names the ply (turns played so far) the player saw.  The game
row is advanced through the one door (``pbem.services.gamestate.advance``), a
conditional ``UPDATE ... WHERE ply = :seen AND status = 'active'``, so of
racing submissions for the same turn exactly one matches a row and is
applied; the others are told the game has moved on.  This holds on SQLite
(writes are serialised) and on PostgreSQL (a second UPDATE waits for the
first to commit, then re-checks its WHERE clause against the new row).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from sqlmodel import Session

from engine.errors import PbemError, shown
from pbem.db import rolls_back
from pbem.i18n import gettext, lazy_gettext
from pbem.models import ACTIVE, SOURCES, Game, Player, Seat, Turn, utcnow
from pbem.services import seat_settings, transition
from pbem.services import visibility as views
from pbem.services.errors import BadInput, BadTurn, GameMovedOn, GameNotActive, NotYourTurn, PlyNotReached
from pbem.services.stored import Seated, game_for_player, kind_of, load_game, load_seated, state_of
from pbem.services.transition import MAX_TURN as MAX_TURN  # noqa: F401  (the web and the API name them here)
from pbem.services.transition import too_long as too_long


def for_players(message: str, position: str) -> str:
    """A notation's error message as players read it: without the raw
    position string the notation names for the command line (players see
    the board, and ask for the string where they want it: the game page,
    the ``board`` mail command)."""
    if not position:
        return message
    for wrapped in (f" (position {position})", f" in position {position}"):
        message = message.replace(wrapped, "")
    return message.replace(position, "the current position")


@dataclass(frozen=True)
class Preview:
    """What a turn would do: its canonical text and the position after it
    (played in game ``game_id`` at ``ply`` turns played)."""

    text: str
    canonical: str
    position: str
    state: Any
    game_id: int | None = None
    ply: int | None = None
    #: the seats whose pending settings the turn folded in, with them as read (``seat_settings``)
    folded: tuple[tuple[int, str | None], ...] = ()


@dataclass(frozen=True)
class Submitted:
    game: Game
    turn: Turn
    #: the turns stored with ``turn`` (a forfeit of each player out on time who came next)
    skipped: tuple[Turn, ...] = ()
    #: the game as read for the turn, with its seats and players (now after the turn)
    seated: Seated | None = None


def moved_on(game: Game, seen_ply: int) -> GameMovedOn:
    return GameMovedOn(
        gettext('game %(id)s has moved on: you saw it after %(seen_ply)s turns, but %(ply)s have been played now; look at the new position and send your turn again', id=game.id, seen_ply=seen_ply, ply=game.ply)
    )


def not_reached(game: Game, seen_ply: int) -> PlyNotReached:
    """The answer to a ply greater than the game's: the player cannot have
    seen that position, so say where the game is and which ply to send."""
    return PlyNotReached(
        gettext('ply %(seen_ply)s has not been reached yet in game %(id)s: %(value)s been played, so the turn to play now is turn %(value2)s, sent with ply %(ply)s; look at the game and send your turn with that ply', seen_ply=seen_ply, id=game.id, value=gettext('1 turn has') if game.ply == 1 else gettext('%(num)s turns have', num=game.ply), value2=game.ply + 1, ply=game.ply)
    )


def check_seen(game: Game, seen_ply: int) -> None:
    """Raise ``GameMovedOn`` for a past ply and ``PlyNotReached`` for a
    future one in an active game; nothing when ``seen_ply`` is the game's."""
    if game.status != ACTIVE or seen_ply == game.ply:
        return
    raise not_reached(game, seen_ply) if seen_ply > game.ply else moved_on(game, seen_ply)


def _check_ply(seen_ply: Any) -> int:
    if isinstance(seen_ply, bool) or not isinstance(seen_ply, int) or seen_ply < 0:
        raise BadInput(gettext('the ply is the number of turns played when you looked, a whole number such as 0; not %(seen_ply)s', seen_ply=shown(seen_ply)))
    return seen_ply


def preview_turn(session: Session, game_id: Any, player: Player, text: Any, seat: Seat | None = None) -> Preview:
    """Parse, check and apply ``text`` for ``player`` without storing
    anything; raise a ``ServiceError`` naming what is wrong.  ``seat``: the
    player's seat in the game, when the caller has loaded it already."""
    game, seat = _game_and_seat(session, game_id, player, seat)
    return _play(game, seat.number, text)


def _game_and_seat(session: Session, game_id: Any, player: Player, seat: Seat | None) -> tuple[Game, Seat]:
    """The game and the player's seat (``seat`` when given: the caller
    loaded the player's seat in this game in this session)."""
    if seat is None:
        return game_for_player(session, game_id, player)
    game = load_game(session, game_id)
    if seat.game_id != game.id or seat.player_id != player.id:
        raise ValueError("the seat given is not the player's seat in this game")
    return game, seat


def _play(game: Game, seat_number: int, text: Any, seats: list[Seat] | None = None) -> Preview:
    """``text`` checked and applied for ``seat_number``; with ``seats``
    (the game's, as read for a turn to be stored), their pending settings
    folded into the turn (``seat_settings``)."""
    if game.status != ACTIVE:
        raise GameNotActive(gettext('game %(id)s is %(status)s; no more turns can be played', id=game.id, status=gettext(game.status)))
    if not isinstance(text, str):
        raise BadTurn(gettext('a turn is text, such as %(game)s', game=repr(_example(game))))
    kind = kind_of(game)
    state = state_of(game)
    mover = kind.rules.to_move(state)
    if mover != seat_number:
        who = "nobody" if mover is None else f"player {kind.notation.player_label(mover)}"
        raise NotYourTurn(
            gettext('it is not your turn in game %(id)s: %(who)s is to move, and you are player %(seat_number)s', id=game.id, who=who, seat_number=kind.notation.player_label(seat_number))
        )
    folded: tuple[tuple[int, str | None], ...] = ()
    try:
        turn = kind.notation.parse_turn(state, text)
        seat_settings.refuse_others(game, state, turn, seat_number)
        changes = seat_settings.changes_of(seats or ())
        carried = kind.notation.with_settings(state, turn, changes) if changes else None
        if carried is not None:  # else they wait for a turn that can carry them
            turn = carried
            folded = tuple((seat.number, seat.pending_settings) for seat in seats or () if seat.number in changes)
        canonical = kind.notation.format_turn(state, turn)
        after = kind.rules.apply(state, turn)
    except PbemError as error:
        raise BadTurn(for_players(str(error), kind.notation.format_position(state))) from None
    return Preview(text, canonical, kind.notation.format_position(after), after, game.id, game.ply, folded)


def _example(game: Game) -> str:
    example = kind_of(game).notation.example_turn()
    assert example is not None  # its default ("...") when the notation has no example
    return example


@rolls_back
def submit_turn(session: Session, game_id: Any, player: Player, text: Any, seen_ply: Any, source: str,
                *, seated: Seated | None = None, played: Preview | None = None,
                then: Callable[[transition.Written], Any] | None = None) -> Submitted:
    """Check and apply ``player``'s turn ``text`` in game ``game_id``, as
    seen at ``seen_ply``; store it, advance the game and queue the mail, all
    in one transaction, which this commits (the turn is written by
    ``transition.write``).  Raises a ``ServiceError`` (``GameMovedOn`` when
    another turn got there first; ``BadInput`` for a text longer than
    ``MAX_TURN`` characters) and changes nothing on any error.  ``then``,
    called with what was stored (``transition.Written``) after the claim and
    before the players' mail and the commit, adds the caller's own rows to
    the transaction (mail's answer).

    The game, its seats, players and their digest choice are read in one
    statement (``play.load_seated``); a caller that already read them (the
    API route, to answer 404/403 before reading the body) passes them as
    ``seated``.  The turn itself is then the conditional UPDATE, the INSERT
    of the turn and those of its mail.  A caller that has checked the turn
    already in this session (the mail robot: ``preview_turn`` before it
    answers) passes that preview as ``played``, so the turn is parsed once;
    the preview is used only if it is of ``text`` at the game's ply as
    loaded."""
    if source not in SOURCES:
        raise ValueError(f"source must be one of {SOURCES}, not {source!r}")
    seen = _check_ply(seen_ply)
    if seated is None or seated.seat_of(player) is None:
        seated = load_seated(session, game_id, player)  # NotFound, Forbidden
    game, seat = seated.game, seated.seat_of(player)
    assert seat is not None  # load_seated refuses a player with no seat (Forbidden)
    check_seen(game, seen)
    if isinstance(text, str):  # refused before it is read (``write`` refuses it again, for every source)
        transition.refuse_too_long(game, text)
    seats = [row for row, _ in seated.seats]
    if (played is None or (played.text, played.game_id, played.ply) != (text, game.id, game.ply)
            or seat_settings.changes_of(seats)):  # a preview folds in no one's pending settings
        played = _play(game, seat.number, text, seats)
    # as every viewer may read it while the game is on (as read: active)
    public = views.turn_text(game, None, seat.number, played.canonical)
    headline = lazy_gettext("%(name)s played %(turn)s.", name=player.display_name, turn=public)
    move = transition.Move(seat, text, played.canonical, played.state, source, played.position)
    # the claim and its rows are the whole transaction unless folded settings are cleared after it
    written = transition.write(session, game, seen, utcnow(), move, out=seated.out(), headline=headline,
                               actor=player, seated=seated, then=then,
                               last_write=not played.folded and then is None)
    if written is None:
        session.rollback()
        session.refresh(game)
        raise moved_on(game, seen)
    assert written.turn is not None  # a move was given: its turn was written
    seat_settings.clear_folded(session, seats, dict(played.folded))
    session.commit()
    return Submitted(game, written.turn, written.skipped, seated)
