"""One stored message, start to end.

1. Never answer auto-generated mail, bounces, lists or our own
   (``mail.inbound``'s ``ignore_reason``): mark it ignored, reply nothing.
2. Mail to a game's reply address must carry a genuine token and come From
   the token's player; otherwise nothing changes and the sender gets at most
   one explanatory reply a day.
3. The first line that is a command (or a line that looks like a turn) is
   used; free text before it is skipped; a turn file attachment is read when
   the body has none.  ``COMMANDS`` does the rest.
4. A ``ServiceError`` (an illegal turn, a stale ply...) is answered with the
   line quoted, the reason and the legal turns; anything else propagates and
   the worker shunts the message, replying nothing.
"""

from __future__ import annotations

from sqlmodel import Session, select

from mail import commands as c
from mail.inbound import InboundMessage, parse_message
from mail.tokens import read_token
from pbem.mailrobot.commands import COMMANDS, AlreadyProcessed, Context, _game_help, _plain_help, looks_like_turn, unhandled
from pbem.mailrobot.inbox import claim
from pbem.mailrobot.replies import once_a_day, queue_reply
from pbem.mailrobot.settings import REPLY_PREFIX, MailSettings
from pbem.models import Game, Player
from pbem.models_mail import DONE, IGNORED, InboxMessage
from pbem.play import kind_of, seat_of, state_of
from pbem.services.errors import ServiceError


def process(session: Session, settings: MailSettings, row: InboxMessage) -> str:
    """Act on one stored message; commits.  Returns what was done, in a few words."""
    msg = parse_message(row.raw, envelope_from=row.envelope_from, envelope_to=row.envelope_to,
                        loop_id=settings.loop_id, our_addresses=settings.our_addresses, prefix=REPLY_PREFIX)
    if msg.ignore_reason or not msg.sender:
        return _ignore(session, row.id, msg.ignore_reason or "no sender address")
    ctx = Context(session, settings, msg, row.id)
    if msg.tokens:
        why = _check_sender(ctx)
        if why:
            return _refuse(ctx, why)
    else:
        ctx.player = session.exec(select(Player).where(Player.email == msg.sender)).first()
    in_game = ctx.game is not None
    cmd = pick(ctx, msg.lines, in_game) or pick(ctx, msg.attachment_lines, in_game)
    if cmd is None:
        return _nothing(ctx)
    handler = COMMANDS.get(cmd.kind)
    try:
        if cmd.kind == c.INVALID:
            raise _Invalid(cmd.error)
        (handler or unhandled)(ctx, cmd)
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


def pick(ctx: Context, lines: list[str], in_game: bool) -> c.Command | None:
    """The first usable command among ``lines``; None if there is none."""
    for line in lines:
        cmd = c.parse_command(line, in_game=in_game)
        if cmd.kind == c.TURN:
            if cmd.ply is not None or looks_like_turn(cmd.argument) or _parses(ctx, cmd.argument):
                return cmd
            continue
        if cmd.kind == c.INVALID and (cmd.error.startswith("unknown command") or cmd.error == "empty line"):
            continue  # free text
        return cmd
    return None


def _parses(ctx: Context, text: str) -> bool:
    game = ctx.game
    if game is None or game.position is None:
        return False
    try:
        kind_of(game).notation.parse_turn(state_of(game), text)
    except Exception:  # noqa: BLE001 - not a turn, then
        return False
    return True


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
    if player is None or game is None or seat_of(ctx.session, game, player) is None:
        return "the reply address it was sent to belongs to no game here"
    if player.email != ctx.msg.sender:
        return (f"it came from {ctx.msg.sender}, but the reply address it was sent to belongs to another "
                "address; send your turns from the address the game's mail reaches")
    ctx.player, ctx.game = player, game
    return None


def _ignore(session: Session, inbox_id: int, reason: str) -> str:
    claim(session, inbox_id, IGNORED, reason)
    session.commit()
    return f"ignored: {reason}"


def _refuse(ctx: Context, why: str) -> str:
    claim(ctx.session, ctx.inbox_id, IGNORED, f"sender check failed: {why}")
    if once_a_day(ctx.session, ctx.msg.sender, "sender-check"):
        queue_reply(ctx.session, ctx.msg, (
            f"Your mail was not used, and nothing was changed: {why}.\n\n"
            "To play, reply to the game's latest mail from the address it was sent to; the reply address "
            "carries a code for you and the game.  (You get this explanation at most once a day.)"
        ), kind="error")
    ctx.commit()
    return f"refused: {why}"


def _nothing(ctx: Context) -> str:
    claim(ctx.session, ctx.inbox_id, DONE, "no command found")
    if ctx.game is not None:
        queue_reply(ctx.session, ctx.msg, "I found no turn or command in your mail, so nothing was changed.\n\n"
                    + _game_help(ctx.settings), game=ctx.game, ply=ctx.game.ply if ctx.game.position else None)
    elif once_a_day(ctx.session, ctx.msg.sender, "plain-help"):
        queue_reply(ctx.session, ctx.msg, "I found no command in your mail.\n\n" + _plain_help(ctx.settings))
    ctx.commit()
    return "no command"
