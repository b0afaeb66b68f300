"""How many invitations a player may send, and one address may receive.

Counted from the seats (an invitation is a seat in a game that someone else
created, with its ``invited_at``) over the last 24 hours, so the limits hold
across the web, the API and mail ``new`` alike:

* ``INVITATIONS_PER_DAY`` (default 20): invitations one player sends;
* ``INVITATIONS_TO_NEWCOMER_PER_DAY`` (default 3): invitations one address
  receives from everyone, while it has never played here (never accepted a
  seat, nor created a game);
* ``INVITATIONS_TO_PLAYER_PER_DAY`` (default 10): the same for an address
  that has played.

An address's invitations are counted for its mailbox: ``bob+games@x`` and
``bob+1@x`` share the count of ``bob@x`` (most mail services deliver them
to bob's mailbox), so varying the ``+detail`` does not get round a limit.

Going over refuses the whole game with ``TooMany`` (HTTP 429) naming the
limit and when it resets: nothing is created and nothing is mailed.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Sequence

from flask import current_app
from sqlalchemy import and_, func, or_, update
from sqlmodel import Session, col, select

from pbem.models import ACCEPTED, Game, Player, Seat, utcnow
from pbem.services.accounts import TooMany, mailbox

INVITATIONS_PER_DAY = 20
INVITATIONS_TO_NEWCOMER_PER_DAY = 3
INVITATIONS_TO_PLAYER_PER_DAY = 10
WINDOW = timedelta(days=1)


def _limit(name: str, default: int) -> int:
    return int(current_app.config.get(name, default))


def _when(times: Sequence[datetime], over: int) -> str:
    """When ``over`` of the invitations at ``times`` (oldest first) have left the window."""
    if not times or over < 1:
        return "when the server's operator raises the limit"
    reset = times[min(over, len(times)) - 1] + WINDOW
    return f"{reset:%Y-%m-%d %H:%M} UTC"


def _sent_by(session: Session, inviter: Player, since: datetime) -> list[datetime]:
    return list(session.exec(
        select(Seat.invited_at).join(Game, col(Game.id) == Seat.game_id)
        .where(Game.creator_id == inviter.id, Seat.player_id != inviter.id, Seat.invited_at >= since)
        .order_by(col(Seat.invited_at))))


def _received_by(session: Session, invitee: Player, since: datetime) -> list[datetime]:
    return list(session.exec(
        select(Seat.invited_at).join(Game, col(Game.id) == Seat.game_id)
        .where(Seat.player_id == invitee.id, Game.creator_id != invitee.id, Seat.invited_at >= since)
        .order_by(col(Seat.invited_at))))


def _players_of(session: Session, box: str) -> list[Player]:
    """The players whose address is ``box`` or one of its sub-addresses."""
    local, _, domain = box.rpartition("@")
    found = session.exec(select(Player).where(or_(
        col(Player.email) == box,
        and_(col(Player.email).startswith(local + "+", autoescape=True),
             col(Player.email).endswith("@" + domain, autoescape=True)))))
    return [player for player in found if mailbox(player.email) == box]


def has_played(session: Session, player: Player) -> bool:
    """True once ``player`` has accepted a seat (a game's creator accepts their own)."""
    return session.exec(select(func.count()).select_from(Seat).where(
        Seat.player_id == player.id, Seat.status == ACCEPTED)).one() > 0


def _lock(session: Session, inviter: Player) -> None:
    """On SQLite, which has no row locks, take the database's write lock now
    (a write that changes nothing), so the counts below cannot change
    before this transaction commits."""
    if session.get_bind().dialect.name == "sqlite":
        session.execute(update(Player).where(col(Player.id) == inviter.id).values(email=Player.email)
                        .execution_options(synchronize_session=False))


def check(session: Session, inviter: Player, addresses: Sequence[str]) -> None:
    """``TooMany`` when inviting ``addresses`` (normalized, the inviter's
    own left out) would go over a limit.  Locks the rows of the inviter and
    of the invitees who are players already (on SQLite, the database), so two
    requests at once cannot both pass on the same count; the lock is held
    until the caller's transaction ends."""
    if not addresses:
        return
    since = utcnow() - WINDOW
    _lock(session, inviter)
    boxes = {address: mailbox(address) for address in addresses}
    families = {box: [p for p in _players_of(session, box) if p.id != inviter.id] for box in set(boxes.values())}
    ids = sorted({player_id for player_id in (inviter.id, *(p.id for family in families.values() for p in family))
                  if player_id is not None})  # stored players: never None
    if session.get_bind().dialect.name != "sqlite":
        session.exec(select(Player.id).where(col(Player.id).in_(ids)).order_by(col(Player.id)).with_for_update()).all()

    most = _limit("INVITATIONS_PER_DAY", INVITATIONS_PER_DAY)
    sent = _sent_by(session, inviter, since)
    if len(addresses) > most:
        raise TooMany(f"this game would send {len(addresses)} invitations, and {most} a day is the most one "
                      "player may send; invite fewer players")
    if len(sent) + len(addresses) > most:
        raise TooMany(f"you have sent {len(sent)} invitations in the last 24 hours, and {most} a day is the most; "
                      f"this game needs {len(addresses)}, so you can send them from "
                      f"{_when(sent, len(sent) + len(addresses) - most)}. No game was created")

    in_this_game: dict[str, int] = {}  # invitations to each mailbox in this game so far
    for address in addresses:
        if address == inviter.email:
            continue
        box, family = boxes[address], families[boxes[address]]
        played = any(has_played(session, p) for p in family)
        most = (_limit("INVITATIONS_TO_PLAYER_PER_DAY", INVITATIONS_TO_PLAYER_PER_DAY) if played
                else _limit("INVITATIONS_TO_NEWCOMER_PER_DAY", INVITATIONS_TO_NEWCOMER_PER_DAY))
        received = sorted(t for p in family for t in _received_by(session, p, since))
        earlier = in_this_game.get(box, 0)
        if len(received) + earlier >= most:
            who = "an address that has played here" if played else "an address that has not played here yet"
            if not received:
                raise TooMany(f"this game invites {earlier + 1} addresses of the mailbox {box} ({address} "
                              f"among them), and {most} a day is the most for {who}; invite fewer of them. "
                              "No game was created")
            name = address if address == box else f"{address} (with the other +addresses of {box})"
            raise TooMany(f"{name} has been invited {len(received) + earlier} times in the last 24 hours, "
                          f"the most for {who} ({most} a day); it can be invited again from "
                          f"{_when(received, len(received) + earlier - most + 1)}. No game was created")
        in_this_game[box] = earlier + 1
