"""The mail each game event sends, as structured outbox rows: the words
before the board, the words after it, the game, the ply and the recipient's
seat.  The board itself (text, PNG) and the move list are drawn when the
mail is sent, for that recipient's seat, through the one chokepoint
``pbem.services.visibility`` (``pbem.mailrobot.outgoing``); nothing here formats
a position.  Called by the services inside their transaction."""

from __future__ import annotations

import enum
from typing import Any, Final

from sqlmodel import Session

from engine.i18n import current_language
from pbem import links
from pbem.db import insert_rows
from pbem.i18n import for_player, gettext
from pbem.models import Game, Player, Seat
from pbem.services import outbox, par
from pbem.services.digest import prefers_digest
from pbem.services.refusals import refusing
from pbem.services.stored import Seated, kind_of, seat_of, seated_players, title_of, to_move
from pbem.services.stored_words import shown


def game_link(game: Game) -> str:
    return links.external(f"/games/{game.id}")


def seed_lines(game: Game, session: Session | None = None) -> list[str]:
    """For a game that uses chance: the seed's SHA-256 while the game is
    on (the seed itself is secret until the end), the seed once it is over;
    a seed published before the start (a puzzle) is named from the start,
    and a finished puzzle game says how far from par it was."""
    if not game.seed_hash:
        return []
    puzzle = par.puzzle_of(session, game) if session is not None else None
    if session is not None and par.seed_is_public(session, game):
        lines = ["", gettext("The deal's seed is published (anyone may play this deal): %(seed)s "
                             "(SHA-256 %(hash)s).", seed=game.seed, hash=game.seed_hash)]
        if puzzle is not None:
            lines += [gettext("This is %(puzzle)s: %(par)s; its leaderboard: %(link)s", puzzle=par.name_of(puzzle),
                              par=par.par_text(puzzle), link=links.external(f'/puzzles/{puzzle.id}'))]
            distance = par.distance(session, game, puzzle)
            if distance:
                lines += [gettext("Your result: %(result)s.", result=distance)]
        return lines
    if game.status in ("inviting", "active"):
        return ["", gettext("The deal's seed has SHA-256 %(hash)s; the seed is revealed when the game ends, "
                            "so you can check the deal.", hash=game.seed_hash)]
    return ["", gettext("The deal's seed, revealed now the game is over: %(seed)s (SHA-256 %(hash)s).",
                        seed=game.seed, hash=game.seed_hash)]


class _Unread(enum.Enum):
    """``send``'s seat when the caller has not read it."""

    UNREAD = enum.auto()


_UNREAD: Final = _Unread.UNREAD


def send(session: Session, player: Player, game: Game, subject: str, lines: list[str], kind: str = "game",
         after: list[str] | None = None, *, seat: Seat | None | _Unread = _UNREAD,
         refused: set[str] | None = None, pending: list[Any] | None = None) -> None:
    """Queue a mail about ``game`` at its ply for ``player``.  With
    ``after``, the board goes between ``lines`` and ``after`` (drawn at send
    time for the player's seat); without, it follows all the words, as in
    every mail about a started game.  A caller that has read the player's
    ``seat`` (None: not seated) and which recipients refuse mail
    (``refused``, see ``outbox.queue``) passes them; ``pending`` collects
    the message to be inserted by the caller (``outbox.queue``)."""
    if seat is _UNREAD:
        seat = seat_of(session, game, player)
    with for_player(player):  # lazy words (``lazy_gettext``) read in the recipient's language
        body, after_board = mail_words(game, [str(line) for line in lines],
                                       None if after is None else [str(line) for line in after])
        subject = gettext("Game %(id)s (%(game)s): %(subject)s", id=game.id, game=title_of(game), subject=str(subject))
    outbox.queue(session, player.email, subject, body, game_id=game.id,
                 ply=game.ply, kind=kind, seat=seat.number if seat is not None else None, after_board=after_board,
                 refused=refused, pending=pending)


def mail_words(game: Game, lines: list[str], after: list[str] | None = None) -> tuple[str, str]:
    """A game mail's words as stored: the body (before the board) and the
    words after the board, the game's link last (see ``send``)."""
    link = ["", gettext("The game: %(link)s", link=game_link(game)),
            gettext("How to play %(game)s: %(link)s", game=title_of(game), link=links.guide(game.kind)), ""]
    if after is None:
        return "\n".join(lines + link), ""
    return "\n".join(lines), "\n".join(after + link).strip("\n")


def invitation(session: Session, game: Game, creator: Player, invitee: Player, sign_in_link: str) -> None:
    names = ", ".join(p.display_name for _, p in seated_players(session, game))
    with for_player(invitee):
        subject = gettext("%(name)s invites you", name=creator.display_name)
        lines = [
            gettext("%(name)s (%(email)s) invites you to a game of %(game)s.", name=creator.display_name,
                    email=creator.email, game=title_of(game)),
            gettext("Players: %(names)s.", names=names),
            "",
            gettext("To join, reply 'accept' to this mail (or 'decline' to refuse); the game starts when everyone "
                    "has accepted."),
            gettext("Or use the link: accept or decline here (this link signs you in): %(link)s", link=sign_in_link),
        ]
    send(session, invitee, game, subject, lines, kind="invitation")


def declined(session: Session, game: Game, decliner: Player) -> None:
    for _, player in seated_players(session, game):
        if player.id != decliner.id:
            with for_player(player):
                subject = gettext("cancelled")
                lines = [gettext("%(name)s declined, so the game will not start.", name=decliner.display_name)]
            send(session, player, game, subject, lines, kind="cancelled")


def position(session: Session, game: Game, headline: str, actor: Player | None = None,
             seated: Seated | None = None, pending: list[Any] | None = None) -> None:
    """After the start or a turn: the player to move gets 'your turn'; the
    other players, except ``actor`` (who just played and has seen it), get
    'a turn was played' with the new position; everyone hears when the game
    is over.  Players who take the daily digest get no per-move mail.
    ``seated`` (``play.load_seated``), when the caller read it, saves
    reading the seats, players and digest choices again.  With ``pending``
    (a list) the mail rows are added to it for the caller to INSERT with
    its own rows (``pbem.db.insert_rows``), else they are inserted here."""
    kind = kind_of(game)
    mover = to_move(game)
    mover_label = kind.notation.player_label(mover) if mover is not None else ""
    pairs = seated.seats if seated is not None else seated_players(session, game)
    recipients = []
    for seat, player in pairs:
        if game.status == "active":
            if actor is not None and player.id == actor.id:
                continue
            digest = player.id in seated.digest if seated is not None else _prefers_digest(session, player)
            if digest:
                continue  # held back: the daily digest lists the game (pbem.services.digest)
        recipients.append((seat, player))
    refused = _refused(session, seated, [player.email for _, player in recipients])
    inserting = pending is None
    pending = [] if pending is None else pending
    for seat, player in recipients:
        with for_player(player):  # the words and the mail in one block: ``send`` sets no language again
            subject, lead, mail_kind, after = _position_words(session, game, pairs, seat, mover, mover_label, actor)
            send(session, player, game, subject, [str(headline), lead], kind=mail_kind, after=after, seat=seat,
                 refused=refused, pending=pending)
    if inserting:
        insert_rows(session, pending)  # the mail, in one INSERT


def _position_words(session: Session, game: Game, pairs: list[tuple[Seat, Player]], seat: Seat, mover: int | None,
                    mover_label: str,
                    actor: Player | None) -> tuple[str, str, str, list[str]]:
    """The subject, the lead line, the kind and the words after the board
    of one recipient's mail about the position (in the language of the moment)."""
    if game.status != "active":
        subject, lead, mail_kind = (outcome(session, game, pairs),
                                    shown(game.termination, current_language()) or gettext("The game is over."),
                                    "game_over")
    elif seat.number == mover:
        subject, mail_kind = gettext("your turn"), "your_turn"
        lead = gettext("It is your turn (player %(player)s), turn %(turn)s.", player=seat.number + 1, turn=game.ply + 1)
    else:
        if actor is not None:
            subject = gettext("a turn was played")
        else:
            subject = gettext("the game has started") if game.ply == 0 else gettext("the game goes on")
        lead = gettext("Player %(player)s is to move next (turn %(turn)s).", player=mover_label, turn=game.ply + 1)
        mail_kind = "turn_played"
    after: list[str] = []
    if game.ply == 0 or game.status != "active":
        after += seed_lines(game, session)
    if game.deadline and mover is not None:
        after += ["", deadline_line(game)]
    return subject, lead, mail_kind, after


def deadline_line(game: Game) -> str:
    """'Deadline: ... UTC' in the language of the moment (also the marker
    by which the sender sees that a mail names its deadline already)."""
    return gettext("Deadline: %(date)s UTC", date=f"{game.deadline:%Y-%m-%d %H:%M}")


def _refused(session: Session, seated: Seated | None, addresses: list[str]) -> set[str]:
    """Which of ``addresses`` refused all mail: read with the game
    (``seated.refused``) for plain addresses, else one statement for all."""
    if seated is not None:
        asked = [a for a in addresses if "+" in a or a != a.strip().lower()]
        found = {a for a in addresses if a in seated.refused}
        return found | (set(refusing(session, asked)) if asked else set())
    return set(refusing(session, addresses)) if addresses else set()


def _prefers_digest(session: Session, player: Player) -> bool:
    assert player.id is not None  # a stored player
    return prefers_digest(session, player.id)


def outcome(session: Session, game: Game, pairs: list[tuple[Seat, Player]] | None = None) -> str:
    """The game-over subject: who won, or between whom it was drawn
    (``pairs``: the game's seats and players, when already read)."""
    label = kind_of(game).notation.player_label
    pairs = seated_players(session, game) if pairs is None else pairs
    names = {label(seat.number): gettext("%(name)s (player %(label)s)", name=player.display_name,
                                         label=label(seat.number))
             for seat, player in pairs}
    parts = [p for p in (game.result or "").split("=") if p and p != "*"]
    if not parts or any(p not in names for p in parts):
        if parts:
            return gettext("game over (%(result)s)", result=game.result)
        if game.status == "abandoned":
            return gettext("game abandoned, no result")
        if game.status == "cancelled":
            return gettext("game cancelled, no result")
        return gettext("game over, no result")
    winners = [names[p] for p in parts]
    if len(winners) == 1:
        return gettext("game over: %(winner)s wins", winner=winners[0])
    between = gettext("%(names)s and %(last)s", names=", ".join(winners[:-1]), last=winners[-1])
    if len(winners) == len(names):
        return gettext("game over: a draw between %(names)s", names=between)
    return gettext("game over: %(names)s share the win", names=between)


def ended(session: Session, game: Game, headline: str) -> None:
    for _, player in seated_players(session, game):
        with for_player(player):
            subject, words, after = (outcome(session, game), shown(headline, current_language()),
                                     seed_lines(game, session))
        send(session, player, game, subject, [words], kind="game_over", after=after)
