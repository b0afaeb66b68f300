"""An iCalendar feed of a player's deadlines, at a private URL with a
token (``/calendar/<token>.ics``): one event per game waiting for their
turn, ending at the deadline.  Made with the ``icalendar`` package."""

from __future__ import annotations

import secrets
from datetime import datetime, timedelta

from icalendar import Calendar, Event, vText
from sqlmodel import Session, select

from pbem import links
from pbem.models import Player, utcnow
from pbem.models.clock import Preferences
from pbem.services.digest import preferences, waiting
from pbem.services.stored import title_of


def token_for(session: Session, player: Player, reset: bool = False) -> str:
    """The player's calendar token, made on first use (or anew: the old URL stops working)."""
    prefs = preferences(session, player)
    if reset or not prefs.calendar_token:
        prefs.calendar_token = secrets.token_urlsafe(24)
        session.add(prefs)
        session.commit()
    return prefs.calendar_token


def player_for_token(session: Session, token: str) -> Player | None:
    if not token or len(token) > 64:
        return None
    prefs = session.exec(select(Preferences).where(Preferences.calendar_token == token)).first()
    return session.get(Player, prefs.player_id) if prefs else None


def feed(session: Session, player: Player, now: datetime | None = None) -> bytes:
    """The calendar: an event for each of the player's turns with a deadline."""
    now = now or utcnow()
    calendar = Calendar()
    calendar.add("prodid", "-//pbem//deadlines//EN")
    calendar.add("version", "2.0")
    calendar.add("x-wr-calname", vText(f"pbem deadlines of {player.display_name}"))
    host = links.external("/").split("//", 1)[-1].strip("/").split("/")[0] or "pbem"
    for game in waiting(session, player):
        if game.deadline is None:
            continue
        event = Event()
        event.add("uid", f"pbem-game-{game.id}-turn-{game.ply + 1}@{host}")
        event.add("dtstamp", now)
        event.add("dtstart", game.deadline - timedelta(minutes=30))
        event.add("dtend", game.deadline)
        event.add("summary", f"Deadline: your turn in game {game.id} ({title_of(game)})")
        url = links.external(f"/games/{game.id}")
        event.add("description", f"Turn {game.ply + 1} of game {game.id} is due at "
                  f"{game.deadline:%Y-%m-%d %H:%M} UTC. Play it at {url}")
        event.add("url", url)
        calendar.add_component(event)
    data: bytes = calendar.to_ical()
    return data
