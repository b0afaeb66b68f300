"""A player's schedule settings as plain data (reminder hours, digest,
vacation days, the calendar link), shown alike by the settings page and the
JSON API."""

from __future__ import annotations

from typing import Any

from flask import url_for
from sqlmodel import Session

from pbem import links
from pbem.models import Player
from pbem.services import digest, ical, vacations


def schedule_data(session: Session, player: Player) -> dict[str, Any]:
    """The player's schedule settings, for the page and the API alike."""
    prefs = digest.preferences(session, player)
    holiday = vacations.status(session, player)
    token = ical.token_for(session, player)
    return {
        "reminder_hours": digest.hours_of(prefs),
        "digest": bool(prefs.digest),
        "vacation_days_per_year": holiday.allowance,
        "vacation_days_used": holiday.used,
        "vacation_days_left": holiday.left,
        "on_vacation_until": holiday.current.ends_at if holiday.current else None,
        "calendar_url": links.external(url_for("schedule.calendar", token=token)),
    }
