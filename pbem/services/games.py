"""The game lifecycle: create with invitations, accept or decline, start
when everyone has joined, resign, offer and accept a draw, abandon.

These change a game's status, never its position; turns go through
``pbem.services.turns``.  Each change goes through the one door,
``pbem.services.gamestate``: a conditional UPDATE on the ply and status the
caller saw, so it cannot overwrite a change that raced it (a draw offer read
before a turn was played is refused, not written after the turn).
"""

from __future__ import annotations

import random
from typing import Any, Callable, Iterable

from sqlmodel import Session, col, func, select

from engine import chance
from engine.errors import PbemError
from notation import registry
from pbem.db import rolls_back
from pbem.i18n import gettext, lazy_gettext
from pbem.models import ABANDONED, ACCEPTED, ACTIVE, DECLINED, FINISHED, INVITED, INVITING, Game, Player, Seat, utcnow
from pbem.models.puzzles import PublishedSeedGame, Puzzle
from pbem.services import bot_seats as bot_players
from pbem.services import gamestate, invitations, notify, refusals
from pbem.services.accounts import TooMany, normalize_email, player_for_email, sign_in_link
from pbem.services.clock.deadlines import start_values, time_control_for
from pbem.services.errors import BadInput, Conflict, GameNotActive
from pbem.services.stored import (
    game_for_player,
    is_solitaire,
    kind_of,
    load_game,
    seat_of,
    seated_players,
    seats_of,
    settled,
    start_state,
)

MAX_HOURS = 24 * 365

#: where a game that uses chance gets its seed when it starts (64 hex
#: digits from the operating system's random source); tests may replace it
NEW_SEED: Callable[[], str] = chance.new_seed

#: a one-player game (solitaire) has none of these: nobody to agree with
NOT_IN_SOLITAIRE = "a game of one player has nobody to {what}; to end it, give up (resign)"


def create_game(
    session: Session,
    creator: Player,
    kind_name: Any,
    emails: Iterable[Any],
    options: Any = None,
    random_order: bool = False,
    hours_per_turn: Any = None,
    time_control: Any = None,
    puzzle_id: int | None = None,
    open_seats: Any = 0,
    bots: Iterable[Any] = (),
) -> Game:
    """Create a game of ``kind_name`` for the players at ``emails`` in turn
    order (the creator is put first when not listed), invite the others and
    mail them; commits.  ``BadInput`` names any bad argument; ``RefusesMail``
    (403) an invitee that refused all mail; ``TooMany`` (429) an invitation
    limit reached (``pbem.services.invitations``).

    The option ``seed`` (64 hex digits) deals a one-player game that uses
    chance from that published seed instead of a fresh secret one; the
    game is then recorded as dealt from a published seed (shown from the
    start), and belongs to ``puzzle_id`` (``pbem.services.puzzles``), or
    else to the puzzle with the same game, options and seed, if any.

    ``open_seats`` (a whole number) makes an open challenge: that many
    seats after the listed players, which any signed-in player may take
    from the lobby (``pbem.services.lobby``); the game starts when the
    last is taken.  An open challenge invites nobody by address, and has
    no computer opponent.

    ``bots``: the level of each computer opponent (``pbem.services.bots``;
    "" for the default level), seated after the players listed, accepted
    at once; a game whose only invitees are bots starts at once."""
    try:
        kind = registry.get(kind_name) if isinstance(kind_name, str) else None
        if kind is None:
            raise BadInput(gettext('the game type is one of: %(join)s', join=', '.join(registry.names())))
        if options is not None and not isinstance(options, dict):
            raise BadInput(gettext('options are name=value pairs, such as {"spawn": "seedling"}'))
        options, seed = _published_seed(kind, options or {})
        normalized = kind.rules.normalize_options(options)
    except PbemError as error:
        raise BadInput(str(error)) from None
    if isinstance(emails, (str, bytes)) or not isinstance(emails, Iterable):
        raise BadInput(gettext('players are a list of email addresses in turn order'))
    addresses = [normalize_email(e) for e in emails]
    if creator.email not in addresses:
        addresses.insert(0, creator.email)
    if isinstance(bots, (str, bytes)) or not isinstance(bots, Iterable):
        raise BadInput(gettext('bots are a list of levels, such as ["hard"]'))
    bot_levels = bot_players.check_levels(bots, kind.rules)
    if any(bot_players.is_bot_address(a) for a in addresses):
        raise BadInput(gettext('a bot is asked for by its level (new ... vs bot hard), not by its address'))
    human_count = len(addresses)
    addresses += [bot_players.address_of(level) for level in bot_levels]
    duplicates = sorted({a for a in addresses if addresses.count(a) > 1})
    if duplicates:
        raise BadInput(gettext('each player is listed once; %(duplicates)s appears more than once', duplicates=', '.join(duplicates)))
    if open_seats in ("", None):
        open_seats = 0
    if isinstance(open_seats, str) and open_seats.strip().isdigit():
        open_seats = int(open_seats.strip())
    if not isinstance(open_seats, int) or isinstance(open_seats, bool) or not 0 <= open_seats <= 7:
        raise BadInput(gettext('the open seats are a whole number from 0 to 7 (0: invite by address only); not %(value)s', value=repr(str(open_seats)[:20])))
    if open_seats and bot_levels:
        raise BadInput(gettext('an open challenge waits for players from the lobby; a game against a computer opponent has no open seats: leave the open seats at 0, or ask for no bot'))
    if open_seats and len(addresses) > 1:
        raise BadInput(gettext('an open challenge invites nobody by address: list only yourself and give the number of open seats, or invite your opponents and leave the open seats at 0'))
    try:
        kind.rules.check_players(len(addresses) + open_seats)
    except PbemError as error:
        raise BadInput(gettext('%(error)s (you included%(value)s)', error=error, value=gettext(', with the open seats') if open_seats else '')) from None
    if seed is not None and (len(addresses) != 1 or open_seats):
        raise BadInput(gettext('a seed can be given only for a game of one player: with %(addresses)s players the deal must stay secret; leave the seed empty for a fresh secret one', addresses=len(addresses)))
    if hours_per_turn in ("", None):
        hours = None
    elif isinstance(hours_per_turn, int) and not isinstance(hours_per_turn, bool) and 1 <= hours_per_turn <= MAX_HOURS:
        hours = hours_per_turn
    else:
        raise BadInput(gettext('the time per turn is a whole number of hours from 1 to %(max_hours)s, or empty for no limit', max_hours=MAX_HOURS))
    control = time_control_for(hours, time_control)
    if len(addresses) + open_seats == 1 and control is not None:
        raise BadInput(gettext('a game of one player has no time limit (nobody waits for you, nobody can claim a win or put you out on time); leave the time per turn empty'))
    if open_seats:
        _check_open_challenges(session, creator)
    invited = [address for address in addresses[:human_count] if address != creator.email]
    refusals.check_accepts_mail(session, invited)
    invitations.check(session, creator, invited)
    assert creator.id is not None  # a stored player
    game = Game(
        kind=kind.name,
        options=normalized,
        status=INVITING,
        random_order=bool(random_order),
        hours_per_turn=control.hours_per_turn if control else None,
        time_control=control.to_dict() if control else None,
        creator_id=creator.id,
        open_seats=open_seats,
    )
    session.add(game)
    session.flush()
    assert game.id is not None  # flushed
    invitees = []
    for number, address in enumerate(addresses):
        if number >= human_count:
            player = bot_players.bot_player(session, bot_levels[number - human_count])
        else:
            player = creator if address == creator.email else player_for_email(session, address)
        is_creator = player.id == creator.id or number >= human_count  # a bot accepts at once
        assert player.id is not None  # a stored player
        session.add(
            Seat(
                game_id=game.id,
                player_id=player.id,
                number=number,
                status=ACCEPTED if is_creator else INVITED,
                answered_at=utcnow() if is_creator else None,
            )
        )
        if not is_creator:
            invitees.append(player)
    session.flush()
    for player in invitees:
        notify.invitation(session, game, creator, player, sign_in_link(session, player, f"/games/{game.id}"))
    if seed is not None:
        puzzle = _puzzle_for(session, kind.name, normalized, seed, puzzle_id)
        session.add(PublishedSeedGame(game_id=game.id, puzzle_id=puzzle.id if puzzle else None))
        session.flush()
    if not invitees and not open_seats:  # solitaire: nobody to wait for
        _start(session, game, lazy_gettext("The game has started."), seed=seed)
    session.commit()
    return game


#: how many open challenges (games waiting in the lobby) one player may have at once
MAX_OPEN_CHALLENGES = 10


def _check_open_challenges(session: Session, creator: Player) -> None:
    """``TooMany`` when ``creator`` already has the most open challenges waiting."""
    waiting = session.exec(select(func.count()).select_from(Game).where(
        Game.creator_id == creator.id, Game.status == INVITING, Game.open_seats > 0)).one()
    if waiting >= MAX_OPEN_CHALLENGES:
        raise TooMany(f"you have {waiting} open challenges waiting in the lobby, and {MAX_OPEN_CHALLENGES} is the "
                      "most at once; abandon one, or wait until players join them")


#: the option that deals a game from a published seed
SEED_OPTION = "seed"


def _published_seed(kind: Any, options: dict[str, Any]) -> tuple[dict[str, Any], str | None]:
    """The options without ``seed``, and the seed given (None: none, or empty);
    ``BadInput`` for a seed given to a game without chance or not 64 hex digits."""
    rest = {key: value for key, value in options.items() if str(key).strip().lower() != SEED_OPTION}
    given = [value for key, value in options.items() if str(key).strip().lower() == SEED_OPTION]
    text = str(given[0]).strip().lower() if given and given[0] is not None else ""
    if not text:
        return rest, None
    if not kind.rules.uses_chance:
        raise BadInput(gettext('%(value)s uses no chance, so it takes no seed; leave the seed out', value=kind.rules.title or kind.name))
    chance.read_seed(text)  # SeedError (an OptionError) names the form
    return rest, text


def _puzzle_for(session: Session, kind: str, options: dict[str, Any], seed: str, puzzle_id: int | None) -> Puzzle | None:
    """The puzzle a game dealt from a published seed belongs to: the one
    named, else the oldest with the same game, options and seed, if any."""
    if puzzle_id is not None:
        return session.get(Puzzle, puzzle_id)
    rows = session.exec(select(Puzzle).where(Puzzle.kind == kind, Puzzle.seed == seed).order_by(col(Puzzle.id)))
    return next((p for p in rows if dict(p.options) == options), None)


def _require_status(game: Game, *statuses: str, doing: str) -> None:
    if game.status not in statuses:
        raise GameNotActive(gettext('game %(id)s is %(status)s, so you cannot %(doing)s', id=game.id, status=gettext(game.status), doing=doing))


def _moved(session: Session, game: Game) -> Conflict:
    session.rollback()
    return Conflict(gettext('game %(id)s changed while you were looking; reload it and try again', id=game.id))


@rolls_back
def accept(session: Session, game_id: Any, player: Player) -> Game:
    """Accept an invitation; the game starts when everyone has."""
    game, seat = game_for_player(session, game_id, player)
    _require_status(game, INVITING, doing=gettext("accept an invitation to it"))
    if seat.status == ACCEPTED:
        raise Conflict(gettext('you have already accepted game %(id)s; it starts when everyone has', id=game.id))
    seat.status, seat.answered_at = ACCEPTED, utcnow()
    session.add(seat)
    session.flush()
    if all(s.status == ACCEPTED for s in seats_of(session, game)) and not game.open_seats:
        _start(session, game)
    session.commit()
    return game


#: how often ``join`` tries again when another player took a seat of the same challenge first
JOIN_TRIES = 8


@rolls_back
def join(session: Session, game_id: Any, player: Player) -> Game:
    """Take an open seat of an open challenge (the lobby); the game starts
    when the last one is taken.  Of players racing for the last seat,
    exactly one gets it (``gamestate.take_open_seat``, a conditional
    UPDATE); the others are told it was taken.  When another player took a
    seat at the same moment and seats are left, it tries again."""
    for _ in range(JOIN_TRIES):
        game = load_game(session, game_id)
        if seat_of(session, game, player) is not None:
            raise Conflict(gettext('you already have a seat in game %(id)s', id=game.id))
        if game.status != INVITING or not game.open_seats:
            raise Conflict(gettext('game %(id)s has no open seat left; another player took the last one. Look in the lobby for another challenge, or start one', id=game.id))
        if gamestate.take_open_seat(session, game, game.open_seats):
            break
        session.rollback()  # another player took a seat first: read the game again
        session.expire_all()
    else:
        raise Conflict(gettext('game %(game_id)s changed while you were joining it; reload the lobby and try again', game_id=game_id))
    number = len(seats_of(session, game))  # the row is ours until commit: every other seat is in
    assert game.id is not None and player.id is not None  # stored rows
    session.add(Seat(game_id=game.id, player_id=player.id, number=number, status=ACCEPTED, answered_at=utcnow()))
    session.flush()
    for _, other in seated_players(session, game):
        if other.id != player.id:
            notify.send(session, other, game, f"{player.display_name} joined",
                        [f"{player.display_name} took a seat in your open challenge."
                         + ("" if game.open_seats else " Every seat is taken: the game starts.")],
                        kind="joined")
    if not game.open_seats:
        _start(session, game, lazy_gettext("Every seat is taken: the game has started."))
    session.commit()
    return game


@rolls_back
def decline(session: Session, game_id: Any, player: Player) -> Game:
    """Decline an invitation; the game is cancelled."""
    game, seat = game_for_player(session, game_id, player)
    _require_status(game, INVITING, doing=gettext("decline it"))
    if seat.status == ACCEPTED and game.creator_id == player.id:
        raise Conflict(gettext('you created this game; abandon it instead of declining'))
    if seat.status == ACCEPTED:
        raise Conflict(gettext('you have already accepted game %(id)s, so you cannot decline it now; it starts when everyone has accepted, and then you may resign', id=game.id))
    seat.status, seat.answered_at = DECLINED, utcnow()
    session.add(seat)
    if not gamestate.cancel(session, game, f"{player.display_name} declined the invitation", utcnow()):
        raise _moved(session, game)
    notify.declined(session, game, player)
    session.commit()
    return game


#: the headline of the mail that starts a game
STARTED = lazy_gettext("Everyone has accepted: the game has started.")


def _start(session: Session, game: Game, headline: Any = STARTED, seed: str | None = None) -> None:
    kind = kind_of(game)
    seats = seats_of(session, game)
    if game.random_order:
        numbers = list(range(len(seats)))
        random.SystemRandom().shuffle(numbers)
        for seat in seats:  # park the numbers out of the way, then set them
            seat.number += 1000
            session.add(seat)
        session.flush()
        for seat, number in zip(seats, numbers):
            seat.number = number
            session.add(seat)
        session.flush()
    if kind.rules.uses_chance and seed is None:
        seed = NEW_SEED()  # gamestate.start stores it
    elif not kind.rules.uses_chance:
        seed = None
    state, happened = settled(game, start_state(game, len(seats), seed), 0, seed)
    now = utcnow()
    if not gamestate.start(session, game, kind.notation.format_position(state), now,
                           start_values(session, game, state, now), seed=seed, start_chance=happened):
        raise _moved(session, game)
    notify.position(session, game, headline)


def _finish(session: Session, game: Game, winners: list[int] | None, termination: str,
            status: str = FINISHED) -> None:
    if not gamestate.finish(session, game, winners, termination, utcnow(), status=status,
                            expected_status=game.status):
        raise _moved(session, game)
    notify.ended(session, game, termination)


@rolls_back
def resign(session: Session, game_id: Any, player: Player) -> Game:
    """Resign: the other players share the result (the winner, with two)."""
    game, seat = game_for_player(session, game_id, player)
    _require_status(game, ACTIVE, doing=gettext("resign"))
    label = kind_of(game).notation.player_label
    others = [s.number for s in seats_of(session, game) if s.number != seat.number]
    if not others:  # solitaire: nobody wins
        _finish(session, game, [], f"{player.display_name} gave up after {game.ply} turn{'s' if game.ply != 1 else ''}")
    else:
        _finish(session, game, others, f"player {label(seat.number)} ({player.display_name}) resigned")
    session.commit()
    return game


@rolls_back
def offer_draw(session: Session, game_id: Any, player: Player) -> Game:
    """Offer a draw, or agree to one on offer; when every player agrees the
    game ends drawn.  A turn played withdraws the offer."""
    game, seat = game_for_player(session, game_id, player)
    _require_status(game, ACTIVE, doing=gettext("offer a draw"))
    if is_solitaire(session, game):
        raise Conflict(NOT_IN_SOLITAIRE.format(what="offer a draw to"))
    agreeing = gamestate.draw_offer_seats(game)
    if seat.number in agreeing:
        raise Conflict(gettext('you have already offered or agreed to a draw; the other players must agree'))
    agreeing.add(seat.number)
    seats = seats_of(session, game)
    if len(agreeing) == len(seats):
        _finish(session, game, [s.number for s in seats], "drawn by agreement")
    else:
        if not gamestate.offer_draw(session, game, agreeing):
            session.rollback()
            raise Conflict(gettext('game %(id)s has moved on since you looked (a turn was played, which withdraws any draw offer); look at the new position and offer the draw again', id=game.id))
        for other_seat, other in seated_players(session, game):
            if other_seat.number not in agreeing:
                notify.send(session, other, game, "draw offered",
                             [f"{player.display_name} offers a draw. Reply 'draw' to this mail to agree "
                              "(or use the game page)."])
    session.commit()
    return game


def accept_draw(session: Session, game_id: Any, player: Player) -> Game:
    """Agree to the draw on offer; ``Conflict`` when there is none."""
    game, _seat = game_for_player(session, game_id, player)
    if game.status == ACTIVE and is_solitaire(session, game):
        raise Conflict(NOT_IN_SOLITAIRE.format(what="accept a draw from"))
    if game.status == ACTIVE and not gamestate.draw_offer_seats(game):
        raise Conflict(gettext('nobody has offered a draw in game %(id)s; you may offer one', id=game.id))
    return offer_draw(session, game_id, player)


@rolls_back
def abandon(session: Session, game_id: Any, player: Player) -> Game:
    """Abandon a game before it starts (its creator only): the invitations
    are cancelled and it ends without a result.  A game in play cannot be
    abandoned: a player resigns or offers a draw."""
    game, _seat = game_for_player(session, game_id, player)
    if game.status == ACTIVE:
        raise Conflict(gettext('game %(id)s has started, so it cannot be abandoned; resign, or offer a draw (the game is drawn when every player agrees)', id=game.id))
    _require_status(game, INVITING, doing=gettext("abandon it"))
    if game.creator_id != player.id:
        raise Conflict(gettext('only the player who created game %(id)s can abandon it before it starts', id=game.id) + "; decline the invitation instead" if _seat.status == INVITED else "")
    _finish(session, game, None, f"abandoned by {player.display_name} before it started", status=ABANDONED)
    session.commit()
    return game


__all__ = ["create_game", "join", "accept", "decline", "resign", "offer_draw", "accept_draw", "abandon", "DECLINED"]
