"""Vacations: each player has a yearly allowance of days (``VACATION_DAYS``
in the config, default 30).  While a vacation lasts the player's clocks
stop: the deadline of every turn they are to move in is pushed back by the
time the vacation overlaps it.  A vacation starts now and lasts whole days;
``vacation 0`` ends the current one early, and the days not taken are given
back.  Days count against the year the vacation started in."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from flask import current_app, has_app_context
from sqlmodel import Session, col, select

from pbem import links
from pbem.db import rolls_back
from pbem.i18n import gettext
from pbem.models import ACTIVE, Game, Player, Seat, utcnow
from pbem.models.clock import Vacation
from pbem.services.clock import deadlines as time_control
from pbem.services.errors import BadInput, Conflict

DEFAULT_DAYS = 30


@dataclass(frozen=True)
class VacationStatus:
    allowance: int  # days a year
    used: int  # days taken (or booked) this year
    current: Vacation | None  # the vacation going on now

    @property
    def left(self) -> int:
        return max(0, self.allowance - self.used)


def allowance() -> int:
    if has_app_context():
        return int(current_app.config.get("VACATION_DAYS", DEFAULT_DAYS))
    return DEFAULT_DAYS


def _days(vacation: Vacation) -> int:
    return math.ceil((vacation.ends_at - vacation.starts_at).total_seconds() / 86400 - 1e-9)


def current(session: Session, player: Player, now: datetime | None = None) -> Vacation | None:
    now = now or utcnow()
    return session.exec(
        select(Vacation).where(Vacation.player_id == player.id, Vacation.starts_at <= now, Vacation.ends_at > now)
    ).first()


def status(session: Session, player: Player, now: datetime | None = None) -> VacationStatus:
    now = now or utcnow()
    year_start = datetime(now.year, 1, 1, tzinfo=now.tzinfo)
    rows = session.exec(select(Vacation).where(Vacation.player_id == player.id, Vacation.starts_at >= year_start,
                                               Vacation.starts_at < year_start.replace(year=now.year + 1)))
    return VacationStatus(allowance(), sum(_days(v) for v in rows), current(session, player, now))


def _check_days(days: Any) -> int:
    if isinstance(days, str) and re.fullmatch(r"[0-9]{1,9}", days.strip()):
        days = int(days.strip())
    if isinstance(days, bool) or not isinstance(days, int):
        shown = days[:40] if isinstance(days, str) else days
        raise BadInput(gettext('a vacation is a whole number of days from now, such as 5 (0 ends your vacation); not %(shown)s', shown=repr(shown)))
    if days < 0:
        raise BadInput(gettext('a vacation is a whole number of days from now, such as 5 (0 ends your vacation); not %(days)s', days=days))
    if days > 365:
        raise BadInput(gettext('a vacation lasts at most 365 days (and you have %(allowance)s days a year; 0 ends your vacation); %(days)s is too many', allowance=allowance(), days=days))
    return days


@rolls_back
def take(session: Session, player: Player, days: Any, now: datetime | None = None, commit: bool = True) -> VacationStatus:
    """Go on vacation for ``days`` days from now (replacing a vacation going
    on now), or end it with 0; push back the deadlines of the player's turns.
    Commits (unless ``commit`` is false).  ``BadInput`` when the days are not whole or the allowance is
    used up; ``Conflict`` for ``0`` when there is no vacation to end."""
    now = now or utcnow()
    days = _check_days(days)
    before = status(session, player, now)
    going = before.current
    if days == 0:
        if going is None:
            raise Conflict(gettext('you are not on vacation, so there is none to end; send a number of days to start one'))
        going.ends_at = now
        if going.ends_at <= going.starts_at:
            session.delete(going)
        else:
            session.add(going)
    else:
        used = before.used - (_days(going) if going else 0)
        if used + days > before.allowance:
            raise BadInput(gettext('you have %(max)s vacation days left this year (of %(allowance)s); ask for at most that many, not %(days)s', max=max(0, before.allowance - used), allowance=before.allowance, days=days))
        if going is not None:
            going.ends_at = now + timedelta(days=days)
            session.add(going)
        else:
            assert player.id is not None  # a stored player
            session.add(Vacation(player_id=player.id, starts_at=now, ends_at=now + timedelta(days=days),
                                 created_at=now))
    session.flush()
    _reschedule(session, player)
    if commit:
        session.commit()
    return status(session, player, now)


def _reschedule(session: Session, player: Player) -> None:
    games = session.exec(select(Game).where(Game.status == ACTIVE, col(Game.deadline).is_not(None),
                                            Seat.game_id == Game.id,
                                            Seat.player_id == player.id))
    for game in list(games):
        seat = time_control.mover_seat(session, game)
        if seat is not None and seat.player_id == player.id:
            time_control.reschedule(session, game)


def by_mail(ctx: Any, cmd: Any) -> None:
    """The mail robot's ``vacation N`` handler (``pbem.mailrobot.commands``):
    claim the message, take the vacation, answer, commit together."""
    if ctx.player is None:
        raise BadInput(gettext("send 'vacation 5' in reply to one of your games' mails, so we know who you are"))
    ctx.claim()
    done = take(ctx.session, ctx.player, cmd.days, commit=False)
    if done.current is not None:
        text = (f"You are on vacation until {done.current.ends_at:%Y-%m-%d %H:%M} UTC: your clocks are stopped. "
                f"{done.left} of {done.allowance} vacation days are left this year. Send 'vacation 0' to come back early.")
    else:
        text = f"Your vacation is over and your clocks run again; {done.left} of {done.allowance} days are left this year."
    ctx.reply(text + gettext('\nSee or change it on the web site: %(external)s', external=links.external('/settings')), board=False)
    ctx.commit()
