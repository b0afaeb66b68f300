"""Bot seats: a computer opponent is a player row whose address is
``<level>@bots.pbem.invalid`` (the ``.invalid`` top-level domain can never
receive mail, and the address refuses all mail here, so nothing is ever
queued for it), named "Bot (<level>)".  No new table or column: a seat of a
bot is an ordinary seat, accepted when the game is made
(``pbem.services.games.create_game``).  The worker that plays their turns
is ``pbem.services.bots``."""

from __future__ import annotations

from typing import Any, Iterable

from sqlmodel import Session, select

from engine.bots import LEVELS, level_named
from engine.errors import PbemError
from pbem.models import Player
from pbem.models_refusals import MailRefusal
from pbem.services.errors import BadInput

BOT_DOMAIN = "bots.pbem.invalid"


def offered_levels() -> list[str]:
    """The levels players may choose, weakest first ("random" is for measuring only)."""
    return [name for name in LEVELS if name != "random"]


def address_of(level: str) -> str:
    return f"{level}@{BOT_DOMAIN}"


def is_bot_address(address: str) -> bool:
    return str(address).lower().endswith("@" + BOT_DOMAIN)


def is_bot(player: Player | None) -> bool:
    return player is not None and is_bot_address(player.email)


def level_of(player: Player) -> str:
    return player.email.split("@", 1)[0]


def check_levels(levels: Iterable[Any]) -> list[str]:
    """The level names of the bots asked for ("" or None: the default);
    ``BadInput`` naming the levels for one that is not."""
    names = []
    for level in levels:
        if level is not None and not isinstance(level, str):
            raise BadInput("a bot is named by its level, such as \"hard\"")
        try:
            names.append(level_named(level or None).name)
        except PbemError as error:
            raise BadInput(str(error)) from None
    return names


def bot_player(session: Session, level: str) -> Player:
    """The player row of the bot of ``level`` (made, with its mail refused, the first time)."""
    address = address_of(level)
    player = session.exec(select(Player).where(Player.email == address)).first()
    if player is None:
        player = Player(email=address, name=f"Bot ({level})")
        session.add(player)
        if session.exec(select(MailRefusal).where(MailRefusal.address == address)).first() is None:
            session.add(MailRefusal(address=address))
        session.flush()
    return player
