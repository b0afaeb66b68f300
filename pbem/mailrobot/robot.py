"""One stored message, start to end.

1. Never answer auto-generated mail, bounces, lists or our own, nor mail
   From (Sender, Reply-To, Return-Path, envelope sender) any of the server's
   addresses: MAIL_FROM, MAIL_ROBOT_ADDRESS, any ``play+...@MAIL_DOMAIN``
   (``mail.inbound``'s ``ignore_reason``): mark it ignored, reply nothing.
2. Mail to a game's reply address must carry a genuine token and come From
   the token's player; otherwise nothing changes and the sender gets at most
   one explanatory reply a day.
3. The first line that is a command (or a line that looks like a turn) is
   used; free text before it is skipped; a turn file attachment is read when
   the body has none.  When no line is usable, the answer quotes the first
   lines considered, with the notation's reason for the first (``G``, ``zz``,
   ``pass`` are bad turns, not silence).  In a game that has not started,
   only ``accept``, ``decline``, ``help`` and ``board`` are done; anything
   else is answered with who the game waits for.  ``COMMANDS`` does the rest.
4. A ``ServiceError`` (an illegal turn, a stale ply...) is answered with the
   line quoted, the reason and the legal turns; anything else propagates and
   the worker shunts the message, replying nothing.
"""

from __future__ import annotations

from contextlib import ExitStack
from typing import Any

from sqlmodel import Session, select

from engine.errors import AmbiguousTurnError, IllegalTurnError, PbemError
from mail import commands as c
from mail.errors import MailError
from mail.inbound import parse_message
from mail.tokens import read_token
from pbem.i18n import for_player
from pbem.mailrobot.commands import (
    BEFORE_START,
    COMMANDS,
    AlreadyProcessed,
    Context,
    game_help,
    looks_like_turn,
    plain_help,
    unhandled,
    waiting_for,
)
from pbem.mailrobot.inbox import claim
from pbem.mailrobot.replies import once_a_day, queue_reply
from pbem.mailrobot.settings import REPLY_PREFIX, MailSettings
from pbem.models import INVITING, Game, Player
from pbem.models.mail import DONE, IGNORED, InboxMessage
from pbem.services import turns
from pbem.services import visibility as views
from pbem.services.errors import ServiceError
from pbem.services.stored import kind_of, seat_of


def process(session: Session, settings: MailSettings, row: InboxMessage) -> str:
    """Act on one stored message; commits.  Returns what was done, in a few words.
    The answer is written in the sender's language once they are known
    (their setting; else English)."""
    with ExitStack() as language:
        return _process(session, settings, row, language)


def _process(session: Session, settings: MailSettings, row: InboxMessage, language: ExitStack) -> str:
    msg = parse_message(row.raw, envelope_from=row.envelope_from, envelope_to=row.envelope_to,
                        loop_id=settings.loop_id, our_addresses=settings.our_addresses, prefix=REPLY_PREFIX,
                        our_domain=settings.domain)
    assert row.id is not None  # a stored message
    if msg.ignore_reason or not msg.sender:
        return _ignore(session, row.id, msg.ignore_reason or "no sender address")
    ctx = Context(session, settings, msg, row.id)
    if msg.tokens:
        why = _check_sender(ctx)
        if why:
            return _refuse(ctx, why)
    else:
        ctx.player = session.exec(select(Player).where(Player.email == msg.sender)).first()
    language.enter_context(for_player(ctx.player))
    in_game = ctx.game is not None
    considered: list[str] = []
    cmd = pick(ctx, msg.lines, in_game, considered) or pick(ctx, msg.attachment_lines, in_game, considered)
    if cmd is None:
        return _nothing(ctx, considered)
    command = COMMANDS.get(cmd.kind)
    try:
        if cmd.kind == c.INVALID:
            raise _Invalid(cmd.error)
        if ctx.game is not None and ctx.game.status == INVITING and cmd.kind not in BEFORE_START:
            raise _Invalid(waiting_for(ctx))
        (command.action if command is not None else unhandled)(ctx, cmd)
        return f"{cmd.kind} done"
    except AlreadyProcessed:
        session.rollback()
        return "already processed"
    except (ServiceError, _Invalid) as error:
        session.rollback()
        ctx.game = session.get(Game, ctx.game.id) if ctx.game is not None else None
        if not claim(session, row.id, DONE):
            session.rollback()
            return "already processed"
        legal = ctx.legal() if cmd.kind in (c.TURN, c.PREVIEW) else []
        ctx.error(cmd.line, str(error), legal)
        session.commit()
        return f"{cmd.kind} refused"


class _Invalid(Exception):
    pass


#: how many of the skipped lines the "no command" answer quotes
QUOTED_LINES = 3


def pick(ctx: Context, lines: list[str], in_game: bool, considered: list[str] | None = None) -> c.Command | None:
    """The first usable command among ``lines``; None if there is none.
    The non-empty lines skipped as free text are appended to ``considered``."""
    for line in lines:
        cmd = c.parse_command(line, in_game=in_game)
        if cmd.kind == c.TURN:
            if cmd.ply is not None or looks_like_turn(cmd.argument) or _meant_as_turn(ctx, cmd.argument):
                return cmd
        elif cmd.kind == c.INVALID and cmd.error == "empty line":
            continue
        elif not (cmd.kind == c.INVALID and cmd.error.startswith("unknown command")):
            return cmd
        if considered is not None:
            considered.append(cmd.line)  # free text, or a bad turn
    return None


#: errors that mean "this text is not a turn" (anything else is a bug: it propagates and shunts the message)
NOT_A_TURN = (PbemError, MailError, ServiceError)


def _sender_state(ctx: Context, game: Game) -> Any:
    """The game's state (``ctx.game``) as the sender may see it: a turn is read
    against that, so a refusal quotes nothing the sender may not see."""
    sight = views.at(ctx.session, game, ctx.seat)
    return sight.state if sight is not None else None


def _meant_as_turn(ctx: Context, text: str) -> bool:
    """The notation reads ``text`` as a turn: legal, or illegal or ambiguous
    here (so its error deserves the usual answer with the legal turns)."""
    game = ctx.game
    if game is None or game.position is None:
        return False
    try:
        kind_of(game).notation.parse_turn(_sender_state(ctx, game), text)
    except (IllegalTurnError, AmbiguousTurnError):
        return True
    except NOT_A_TURN:
        return False
    return True


def _turn_error(ctx: Context, text: str) -> str | None:
    """Why ``text`` is not a turn in the game's position (the notation's own
    message); None when it parses; a short reason when there is no game or
    no position."""
    game = ctx.game
    if game is None:
        return "not a command"
    if game.position is None:
        return "the game has not started"
    sight = views.at(ctx.session, game, ctx.seat)
    try:
        kind_of(game).notation.parse_turn(sight.state if sight is not None else None, text)
    except NOT_A_TURN as error:
        # as players read it: without the raw position string (the `board` command gives it)
        return turns.for_players(str(error), sight.position if sight is not None else "") \
            or error.__class__.__name__
    return None


def _check_sender(ctx: Context) -> str | None:
    """Why the mail may not act for anyone, or None (and ``ctx.game``,
    ``ctx.player`` set)."""
    ids = None
    for token in ctx.msg.tokens:
        ids = read_token(list(ctx.settings.secrets), token)
        if ids is not None:
            break
    if ids is None:
        return "the reply address it was sent to is not one this server made (its code is wrong or was changed)"
    game_id, player_id = ids
    player = ctx.session.get(Player, player_id)
    game = ctx.session.get(Game, game_id)
    seat = seat_of(ctx.session, game, player) if player is not None and game is not None else None
    if seat is None or player is None:  # no seat without a player
        return "the reply address it was sent to belongs to no game here"
    if player.email != ctx.msg.sender:
        return (f"it came from {ctx.msg.sender}, but the reply address it was sent to belongs to another "
                "address; send your turns from the address the game's mail reaches")
    ctx.player, ctx.game, ctx.seat_row = player, game, seat
    return None


def _ignore(session: Session, inbox_id: int, reason: str) -> str:
    claim(session, inbox_id, IGNORED, reason)
    session.commit()
    return f"ignored: {reason}"


def _refuse(ctx: Context, why: str) -> str:
    claim(ctx.session, ctx.inbox_id, IGNORED, f"sender check failed: {why}")
    assert ctx.msg.sender is not None  # _process answers only mail with a sender
    if once_a_day(ctx.session, ctx.msg.sender, "sender-check"):
        queue_reply(ctx.session, ctx.msg, (
            f"Your mail was not used, and nothing was changed: {why}.\n\n"
            "To play, reply to the game's latest mail from the address it was sent to; the reply address "
            "carries a code for you and the game.  (You get this explanation at most once a day.)"
        ), kind="error")
    ctx.commit()
    return f"refused: {why}"


def _quoted(ctx: Context, considered: list[str]) -> str:
    """The lines read, quoted, and why the first is not a command."""
    if not considered:
        return "Your mail had no text above the quoted part."
    shown = considered[:QUOTED_LINES]
    text = "I read:\n\n" + "\n".join("> " + line for line in shown)
    if len(considered) > len(shown):
        text += f"\n> ... ({len(considered) - len(shown)} more lines)"
    if ctx.game is not None and ctx.game.status == INVITING:
        why = waiting_for(ctx)
    elif ctx.game is not None:
        why = f"as a turn, '{shown[0]}' is refused: {_turn_error(ctx, shown[0])}"
    else:
        why = f"'{shown[0]}' is not a command here"
    return f"{text}\n\nWhy: {why}."


def _nothing(ctx: Context, considered: list[str] | None = None) -> str:
    claim(ctx.session, ctx.inbox_id, DONE, "no command found")
    assert ctx.msg.sender is not None  # _process answers only mail with a sender
    considered = considered or []
    if ctx.game is not None:
        queue_reply(ctx.session, ctx.msg, "I found no turn or command in your mail, so nothing was changed.\n\n"
                    + _quoted(ctx, considered) + "\n\n" + game_help(ctx.settings, ctx.game, ctx.session),
                    game=ctx.game, ply=ctx.game.ply if ctx.game.position else None, seat=ctx.seat)
    elif once_a_day(ctx.session, ctx.msg.sender, "plain-help"):
        queue_reply(ctx.session, ctx.msg, "I found no command in your mail, so nothing was changed.\n\n"
                    + _quoted(ctx, considered) + "\n\n" + plain_help(ctx.settings))
    ctx.commit()
    return "no command"
