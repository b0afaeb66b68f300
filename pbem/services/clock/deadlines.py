"""Time control and reminders: each turn's deadline from the game's time
control (time per turn, time bank, weekends, vacations), the reminder hours
a player chose, and the clock columns of the games row
(``turn_started_at``, ``deadline``, ``next_check_at``).

What happens when a deadline or a reminder is due is ``pbem.services.sweep``.
Changes to a game row go through the one door, ``pbem.services.gamestate``.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from sqlmodel import Session, col, select

from pbem.i18n import gettext
from pbem.models import ACTIVE, Game, Seat
from pbem.models.clock import DEFAULT_REMINDER_HOURS, Preferences, ReminderSent, Timeout, Vacation
from pbem.services import gamestate
from pbem.services.clock.control import Clock, Interval, TimeControl, TimeControlError, counted
from pbem.services.clock.control import deadline as deadline_after
from pbem.services.errors import BadInput
from pbem.services.stored import kind_of, state_of


def control_of(game: Game) -> TimeControl | None:
    """The game's time control, or None for a game without a time limit."""
    if game.time_control:
        return TimeControl.from_dict(game.time_control)
    if game.hours_per_turn:
        return TimeControl(hours_per_turn=game.hours_per_turn)
    return None


def time_control_for(hours: int | None, given: Any) -> TimeControl | None:
    """The time control of a new game from ``hours_per_turn`` and/or a time
    control mapping; ``BadInput`` saying what is wrong."""
    if given in (None, {}):
        return TimeControl(hours_per_turn=hours) if hours else None
    if isinstance(given, TimeControl):
        return given
    if not isinstance(given, dict):
        raise BadInput(gettext('the time control is a set of name=value pairs, such as {"hours_per_turn": 72, "on_timeout": "claim", "weekends": true}'))
    unknown = sorted(set(given) - set(TimeControl.__dataclass_fields__) - {"days_per_turn"})
    if unknown:
        raise BadInput(gettext('the time control has no %(join)s; it has days_per_turn, ', join=', '.join(map(str, unknown))) + ", ".join(TimeControl.__dataclass_fields__))
    data = dict(given)
    days = data.pop("days_per_turn", None)
    if days not in (None, ""):
        if "hours_per_turn" in data:
            raise BadInput(gettext('give the time per turn as hours_per_turn or as days_per_turn, not both'))
        if isinstance(days, bool) or not isinstance(days, int) or not 1 <= days <= 365:
            raise BadInput(gettext('days_per_turn is a whole number of days from 1 to 365; not %(days)s', days=repr(days)))
        data["hours_per_turn"] = days * 24
    if hours and "hours_per_turn" not in data:
        data["hours_per_turn"] = hours
    try:
        return TimeControl.from_dict(data)
    except TimeControlError as error:
        raise BadInput(gettext('time control: %(error)s', error=error)) from None


def vacations_of(session: Session, player_id: int, since: datetime | None = None) -> list[Interval]:
    query = select(Vacation).where(Vacation.player_id == player_id)
    if since is not None:
        query = query.where(Vacation.ends_at > since)
    return [(v.starts_at, v.ends_at) for v in session.exec(query.order_by(col(Vacation.starts_at)))]


def reminder_hours(session: Session, player_id: int) -> list[int]:
    prefs = session.get(Preferences, player_id)
    return parse_hours(prefs.reminder_hours if prefs else DEFAULT_REMINDER_HOURS)


def parse_hours(text: str) -> list[int]:
    return sorted({int(part) for part in str(text).replace(" ", "").split(",") if part.isdigit()}, reverse=True)


def _bank(seat: Seat | None, control: TimeControl) -> timedelta:
    if seat is None or not control.has_bank:
        return timedelta(0)
    if seat.bank_seconds is None:
        return Clock.start(control).bank
    return timedelta(seconds=seat.bank_seconds)


def turn_values(session: Session, game: Game, state: Any, start: datetime) -> dict[str, Any]:
    """The games row's clock columns for a turn starting at ``start`` in
    ``state``: ``turn_started_at``, ``deadline`` and ``next_check_at``."""
    control = control_of(game)
    mover = kind_of(game).rules.to_move(state) if state is not None else None
    if control is None or mover is None:
        return {"turn_started_at": start, "deadline": None, "next_check_at": None}
    seat = session.exec(select(Seat).where(Seat.game_id == game.id, Seat.number == mover)).first()
    due = _deadline(session, control, seat, start)
    hours = reminder_hours(session, seat.player_id) if seat else []
    return {"turn_started_at": start, "deadline": due, "next_check_at": next_check(due, start, hours, set())}


def _deadline(session: Session, control: TimeControl, seat: Seat | None, start: datetime) -> datetime:
    allowance = control.per_turn + _bank(seat, control)
    vacations = vacations_of(session, seat.player_id, start) if seat else []
    return deadline_after(start, allowance, control.weekends, vacations)


def next_check(due: datetime, start: datetime, hours: list[int], sent: set[int]) -> datetime:
    moments = [due - timedelta(hours=h) for h in hours if h not in sent and due - timedelta(hours=h) > start]
    return min(moments + [due])


_TURN_STARTED = object()


def bank_after_turn(session: Session, game: Game, seat: Seat, now: datetime, started: Any = _TURN_STARTED) -> None:
    """Charge the turn that just ended (begun at ``started``, default: the
    game's ``turn_started_at``) to the mover's time bank."""
    control = control_of(game)
    started = game.turn_started_at if started is _TURN_STARTED else started
    if control is None or not control.has_bank or started is None:
        return
    vacations = vacations_of(session, seat.player_id, started)
    used = counted(started, now, control.weekends, vacations)
    bank = Clock(_bank(seat, control)).after_turn(control, used).bank
    seat.bank_seconds = int(bank.total_seconds())
    session.add(seat)


def start_values(session: Session, game: Game, state: Any, now: datetime) -> dict[str, Any]:
    """Clock columns at the start of a game; sets every seat's bank."""
    control = control_of(game)
    if control is not None and control.has_bank:
        for seat in session.exec(select(Seat).where(Seat.game_id == game.id)):
            seat.bank_seconds = int(Clock.start(control).bank.total_seconds())
            session.add(seat)
        session.flush()
    return turn_values(session, game, state, now)


def reschedule(session: Session, game: Game) -> None:
    """Recompute the current turn's deadline (after a vacation changed);
    conditional on the ply, so it never touches a turn that moved on."""
    if game.status != ACTIVE or game.turn_started_at is None or control_of(game) is None:
        return
    if session.exec(select(Timeout).where(Timeout.game_id == game.id, Timeout.ply == game.ply)).first():
        return  # time already ran out for this turn
    values = turn_values(session, game, state_of(game), game.turn_started_at)
    values.pop("turn_started_at")
    sent = reminders_sent(session, game)
    if values["deadline"] is not None:
        seat = mover_seat(session, game)
        hours = reminder_hours(session, seat.player_id) if seat else []
        values["next_check_at"] = next_check(values["deadline"], game.turn_started_at, hours, sent)
    gamestate.set_clock(session, game, **values)


def mover_seat(session: Session, game: Game) -> Seat | None:
    state = state_of(game)
    mover = kind_of(game).rules.to_move(state) if state is not None else None
    if mover is None:
        return None
    return session.exec(select(Seat).where(Seat.game_id == game.id, Seat.number == mover)).first()


def reminders_sent(session: Session, game: Game) -> set[int]:
    rows = session.exec(select(ReminderSent.hours).where(ReminderSent.game_id == game.id, ReminderSent.ply == game.ply))
    return set(rows)


def check_bank_cap(control: dict[str, Any]) -> None:
    """``BadInput`` when a bank cap is below the starting bank."""
    bank, cap = control.get("bank_hours") or 0, control.get("bank_cap_hours") or 0
    if isinstance(bank, int) and isinstance(cap, int) and cap and cap < bank:
        raise BadInput(gettext('the bank cap (%(cap)s hours) must be at least the starting bank (%(bank)s hours), or 0 for no cap', cap=cap, bank=bank))
