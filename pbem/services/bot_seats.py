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

from engine.base import Rules
from engine.bots import LEVELS
from engine.bots.hooks import level_for, offered
from engine.errors import PbemError
from notation import registry
from pbem.models import Player
from pbem.models.refusals import MailRefusal
from pbem.services.errors import BadInput

BOT_DOMAIN = "bots.pbem.invalid"


def offered_levels(game: Rules[Any, Any] | None = None) -> list[str]:
    """The levels players may choose, weakest first ("random" is for
    measuring only): those ``game``'s bot offers, or every level."""
    return list(offered(game)) if game is not None else [name for name in LEVELS if name != "random"]


def fewer_levels() -> list[tuple[list[str], list[str]]]:
    """The games whose bots offer fewer levels than all, grouped by the
    levels they offer: (game names, levels), for the texts that list the
    levels (the mail robot's help, the new-game page)."""
    groups: dict[tuple[str, ...], list[str]] = {}
    for name in registry.names():
        levels = offered(registry.get(name).rules)
        if list(levels) != offered_levels():
            groups.setdefault(levels, []).append(name)
    return [(names, list(levels)) for levels, names in groups.items()]


def opponent_games() -> list[dict[str, Any]]:
    """The games a bot can sit down to with one player (every game of two
    players or more), each with its title, its levels, weakest first, and
    the level a bot asked for without one plays: for the lobby's "play the
    computer" form."""
    found = []
    for name in registry.names():
        rules = registry.get(name).rules
        if rules.min_players <= 2 <= rules.max_players:
            found.append({"name": name, "title": rules.title or name, "levels": list(offered(rules)),
                          "default": level_for(rules, None).name})
    return found


def levels_text() -> str:
    """Every level, then the games that offer fewer and theirs:
    "beginner, easy, medium, hard, strongest; alheimur: beginner, medium, strongest; taiga: beginner,
    strongest"."""
    return "; ".join([", ".join(offered_levels())] + [f"{', '.join(names)}: {', '.join(levels)}"
                                                       for names, levels in fewer_levels()])


def address_of(level: str) -> str:
    return f"{level}@{BOT_DOMAIN}"


def is_bot_address(address: str) -> bool:
    return str(address).lower().endswith("@" + BOT_DOMAIN)


def level_of(player: Player) -> str:
    return player.email.split("@", 1)[0]


def check_levels(levels: Iterable[Any], game: Rules[Any, Any]) -> list[str]:
    """The level names of the bots asked for ("" or None: the default) in
    a game of ``game``; ``BadInput`` naming the game's levels for one it
    does not offer."""
    names = []
    for level in levels:
        if level is not None and not isinstance(level, str):
            raise BadInput("a bot is named by its level, such as \"hard\"")
        try:
            names.append(level_for(game, level or None).name)
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
