"""Outbox rows as proper MIME messages, and sending them.

Every row the services or the robot queue is composed here at send time with
``mail.compose``: a plain-text part with the text diagram, an HTML part with
the PNG diagram inline, the move list and the deadline, the board drawn for
the recipient's seat through ``pbem.services.visibility`` (rows are structured:
the words before and after the board, never a drawn board); threading headers so
each game is one conversation (root ``<game-N@domain>``, and the player's own
mail for replies); Reply-To the player's signed ``play+<token>@`` address for
the game, so a plain "Reply" reaches the robot with the token; Auto-Submitted.

``drain`` sends what is due through SMTP (or the ``.eml`` folder of the
embedded default) with ``mail.drain.drain``, one row at a time over one
connection, page after page while rows are due, for at most
``MAIL_SEND_BUDGET`` seconds.  Each row is reserved (a conditional UPDATE
with a random ``lease`` token) just before it is sent, for ``reservation``
(seconds); just before its body goes out the drain checks it still holds it
and marks it in flight (``uncertain_at``, next attempt after
``MAIL_UNCERTAIN_RETRY``), and right after the server's answer marks it sent
or failed.  So two drains never send one row, and a crash leaves at most one
row held: briefly if it died before the body went out, for
``MAIL_UNCERTAIN_RETRY`` if after (the server may have it, RFC 5321 §6.1).

Order: mail to one address goes out in the order it was queued.  In one
process one drain runs at a time (the listener's thread and the embedded
scheduler both drain); across processes a row is not claimed while an
earlier row to the same address is waiting: neither sent, nor given up,
nor gone out unanswered (another drain holds it, or it waits for a retry).
"""

from __future__ import annotations

import logging
import secrets
import threading
import time
from collections.abc import Iterator
from datetime import datetime, timedelta
from email.message import EmailMessage
from email.utils import make_msgid

from flask import Flask
from sqlalchemy import ColumnElement, Engine, exists, or_, update
from sqlalchemy.orm import aliased
from sqlmodel import Session, col, select

from engine.i18n import current_language
from mail.compose import Thread, compose_notification, game_root_id
from mail.drain import PERMANENT, UNCERTAIN, DrainResult, Failure, Outgoing
from mail.drain import drain as send_drain
from mail.send import EmlFolderSink, Sender, SmtpSender
from mail.tokens import make_reply_address
from pbem.i18n import for_player, gettext
from pbem.mailrobot.inbox import clean
from pbem.mailrobot.settings import MailSettings, backoff, eml_folder, mail_settings, smtp_config
from pbem.models import Game, OutboxMessage, Player, utcnow
from pbem.services import refusals
from pbem.services import visibility as views
from pbem.services.notify import deadline_line
from pbem.services.stored import kind_of, seat_of, turns_of
from pbem.services.stored_words import shown_lines

log = logging.getLogger(__name__)

#: kinds that answer a player's mail (Auto-Submitted: auto-replied)
REPLY_KINDS = ("reply", "error")
#: at most this many plies are written out in the move list
MOVE_LIST_PLIES = 200


def move_list(session: Session, game: Game, ply: int, seat: int | None = None) -> str:
    """The turns played up to ``ply``, in canonical notation as ``seat``
    may read them (``views.turn_text``: a turn as played, never a hidden
    position or another seat's secret setting)."""
    turns = [t for t in turns_of(session, game) if t.ply <= ply]
    if not turns:
        return ""
    shown = turns[-MOVE_LIST_PLIES:]
    words = [f"{t.ply}. {views.turn_text(game, seat, t.seat, t.canonical)}" for t in shown]
    lead = gettext("Moves") if len(shown) == len(turns) else gettext("Moves (the last %(num)s)", num=len(shown))
    return gettext("%(lead)s: %(moves)s", lead=lead, moves="  ".join(words))


#: the mails after a turn, which carry the game's report of it (if it has one)
REPORT_KINDS = ("your_turn", "turn_played", "game_over")


def turn_report(session: Session, game: Game, seat: int | None, ply: int) -> str:
    """The game's report of turn ``ply`` (``views.turn_report``), headed,
    or "" when it has none."""
    try:
        report = views.turn_report(session, game, seat, ply)
    except Exception:  # noqa: BLE001 - a report is not worth failing a mail for
        log.exception("no turn report for turn %s of game %s", ply, game.id)
        return ""
    return gettext("What happened in turn %(ply)s:", ply=ply) + "\n" + report if report.strip() else ""


def example_turn(session: Session, game: Game, seat: int | None, ply: int) -> str:
    """A turn to show in 'reply with your turn, e.g. ...': the recipient's
    first legal turn when it is theirs at ``ply``, else the notation's example."""
    try:
        return views.example_turn(session, game, seat, ply)
    except Exception:  # noqa: BLE001 - an example is not worth failing a mail for
        log.exception("no legal turns for the example in game %s", game.id)
        example = kind_of(game).notation.example_turn()
        assert example is not None  # its default ("...") when the notation has no example
        return example


def recipient_seat(session: Session, game: Game, row: OutboxMessage, player: Player | None) -> int | None:
    """Whose view the row's board shows: the seat stored with the row; for
    a row queued before migration 0011 (``after_board`` NULL), the seat of
    the player it is addressed to (None: not seated, a spectator's view)."""
    if row.after_board is not None:
        return row.seat
    seat = seat_of(session, game, player) if player is not None else None
    return seat.number if seat is not None else None


def compose(session: Session, settings: MailSettings, row: OutboxMessage) -> EmailMessage:
    """The MIME message for an outbox row, in its recipient's language
    (their setting, else English; see ``_compose``)."""
    player = session.exec(select(Player).where(Player.email == row.to_addr)).first()
    with for_player(player):
        return _compose(session, settings, row, player)


def _compose(session: Session, settings: MailSettings, row: OutboxMessage, player: Player | None) -> EmailMessage:
    """The MIME message for an outbox row.  A mail about a started game
    gets, at send time, the board at the row's ply (or the preview it
    holds) as the recipient's seat may see it, through
    ``pbem.services.visibility``: the text diagram, the PNG inline, the move
    list, the deadline.  A row queued before migration 0011 holds its
    board in its body already and goes out as written, without a PNG."""
    game = session.get(Game, row.game_id) if row.game_id is not None else None
    reply_to = settings.robot_address
    thread = None
    board = after = ""
    png = None
    text = row.body
    if game is not None:
        assert game.id is not None  # a stored game
        if player is not None and seat_of(session, game, player) is not None:
            assert player.id is not None  # a stored player
            reply_to = make_reply_address(list(settings.secrets), settings.domain, game.id, player.id)
        thread = Thread(root_id=game_root_id(game.id, settings.domain), in_reply_to=row.in_reply_to,
                        references=tuple((row.thread_refs or "").split()))
        seat = recipient_seat(session, game, row, player)
        legacy = row.after_board is None
        words = row.body + "\n" + (row.after_board or "")
        ply = row.ply if row.ply is not None else game.ply
        sight: views.View | None
        if row.position is not None:
            sight = views.of_position(game, seat, row.position)
        else:
            sight = views.at(session, game, seat, ply)
        current = ply == game.ply and row.position is None  # the game has not moved on since the row was queued
        extra: list[str] = []
        if sight is not None:
            if not legacy:
                board = shown_lines(sight.text_diagram(), current_language())
                image = sight.image("png")
                assert isinstance(image, bytes)  # a PNG is drawn as bytes
                png = image
            report = turn_report(session, game, seat, ply) if row.kind in REPORT_KINDS else ""
            if report:
                extra.append(report)
            moves = move_list(session, game, ply, seat)
            if moves:
                extra.append(moves)
            deadline = deadline_line(game) if game.deadline else ""
            if current and game.deadline and game.status == "active" and deadline.split(" ")[0] not in words:
                extra.append(deadline)
        if row.kind == "your_turn":
            example = example_turn(session, game, seat, ply) if sight is not None else kind_of(game).notation.example_turn()
            extra.append(gettext("Reply to this mail with your turn, e.g. \"#%(ply)s %(example)s\" (the number is "
                                 "the turn you answer), or a command: legal, board, record, help.",
                                 ply=ply + 1, example=example))
        text = row.body.rstrip()
        after = "\n\n".join(part for part in [(row.after_board or "").strip("\n")] + extra if part.strip())
    elif row.in_reply_to:
        thread = Thread(in_reply_to=row.in_reply_to, references=tuple((row.thread_refs or "").split()))
    return compose_notification(
        from_addr=settings.from_addr, to_addr=row.to_addr, subject=row.subject, text=text, domain=settings.domain,
        loop_id=settings.loop_id, diagram=board, after=after, png=png, reply_to=reply_to, thread=thread,
        auto_submitted="auto-replied" if row.kind in REPLY_KINDS else "auto-generated",
        message_id=row.message_id, date=row.created_at, refusal_link=refusals.mail_link(row.to_addr),
    )


def make_sender(app: Flask) -> Sender:
    config = smtp_config(app.config)
    return SmtpSender(config) if config is not None else EmlFolderSink(eml_folder(app))


def reservation(app: Flask) -> timedelta:
    """How long a row is reserved before its body goes out: long enough to
    connect and say the commands before it (each within ``SMTP_TIMEOUT``).
    Just before the body goes out, the reservation becomes
    ``MAIL_UNCERTAIN_RETRY``; a drain that finds its reservation taken by
    another sends nothing, so a short one never doubles a mail."""
    config = smtp_config(app.config)
    return timedelta(seconds=max(60.0, 3 * (config.timeout if config is not None else 30.0)))


def _due(now: datetime) -> tuple[ColumnElement[bool], ...]:
    return (col(OutboxMessage.sent_at).is_(None), col(OutboxMessage.failed_at).is_(None),
            or_(col(OutboxMessage.next_attempt_at).is_(None), col(OutboxMessage.next_attempt_at) <= now))


def _no_earlier_pending() -> ColumnElement[bool]:
    """No earlier row to the same address is waiting (neither sent, nor given
    up, nor gone out unanswered): the order rule, as a condition of the claim."""
    earlier = aliased(OutboxMessage)
    return ~exists().where(col(earlier.to_addr) == OutboxMessage.to_addr, col(earlier.id) < col(OutboxMessage.id),
                           col(earlier.sent_at).is_(None), col(earlier.failed_at).is_(None),
                           col(earlier.uncertain_at).is_(None))


#: one drain at a time in this process (see the module's "Order")
_drain_lock = threading.Lock()
#: due rows read at a time; a drain reads page after page until its budget is spent
PAGE = 200


def drain(app: Flask, engine: Engine, sender: Sender | None = None, budget: float | None = None) -> DrainResult:
    """Send the due outbox rows once each, in order, for at most ``budget``
    seconds (``MAIL_SEND_BUDGET``) while any is due; returns what happened."""
    with _drain_lock:
        return _drain(app, engine, sender, budget)


def _drain(app: Flask, engine: Engine, sender: Sender | None, budget: float | None) -> DrainResult:
    settings = mail_settings(app.config)
    retry = backoff(app.config)
    hold = reservation(app)
    seconds = float(app.config.get("MAIL_SEND_BUDGET", 25) if budget is None else budget)
    deadline = time.monotonic() + seconds
    tokens: dict[int, str] = {}

    def due_rows() -> Iterator[Outgoing]:
        """Each due row, reserved just before it is handed out to be sent."""
        last = 0
        while time.monotonic() < deadline:
            with Session(engine) as session:
                found = session.exec(select(OutboxMessage.id).where(*_due(utcnow()), col(OutboxMessage.id) > last)
                                     .order_by(col(OutboxMessage.id)).limit(PAGE))
                page = [row_id for row_id in found if row_id is not None]  # primary keys: never None
            if not page:
                return
            for row_id in page:
                last = row_id
                if time.monotonic() >= deadline:
                    return
                item = _reserve(engine, settings, row_id, hold, tokens)
                if item is not None:
                    yield item

    def before_body(row_id: int) -> bool:
        now = utcnow()
        with Session(engine) as session:
            going = session.exec(
                update(OutboxMessage)
                .where(col(OutboxMessage.id) == row_id, col(OutboxMessage.lease) == tokens[row_id],
                       col(OutboxMessage.sent_at).is_(None), col(OutboxMessage.failed_at).is_(None))
                .values(uncertain_at=now, next_attempt_at=now + timedelta(seconds=retry.uncertain_delay))
                .execution_options(synchronize_session=False))
            session.commit()
        return going.rowcount == 1

    def mark_sent(row_id: int) -> None:
        with Session(engine) as session:
            session.execute(update(OutboxMessage).where(col(OutboxMessage.id) == row_id)
                            .values(sent_at=utcnow(), next_attempt_at=None, uncertain_at=None, lease=None)
                            .execution_options(synchronize_session=False))
            session.commit()

    def mark_failed(row_id: int, failure: Failure) -> None:
        _mark_failed(engine, row_id, failure, tokens.get(row_id))

    return send_drain(due_rows, mark_sent, mark_failed, sender or make_sender(app), backoff=retry, limit=None,
                      before_body=before_body, now=utcnow)


def _reserve(engine: Engine, settings: MailSettings, row_id: int, hold: timedelta,
             tokens: dict[int, str]) -> Outgoing | None:
    """Claim one due row for ``hold`` and compose it; None when it is not
    ours to send now (another drain has it, or earlier mail to its address
    is still waiting) or cannot be composed (then it is given up)."""
    now = utcnow()
    token = secrets.token_hex(8)
    with Session(engine, expire_on_commit=False) as session:
        row = session.get(OutboxMessage, row_id)
        if row is None:
            return None
        claimed = session.exec(
            update(OutboxMessage).where(col(OutboxMessage.id) == row_id, *_due(now), _no_earlier_pending())
            .values(next_attempt_at=now + hold, lease=token,
                    message_id=row.message_id or make_msgid(domain=settings.domain))
            .execution_options(synchronize_session=False)
        )
        session.commit()
        if claimed.rowcount != 1:
            return None
        tokens[row_id] = token
        session.refresh(row)
        try:
            message = compose(session, settings, row)
        except Exception as exc:  # noqa: BLE001 - a row we cannot compose must not block the others
            log.exception("outbox message %s cannot be composed", row_id)
            _mark_failed(engine, row_id, Failure(f"cannot compose: {exc.__class__.__name__}: {exc}", None, PERMANENT),
                         token)
            return None
        return Outgoing(row_id, message, row.attempts, row.outages, row.failing_since)


def _mark_failed(engine: Engine, row_id: int, failure: Failure, token: str | None) -> None:
    """Record a failure of the row we hold (``token``): an attempt or an
    outage, the error, the next attempt or the end."""
    with Session(engine) as session:
        row = session.get(OutboxMessage, row_id)
        if row is None or row.sent_at is not None or (token is not None and row.lease != token):
            return  # sent meanwhile, or another drain holds it now
        now = utcnow()
        if failure.counts:
            row.attempts += 1
        else:
            row.outages += 1
        row.failing_since = row.failing_since or now
        row.last_error = clean(failure.error, 2000)
        row.next_attempt_at = failure.retry_at
        row.uncertain_at = row.uncertain_at if failure.kind == UNCERTAIN else None
        row.lease = None
        if failure.gave_up:
            row.failed_at = now
        session.add(row)
        session.commit()
