"""The sweep's reminders in bulk: a set-based pass over a chunk of due games.

``pbem.services.sweep`` hands each chunk of due games here first.  For the
common case, a reminder (or just a later ``next_check_at``), the chunk costs
a fixed number of statements whatever its size: one SELECT of the games,
one joined SELECT of the movers' seats, players and reminder hours, one of
the reminders already sent, one of the addresses refusing mail, then one
short transaction: the claim (``gamestate.claim_many``: one conditional
UPDATE ... RETURNING on the ply and ``next_check_at`` as read, after ``FOR
NO KEY UPDATE SKIP LOCKED`` on PostgreSQL), one INSERT of the
``reminders_sent`` rows, one INSERT of the outbox rows, one commit.

Games the pass does not handle go back to the sweep's per-game path
(``sweep_game``): timeouts (they change the game through
``pbem.services.gamestate`` one at a time), games without a clock, games
whose handling fails (the per-game path logs them), and the whole chunk when
its transaction fails (a duplicate reminder, say): then nothing of it was
written.  The mail is the same, byte for byte, as the per-game path's
(``reminder_mail`` is the one text of both; ``outbox_row`` is the row
``pbem.services.notify.send`` would queue).
"""

from __future__ import annotations

import functools
import logging
from contextlib import ExitStack
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import BindParameter, Connection, Engine, bindparam
from sqlmodel import Session, col, select
from sqlmodel.sql.expression import Select

from pbem import wake
from pbem.i18n import for_language, gettext, ngettext
from pbem.models import ACTIVE, Game, OutboxMessage, Player, Seat, table_of, utcnow
from pbem.models.clock import DEFAULT_REMINDER_HOURS, Preferences, ReminderSent
from pbem.services import bulk, gamestate, notify, outbox
from pbem.services.clock.deadlines import control_of, next_check, parse_hours
from pbem.services.refusals import refusing
from pbem.services.stored import kind_of, state_of, title_of

log = logging.getLogger(__name__)


def left_text(delta: timedelta) -> str:
    """How long until the deadline, in words: "about 5 hours"."""
    hours = max(0, round(delta.total_seconds() / 3600))
    if hours >= 48:
        return gettext("about %(days)s days", days=round(hours / 24))
    if hours == 0:
        return gettext("less than an hour")
    return ngettext("about %(num)d hour", "about %(num)d hours", hours)


def reminder_mail(game: Game, seat_number: int, left: timedelta) -> tuple[str, list[str], list[str]]:
    """The reminder's subject (after "Game N (title): "), its lines before
    the board and its lines after it, for the player in ``seat_number`` with
    ``left`` until the deadline.  The board itself is drawn when the mail is
    sent, as that seat may see it (``pbem.mailrobot.outgoing``)."""
    label = kind_of(game).notation.player_label(seat_number)
    return gettext("reminder: your turn, %(left)s left", left=left_text(left)), [
        gettext("Reminder: it is your turn (player %(label)s), turn %(turn)s.", label=label, turn=game.ply + 1),
        gettext("Deadline: %(date)s UTC (%(left)s from now).", date=f"{game.deadline:%Y-%m-%d %H:%M}",
                left=left_text(left)),
    ], ["", gettext("Reply to this mail with your turn, or play it on the game page.")]


def outbox_row(to: str, game: Game, seat_number: int, subject: str, lines: list[str], after: list[str],
               now: datetime, language: str = "") -> dict[str, Any]:
    """The outbox row ``notify.send`` queues for this mail (with ``after``),
    as values for a bulk INSERT, in the recipient's ``language``."""
    with for_language(language):
        body, after_board = notify.mail_words(game, lines, after)
        subject = gettext("Game %(id)s (%(game)s): %(subject)s", id=game.id, game=title_of(game), subject=subject)
    return outbox.new_row({"to_addr": to, "subject": subject, "body": body,
                           "html": None, "game_id": game.id, "ply": game.ply, "kind": "game", "seat": seat_number,
                           "after_board": after_board}, now)


@dataclass
class _Plan:
    """What the pass will do for one game, if its claim succeeds."""

    game_id: int
    ply: int
    check: datetime  # next_check_at as read
    next_check: datetime
    reminders: list[dict[str, Any]]
    mail: dict[str, Any] | None


def remind_many(bind: Engine | Connection, game_ids: list[int], now: datetime) -> tuple[dict[int, str], list[int]]:
    """Handle the reminders due at ``now`` in games ``game_ids`` in one
    transaction.  Returns what was done per game claimed ("reminder" or
    "nothing") and the ids left to the per-game path (timeouts, games
    without a clock, games that failed here, or every game of a chunk whose
    transaction failed).  Games another sweep or a turn took are in
    neither."""
    created_at = utcnow()  # as the per-game path stamps its outbox rows
    with Session(bind, expire_on_commit=False) as session:
        try:
            plans, others = _plan(session, game_ids, now, created_at)
        except Exception:  # noqa: BLE001 - the per-game path handles (and logs) them
            log.warning("deadline sweep: reading a chunk of %d games failed; one at a time instead",
                        len(game_ids), exc_info=True)
            session.rollback()
            return {}, list(game_ids)
        if not plans:
            session.rollback()
            return {}, others
        try:
            claimed = gamestate.claim_many(session, [(p.game_id, p.ply, p.check, p.next_check) for p in plans],
                                           lock=session.get_bind().dialect.name == "postgresql")
            done = [p for p in plans if p.game_id in claimed]
            reminders = [row for p in done for row in p.reminders]
            mails = [p.mail for p in done if p.mail is not None]
            bulk.insert_many(session.connection(), table_of(ReminderSent), reminders)
            bulk.insert_many(session.connection(), table_of(OutboxMessage), mails)
            if mails:
                wake.on_commit(session, "outbox")
            session.commit()
        except Exception:  # noqa: BLE001 - nothing of the chunk was written; one game at a time instead
            log.warning("deadline sweep: a chunk of %d reminders failed; one game at a time instead",
                        len(plans), exc_info=True)
            session.rollback()
            return {}, others + [p.game_id for p in plans]
    return {p.game_id: "reminder" if p.reminders else "nothing" for p in done}, others


@functools.cache
def _statements() -> dict[str, Any]:
    """``_plan``'s SELECTs, built once: the chunk's ids are one expanding
    parameter (``ids``), so a chunk costs no new statement objects (building
    an ``IN`` of a list coerces each of its values, a tenth of a sweep)."""
    ids: BindParameter[int] = bindparam("ids", expanding=True)
    return {
        "games": select(Game).where(col(Game.id).in_(ids), Game.next_check_at <= bindparam("now"),
                                    Game.status == ACTIVE).order_by(col(Game.next_check_at), col(Game.id)),
        # six columns: sqlmodel's select() is typed for four at most, and makes this Select
        "seats": Select(col(Seat.game_id), col(Seat.number), col(Seat.player_id), col(Player.email),
                        col(Preferences.reminder_hours), col(Player.language))
        .join(Player, col(Player.id) == Seat.player_id)
        .outerjoin(Preferences, col(Preferences.player_id) == Seat.player_id)
        .where(col(Seat.game_id).in_(ids)),
        "sent": select(ReminderSent.game_id, ReminderSent.ply, ReminderSent.hours).where(
            col(ReminderSent.game_id).in_(ids)),
    }


def _plan(session: Session, game_ids: list[int], now: datetime,
          created_at: datetime) -> tuple[list[_Plan], list[int]]:
    """Read the chunk (a fixed number of SELECTs) and work out each game's
    reminders, mail and next check; the ids left to the per-game path."""
    statements = _statements()
    games = list(session.exec(statements["games"], params={"ids": list(game_ids), "now": now}))
    others: list[int] = []
    movers: dict[int, int] = {}
    states: dict[int, Any] = {}
    for game in games:
        try:
            state = state_of(game)
            mover = kind_of(game).rules.to_move(state) if state is not None else None
        except Exception:  # noqa: BLE001 - the per-game path logs it
            others.append(game.id)
            continue
        if mover is None or game.deadline is None or now >= game.deadline or control_of(game) is None:
            others.append(game.id)  # no clock, or a timeout: one game at a time
        else:
            movers[game.id], states[game.id] = mover, state
    if not movers:
        return [], others
    seats = {
        game_id: (number, player_id, email, hours, language)
        for game_id, number, player_id, email, hours, language in session.exec(
            statements["seats"], params={"ids": list(movers)})
        if movers[game_id] == number  # the mover's seat
    }
    sent: dict[tuple[int, int], set[int]] = {}
    for game_id, ply, hours in session.exec(statements["sent"], params={"ids": list(movers)}):
        sent.setdefault((game_id, ply), set()).add(hours)
    refused = set(refusing(session, {seat[2] for seat in seats.values()}))
    plans: list[_Plan] = []
    with ExitStack() as language_block:
        language: str | None = None
        for game in games:
            if game.id not in movers:
                continue
            if game.id not in seats:
                others.append(game.id)  # the mover has no seat: the per-game path clears the check
                continue
            if seats[game.id][4] != language:
                # one language block for a run of recipients who read the same language (the
                # game's own ``for_language`` is then free): entering one costs as much as
                # writing the whole mail
                language = seats[game.id][4]
                language_block.close()
                language_block.enter_context(for_language(language))
            try:
                plans.append(_plan_one(game, states[game.id], seats[game.id], sent.get((game.id, game.ply), set()),
                                       refused, now, created_at))
            except Exception:  # noqa: BLE001 - the per-game path logs it
                others.append(game.id)
    return plans, others


def _plan_one(game: Game, state: Any, seat: tuple[int, int, str, str | None, str], sent: set[int],
              refused: set[str], now: datetime, created_at: datetime) -> _Plan:
    """One game's reminders, mail and next check: as ``sweep._check`` does
    it for a game whose deadline has not passed."""
    number, player_id, email, hours_text, language = seat
    deadline = game.deadline
    # ``_plan`` hands over only games it read with a deadline and a check due (their ids set)
    assert deadline is not None and game.id is not None and game.next_check_at is not None
    start = game.turn_started_at or game.started_at or now
    hours = parse_hours(hours_text if hours_text is not None else DEFAULT_REMINDER_HOURS)
    due = [h for h in hours if h not in sent and start < deadline - timedelta(hours=h) <= now]
    after = next_check(deadline, start, hours, sent | set(due))
    reminders = [{"game_id": game.id, "ply": game.ply, "hours": h, "player_id": player_id, "sent_at": now}
                 for h in due]
    mail = None
    if due and email.strip().lower() not in refused:
        with for_language(language):  # the recipient's language, as notify.send writes it
            subject, lines, closing = reminder_mail(game, number, deadline - now)
            mail = outbox_row(email, game, number, subject, lines, closing, created_at, language)
    return _Plan(game.id, game.ply, game.next_check_at, after, reminders, mail)
