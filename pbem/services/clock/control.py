"""Time control arithmetic for correspondence games: per-turn time, an
optional time bank, weekends that do or do not count, and vacations that stop
the clock.  Pure functions over aware UTC datetimes; no database.

Counted time is wall-clock time minus the periods that do not count: weekend
days (Saturday and Sunday, UTC) when the game says weekends do not count, and
the player's vacations.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from datetime import datetime, timedelta, timezone
from typing import Any, Iterable, Mapping

POLICIES = ("claim", "forfeit", "out")
POLICY_HELP = {
    "claim": "the game waits and the opponents may claim the win",
    "forfeit": "the turn is forfeited and passes to the next player",
    "out": "the player who ran out of time is out of the game",
}

Interval = tuple[datetime, datetime]


class TimeControlError(ValueError):
    """A time control that cannot be used; the message says what is right."""


@dataclass(frozen=True)
class TimeControl:
    """How much time each turn gets and what happens when it runs out."""

    hours_per_turn: int = 72
    bank_hours: int = 0  # the time bank each player starts with
    bank_increment_hours: int = 0  # added to the bank after each turn
    bank_cap_hours: int = 0  # the bank never exceeds this (0: no cap)
    on_timeout: str = "claim"
    weekends: bool = True  # do Saturdays and Sundays count?

    def __post_init__(self) -> None:
        if not 1 <= self.hours_per_turn <= 24 * 365:
            raise TimeControlError("time per turn must be from 1 hour to 365 days (8760 hours)")
        for name in ("bank_hours", "bank_increment_hours", "bank_cap_hours"):
            if not 0 <= getattr(self, name) <= 24 * 365:
                raise TimeControlError(f"{name.replace('_', ' ')} must be from 0 to 8760 hours")
        if self.on_timeout not in POLICIES:
            raise TimeControlError(
                "when time runs out must be one of: "
                + "; ".join(f"{p} ({POLICY_HELP[p]})" for p in POLICIES)
            )

    @property
    def per_turn(self) -> timedelta:
        return timedelta(hours=self.hours_per_turn)

    @property
    def has_bank(self) -> bool:
        return bool(self.bank_hours or self.bank_increment_hours)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None) -> "TimeControl":
        data = dict(data or {})
        known = {k: data[k] for k in cls.__dataclass_fields__ if k in data}
        try:
            for key in known:
                if key == "on_timeout":
                    known[key] = str(known[key]).strip().lower()
                elif key == "weekends":
                    known[key] = _boolean(known[key])
                else:
                    known[key] = int(known[key])
        except (TypeError, ValueError):
            raise TimeControlError(
                "time control values are whole hours, weekends yes or no, "
                f"and on_timeout one of {', '.join(POLICIES)}"
            ) from None
        return cls(**known)

    def describe(self) -> str:
        parts = [_hours_text(self.hours_per_turn) + " per turn"]
        if self.has_bank:
            bank = f"a time bank of {_hours_text(self.bank_hours)}"
            if self.bank_increment_hours:
                bank += f", plus {_hours_text(self.bank_increment_hours)} a turn"
            if self.bank_cap_hours:
                bank += f", up to {_hours_text(self.bank_cap_hours)}"
            parts.append(bank)
        if not self.weekends:
            parts.append("weekends do not count")
        parts.append("on timeout: " + POLICY_HELP[self.on_timeout])
        return "; ".join(parts)


def _boolean(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in ("1", "true", "yes", "on"):
        return True
    if text in ("0", "false", "no", "off"):
        return False
    raise ValueError(value)


def _hours_text(hours: int) -> str:
    if hours % 24 == 0:
        days = hours // 24
        return f"{days} day{'s' if days != 1 else ''}"
    return f"{hours} hour{'s' if hours != 1 else ''}"


def _utc(moment: datetime) -> datetime:
    if moment.tzinfo is None:
        return moment.replace(tzinfo=timezone.utc)
    return moment.astimezone(timezone.utc)


def _paused(start: datetime, end: datetime, weekends: bool, vacations: Iterable[Interval]) -> list[Interval]:
    """The sorted, merged periods between start and end that do not count."""
    spans: list[Interval] = []
    if not weekends:
        day = datetime(start.year, start.month, start.day, tzinfo=timezone.utc)
        while day < end:
            if day.weekday() >= 5:
                spans.append((day, day + timedelta(days=1)))
            day += timedelta(days=1)
    for a, b in vacations:
        a, b = _utc(a), _utc(b)
        if b > start and a < end:
            spans.append((a, b))
    spans.sort()
    merged: list[Interval] = []
    for a, b in spans:
        a, b = max(a, start), min(b, end)
        if a >= b:
            continue
        if merged and a <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(b, merged[-1][1]))
        else:
            merged.append((a, b))
    return merged


def counted(start: datetime, end: datetime, weekends: bool = True, vacations: Iterable[Interval] = ()) -> timedelta:
    """The time between start and end that counts against a player."""
    start, end = _utc(start), _utc(end)
    if end <= start:
        return timedelta(0)
    total = end - start
    for a, b in _paused(start, end, weekends, list(vacations)):
        total -= b - a
    return total


def deadline(
    start: datetime, allowance: timedelta, weekends: bool = True, vacations: Iterable[Interval] = ()
) -> datetime:
    """The moment at which ``allowance`` of counted time has passed since ``start``."""
    moment, left = _utc(start), allowance
    vacations = list(vacations)
    while True:
        paused = _paused(moment, moment + left, weekends, vacations)
        if not paused:
            return moment + left
        first_start, first_end = paused[0]
        left -= first_start - moment
        moment = first_end


@dataclass(frozen=True)
class Clock:
    """One player's clock at the start of their turn."""

    bank: timedelta

    def allowance(self, control: TimeControl) -> timedelta:
        return control.per_turn + self.bank

    def after_turn(self, control: TimeControl, used: timedelta) -> "Clock":
        """The clock after a turn that took ``used`` counted time."""
        bank = self.bank - max(timedelta(0), used - control.per_turn)
        bank = max(timedelta(0), bank) + timedelta(hours=control.bank_increment_hours)
        if control.bank_cap_hours:
            bank = min(bank, timedelta(hours=control.bank_cap_hours))
        return Clock(bank)

    @classmethod
    def start(cls, control: TimeControl) -> "Clock":
        return cls(timedelta(hours=control.bank_hours))
