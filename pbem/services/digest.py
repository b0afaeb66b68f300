"""Schedule preferences and the daily digest.

A player who prefers the digest gets no "your turn" mail per move (notify
holds it back); instead, once a day after ``DIGEST_HOUR`` (UTC, config,
default 7) one message lists every game waiting for them, with deadlines.
The digest (and the calendar feed, ``pbem.services.ical``, built on ``waiting``)
names games, turn numbers and deadlines only, never a position: nothing in
it needs ``pbem.services.visibility``.  Each player's digest is claimed with a conditional UPDATE on the day it was
last sent, so two runs never send it twice."""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

from flask import current_app, has_app_context
from sqlalchemy import Engine, or_, update
from sqlmodel import Session, col, select

from pbem import links
from pbem.i18n import for_player, gettext, ngettext
from pbem.models import ACTIVE, Game, Player, Seat, utcnow
from pbem.models.clock import DEFAULT_REMINDER_HOURS, Preferences
from pbem.services import outbox
from pbem.services.clock.deadlines import parse_hours
from pbem.services.errors import BadInput
from pbem.services.stored import seated_players, title_of, to_move


def preferences(session: Session, player: Player) -> Preferences:
    """The player's row (not yet added when they have none)."""
    assert player.id is not None  # a stored player
    return session.get(Preferences, player.id) or Preferences(player_id=player.id)


def prefers_digest(session: Session, player_id: int) -> bool:
    prefs = session.get(Preferences, player_id)
    return bool(prefs and prefs.digest)


def set_preferences(session: Session, player: Player, *, reminder_hours: Any = None, digest: Any = None) -> Preferences:
    """Change the reminder hours (a list or comma list of hours before the
    deadline, at most 5, each 1 to 720; empty for none) and/or the digest
    choice; commits.  ``BadInput`` names what is wrong."""
    prefs = preferences(session, player)
    if reminder_hours is not None:
        prefs.reminder_hours = _hours_text(reminder_hours)
    if digest is not None:
        if not isinstance(digest, bool):
            raise BadInput(gettext('digest is true (one mail a day) or false (a mail per move); not %(digest)s', digest=repr(digest)))
        prefs.digest = digest
    session.add(prefs)
    session.commit()
    return prefs


def _hours_text(value: Any) -> str:
    parts = value if isinstance(value, list) else str(value).replace(" ", "").split(",")
    example = "such as 24,1 (a day and an hour before the deadline), or empty for no reminders"
    hours = []
    for part in parts:
        if part in ("", None):
            continue
        text = str(part)
        if isinstance(part, bool) or not re.fullmatch(r"[0-9]{1,4}", text) or not 1 <= int(text) <= 720:
            raise BadInput(gettext('reminders are whole hours before the deadline from 1 to 720, %(example)s; not %(value)s', example=example, value=repr(part[:40] if isinstance(part, str) else part)))
        hours.append(int(text))
    if len(set(hours)) > 5:
        raise BadInput(gettext('at most 5 reminders a turn, %(example)s', example=example))
    return ",".join(str(h) for h in sorted(set(hours), reverse=True))


def hours_of(prefs: Preferences) -> list[int]:
    return parse_hours(prefs.reminder_hours if prefs.reminder_hours is not None else DEFAULT_REMINDER_HOURS)


def waiting(session: Session, player: Player) -> list[Game]:
    """The active games in which it is the player's turn, soonest deadline first."""
    games = session.exec(select(Game, Seat).where(Game.status == ACTIVE, Seat.game_id == Game.id,
                                                  Seat.player_id == player.id))
    mine = []
    for game, seat in games:
        if to_move(game) == seat.number:  # whose turn it is: public, and no position is shown
            mine.append(game)
    far = datetime.max.replace(tzinfo=utcnow().tzinfo)
    return sorted(mine, key=lambda g: (g.deadline or far, g.id))


def digest_hour() -> int:
    return int(current_app.config.get("DIGEST_HOUR", 7)) if has_app_context() else 7


def send_digests(engine: Engine, now: datetime | None = None) -> int:
    """Send today's digest to every player who wants one and has not had it
    (once ``DIGEST_HOUR`` has passed); the number of mails queued."""
    now = now or utcnow()
    if now.hour < digest_hour():
        return 0
    today = now.date().isoformat()
    sent = 0
    with Session(engine, expire_on_commit=False) as session:
        due = list(session.exec(select(Preferences.player_id).where(
            col(Preferences.digest).is_(True),
            or_(col(Preferences.digest_sent_on).is_(None), col(Preferences.digest_sent_on) != today))))
    for player_id in due:
        with Session(engine, expire_on_commit=False) as session:
            claimed = session.exec(
                update(Preferences)
                .where(col(Preferences.player_id) == player_id, col(Preferences.digest).is_(True),
                       or_(col(Preferences.digest_sent_on).is_(None), col(Preferences.digest_sent_on) != today))
                .values(digest_sent_on=today)
            )
            if claimed.rowcount != 1:
                session.rollback()
                continue
            player = session.get(Player, player_id)
            assert player is not None  # the preferences' foreign key holds a player
            games = waiting(session, player)
            if games:
                _queue(session, player, games, now)
                sent += 1
            session.commit()
    return sent


def _queue(session: Session, player: Player, games: list[Game], now: datetime) -> None:
    with for_player(player):
        subject, body = _digest_words(session, player, games, now)
    outbox.queue(session, player.email, subject, body)


def _digest_words(session: Session, player: Player, games: list[Game], now: datetime) -> tuple[str, str]:
    """The digest's subject and body, in the language of the moment."""
    count = len(games)
    lines = [ngettext("%(num)d game is waiting for your turn:", "%(num)d games are waiting for your turn:", count), ""]
    for game in games:
        others = ", ".join(p.display_name for s, p in seated_players(session, game) if p.id != player.id)
        line = gettext("Game %(id)s (%(game)s) with %(others)s: turn %(turn)s", id=game.id, game=title_of(game),
                       others=others, turn=game.ply + 1)
        if game.deadline:
            hours = (game.deadline - now).total_seconds() / 3600
            left = gettext("overdue") if hours < 0 else gettext("%(hours)s hours left", hours=f"{hours:.0f}")
            line += gettext(", deadline %(date)s UTC (%(left)s)", date=f"{game.deadline:%Y-%m-%d %H:%M}", left=left)
        lines += [line, "  " + links.external(f"/games/{game.id}"),
                  "  " + gettext("How to play %(game)s: %(link)s", game=title_of(game), link=links.guide(game.kind))]
    lines += ["", gettext("You get this digest instead of a mail per move; change that at %(link)s",
                          link=links.external("/settings")), ""]
    subject = ngettext("Daily digest: %(num)d game waiting for you", "Daily digest: %(num)d games waiting for you", count)
    return subject, "\n".join(lines)
