"""The one writer of turns: every turn a game stores is built and written
here, whoever played it.  A player's turn (the web, the JSON API, mail, the
command line, a bot: through ``pbem.services.turns.submit_turn``) and the
clock's (a turn forfeited when time ran out, the turns of players out of the
game on time: the deadline sweep's policies in ``pbem.services.sweep``) all
go through ``write``; nothing else changes a game's position.

``write`` refuses a turn longer than ``MAX_TURN`` characters, settles the
chance the turn left open, builds the turn's row, forfeits at once the turns
of players out on time that come next (``values_after``), builds the game
row (the position and ply after them, the next turn's clock, or the end of
the game), charges the mover's time bank and queues the players' mail; then
it applies it all through the claim (``pbem.services.gamestate.advance``,
the conditional UPDATE on the ply the caller read), so of racing turns and
timeouts for the same ply exactly one applies.  A caller adds its own rows
(mail's "You played ..." answer, the sweep's timeout record) in ``then``,
called after the claim and before the caller commits: they are stored with
the turn or not at all.

What is decided elsewhere: which turn a player plays and whether it is legal
(``turns``), which turn the clock forfeits and what the players are told
then (``sweep``).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any, Callable

from sqlmodel import Session, col, select

from engine.base import winners_without
from notation.record import FORFEIT  # the stored and recorded text of a forfeited turn
from pbem.models import Game, Player, Seat, Turn
from pbem.services import gamestate, notify
from pbem.services.clock.deadlines import bank_after_turn, turn_values
from pbem.services.errors import BadInput
from pbem.services.stored import Seated, kind_of, seats_of, settled

MAX_TURN = 500  # characters in a turn, as the API's TurnIn

#: ``turns.source`` of a turn the server played for a player (forfeited)
CLOCK_SOURCE = "clock"
#: ``turns.text`` of the turn of a player out of the game (the out policy),
#: skipped at once
OUT_TEXT = "(out of the game)"


def too_long(text: str, example: str | None = None) -> str:
    """What a turn longer than ``MAX_TURN`` characters is told; ``example``
    (a turn of the game's notation) shows what one turn looks like."""
    such_as = f", such as {example}" if example else ""
    return (f"a turn is at most {MAX_TURN} characters; yours has {len(text)} "
            f"(it begins {text[:30]!r}); write one turn{such_as}")


def refuse_too_long(game: Game, text: str) -> None:
    """``BadInput`` (with ``too_long``'s words) for a turn of more than
    ``MAX_TURN`` characters in ``game``; nothing for a shorter one."""
    if len(text) > MAX_TURN:
        raise BadInput(too_long(text, kind_of(game).notation.example_turn(None)))


@dataclass(frozen=True)
class Move:
    """One turn to store: ``seat`` plays ``text`` (``canonical`` as the
    record writes it), which leads to ``state`` (before chance settles what
    it left open); ``source`` is where it came from (``models.SOURCES``, or
    ``CLOCK_SOURCE``); ``position``: ``state`` formatted, when the caller
    has it already."""

    seat: Seat
    text: str
    canonical: str
    state: Any
    source: str
    position: str | None = None


@dataclass(frozen=True)
class Written:
    """What ``write`` stored: the turn (None when it only skipped the turns
    of players out on time) and the turns forfeited after it."""

    turn: Turn | None
    skipped: tuple[Turn, ...] = ()


def write(session: Session, game: Game, seen: int, now: datetime, move: Move | None = None, *,
          state: Any = None, out: dict[int, int] | None = None, headline: Any = None,
          actor: Player | None = None, seated: Seated | None = None,
          then: Callable[[Written], Any] | None = None, as_due: bool = False,
          last_write: bool = False) -> Written | None:
    """Store ``move`` in ``game`` as read after ``seen`` turns, with the
    turns of players out on time (``out``: seat number -> turns played when
    they went out; default: the game's) forfeited after it; with no
    ``move``, only those turns, from ``state`` (a player just put out).
    None when the game moved on (another turn or timeout got there first):
    then nothing is written and the caller rolls back.  Raises ``BadInput``
    for a turn longer than ``MAX_TURN`` characters, before anything is
    written.  The caller commits.

    ``headline``: the first line of the mail about the new position
    (``notify.position``, with ``actor``, who played and is not told, and
    ``seated``, the seats as the caller read them); queued with the turn's
    rows (on PostgreSQL in the claim's one statement).  None: the caller
    tells the players itself (in ``then``).  ``then(written)`` is called
    after the claim, inside the transaction: the caller's own rows are
    stored with the turn or not at all, and queued before the players' mail
    (a mailed turn's answer is sent before the news of the new position).
    ``as_due``: the sweep's claim, which also requires the game's next
    check as read (a reminder or a vacation changed it: not this turn).
    ``last_write``: the caller writes nothing after it but commits
    (``gamestate.advance``).

    The mover's time bank is charged for the turn that ends: for a player's
    turn with the rows (the next turn's clock is computed before it); for
    the clock's forfeit first, unless the game is over, so that a seat that
    moves again has its bank charged when its next deadline is set."""
    if move is not None:
        refuse_too_long(game, move.text)
    elif state is None:
        raise ValueError("write takes a move, or the state from which to skip the turns of players out")
    kind = kind_of(game)
    started, check = game.turn_started_at, game.next_check_at  # as read: the claim changes them
    ply, turn = seen, None
    if move is not None:
        ply = seen + 1
        # chance decides what the turn left open (a draw, a roll), from the seed
        state, happened = settled(game, move.state, ply)
        if move.source == CLOCK_SOURCE and not kind.rules.is_over(state):
            bank_after_turn(session, game, move.seat, now)
            session.flush()
        turn = Turn.model_construct(  # the values are ours, checked: no validation
            game_id=game.id,
            ply=ply,
            seat=move.seat.number,
            player_id=move.seat.player_id,
            text=move.text,
            canonical=move.canonical,
            position=(move.position if happened is None and move.position is not None
                      else kind.notation.format_position(state)),
            source=move.source,
            created_at=now,
            chance=happened,
        )
    values, skipped = values_after(session, game, state, ply, now, out=out)

    def rows() -> list[Any]:  # the turns and their mail, written with the claim (the game as advanced)
        if move is not None and move.source != CLOCK_SOURCE:
            bank_after_turn(session, game, move.seat, now, started)  # the seat's bank: flushed at the commit
        pending: list[Any] = [turn, *skipped] if turn is not None else list(skipped)
        if headline is not None and then is None:
            notify.position(session, game, headline, actor=actor, seated=seated, pending=pending)
        return pending

    checked = {"expected_check": check} if as_due else {}
    if not gamestate.advance(session, game, seen, values, rows, last_write=last_write, **checked):
        return None
    written = Written(turn, tuple(skipped))
    if then is not None:
        then(written)
        if headline is not None:
            session.flush()  # the caller's rows first
            notify.position(session, game, headline, actor=actor, seated=seated)
    return written


def clock_turn(game: Game, ply: int, seat: Seat, position: str, now: datetime, text: str,
               happened: list[dict[str, Any]] | None = None) -> Turn:
    """A turn the server played for a player through the game's
    ``forfeit_turn``: stored with source ``clock`` and the record's ``--``,
    with the chance events that followed it (``happened``)."""
    assert game.id is not None  # a stored game
    return Turn(game_id=game.id, ply=ply, seat=seat.number, player_id=seat.player_id, text=text,
                canonical=FORFEIT, position=position, source=CLOCK_SOURCE, created_at=now, chance=happened)


def out_seats(session: Session, game: Game) -> dict[int, int]:
    """The seats put out of the game on time: seat number -> the turns
    played when they went out."""
    rows = session.exec(select(Seat).where(Seat.game_id == game.id, col(Seat.out_after).is_not(None)))
    return {seat.number: seat.out_after for seat in rows if seat.out_after is not None}


def short(text: str, limit: int = 200) -> str:
    """``text`` cut to ``limit`` characters (a stored termination)."""
    return text if len(text) <= limit else text[: limit - 3] + "..."


def values_after(session: Session, game: Game, state: Any, ply: int, now: datetime,
                 out: dict[int, int] | None = None) -> tuple[dict[str, Any], list[Turn]]:
    """The games row once ``ply`` turns have led to ``state``, and the turns
    to store with it.  Every turn of a player out of the game (``out``,
    default: the game's out seats) that comes next is forfeited at once, as
    a clock turn; then the game ends (by its rules, or when only one player
    is left in it) or the next player's clock starts.  With players out, the
    result is the best group of the game's ``ranking`` that holds players
    still in the game.  Called by ``write`` before its conditional UPDATE
    on the ply, so it all applies once or not at all."""
    kind = kind_of(game)
    rules = kind.rules
    out = out_seats(session, game) if out is None else out
    skipped: list[Turn] = []
    if out:
        seats = {s.number: s for s in seats_of(session, game)}
        left = [n for n in seats if n not in out]
        for _ in range(len(out)):  # at most every out player once before a player still in
            mover = rules.to_move(state)
            if len(left) < 2 or mover not in out:
                break
            ply += 1
            state, happened = settled(game, rules.forfeit_turn(state), ply)
            skipped.append(clock_turn(game, ply, seats[mover], kind.notation.format_position(state), now, OUT_TEXT,
                                      happened))
    values = gamestate.advance_values(kind.notation.format_position(state), ply, turn_values(session, game, state, now))
    winners = winners_without(rules, state, out) if out else None
    if winners is None and not rules.is_over(state):
        return values, skipped
    outcome = rules.result(state)
    if not out:
        winners = outcome.winners if outcome else ()
        termination = f"game over: {outcome.reason}" if outcome and outcome.reason else "game over"
    else:
        label = kind.notation.player_label
        names = ", ".join(f"player {label(n)}" for n in sorted(out))
        if not rules.is_over(state):
            why = "the only player left in the game"
        elif outcome and tuple(sorted(outcome.winners)) == winners and outcome.reason:
            why = outcome.reason
        else:
            why = "the best placed of the players still in the game"
        termination = f"game over: {why} (out on time: {names})"
    values.update(gamestate.finish_values(winners, short(termination), now))
    return values, skipped
