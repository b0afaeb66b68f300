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

import bisect
import functools
import logging
import os
import secrets
import threading
import time
from collections.abc import Callable, Iterator
from datetime import datetime, timedelta
from email.message import EmailMessage
from email.utils import make_msgid
from typing import Any, TypeVar

from flask import Flask
from sqlalchemy import BindParameter, ColumnElement, Engine, bindparam, exists, func, null, or_, update
from sqlalchemy.orm import aliased
from sqlmodel import Session, col, select

from engine.i18n import current_language
from mail.compose import Thread, compose_notification, game_root_id
from mail.drain import PERMANENT, UNCERTAIN, DrainResult, Failure, Outgoing
from mail.drain import drain as send_drain
from mail.send import EmlFolderSink, Sender, SmtpSender
from mail.tokens import make_reply_address
from notation.base import Notation
from pbem.i18n import for_player, gettext
from pbem.mailrobot.inbox import clean
from pbem.mailrobot.settings import MailSettings, backoff, eml_folder, mail_settings, smtp_config
from pbem.models import Game, OutboxMessage, Player, Turn, table_of, utcnow
from pbem.services import refusals
from pbem.services import visibility as views
from pbem.services.notify import deadline_line
from pbem.services.stored import kind_of, seat_of
from pbem.services.stored_words import shown

_T = TypeVar("_T")
#: what one drain keeps while it composes its rows (``Memo``)
Memo = dict[tuple[Any, ...], Any]


def _kept(memo: Memo | None, key: tuple[Any, ...], make: Callable[[], _T]) -> _T:
    """``make()``, kept in ``memo`` under ``key`` for the rest of the drain
    (made every time without a memo)."""
    if memo is None:
        return make()
    if key not in memo:
        memo[key] = make()
    found: _T = memo[key]
    return found


@functools.lru_cache(maxsize=8192)
def _shown_line(line: str, language: str) -> str:
    """One line of a drawing in ``language`` (``stored_words.shown``, a pure
    function of its text: a board's rows repeat from mail to mail)."""
    return shown(line, language) if line.strip() else line


def shown_lines(text: str, language: str | None) -> str:
    """``stored_words.shown_lines``, line by line through ``_shown_line``."""
    if not language or language == "en":
        return text
    return "\n".join(_shown_line(line, language) for line in text.split("\n"))

log = logging.getLogger(__name__)

#: kinds that answer a player's mail (Auto-Submitted: auto-replied)
REPLY_KINDS = ("reply", "error")
#: at most this many plies are written out in the move list
MOVE_LIST_PLIES = 200


#: one stored turn as the move list reads it: ply, seat, canonical text
Played = tuple[int, int, str]


def played_turns(session: Session, game: Game, ply: int, memo: Memo | None = None) -> list[Played]:
    """The turns of ``game`` up to ``ply`` (ply, seat and canonical text
    only: not the stored positions and chance events of ``turns_of``).  A
    drain's ``memo`` keeps a game's turns read so far: a stored turn never
    changes, so only turns past those are read again, when a row asks for
    a ply beyond them."""
    def read(after: int) -> list[Played]:
        found = session.exec(select(Turn.ply, Turn.seat, Turn.canonical)
                             .where(Turn.game_id == game.id, col(Turn.ply) > after).order_by(col(Turn.ply)))
        return [(int(p), int(s), str(c)) for p, s, c in found]

    if memo is None:
        return [turn for turn in read(0) if turn[0] <= ply]
    key = ("played", game.id)
    known: list[Played] | None = memo.get(key)
    if known is None:
        known = memo[key] = read(0)
    elif not known or known[-1][0] < ply:
        known.extend(read(known[-1][0] if known else 0))
    return known[:bisect.bisect_right(known, ply, key=lambda turn: turn[0])]


def seat_blind(game: Game) -> bool:
    """Whether every seat reads the game's turns alike (``views.turn_text``
    gives each turn as stored: the game is over, or its notation keeps no
    seat's settings secret), so one move list serves them all."""
    return views.shows_everything(game) or (type(kind_of(game).notation).private_turn_text
                                            is Notation.private_turn_text)


def move_list(session: Session, game: Game, ply: int, seat: int | None = None, memo: Memo | None = None) -> str:
    """The turns played up to ``ply``, in canonical notation as ``seat``
    may read them (``views.turn_text``: a turn as played, never a hidden
    position or another seat's secret setting)."""
    turns = played_turns(session, game, ply, memo)
    if not turns:
        return ""
    shown = turns[-MOVE_LIST_PLIES:]
    words = [f"{number}. {views.turn_text(game, seat, mover, text)}" for number, mover, text in shown]
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


def compose(session: Session, settings: MailSettings, row: OutboxMessage, memo: Memo | None = None) -> EmailMessage:
    """The MIME message for an outbox row, in its recipient's language
    (their setting, else English; see ``_compose``).  A drain passes its
    ``memo``: what stays true of a game's stored history while it sends
    (the move list, the report and the example turn at a ply, for a seat,
    in a language) is then worked out once for all the rows about it."""
    player = session.exec(select(Player).where(Player.email == row.to_addr)).first()
    with for_player(player):
        return _compose(session, settings, row, player, memo)


def _compose(session: Session, settings: MailSettings, row: OutboxMessage, player: Player | None,
             memo: Memo | None = None) -> EmailMessage:
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
        seated = seat_of(session, game, player) if player is not None else None
        if player is not None and seated is not None:
            assert player.id is not None  # a stored player
            reply_to = make_reply_address(list(settings.secrets), settings.domain, game.id, player.id)
        thread = Thread(root_id=game_root_id(game.id, settings.domain), in_reply_to=row.in_reply_to,
                        references=tuple((row.thread_refs or "").split()))
        # whose view the board shows: the seat stored with the row; for a row
        # queued before migration 0011 (``after_board`` NULL), the seat of the
        # player it is addressed to (None: not seated, a spectator's view)
        seat = row.seat if row.after_board is not None else (seated.number if seated is not None else None)
        language = current_language()
        ply = row.ply if row.ply is not None else game.ply
        # the stored history up to a ply never changes; what the game shows
        # of it changes when it ends (``views.shows_everything``): the status
        # is in every key, and the seat in every key of what a seat sees
        history = (game.id, game.status, ply, language)
        legacy = row.after_board is None
        words = row.body + "\n" + (row.after_board or "")
        sight: views.View | None
        if row.position is not None:
            sight = views.of_position(game, seat, row.position)
        else:
            sight = views.at(session, game, seat, ply)
        current = ply == game.ply and row.position is None  # the game has not moved on since the row was queued
        extra: list[str] = []
        if sight is not None:
            if not legacy:
                board = shown_lines(sight.text_diagram(), language)
                image = sight.image("png")
                assert isinstance(image, bytes)  # a PNG is drawn as bytes
                png = image
            report = (_kept(memo, ("report",) + history, lambda: turn_report(session, game, seat, ply))
                      if row.kind in REPORT_KINDS else "")
            if report:
                extra.append(report)
            # one list for every seat when no seat reads a turn differently
            reader = "every seat" if seat_blind(game) else seat
            moves = _kept(memo, ("moves", reader) + history, lambda: move_list(session, game, ply, seat, memo))
            if moves:
                extra.append(moves)
            deadline = deadline_line(game) if game.deadline else ""
            if current and game.deadline and game.status == "active" and deadline.split(" ")[0] not in words:
                extra.append(deadline)
        if row.kind == "your_turn":
            example = (_kept(memo, ("example", seat) + history, lambda: example_turn(session, game, seat, ply))
                       if sight is not None else kind_of(game).notation.example_turn())
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


def _due(now: datetime | BindParameter[Any]) -> tuple[ColumnElement[bool], ...]:
    return (col(OutboxMessage.sent_at).is_(None), col(OutboxMessage.failed_at).is_(None),
            or_(col(OutboxMessage.next_attempt_at).is_(None), col(OutboxMessage.next_attempt_at) <= now))


def _no_earlier_pending() -> ColumnElement[bool]:
    """No earlier row to the same address is waiting (neither sent, nor given
    up, nor gone out unanswered): the order rule, as a condition of the claim."""
    earlier = aliased(OutboxMessage)
    return ~exists().where(col(earlier.to_addr) == OutboxMessage.to_addr, col(earlier.id) < col(OutboxMessage.id),
                           col(earlier.sent_at).is_(None), col(earlier.failed_at).is_(None),
                           col(earlier.uncertain_at).is_(None))


@functools.cache
def _statements() -> dict[str, Any]:
    """The drain's statements, built once (building an UPDATE with its
    conditions cost more than running it), their values as parameters:

    - "claim": reserve row ``row_id`` (due at ``now``, no earlier mail to
      its address waiting) until ``until`` with ``token``, giving it
      ``msg_id`` unless it has a Message-ID already;
    - "before_body": mark in flight (``now``, next attempt ``retry_at``) the
      row ``row_id`` if ``token`` still holds it and it is neither sent nor
      given up;
    - "sent": mark row ``row_id`` sent at ``now``."""
    table = table_of(OutboxMessage)
    row_id = col(OutboxMessage.id) == bindparam("row_id")
    claim = (update(table).where(row_id, *_due(bindparam("now")), _no_earlier_pending())
             .values(next_attempt_at=bindparam("until"), lease=bindparam("token"),
                     message_id=func.coalesce(func.nullif(col(OutboxMessage.message_id), ""), bindparam("msg_id"))))
    before_body = (update(table).where(row_id, col(OutboxMessage.lease) == bindparam("token"),
                                       col(OutboxMessage.sent_at).is_(None), col(OutboxMessage.failed_at).is_(None))
                   .values(uncertain_at=bindparam("now"), next_attempt_at=bindparam("retry_at")))
    sent = (update(table).where(row_id)
            .values(sent_at=bindparam("now"), next_attempt_at=null(), uncertain_at=null(), lease=null()))
    return {"claim": claim, "before_body": before_body, "sent": sent}


#: the ``nice`` increment the sending thread takes (``MAIL_SEND_NICE``, by
#: default 10; 0 leaves it as it is): see ``_lower_priority``
SEND_NICE = 10


def _lower_priority(app: Flask) -> None:
    """Lower the calling thread's CPU priority by ``MAIL_SEND_NICE``, once
    per thread, so that composing and sending mail (the PNG boards) never
    starves the web workers on the same machine: under load the kernel gives
    them the CPU first, and the sender uses what is left (it keeps up as
    long as the machine is not saturated; the outbox holds what it could
    not send yet).  On Linux a thread has its own priority: only the thread
    that drains (the scheduler's, the listener's, ``pbem mail send``) is
    lowered, never the web requests of the embedded server.  A priority
    once lowered is not raised again (that needs privileges); elsewhere,
    or when it cannot be done, nothing changes."""
    step = int(app.config.get("MAIL_SEND_NICE", SEND_NICE) or 0)
    setpriority = getattr(os, "setpriority", None)
    if step <= 0 or setpriority is None or not hasattr(threading, "get_native_id"):
        return
    tid = threading.get_native_id()
    if tid in _lowered:
        return
    _lowered.add(tid)
    try:
        current = os.getpriority(os.PRIO_PROCESS, tid)
        setpriority(os.PRIO_PROCESS, tid, min(19, current + step))
    except OSError:  # not permitted, or not a thread id here: leave it
        log.debug("cannot lower the sending thread's priority", exc_info=True)


#: the native ids of threads whose priority ``_lower_priority`` lowered
_lowered: set[int] = set()

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
    memo: Memo = {}
    statements = _statements()
    _lower_priority(app)

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
                item = _reserve(engine, settings, row_id, hold, tokens, memo)
                if item is not None:
                    yield item

    def before_body(row_id: int) -> bool:
        now = utcnow()
        with engine.begin() as connection:
            going = connection.execute(statements["before_body"], {
                "row_id": row_id, "token": tokens[row_id], "now": now,
                "retry_at": now + timedelta(seconds=retry.uncertain_delay)})
        return going.rowcount == 1

    def mark_sent(row_id: int) -> None:
        with engine.begin() as connection:
            connection.execute(statements["sent"], {"row_id": row_id, "now": utcnow()})

    def mark_failed(row_id: int, failure: Failure) -> None:
        _mark_failed(engine, row_id, failure, tokens.get(row_id))

    return send_drain(due_rows, mark_sent, mark_failed, sender or make_sender(app), backoff=retry, limit=None,
                      before_body=before_body, now=utcnow)


def _reserve(engine: Engine, settings: MailSettings, row_id: int, hold: timedelta,
             tokens: dict[int, str], memo: Memo | None = None) -> Outgoing | None:
    """Claim one due row for ``hold`` and compose it; None when it is not
    ours to send now (another drain has it, or earlier mail to its address
    is still waiting) or cannot be composed (then it is given up)."""
    now = utcnow()
    token = secrets.token_hex(8)
    with engine.begin() as connection:
        claimed = connection.execute(_statements()["claim"], {
            "row_id": row_id, "now": now, "until": now + hold, "token": token,
            "msg_id": make_msgid(domain=settings.domain)})
    if claimed.rowcount != 1:
        return None
    tokens[row_id] = token
    with Session(engine, expire_on_commit=False) as session:
        row = session.get(OutboxMessage, row_id)
        if row is None:
            return None
        try:
            message = compose(session, settings, row, memo)
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
