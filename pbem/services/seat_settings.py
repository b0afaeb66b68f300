"""Settings a player changes at any time, also outside their turn (a game's
``Notation.seat_settings``: a standing order, say), by mail, on the web
and through the API alike.  Never names a game.

A change is kept in the player's seat as pending (``Seat.pending_settings``,
JSON text: setting name -> canonical value), written through the one door
(``gamestate.set_pending_settings``, a compare-and-set on the seat that
never touches the game row, so it never races with a turn for the game's
ply).  The next turn played, by anyone, folds every seat's pending changes
into itself (``Notation.with_settings``) before anything they decide happens
in it, and clears them in its own transaction: the stored turn holds them,
so the record replays, and a change made while that turn was being played
stays pending for the turn after.  Until then the player sees their change
as pending; other players never see it (the game's view hides other seats'
settings, and ``Notation.private_turn_text`` the turn texts, while the game
is on).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Iterable, Mapping

from sqlmodel import Session

from engine.errors import PbemError, shown
from notation.base import SeatSetting
from pbem.i18n import gettext
from pbem.models import ACTIVE, Game, Player, Seat
from pbem.services import gamestate
from pbem.services.errors import BadInput, BadTurn, Conflict, GameNotActive
from pbem.services.stored import kind_of, load_seated, state_of

#: the longest value a player may write
MAX_VALUE = 200


@dataclass(frozen=True)
class SettingShown:
    """One setting as its player sees it: the game's declaration, the value
    in force now and the change waiting for the next turn (None: none)."""

    setting: SeatSetting
    value: str
    pending: str | None

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.setting.name, "description": self.setting.description,
                "example": self.setting.example, "default": self.setting.default,
                "value": self.value, "pending": self.pending}


def declared(game: Game) -> tuple[SeatSetting, ...]:
    """The settings the game's players may change outside their turn (none
    for most games)."""
    return tuple(kind_of(game).notation.seat_settings)


def pending_of(seat: Seat) -> dict[str, str]:
    """The seat's changes not yet in a turn, by setting name."""
    try:
        found = json.loads(seat.pending_settings) if seat.pending_settings else {}
    except ValueError:
        return {}
    return {str(k): str(v) for k, v in found.items()} if isinstance(found, dict) else {}


def shown_to(game: Game, seat: Seat) -> list[SettingShown]:
    """The seat's settings as its player sees them (their own only); empty
    for a game without settings or one not started."""
    settings = declared(game)
    state = state_of(game)
    if not settings or state is None:
        return []
    notation = kind_of(game).notation
    pending = pending_of(seat)
    return [SettingShown(s, notation.setting_of(state, seat.number, s.name), pending.get(s.name)) for s in settings]


def describe(shown: Iterable[SettingShown]) -> str:
    """The settings as their player reads them, one line each: the value in
    force, any change waiting for the next turn, what it decides."""
    lines = []
    for item in shown:
        line = gettext('%(name)s: %(value)s', name=item.setting.name, value=item.value)
        if item.pending is not None:
            line += " " + gettext('(becomes %(pending)s when the next turn is played)', pending=item.pending)
        lines.append(line + "\n  " + item.setting.description)
    return "\n".join(lines)


def usage(game: Game) -> str:
    """How to write a change of this game's settings, with its examples."""
    return "; ".join(f"'set {s.name} {s.example}'" for s in declared(game))


def change(session: Session, game_id: Any, player: Player, name: Any, value: Any,
           commit: bool = True) -> SettingShown:
    """Change ``player``'s setting ``name`` to ``value`` in game
    ``game_id``, now, whoever's turn it is; it takes effect in the next turn
    played.  Commits (unless ``commit`` is False: the caller commits it
    with its answer).  ``NotFound``/``Forbidden`` for a game or seat that is
    not theirs, ``GameNotActive`` for a game not on, ``BadInput`` naming
    what is wrong with the name or value."""
    seated = load_seated(session, game_id, player)  # NotFound, Forbidden
    game, seat = seated.game, seated.seat_of(player)
    assert seat is not None  # load_seated refuses a player with no seat (Forbidden)
    settings = {s.name: s for s in declared(game)}
    if not settings:
        raise BadInput(gettext('game %(id)s has no settings to change outside a turn', id=game.id))
    if game.status != ACTIVE:
        raise GameNotActive(gettext('game %(id)s is %(status)s, so its settings can no longer change',
                                    id=game.id, status=gettext(game.status)))
    key = name.strip().lower() if isinstance(name, str) else ""
    if key not in settings:
        raise BadInput(gettext('%(name)s is not a setting of game %(id)s; its settings: %(names)s (such as %(usage)s)',
                               name=shown(name), id=game.id, names=", ".join(settings), usage=usage(game)))
    if not isinstance(value, str) or not value.strip() or len(value) > MAX_VALUE:
        raise BadInput(gettext('write the new value of %(name)s, at most %(max)s characters, such as %(example)s',
                               name=key, max=MAX_VALUE, example=repr(settings[key].example)))
    notation = kind_of(game).notation
    state = state_of(game)
    try:
        canonical = notation.read_setting(state, seat.number, key, value)
    except PbemError as error:
        raise BadInput(str(error)) from None
    read = seat.pending_settings
    pending = pending_of(seat)
    if canonical == notation.setting_of(state, seat.number, key):
        pending.pop(key, None)  # back to the value in force: nothing to change
    else:
        pending[key] = canonical
    new = json.dumps(pending, sort_keys=True) if pending else None
    if new != read and not gamestate.set_pending_settings(session, seat, read, new):
        session.rollback()
        raise Conflict(gettext('your settings in game %(id)s changed at the same moment (or the game ended); '
                               'look at them again and send the change again', id=game.id))
    if commit:
        session.commit()
    return next(s for s in shown_to(game, seat) if s.setting.name == key)


def changes_of(seats: Iterable[Seat]) -> dict[int, dict[str, str]]:
    """Every seat's pending changes, by 0-based seat number (seats without
    any left out)."""
    return {seat.number: found for seat in seats if (found := pending_of(seat))}


def refuse_others(game: Game, state: Any, turn: Any, mover: int) -> None:
    """A player's turn may change only their own settings (the server
    folds in the others'): ``BadTurn`` naming the seat otherwise."""
    for seat in kind_of(game).notation.turn_settings(state, turn):
        if seat != mover:
            label = kind_of(game).notation.player_label(seat)
            raise BadTurn(gettext("a turn may change only your own settings, not player %(player)s's; "
                                   "they change theirs themselves", player=label))


def clear_folded(session: Session, seats: Iterable[Seat], folded: Mapping[int, str | None]) -> None:
    """After a turn that folded in the pending settings read as ``folded``
    (seat number -> ``Seat.pending_settings`` as read), clear them, each
    only if unchanged since (a change made meanwhile waits for the next
    turn)."""
    for seat in seats:
        if seat.number in folded:
            gamestate.set_pending_settings(session, seat, folded[seat.number], None, active=False)
