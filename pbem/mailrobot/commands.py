"""What the robot does for each command: ONE table, ``COMMANDS``, from the
command name (``mail.commands``' kinds) to its ``MailCommand``: its words
(parsed by ``mail.commands``), its syntax and description, from which the
help answers are written (``game_help``, ``plain_help``), and its action.

An action is ``action(ctx: Context, cmd: mail.commands.Command) -> None``.
It must, in one transaction: mark the stored message processed
(``ctx.claim()``), do the work, queue the answer (``ctx.reply`` or
``ctx.error``) and commit (``ctx.commit()``, or a service that commits).  An
action that calls a service which commits claims before the call and
queues its answer before it, or, for a turn, through the service's
``then=`` (after the turn is stored, before the commit), so the message, the
change and the answer are committed together; ``ServiceError``s are caught by the robot, which rolls back and
answers with the error.  ``ctx.game``/``ctx.player`` are the game and the
checked sender in mail to a game's reply address; ``ctx.game`` is None in
mail to the plain address, where ``ctx.player`` is the sender's account if
there is one.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from sqlalchemy import func
from sqlmodel import Session, select

from mail import commands as c
from mail.compose import MAX_LEGAL_LISTED, error_text
from mail.inbound import InboundMessage
from mail.tokens import make_reply_address
from notation import registry
from pbem import links
from pbem.i18n import N_, gettext
from pbem.mailrobot.inbox import claim
from pbem.mailrobot.replies import once_a_day, queue_reply
from pbem.mailrobot.settings import MailSettings
from pbem.models import ACCEPTED, ACTIVE, INVITING, Game, OutboxMessage, Player, Seat, utcnow
from pbem.models.mail import DONE
from pbem.services import bot_seats, gamestate, puzzles, seat_settings, turns, vacations
from pbem.services import games as lifecycle
from pbem.services import visibility as views
from pbem.services.errors import BadInput, GameNotActive, PlyNotReached
from pbem.services.par import name_of, par_text
from pbem.services.stored import games_of, kind_of, seat_of, seated_players, seats_of, title_of


class AlreadyProcessed(Exception):
    """Another worker processed the message first."""


#: the legal list in answer to ``legal`` is cut here
MAX_LEGAL_REPLY = 300


@dataclass
class Context:
    session: Session
    settings: MailSettings
    msg: InboundMessage
    inbox_id: int
    player: Player | None = None
    game: Game | None = None
    seat_row: Seat | None = None  # the player's seat in the game, as the sender check loaded it

    def claim(self) -> None:
        """Mark the stored message done in this transaction; ``AlreadyProcessed``
        when another worker has."""
        if not claim(self.session, self.inbox_id, DONE):
            raise AlreadyProcessed(f"message {self.inbox_id} was processed by another worker")

    def reply(self, text: str, *, board: bool = True, position: str | None = None, kind: str = "reply",
              ply: int | None = None) -> OutboxMessage:
        game = self.game
        if game is not None and board and game.position is not None:
            ply = game.ply if ply is None else ply
        else:
            ply = None
        return queue_reply(self.session, self.msg, text, game=game, ply=ply, position=position, kind=kind,
                           seat=self.seat)

    @property
    def seat(self) -> int | None:
        """The sender's 0-based seat in ``game``: whose view the answer shows."""
        if self.game is None:
            return None
        if self.seat_row is not None and self.seat_row.game_id == self.game.id:
            return self.seat_row.number
        return views.seat_for(self.session, self.game, self.player)

    def error(self, line: str, reason: str, legal: list[str] | None = None) -> OutboxMessage:
        if legal and self.legal_cut:  # a cut list: say so, and do not promise the full list
            hint = f"There are more legal turns than these; reply 'legal' for the first {MAX_LEGAL_REPLY}."
            return self.reply(error_text(line, reason, legal[:MAX_LEGAL_LISTED], legal_hint=hint), kind="error")
        return self.reply(error_text(line, reason, legal or []), kind="error")

    def commit(self) -> None:
        self.session.commit()

    legal_cut: bool = False  # set by ``legal``: more legal turns than it lists

    def legal(self) -> list[str]:
        """The first ``MAX_LEGAL_REPLY`` legal turns, when it is this
        player's turn, else none; ``legal_cut`` says whether there are more
        (a game may have millions, never enumerated whole)."""
        game = self.game
        if game is None or game.status != ACTIVE or self.player is None:
            return []
        texts, self.legal_cut = views.legal(game, self.seat, MAX_LEGAL_REPLY)
        return texts


#: where a game's help lists a command: with the others (``GAME``), under "At
#: any time" (``ANY_TIME``: only in a game that declares settings a player may
#: change outside a turn), or nowhere (``UNLISTED``)
GAME, ANY_TIME, UNLISTED = "game", "any time", ""


@dataclass(frozen=True)
class About:
    """What a help answer is about: the game's kind (None: mail to the plain
    address), whether the game has one player, and the values the commands'
    descriptions name (``%(example)s``, ``%(levels)s``...)."""

    kind: Any = None
    solitaire: bool = False
    values: dict[str, Any] = field(default_factory=dict)


#: what stands for an argument in a command's syntax (``<turn>``, ``[level]``):
#: translated in a help, the command words themselves never are
_PLACEHOLDER = re.compile(r"<[^<>]+>|\[[^\[\]]+\]")
#: every placeholder the commands' syntaxes use, marked for the catalogue
PLACEHOLDERS = (N_("<turn>"), N_("<days>"), N_("<setting>"), N_("<value>"), N_("<game>"), N_("<addresses>"),
                N_("[level]"), N_("<number>"))


def _syntax(syntax: str) -> str:
    """A command's syntax as a help shows it: its placeholders translated."""
    return _PLACEHOLDER.sub(lambda found: gettext(found.group(0)), syntax)


@dataclass(frozen=True)
class MailCommand:
    """One command of the mail robot, as GNU Mailman's email commands are: its
    words (``word``: its name, its aliases and whether the plain address
    takes it; ``mail.commands`` parses them), its ``syntax`` and
    ``description`` as the help lists them (the syntax as typed, only its
    placeholders translated; the description a message of the server's
    catalogue, translated when a help is written, with ``%(name)s`` fields
    from ``About.values``), and its ``action(ctx, cmd)``.  The help answers
    are written from the ``COMMANDS`` table of these (``game_help``,
    ``plain_help``)."""

    word: c.Word
    syntax: str
    description: str
    action: Callable[[Context, c.Command], None]
    #: where a game's help lists it: GAME, ANY_TIME or UNLISTED (the plain
    #: address's help lists the commands the plain address takes)
    section: str = GAME
    #: its description in a game of one player; None: not offered there; "": as in any game
    alone: str | None = ""
    #: other ways to write it, each (syntax, description), listed after it
    forms: tuple[tuple[str, str], ...] = ()
    #: done in a game that has not started (anything else is answered with ``waiting_for``)
    before_start: bool = False

    @property
    def name(self) -> str:
        return self.word.name

    @property
    def aliases(self) -> tuple[str, ...]:
        return self.word.aliases

    @property
    def plain(self) -> bool:
        return self.word.plain

    def usages(self, about: About) -> list[tuple[str, str]]:
        """Its lines in a help about ``about``, translated: (syntax,
        description) pairs; none when it is not offered there."""
        description = self.alone if about.solitaire and self.alone != "" else self.description
        if description is None:
            return []
        syntax = _syntax(self.syntax) + "".join(f" ({alias})" for alias in self.aliases)
        return [(syntax, gettext(description, **about.values))] + [
            (_syntax(form), gettext(meaning, **about.values)) for form, meaning in self.forms]


@dataclass(frozen=True)
class SettingCommand(MailCommand):
    """``set``: a help lists each setting the game declares, with its
    example, rather than the bare syntax."""

    def usages(self, about: About) -> list[tuple[str, str]]:
        declared = tuple(about.kind.notation.seat_settings) if about.kind is not None else ()
        return [(f"set {setting.name} {setting.example}", str(setting.description)) for setting in declared]


def _listing(about: About, listed: list[MailCommand], width: int) -> str:
    """The commands' lines: each syntax in a column ``width`` wide, then its
    description, whose further lines go under its first."""
    lines = []
    for command in listed:
        for syntax, description in command.usages(about):
            first, *more = description.split("\n")
            lines.append(f"  {syntax}".ljust(width - 1) + " " + first)
            lines += [" " * width + line for line in more]
    return "\n".join(lines)


def _section(section: str) -> list[MailCommand]:
    return [command for command in COMMANDS.values() if command.section == section]


def _plain_commands() -> list[MailCommand]:
    return [command for command in COMMANDS.values() if command.plain]


def game_help(settings: MailSettings, game: Game | None = None, session: Session | None = None) -> str:
    """The help of mail about ``game``, from ``COMMANDS``: the turn example
    taken from the game's notation, no draw in a game of one player, the
    settings part in a game that declares settings."""
    kind = kind_of(game) if game is not None else None
    about = About(kind, game is not None and session is not None and len(seats_of(session, game)) == 1,
                  {"example": kind.notation.example_turn() if kind is not None else gettext("a turn")})
    plain = ", ".join(_syntax(command.syntax) for command in _plain_commands())
    text = (gettext("How to play by email: reply to any mail about the game (keep the reply\n"
                    "address; it identifies you and the game), one command per line:")
            + "\n\n" + _listing(about, _section(GAME), 21) + "\n\n"
            + gettext("Only the first command in your mail is used; quoted text below it is ignored.") + "\n"
            + gettext("To %(robot)s (no game): %(commands)s.", robot=settings.robot_address, commands=plain))
    if kind is not None:
        text += "\n\n" + gettext(
            "How to play %(game)s (the rules as this server applies them, the notation with examples, pictures): "
            "%(link)s", game=kind.rules.title or kind.name, link=links.guide(kind.name))
    if kind is not None and tuple(kind.notation.seat_settings):
        text += ("\n\n" + gettext("At any time, also when it is not your turn:") + "\n"
                 + _listing(about, _section(ANY_TIME), 21))
    return text


def plain_help(settings: MailSettings) -> str:
    """The help of mail to the plain address, from ``COMMANDS``."""
    about = About(values={"names": ", ".join(registry.names()), "levels": bot_seats.levels_text()})
    return (gettext("Commands for %(robot)s, one per line:", robot=settings.robot_address) + "\n\n"
            + _listing(about, _plain_commands(), 34) + "\n\n"
            + gettext("To play a turn, or to accept an invitation, reply to the mail about that\n"
                      "game: every game mail comes from a reply address that knows the game and you.\n"
                      "'new' works for addresses that have signed in on the web once.  Web: %(web)s\n"
                      "How to play each game (rules, notation with examples, pictures): %(rules)s",
                      web=links.external('/'), rules=links.external('/rules')))


def _status_line(ctx: Context) -> str:
    game = ctx.game
    assert game is not None  # asked about a game (a command in it, or each of ``games``)
    head = f"Game {game.id} ({title_of(game)}), {game.ply} turn{'' if game.ply == 1 else 's'} played"
    if game.status != ACTIVE:
        return f"{head}: {game.status}, result {game.result}. {game.termination or ''}".strip()
    if game.position is None:
        return f"{head}: not started."
    mover = views.mover(game)
    names = {seat.number: player for seat, player in seated_players(ctx.session, game)}
    who = names.get(mover) if mover is not None else None
    mine = who is not None and ctx.player is not None and who.id == ctx.player.id
    line = f"{head}; turn {game.ply + 1}: " + ("your turn." if mine else
                                               f"{who.display_name if who else 'nobody'} to move.")
    if game.deadline:
        line += f" Deadline: {game.deadline:%Y-%m-%d %H:%M} UTC."
    return line


def _seen(game: Game, cmd: c.Command) -> int:
    """The ply the player saw: the game's, or the one before the turn
    number ``#N`` given; a past turn number is answered "has moved on", a
    future one says which turn the game is at."""
    if cmd.ply is None:
        return game.ply
    if cmd.ply < 1:
        raise BadInput(gettext('turns are numbered from 1; this is turn %(value)s', value=game.ply + 1))
    seen = cmd.ply - 1
    if game.status == ACTIVE and seen > game.ply:
        raise PlyNotReached(
            gettext('turn #%(ply)s has not been reached yet: game %(id)s is at turn #%(value)s (%(value2)s played); to play now, write #%(value)s before your turn, or no number at all', ply=cmd.ply, id=game.id, value=game.ply + 1, value2='1 turn' if game.ply == 1 else f'{game.ply} turns')
        )
    turns.check_seen(game, seen)
    return seen


def turn(ctx: Context, cmd: c.Command) -> None:
    game, player = ctx.game, ctx.player
    assert game is not None and player is not None  # a command in a game: the sender check set both
    seen = _seen(game, cmd)
    played = turns.preview_turn(ctx.session, game.id, player, cmd.argument, seat=ctx.seat_row)
    ctx.claim()
    answer = gettext('You played %(canonical)s in game %(id)s (turn %(value)s). The board now:', canonical=played.canonical, id=game.id, value=seen + 1)
    # the answer is queued once the turn is stored, in its transaction: both are committed or neither
    turns.submit_turn(ctx.session, game.id, player, cmd.argument, seen, "email", played=played,
                      then=lambda _: ctx.reply(answer, ply=seen + 1))


def preview(ctx: Context, cmd: c.Command) -> None:
    game = ctx.game
    assert game is not None and ctx.player is not None  # a command in a game: the sender check set both
    _seen(game, cmd)
    shown = turns.preview_turn(ctx.session, game.id, ctx.player, cmd.argument)
    ctx.claim()
    ctx.reply(gettext('Preview only, nothing was played: after %(canonical)s in game %(id)s the board would be:', canonical=shown.canonical, id=game.id),
              position=views.of_preview(game, ctx.seat, shown).position)
    ctx.commit()


def legal(ctx: Context, cmd: c.Command) -> None:
    game = ctx.game
    assert game is not None  # a command in a game: the sender check set it
    if game.status != ACTIVE:
        raise GameNotActive(gettext('game %(id)s is %(status)s; no more turns can be played', id=game.id, status=gettext(game.status)))
    # as a person reads them: one a line, or grouped by the game (Taiga: by tile and place, then the choices)
    groups, cut = views.legal_groups(game, ctx.seat, MAX_LEGAL_REPLY) if ctx.player is not None else ([], False)
    ctx.claim()
    if not groups:
        ctx.reply(_status_line(ctx) + gettext('\n\nIt is not your turn, so you have no legal turns now.'))
    else:
        listed = sum(group.count for group in groups)
        if cut:
            text = gettext("Your legal turns in game %(id)s (turn %(turn)s): there are more than %(num)s, so only "
                           "the first %(num)s are listed:", id=game.id, turn=game.ply + 1, num=listed)
        else:
            text = gettext("Your legal turns in game %(id)s (turn %(turn)s), %(num)s in all:", id=game.id,
                           turn=game.ply + 1, num=listed)
        if listed > len(groups):
            text += " " + gettext("%(lines)s lines, each naming the turns it stands for (how many in brackets); "
                                  "write the one you choose in full.", lines=len(groups))
        text += "\n\n" + "\n".join("  " + group.text + (f" ({group.count})" if group.count > 1 else "")
                                    for group in groups)
        if cut:
            text += "\n  " + gettext("... and more not listed.")
        ctx.reply(text)
    ctx.commit()


def board(ctx: Context, cmd: c.Command) -> None:
    ctx.claim()
    ctx.reply(_status_line(ctx))
    ctx.commit()


def record(ctx: Context, cmd: c.Command) -> None:
    ctx.claim()
    assert ctx.game is not None  # a command in a game: the sender check set it
    record_text = views.record_text(ctx.session, ctx.game, ctx.seat)
    ctx.reply(gettext('The record of game %(id)s:\n\n%(record_text)s', id=ctx.game.id, record_text=record_text), board=False)
    ctx.commit()


def resign(ctx: Context, cmd: c.Command) -> None:
    game = ctx.game
    assert game is not None and ctx.player is not None  # a command in a game: the sender check set both
    if game.status != ACTIVE:
        raise GameNotActive(gettext('game %(id)s is %(status)s, so you cannot resign', id=game.id, status=gettext(game.status)))
    ctx.claim()
    ctx.reply(gettext('You resigned game %(id)s.', id=game.id), board=False)
    lifecycle.resign(ctx.session, game.id, ctx.player)


def draw(ctx: Context, cmd: c.Command) -> None:
    game = ctx.game
    assert game is not None and ctx.player is not None  # a command in a game: the sender check set both
    if game.status != ACTIVE:
        raise GameNotActive(gettext('game %(id)s is %(status)s, so you cannot offer a draw', id=game.id, status=gettext(game.status)))
    seat = seat_of(ctx.session, game, ctx.player)
    assert seat is not None  # the sender check found the sender seated
    agreeing = gamestate.draw_offer_seats(game) | {seat.number}
    ctx.claim()
    if len(agreeing) == len(seats_of(ctx.session, game)):
        ctx.reply(gettext('You agreed to the draw: game %(id)s is drawn.', id=game.id), board=False)
    else:
        ctx.reply(gettext("You offered a draw in game %(id)s. The game is drawn when every player agrees (by replying 'draw'); a turn played withdraws the offer.", id=game.id), board=False)
    lifecycle.offer_draw(ctx.session, game.id, ctx.player)


def waiting_for(ctx: Context) -> str:
    """Why nothing can be played yet in a game that is inviting: who it waits
    for and how to accept."""
    game = ctx.game
    assert game is not None  # a game waiting for its players
    waiting = [p for seat, p in seated_players(ctx.session, game) if seat.status != ACCEPTED]
    names = ", ".join(f"{p.display_name} ({p.email})" for p in waiting) or "nobody"
    text = f"game {game.id} ({title_of(game)}) has not started yet: it is waiting for {names} to accept the invitation"
    if ctx.player is not None and any(p.id == ctx.player.id for p in waiting):
        text += ("; to join, reply 'accept' (or 'decline') to the invitation mail, "
                 "or use the link in it")
    else:
        text += "; it starts when everyone has accepted (reply 'accept' to the invitation mail, or use its link)"
    return text


def accept(ctx: Context, cmd: c.Command) -> None:
    game = ctx.game
    assert game is not None and ctx.player is not None  # a command in a game: the sender check set both
    if game.status != INVITING:
        hint = "; to agree to the draw on offer, reply 'draw'" if game.status == ACTIVE and game.draw_offer else ""
        raise GameNotActive(gettext('game %(id)s is %(status)s: there is no invitation to accept%(hint)s', id=game.id, status=gettext(game.status), hint=hint))
    others = [seat for seat, p in seated_players(ctx.session, game) if p.id != ctx.player.id]
    ctx.claim()
    if all(seat.status == ACCEPTED for seat in others):
        ctx.reply(gettext('You accepted game %(id)s (%(game)s). Everyone has accepted: the game starts now, and the first player gets the board.', id=game.id, game=title_of(game)), board=False)
    else:
        ctx.reply(gettext('You accepted game %(id)s (%(game)s). It starts when everyone has accepted; then the first player gets the board.', id=game.id, game=title_of(game)), board=False)
    lifecycle.accept(ctx.session, game.id, ctx.player)


def decline(ctx: Context, cmd: c.Command) -> None:
    game = ctx.game
    assert game is not None and ctx.player is not None  # a command in a game: the sender check set both
    if game.status != INVITING:
        raise GameNotActive(gettext('game %(id)s is %(status)s: there is no invitation to decline', id=game.id, status=gettext(game.status)))
    ctx.claim()
    ctx.reply(gettext('You declined game %(id)s (%(game)s), so it will not start; the other players are told.', id=game.id, game=title_of(game)),
              board=False)
    lifecycle.decline(ctx.session, game.id, ctx.player)


def set_setting(ctx: Context, cmd: c.Command) -> None:
    """``set <name> <value>``: change a setting the game lets a player change
    at any time (``pbem.services.seat_settings``), whoever's turn it is."""
    game = ctx.game
    assert game is not None and ctx.player is not None  # a command in a game: the sender check set both
    changed = seat_settings.change(ctx.session, game.id, ctx.player, cmd.setting, cmd.argument, commit=False)
    ctx.claim()
    if changed.pending is None:
        text = gettext('Your %(name)s in game %(id)s is %(value)s.', name=changed.setting.name, id=game.id,
                       value=changed.value)
    else:
        text = gettext('Your %(name)s in game %(id)s becomes %(value)s when the next turn is played (by anyone); '
                       'only you see it.', name=changed.setting.name, id=game.id, value=changed.pending)
    ctx.reply(text, board=False)
    ctx.commit()


def settings_(ctx: Context, cmd: c.Command) -> None:
    """``settings``: the sender's settings in the game, as only they see them."""
    game = ctx.game
    assert game is not None and ctx.player is not None  # a command in a game: the sender check set both
    seat = ctx.seat_row if ctx.seat_row is not None and ctx.seat_row.game_id == game.id else seat_of(
        ctx.session, game, ctx.player)
    shown = seat_settings.shown_to(game, seat) if seat is not None else []
    ctx.claim()
    if not shown:
        ctx.reply(gettext('Game %(id)s has no settings to change outside a turn.', id=game.id), board=False)
    else:
        ctx.reply(gettext('Your settings in game %(id)s (only you see them):', id=game.id) + "\n\n"
                  + seat_settings.describe(shown) + "\n\n"
                  + gettext('Change one by replying, for example: %(usage)s', usage=seat_settings.usage(game)),
                  board=False)
    ctx.commit()


def help_(ctx: Context, cmd: c.Command) -> None:
    ctx.claim()
    text = game_help(ctx.settings, ctx.game, ctx.session) if ctx.game is not None else plain_help(ctx.settings)
    ctx.reply(text, board=False)
    ctx.commit()


def games(ctx: Context, cmd: c.Command) -> None:
    ctx.claim()
    rows = games_of(ctx.session, ctx.player) if ctx.player is not None else []
    if not rows:
        ctx.reply(gettext('You (%(sender)s) have no games here.  Start one: new logger with friend@example.org', sender=ctx.msg.sender),
                  board=False)
    else:
        lines = [f"Your games ({ctx.msg.sender}):", ""]
        for game, _seat in rows:
            assert game.id is not None and ctx.player is not None and ctx.player.id is not None  # stored rows
            ctx.game = game
            lines.append("  " + _status_line(ctx))
            address = make_reply_address(list(ctx.settings.secrets), ctx.settings.domain, game.id, ctx.player.id)
            if game.status == ACTIVE:
                lines.append(f"    play by mailing {address}")
            elif game.status == INVITING and _seat.status != ACCEPTED:
                lines.append(f"    you are invited: mail 'accept' (or 'decline') to {address}")
        ctx.game = None
        ctx.reply("\n".join(lines), board=False)
    ctx.commit()


#: games one address may start by mail in a day
NEW_GAMES_PER_DAY = 5


def _may_start(ctx: Context) -> bool:
    """Whether the sender may start a game by mail: only addresses that
    already have an account (signed in on the web, or invited before), at
    most ``NEW_GAMES_PER_DAY`` a day; anyone else is told why (and how to
    sign up), once a day, and False is returned (the message is done)."""
    creator = ctx.player
    if creator is None:
        _refuse_new(ctx, "games are started by mail only from addresses that have signed in on the web "
                         f"at least once.  Sign up (it takes an email address, nothing else): {links.external('/')}")
        return False
    since = utcnow() - timedelta(days=1)
    started = ctx.session.exec(select(func.count()).select_from(Game).where(
        Game.creator_id == creator.id, Game.created_at >= since)).one()
    if started >= NEW_GAMES_PER_DAY:
        _refuse_new(ctx, f"you have started {started} games in the last 24 hours, and {NEW_GAMES_PER_DAY} "
                         f"is the most by mail; try again tomorrow, or start it on the web: {links.external('/')}")
        return False
    return True


def new(ctx: Context, cmd: c.Command) -> None:
    """Start a game (``_may_start`` says who may)."""
    if not _may_start(ctx):
        return
    creator = ctx.player
    assert creator is not None  # _may_start refuses mail from no player
    ctx.claim()
    game = lifecycle.create_game(ctx.session, creator, cmd.argument, list(cmd.addresses), bots=cmd.bots)
    if game.status == ACTIVE and cmd.bots:
        ctx.reply(gettext('Game %(id)s (%(game)s) against the computer has started; the board comes when it is your turn.', id=game.id, game=title_of(game)), board=False)
    elif game.status == ACTIVE:  # a game of one player starts at once
        ctx.reply(gettext('Game %(id)s (%(game)s) has started; the board comes in the next mail.', id=game.id, game=title_of(game)), board=False)
    else:
        ctx.reply(gettext('Game %(id)s (%(game)s) is created and %(join)s invited by mail. It starts when everyone has accepted; then the first player gets the board.', id=game.id, game=title_of(game), join=', '.join(cmd.addresses)), board=False)
    ctx.commit()


def puzzle(ctx: Context, cmd: c.Command) -> None:
    """Start a game of puzzle N (``_may_start`` says who may; strangers are
    answered once a day, whatever the number)."""
    if not _may_start(ctx):
        return
    found = puzzles.load(ctx.session, cmd.argument)  # NotFound names the numbers there are
    assert ctx.player is not None  # _may_start refuses mail from no player
    ctx.claim()
    game = puzzles.start_game(ctx.session, ctx.player, found.id)
    ctx.reply(gettext('Game %(id)s (%(found)s, %(found2)s) has started; the board comes in the next mail. Leaderboard: %(external)s', id=game.id, found=name_of(found), found2=par_text(found), external=links.external(f'/puzzles/{found.id}')), board=False)
    ctx.commit()


def puzzle_list(ctx: Context, cmd: c.Command) -> None:
    """Today's puzzles and the recent ones, with par and how to play them."""
    ctx.claim()
    shown = puzzles.listed(ctx.session, 10)
    if not shown:
        ctx.reply(gettext('There are no puzzles yet; a new one is made every day.'), board=False)
    else:
        today = {p.id for p in puzzles.today(ctx.session)}
        lines = ["Puzzles (a published deal anyone may play; fewest wins), newest first:", ""]
        for item in shown:
            mark = " (today's)" if item.id in today else ""
            lines.append(f"  puzzle {item.id}: {name_of(item)}{mark}, {par_text(item)}")
        lines += ["", f"To play one, send 'puzzle <number>' (e.g. puzzle {shown[0].id}) to {ctx.settings.robot_address}.",
                  f"Leaderboards: {links.external('/puzzles')}"]
        ctx.reply("\n".join(lines), board=False)
    ctx.commit()


def _refuse_new(ctx: Context, why: str) -> None:
    ctx.claim()
    assert ctx.msg.sender is not None  # _process answers only mail with a sender
    if once_a_day(ctx.session, ctx.msg.sender, "new-refused"):
        ctx.reply(gettext('No game was started: %(why)s\n\n(You get this explanation at most once a day.)', why=why), board=False)
    ctx.commit()


def unhandled(ctx: Context, cmd: c.Command) -> None:
    """A command the mail robot knows but cannot do by mail."""
    ctx.claim()
    ctx.reply(gettext("'%(line)s' cannot be done by mail; use the web site: %(external)s. Nothing was changed.", line=cmd.line, external=links.external('/')),
              board=False)
    ctx.commit()


def _command(name: str, syntax: str, description: str, action: Callable[[Context, c.Command], None],
             cls: type[MailCommand] = MailCommand, **more: Any) -> MailCommand:
    return cls(c.WORDS[name], syntax, description, action, **more)


#: every command, by name, in the order the help lists them
COMMANDS: dict[str, MailCommand] = {command.name: command for command in (
    _command(c.TURN, "<turn>", N_("your turn in the game's notation, e.g. %(example)s"), turn,
             forms=(("#12 <turn>", N_("the same, answering turn 12: refused if the game has moved on")),)),
    _command(c.PREVIEW, "preview <turn>", N_("the board after that turn, without playing it"), preview),
    _command(c.LEGAL, "legal", N_("the turns you may play now"), legal),
    _command(c.BOARD, "board", N_("the board now"), board, before_start=True),
    _command(c.RECORD, "record", N_("the game record"), record),
    _command(c.RESIGN, "resign", N_("resign the game"), resign, alone=N_("give up (end the game)")),
    _command(c.DRAW, "draw", N_("offer a draw, or accept the one offered"), draw, alone=None),
    _command(c.ACCEPT, "accept", N_("accept the invitation to a game that has not started"), accept,
             before_start=True),
    _command(c.DECLINE, "decline", N_("decline the invitation: the game is cancelled"), decline, before_start=True),
    _command(c.VACATION, "vacation <days>", N_("pause your clocks for that many days (0 ends it)"),
             vacations.by_mail, section=UNLISTED),
    _command(c.SETTINGS, "settings", N_("your settings in this game (only you see them)"), settings_,
             section=ANY_TIME),
    _command(c.SET, "set <setting> <value>", N_("change one of your settings in this game"), set_setting,
             SettingCommand, section=ANY_TIME),
    _command(c.GAMES, "games", N_("your games, with the address to play each"), games, section=UNLISTED),
    _command(c.NEW, "new <game> with <addresses>",
             N_("start a game and invite them (%(names)s),\ne.g. new logger with bob@example.org"), new,
             section=UNLISTED,
             forms=(("new <game>", N_("start a game of one player (a solitaire),\ne.g. new greenhouse")),
                    ("new <game> vs bot [level]",
                     N_("play the computer, e.g. new logger vs bot hard\n(levels: %(levels)s)")))),
    _command(c.PUZZLES, "puzzles", N_("today's and recent puzzles, with par"), puzzle_list, section=UNLISTED),
    _command(c.PUZZLE, "puzzle <number>",
             N_("play that puzzle (a published deal; the\nleaderboard ranks the fewest), e.g. puzzle 1"), puzzle,
             section=UNLISTED),
    _command(c.HELP, "help", N_("this text"), help_, before_start=True),
)}

#: what may be done in a game that has not started (others are answered with
#: ``waiting_for``)
BEFORE_START = frozenset({name for name, command in COMMANDS.items() if command.before_start} | {c.INVALID})

_SQUARE = re.compile(r"[A-Za-z]\d")


def looks_like_turn(text: str) -> bool:
    """A line that names a square and is short: meant as a turn, so an
    error is worth a reply (free text before the turn is skipped)."""
    return bool(_SQUARE.search(text)) and len(text.split()) <= 8
