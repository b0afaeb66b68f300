"""The deadline sweep and the timeout policies: reminders sent when due,
and what happens when a deadline passes (claim, forfeit, out); claiming the
win on time.  Each turn's deadline is ``pbem.services.clock.deadlines``.

Deadlines live in the database.  ``games.next_check_at`` (indexed) holds the
next moment the sweep must look at a game: the next reminder due or the
deadline.  ``sweep`` reads the games due (a plain read, no locks) and hands
them, a chunk at a time, to the set-based pass of
``pbem.services.sweep_reminders`` (reminders in bulk, one short transaction
per chunk).  What that pass leaves (timeouts above all) it takes one at a
time, each in a short transaction of its own: it claims the
game (on PostgreSQL the one row is first locked with ``SELECT ... FOR NO KEY
UPDATE SKIP LOCKED``, so two sweeps take different games; then a conditional
UPDATE on the ``next_check_at``, ``ply`` and ``status`` it read), records the
reminder or timeout (``reminders_sent`` and ``timeouts`` have unique keys per
game and ply), queues the mail, sets the next check and commits.  A game is
held only while it is handled, so a player's turn never waits for a batch.
A reminder changes only ``next_check_at``, which a turn does not check, so
it never makes a turn "move on".  A timeout that changes the position (a
forfeited turn, the turns of a player put out) is written by the one writer
of turns, ``pbem.services.transition``, through the same conditional UPDATE
on the ply as ``submit_turn``, so a turn and a timeout never both apply;
this module keeps the policy: which turn to forfeit, whom to put out, what
the players are told.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Callable

from sqlalchemy import Connection, Engine, and_, or_
from sqlmodel import Session, col, select

from notation.record import FORFEIT  # the stored and recorded text of a forfeited turn
from pbem.db import rolls_back
from pbem.i18n import for_player, gettext
from pbem.models import ACTIVE, Game, Player, Seat, Turn, utcnow
from pbem.models.clock import ReminderSent, Timeout
from pbem.services import gamestate, notify, transition
from pbem.services.clock.deadlines import control_of, mover_seat, next_check, reminder_hours, reminders_sent
from pbem.services.errors import Conflict, GameNotActive
from pbem.services.stored import game_for_player, is_solitaire, kind_of, seated_players, state_of
from pbem.services.sweep_reminders import remind_many, reminder_mail
from pbem.services.transition import CLOCK_SOURCE, Move, out_seats, short

log = logging.getLogger(__name__)

#: ``turns.text`` of a turn forfeited because time ran out (that of a player
#: out of the game is ``transition.OUT_TEXT``)
TIMED_OUT_TEXT = "(time ran out)"


@dataclass
class Swept:
    """What one sweep did."""

    games: int = 0
    reminders: int = 0
    timeouts: int = 0


# -- the sweep ---------------------------------------------------------------
#: games a set-based pass takes at once.  SQLite locks the whole database
#: for a chunk's transaction, so its chunks stay short (a turn waits for at
#: most one); PostgreSQL locks only the chunk's games, and there each chunk
#: costs round trips to the server (about a dozen statements), so it takes
#: twice as many (a sweep of 1,000 reminders: 0.37 s instead of 0.5-0.6 s)
CHUNK = 50
CHUNKS = {"postgresql": 100}


def sweep(engine: Engine, now: datetime | None = None, batch: int = 500, chunk: int | None = None) -> Swept:
    """Send every reminder due and handle every deadline passed at ``now``.
    Safe to run twice, or in two processes at once.  Needs an app context
    (for links in the mail).

    The due games are read ``batch`` at a time without locking anything.
    Their reminders are handled ``chunk`` games at a time (by default
    ``CHUNKS`` for the database, else ``CHUNK``) by a set-based
    pass (``pbem.services.sweep_reminders``: a fixed number of statements
    and one short transaction per chunk); timeouts, and any game the pass
    leaves (a chunk that failed, a game without a clock), are then claimed,
    handled and committed one at a time (``sweep_game``).  A game is held
    only while its chunk or itself is handled, so a player's turn never
    waits for the rest of the batch."""
    now = now or utcnow()
    chunk = max(1, CHUNKS.get(engine.dialect.name, CHUNK) if chunk is None else chunk)
    total = Swept()
    after: tuple[datetime, int] | None = None
    with engine.connect() as connection:  # one connection; a transaction per chunk or game
        while True:
            with connection.begin():
                due = _due(connection, now, batch, after)
            for first in range(0, len(due), chunk):
                ids = [game_id for _, game_id in due[first:first + chunk]]
                done, one_by_one = remind_many(connection, ids, now)
                for game_id in one_by_one:
                    result = sweep_game(connection, game_id, now)
                    if result is not None:
                        done[game_id] = result
                total.games += len(done)
                total.reminders += sum(result == "reminder" for result in done.values())
                total.timeouts += sum(result == "timeout" for result in done.values())
            if len(due) < batch:
                return total
            after = due[-1]


def _due(connection: Connection, now: datetime, batch: int,
         after: tuple[datetime, int] | None) -> list[tuple[datetime, int]]:
    """The next ``batch`` games due at ``now`` (next check and id, in that
    order), after ``after``; a plain read that locks nothing."""
    query = select(Game.next_check_at, Game.id).where(col(Game.next_check_at) <= now, Game.status == ACTIVE)
    if after is not None:
        at, last = after
        query = query.where(or_(col(Game.next_check_at) > at,
                                and_(col(Game.next_check_at) == at, col(Game.id) > last)))
    rows = connection.execute(query.order_by(col(Game.next_check_at), col(Game.id)).limit(batch))
    return [(at, game_id) for at, game_id in rows]


def sweep_game(bind: Engine | Connection, game_id: int, now: datetime) -> str | None:
    """Claim game ``game_id`` if it is still due at ``now``, do what is due
    and commit, all in one short transaction of its own: "reminder",
    "timeout" or "nothing"; None when another sweep or a turn got there
    first, or the game failed (logged; the next sweep tries again).

    On PostgreSQL the one row is locked with ``SELECT ... FOR NO KEY UPDATE
    SKIP LOCKED`` (a game another sweep or a turn holds is left to it; rows
    that refer to the game can still be written).  On SQLite the read takes
    no lock (pysqlite begins the transaction at the first write); in both,
    the conditional UPDATE of ``_claim`` decides."""
    with Session(bind, expire_on_commit=False) as session:
        try:
            query = select(Game).where(Game.id == game_id, col(Game.next_check_at) <= now, Game.status == ACTIVE)
            if bind.dialect.name == "postgresql":
                query = query.with_for_update(skip_locked=True, key_share=True)
            game = session.exec(query).first()
            done = _check(session, game, now) if game is not None else None
            if done is None:
                session.rollback()
                return None
            session.commit()
            return done
        except Exception:  # one broken game must not stop the others
            log.exception("deadline sweep: game %s failed", game_id)
            session.rollback()
            return None


def _claim(session: Session, game: Game, **values: Any) -> bool:
    """Take the game for this sweep: only if it is as we read it (ply,
    status and next check)."""
    return gamestate.claim(session, game, game.ply, ACTIVE, expected_check=game.next_check_at, **values)


def _check(session: Session, game: Game, now: datetime) -> str | None:
    """Do what is due for one game; None when another sweep or a turn got
    there first."""
    seat = mover_seat(session, game)
    if game.deadline is None or seat is None or control_of(game) is None:
        return "nothing" if _claim(session, game, next_check_at=None) else None
    if now >= game.deadline:
        return timeout(session, game, seat, now)
    start = game.turn_started_at or game.started_at or now
    hours = reminder_hours(session, seat.player_id)
    sent = reminders_sent(session, game)
    due = [h for h in hours if h not in sent and start < game.deadline - timedelta(hours=h) <= now]
    if not _claim(session, game, next_check_at=next_check(game.deadline, start, hours, sent | set(due))):
        return None
    if not due:
        return "nothing"
    assert game.id is not None  # a stored game
    for h in due:
        session.add(ReminderSent(game_id=game.id, ply=game.ply, hours=h, player_id=seat.player_id, sent_at=now))
    session.flush()  # a duplicate fails here, and the rollback undoes the mail too
    player = session.get(Player, seat.player_id)
    assert player is not None  # the seat's foreign key holds a player
    _remind(session, game, player, seat, game.deadline - now)
    return "reminder"


def _remind(session: Session, game: Game, player: Player, seat: Seat, left: timedelta) -> None:
    with for_player(player):
        subject, lines, after = reminder_mail(game, seat.number, left)
    notify.send(session, player, game, subject, lines, after=after)


# -- timeouts ----------------------------------------------------------------
def timeout(session: Session, game: Game, seat: Seat, now: datetime) -> str | None:
    """The mover's time ran out: apply the game's policy."""
    control = control_of(game)
    assert control is not None  # _check times out only a game with a time control
    player = session.get(Player, seat.player_id)
    assert player is not None  # the seat's foreign key holds a player
    kind = kind_of(game)
    who = f"player {kind.notation.player_label(seat.number)} ({player.display_name})"
    policy = control.on_timeout
    if policy == "forfeit":
        try:
            after = kind.rules.forfeit_turn(state_of(game))
        except NotImplementedError:
            return _wait(session, game, seat, who, now, fallback=True)
        return _forfeit(session, game, seat, who, after, now)
    if policy == "out":
        return _out(session, game, seat, who, now)
    return _wait(session, game, seat, who, now)


def _record(session: Session, game: Game, seat: Seat, policy: str, outcome: str, now: datetime,
            ply: int | None = None) -> None:
    """The timeout of the turn after ``ply`` turns (default: the game's ply;
    pass it when the claim has already moved the game on)."""
    assert game.id is not None  # a stored game
    session.add(Timeout(game_id=game.id, ply=game.ply if ply is None else ply, seat=seat.number, policy=policy,
                        outcome=outcome, created_at=now))
    session.flush()


def _wait(session: Session, game: Game, seat: Seat, who: str, now: datetime, fallback: bool = False) -> str | None:
    ply = game.ply
    if not _claim(session, game, next_check_at=None):
        return None
    _record(session, game, seat, "forfeit" if fallback else "claim", "waiting", now)
    why = (f"{kind_of(game).rules.title or game.kind} has no forfeited turn, so instead the game waits: "
           if fallback else "")
    for other_seat, other in seated_players(session, game):
        if other_seat.number == seat.number:
            lines = [f"Your time for turn {ply + 1} ran out at {game.deadline:%Y-%m-%d %H:%M} UTC.",
                     why + "you may still play your turn until another player claims the win."]
        else:
            lines = [f"{who} ran out of time for turn {ply + 1}.",
                     why + f"you may claim the win on the game page ({notify.game_link(game)}) "
                     f"or with POST /api/v1/games/{game.id}/claim, or wait for their turn."]
        notify.send(session, other, game, "time ran out", lines, after=[])
    return "timeout"


def _forfeit(session: Session, game: Game, seat: Seat, who: str, after: Any, now: datetime) -> str | None:
    """The forfeit policy: the server plays the mover's turn as the game's
    forfeited turn (``after``: the state it leads to), through the one
    writer of turns."""
    ply = game.ply
    move = Move(seat, TIMED_OUT_TEXT, FORFEIT, after, CLOCK_SOURCE)
    written = transition.write(session, game, ply, now, move, as_due=True,
                               headline=f"{who} ran out of time: turn {ply + 1} was forfeited.",
                               then=lambda _: _record(session, game, seat, "forfeit", "forfeited", now, ply=ply))
    return None if written is None else "timeout"


def _out(session: Session, game: Game, seat: Seat, who: str, now: datetime) -> str | None:
    """The out policy: the player is out of the game.  It goes on without
    them, their turns forfeited at once, and the last player left wins.  In
    games without a forfeited turn the game ends: the others share the
    result."""
    kind = kind_of(game)
    label = kind.notation.player_label
    state, ply = state_of(game), game.ply
    seated = seated_players(session, game)
    try:
        kind.rules.forfeit_turn(state)
    except NotImplementedError:
        others = [s.number for s, _ in seated if s.number != seat.number]
        termination = short(f"{who} ran out of time")
        if not _claim(session, game, **gamestate.finish_values(others, termination, now)):
            return None
        _record(session, game, seat, "out", "out", now, ply=ply)
        notify.ended(session, game, termination + ", and is out of the game.")
        return "timeout"
    out = {**out_seats(session, game), seat.number: ply}
    left = [(s, p) for s, p in seated if s.number not in out]
    headline = (f"{who} ran out of time for turn {ply + 1} and is out of the game: "
                "their turns are skipped, and they cannot win.")

    def put_out(_: Any = None) -> None:  # after the claim: the seat, the record and the mail
        seat.out_after = ply
        session.add(seat)
        _record(session, game, seat, "out", "out", now, ply=ply)
        session.flush()
        if game.status == ACTIVE:
            notify.position(session, game, headline)
        else:
            assert game.termination is not None  # the claim that ended the game set it
            notify.ended(session, game, game.termination + "." if len(left) == 1 else f"{headline} {game.termination[:1].upper()}{game.termination[1:]}.")

    if len(left) == 1:  # the game ends, no turn is played: the last player left wins
        last_seat, last = left[0]
        termination = f"{who} ran out of time and is out of the game"
        if len(seated) > 2:
            termination += f"; player {label(last_seat.number)} ({last.display_name}) is the last player left"
        if not _claim(session, game, **gamestate.finish_values([last_seat.number], short(termination), now)):
            return None
        put_out()
        return "timeout"
    # the game goes on without them: their turns (the first now) are forfeited through the one writer of turns
    written = transition.write(session, game, ply, now, state=state, out=out, as_due=True, then=put_out)
    return None if written is None else "timeout"


# -- claiming the win ----------------------------------------------------------
@rolls_back
def claim_win(session: Session, game_id: Any, player: Player, now: datetime | None = None) -> Game:
    """An opponent of a player whose time ran out claims the win (two
    players: the claimant wins; more: every player but the one out of time
    shares the result).  ``Conflict`` when there is nothing to claim."""
    now = now or utcnow()
    game, seat = game_for_player(session, game_id, player)
    if game.status != ACTIVE:
        raise GameNotActive(gettext('game %(id)s is %(status)s, so there is no win to claim', id=game.id, status=gettext(game.status)))
    if is_solitaire(session, game):
        raise Conflict(gettext('game %(id)s is a game of one player, so there is nobody to claim a win from; to end it, give up (resign)', id=game.id))
    mover = mover_seat(session, game)
    if mover is None or game.deadline is None:
        raise Conflict(gettext('game %(id)s has no time limit, so there is no win to claim on time', id=game.id))
    control = control_of(game)
    assert control is not None  # a game with a deadline has a time control
    if mover.number == seat.number:
        raise Conflict(gettext('it is your own turn; play it instead of claiming'))
    if now < game.deadline:
        raise Conflict(gettext('the player to move has until %(deadline)s UTC; you may claim the win only after that', deadline=format(game.deadline, '%Y-%m-%d %H:%M')))
    if not _may_claim(session, game):
        raise Conflict(gettext('in game %(id)s a turn whose time runs out is %(value)s by the server, so there is no win to claim', id=game.id, value=gettext('forfeited') if control.on_timeout == 'forfeit' else gettext('lost')))
    kind = kind_of(game)
    label = kind.notation.player_label
    late = session.get(Player, mover.player_id)
    assert late is not None  # the seat's foreign key holds a player
    others = [s.number for s, _ in seated_players(session, game) if s.number != mover.number]
    termination = (f"player {label(mover.number)} ({late.display_name}) ran out of time; "
                   f"player {label(seat.number)} ({player.display_name}) claimed the win")
    ply = game.ply
    if not gamestate.finish(session, game, others, termination, now):
        session.rollback()
        raise Conflict(gettext('game %(id)s changed while you were looking (a turn may have been played); reload it', id=game.id))
    if not session.exec(select(Timeout).where(Timeout.game_id == game.id, Timeout.ply == ply)).first():
        assert game.id is not None  # a stored game
        session.add(Timeout(game_id=game.id, ply=ply, seat=mover.number, policy=control.on_timeout,
                            outcome="claimed", created_at=now))
    notify.ended(session, game, termination + ".")
    session.commit()
    return game


def claimable(session: Session, game: Game, player: Player, now: datetime | None = None) -> bool:
    """May ``player`` claim the win on time in ``game`` now?"""
    now = now or utcnow()
    if game.status != ACTIVE or game.deadline is None or now < game.deadline:
        return False
    mover = mover_seat(session, game)
    return mover is not None and mover.player_id != player.id and _may_claim(session, game)


def _may_claim(session: Session, game: Game) -> bool:
    """Claims are for the claim policy, and for forfeit in games without a
    forfeited turn (the sweep then lets the game wait)."""
    control = control_of(game)
    assert control is not None  # the callers ask only of a game with a deadline, so with a time control
    if control.on_timeout == "claim":
        return True
    row = session.exec(select(Timeout).where(Timeout.game_id == game.id, Timeout.ply == game.ply)).first()
    return row is not None and row.outcome == "waiting"


# -- records -------------------------------------------------------------------
def record_turns(turns: list[Turn], label: Callable[[int], str]) -> tuple[list[str], dict[str, str]]:
    """How a game's turns go into its record: the turn texts (a forfeited
    turn is the record format's ``--``, which replays as the game's
    forfeited turn) and a ``Forfeited`` tag naming each forfeited turn."""
    tags: dict[str, str] = {}
    forfeited = [f"turn {t.ply} (player {label(t.seat)})" for t in turns if t.source == CLOCK_SOURCE]
    if forfeited:
        tags["Forfeited"] = "; ".join(forfeited)
    return [turn.canonical for turn in turns], tags
