"""Outbox rows as proper MIME messages, and sending them.

Every row the services or the robot queue is composed here at send time with
``mail.compose``: a plain-text part with the text diagram, an HTML part with
the PNG diagram inline, the move list and the deadline; threading headers so
each game is one conversation (root ``<game-N@domain>``, and the player's own
mail for replies); Reply-To the player's signed ``play+<token>@`` address for
the game, so a plain "Reply" reaches the robot with the token; Auto-Submitted.

``drain`` sends what is due through SMTP (or the ``.eml`` folder of the
embedded default) with ``mail.send.drain``: each row is leased before it is
sent, so two drains never send one message twice; failures are retried with
backoff; a row is marked sent right after the server accepted it.

Order: mail to one address goes out in the order it was queued.  In one
process one drain runs at a time (the listener's thread and the embedded
scheduler both drain); across processes a row is not leased while an
earlier row to the same address is unsent and not given up (another drain
holds it, or it waits for a retry), and once a row fails, later rows to
that address wait for the next round.
"""

from __future__ import annotations

import logging
import threading
from datetime import timedelta
from email.message import EmailMessage
from email.utils import make_msgid

from flask import Flask
from sqlalchemy import Engine, or_, update
from sqlmodel import Session, select

from mail.compose import compose_notification, game_root_id, Thread
from mail.send import DrainResult, EmlFolderSink, Outgoing, Sender, SmtpSender, drain as send_drain
from mail.tokens import make_reply_address
from pbem import diagrams
from pbem.mailrobot.inbox import clean
from pbem.mailrobot.settings import MailSettings, backoff, eml_folder, mail_settings, smtp_config
from pbem.models import Game, OutboxMessage, Player, Turn, utcnow
from pbem.play import kind_of, seat_of, seats_of, state_of, turns_of
from pbem.services import refusals

log = logging.getLogger(__name__)

#: a row being sent is not picked up by another drain for this long
LEASE = timedelta(minutes=10)
#: kinds that answer a player's mail (Auto-Submitted: auto-replied)
REPLY_KINDS = ("reply", "error")
#: at most this many plies are written out in the move list
MOVE_LIST_PLIES = 200


def position_at(session: Session, game: Game, ply: int) -> str | None:
    """The game's position after ``ply`` turns, or None if unknown."""
    if ply == game.ply:
        return game.position
    if ply == 0:
        kind = kind_of(game)
        return kind.notation.format_position(kind.rules.initial_state(len(seats_of(session, game)), game.options))
    turn = session.exec(select(Turn).where(Turn.game_id == game.id, Turn.ply == ply)).first()
    return turn.position if turn is not None else None


def move_list(session: Session, game: Game, ply: int) -> str:
    turns = [t for t in turns_of(session, game) if t.ply <= ply]
    if not turns:
        return ""
    shown = turns[-MOVE_LIST_PLIES:]
    words = [f"{t.ply}. {t.canonical}" for t in shown]
    lead = "Moves" if len(shown) == len(turns) else f"Moves (the last {len(shown)})"
    return f"{lead}: " + "  ".join(words)


def example_turn(game: Game, position: str) -> str:
    """A turn to show in 'reply with your turn, e.g. ...': the first legal
    turn of ``position`` in canonical notation, else the notation's example."""
    kind = kind_of(game)
    try:
        legal = kind.notation.legal_texts(state_of(game, position))
    except Exception:  # noqa: BLE001 - an example is not worth failing a mail for
        log.exception("no legal turns for the example in game %s", game.id)
        legal = []
    return legal[0] if legal else (kind.notation.turn_examples or ("...",))[0]


def _split_board(body: str, board: str) -> tuple[str, str, str]:
    """The body's text before the board, the board, and the text after it
    (the board is appended when the body does not hold it)."""
    if board and board.strip() and board.strip("\n") in body:
        before, _, after = body.partition(board.strip("\n"))
        return before.rstrip(), board, after.strip("\n")
    return body.rstrip(), board, ""


def compose(session: Session, settings: MailSettings, row: OutboxMessage) -> EmailMessage:
    """The MIME message for an outbox row."""
    game = session.get(Game, row.game_id) if row.game_id is not None else None
    player = session.exec(select(Player).where(Player.email == row.to_addr)).first()
    reply_to = settings.robot_address
    thread = None
    board = after = ""
    png = None
    text = row.body
    if game is not None:
        if player is not None and seat_of(session, game, player) is not None:
            reply_to = make_reply_address(list(settings.secrets), settings.domain, game.id, player.id)
        thread = Thread(root_id=game_root_id(game.id, settings.domain), in_reply_to=row.in_reply_to,
                        references=tuple((row.thread_refs or "").split()))
        ply = row.ply if row.ply is not None else game.ply
        position = row.position or (position_at(session, game, ply) if game.position is not None else None)
        current = ply == game.ply and row.position is None  # the game has not moved on since the row was queued
        extra: list[str] = []
        if position is not None:
            kind = kind_of(game)
            state = state_of(game, position)
            board = kind.notation.text_diagram(state)
            png = diagrams.render(game.kind, game.options, position, "png")
            moves = move_list(session, game, ply)
            if moves:
                extra.append(moves)
            if current and game.deadline and game.status == "active" and "Deadline:" not in row.body:
                extra.append(f"Deadline: {game.deadline:%Y-%m-%d %H:%M} UTC")
        if row.kind == "your_turn":
            example = example_turn(game, position) if position is not None else \
                (kind_of(game).notation.turn_examples or ("...",))[0]
            extra.append(f"Reply to this mail with your turn, e.g. \"#{ply + 1} {example}\" "
                         "(the number is the turn you answer), or a command: legal, board, record, help.")
        text, board, rest = _split_board(row.body, board)
        after = "\n\n".join(part for part in [rest] + extra if part.strip())
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


def _due(now):
    return (OutboxMessage.sent_at.is_(None), OutboxMessage.failed_at.is_(None),
            or_(OutboxMessage.next_attempt_at.is_(None), OutboxMessage.next_attempt_at <= now))


#: one drain at a time in this process (see the module's "Order")
_drain_lock = threading.Lock()


def _earlier_pending(session: Session, row: OutboxMessage) -> list[int]:
    """Ids of earlier rows to the same address that are neither sent nor given up."""
    return list(session.exec(select(OutboxMessage.id).where(
        OutboxMessage.to_addr == row.to_addr, OutboxMessage.id < row.id,
        OutboxMessage.sent_at.is_(None), OutboxMessage.failed_at.is_(None))))


def drain(app: Flask, engine: Engine, sender: Sender | None = None, limit: int = 200) -> DrainResult:
    """Send the due outbox rows once each, in order; returns what happened."""
    with _drain_lock:
        return _drain(app, engine, sender, limit)


def _drain(app: Flask, engine: Engine, sender: Sender | None, limit: int) -> DrainResult:
    settings = mail_settings(app.config)
    now = utcnow()
    leased: dict[int, object] = {}
    recipients: dict[int, str] = {}
    items: list[Outgoing] = []
    with Session(engine, expire_on_commit=False) as session:
        ids = list(session.exec(select(OutboxMessage.id).where(*_due(now)).order_by(OutboxMessage.id).limit(limit)))
        for row_id in ids:
            row = session.get(OutboxMessage, row_id)
            if any(earlier not in leased for earlier in _earlier_pending(session, row)):
                continue  # an earlier mail to this address is not out yet: keep the order
            previous = row.next_attempt_at
            claimed = session.execute(
                update(OutboxMessage).where(OutboxMessage.id == row_id, *_due(now))
                .values(next_attempt_at=now + LEASE, message_id=row.message_id or make_msgid(domain=settings.domain))
                .execution_options(synchronize_session=False)
            )
            session.commit()
            if claimed.rowcount != 1:
                continue
            leased[row_id] = previous
            session.refresh(row)
            try:
                message = compose(session, settings, row)
            except Exception as exc:  # noqa: BLE001 - a row we cannot compose must not block the others
                log.exception("outbox message %s cannot be composed", row_id)
                _mark(engine, row_id, failed=True, error=f"cannot compose: {exc.__class__.__name__}: {exc}")
                leased.pop(row_id)
                continue
            items.append(Outgoing(row_id, message, row.attempts))
            recipients[row_id] = row.to_addr

    waiting: set[str] = set()  # addresses whose earlier mail failed in this round

    def in_order():
        for item in items:
            if recipients[item.id] not in waiting:
                yield item

    def mark_sent(row_id: int) -> None:
        _mark(engine, row_id, sent=True)

    def mark_failed(row_id: int, error: str, retry_at) -> None:
        if retry_at is not None:
            waiting.add(recipients[row_id])
        _mark(engine, row_id, failed=retry_at is None, error=error, retry_at=retry_at)

    result = send_drain(in_order, mark_sent, mark_failed, sender or make_sender(app),
                        backoff=backoff(app.config), limit=limit)
    handled = set(result.sent) | set(result.retry) | set(result.gave_up)
    with Session(engine) as session:  # the rows a stopped round did not reach: release the lease
        for row_id, previous in leased.items():
            if row_id not in handled:
                session.execute(update(OutboxMessage).where(OutboxMessage.id == row_id, OutboxMessage.sent_at.is_(None))
                                .values(next_attempt_at=previous))
        session.commit()
    return result


def _mark(engine: Engine, row_id: int, *, sent: bool = False, failed: bool = False, error: str | None = None,
          retry_at=None) -> None:
    with Session(engine) as session:
        row = session.get(OutboxMessage, row_id)
        if sent:
            row.sent_at, row.next_attempt_at = utcnow(), None
        else:
            row.attempts += 1
            row.last_error = clean(error or "", 2000)
            row.next_attempt_at = retry_at
            if failed:
                row.failed_at = utcnow()
        session.add(row)
        session.commit()
