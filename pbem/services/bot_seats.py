"""Bot seats: a computer opponent is a player row whose address is
``<level>@bots.pbem.invalid`` (the ``.invalid`` top-level domain can never
receive mail, and the address refuses all mail here, so nothing is ever
queued for it), named "Bot (<level>)".  The bots' domain (and any domain
under it) is reserved: no sign-in link (``pbem.services.accounts``), no
invitation (``pbem.services.games.create_game``) and no mail
(``pbem.services.outbox.queue``) goes to it, and a bot's row is made the
bot's (``bot_player``) even when it was made before as an ordinary player's.  No new table or column: a seat of a
bot is an ordinary seat, accepted when the game is made
(``pbem.services.games.create_game``).  The worker that plays their turns
is ``pbem.services.bots``."""

from __future__ import annotations

from typing import Any, Iterable

from sqlalchemy import delete, func, update
from sqlmodel import Session, col, select

from engine.base import Rules
from engine.bots import LEVELS
from engine.bots.hooks import level_for, offered
from engine.errors import PbemError
from notation import registry
from pbem.i18n import gettext
from pbem.models import ApiToken, OutboxMessage, Player, utcnow
from pbem.models.auth import SignInLink, WebSession
from pbem.models.refusals import MailRefusal
from pbem.services.errors import BadInput, Forbidden

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
    """An address of the bots' domain or of a domain under it, in any case
    (``Hard@Bots.PBEM.invalid``, ``hard+x@bots.pbem.invalid``)."""
    domain = str(address).strip().lower().rpartition("@")[2]
    return domain == BOT_DOMAIN or domain.endswith("." + BOT_DOMAIN)


class BotAddress(Forbidden):
    """An address reserved for the computer opponents (HTTP 403)."""


def refuse_bot_address(address: str) -> None:
    """``BotAddress`` saying what to do instead when ``address`` is of the
    bots' domain: nobody signs in there, and no mail goes there."""
    if is_bot_address(address):
        raise BotAddress(gettext(
            "%(address)s is a computer opponent's address (the domain %(domain)s is kept for them): it gets no "
            "sign-in link, no invitation and no mail. To play the computer, ask for a bot by its level: "
            "\"play the computer\" in the lobby, or by mail new ... vs bot hard",
            address=address.strip(), domain=BOT_DOMAIN))


#: why mail queued for a bot's address (before it was reserved) is never sent
GIVEN_UP = "not sent: the address is a computer opponent's, which gets no mail"


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
    """The player row of the bot of ``level`` (made, with its mail refused, the first time).
    A row of that address made otherwise (an ordinary player's, asked for
    before the bots' addresses were reserved) is made the bot's: its name
    and language, its mail refused, its sign-in links used up, its browser
    sessions ended, its API tokens removed, the mail queued for it given
    up; not committed."""
    address = address_of(level)
    player = session.exec(select(Player).where(Player.email == address)).first()
    if player is None:
        player = Player(email=address, name=f"Bot ({level})")
        session.add(player)
    else:
        _make_bots(session, player, level)
    if session.exec(select(MailRefusal).where(MailRefusal.address == address)).first() is None:
        session.add(MailRefusal(address=address))
    session.flush()
    return player


def _make_bots(session: Session, player: Player, level: str) -> None:
    """Whatever ``player`` (a bot's address) could sign in or be mailed with, taken away."""
    now = utcnow()
    if player.name != f"Bot ({level})" or player.language:
        player.name, player.language = f"Bot ({level})", ""
        session.add(player)
    session.execute(update(SignInLink).where(col(SignInLink.player_id) == player.id, col(SignInLink.used_at).is_(None))
                    .values(used_at=now).execution_options(synchronize_session=False))
    session.execute(update(WebSession).where(col(WebSession.player_id) == player.id,
                                             col(WebSession.revoked_at).is_(None))
                    .values(revoked_at=now).execution_options(synchronize_session=False))
    session.execute(delete(ApiToken).where(col(ApiToken.player_id) == player.id)
                    .execution_options(synchronize_session=False))
    session.execute(update(OutboxMessage).where(
        func.lower(OutboxMessage.to_addr).endswith(BOT_DOMAIN, autoescape=True), col(OutboxMessage.sent_at).is_(None),
        col(OutboxMessage.failed_at).is_(None)).values(failed_at=now, last_error=GIVEN_UP)
        .execution_options(synchronize_session=False))
