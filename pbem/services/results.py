"""Who won a finished game, the final standings, and each player's result
in plain words ("you won", "2nd of 3"), for the game page, the home list,
a player's page and the ratings.

The standings come from the stored result (who shares it: the winners,
whatever ended the game) and, for a game played out to its end, the
rules' own order of everyone (``engine.base.Rules.ranking``, read through
the views chokepoint ``pbem.services.visibility.ranking``).  Never names a game.

Every sentence a player reads is built by the functions under "words" at
the end of this module, so they can be translated in one place.
"""

from __future__ import annotations

from typing import Sequence

from engine.i18n import current_language
from pbem.i18n import gettext
from pbem.models import FINISHED, Game
from pbem.services import visibility as views


def winners(game: Game) -> set[int] | None:
    """The 0-based seats sharing the stored result of a finished game (empty:
    nobody won, such as a one-player game given up); None for a game with
    no result (not finished, abandoned, cancelled)."""
    if game.status != FINISHED or not game.result or game.result == "*":
        return None
    return {int(part) - 1 for part in game.result.split("=") if part.strip().isdigit()}


def standings(game: Game, players: int, ranking: Sequence[Sequence[int]] | None = None) -> list[tuple[int, ...]]:
    """The final standings of a finished game of ``players`` seats: groups of
    0-based seats, best first, tied within a group, every seat once; empty
    when the game has no result.  The winners of the stored result come
    first; the others follow in the rules' order when the game was played
    out (``ranking``, default read from the game), else tied together."""
    won = winners(game)
    if won is None:
        return []
    order = list(views.ranking(game)) if ranking is None else [tuple(g) for g in ranking]
    everyone = range(players)
    if won and order and set(order[0]) == won:
        seen = {seat for group in order for seat in group}
        rest = tuple(seat for seat in everyone if seat not in seen)
        return [tuple(sorted(g)) for g in order if g] + ([rest] if rest else [])
    if not won:  # nobody won: a one-player game given up, or a draw between nobody in particular
        return [tuple(everyone)] if players > 1 else []
    groups = [tuple(sorted(won))]
    placed = set(won)
    for group in order:
        left = tuple(sorted(seat for seat in group if seat not in placed))
        if left:
            groups.append(left)
            placed.update(left)
    rest = tuple(seat for seat in everyone if seat not in placed)
    return groups + ([rest] if rest else [])


def place_of(groups: Sequence[Sequence[int]], seat: int) -> tuple[int, int] | None:
    """``seat``'s place (1 = best) and the size of its group (tied players),
    or None when it is not in the standings."""
    place = 1
    for group in groups:
        if seat in group:
            return place, len(group)
        place += len(group)
    return None


def score_against(groups: Sequence[Sequence[int]], seat: int, other: int) -> float | None:
    """``seat``'s score against ``other`` in the standings, as a rating
    counts it: 1 placed above, 0.5 tied, 0 placed below; None if either
    is not placed."""
    mine, theirs = place_of(groups, seat), place_of(groups, other)
    if mine is None or theirs is None:
        return None
    if mine[0] == theirs[0]:
        return 0.5
    return 1.0 if mine[0] < theirs[0] else 0.0


def ordinal(number: int) -> str:
    """1st, 2nd, 3rd, 4th, ... 11th, 12th, 13th, 21st."""
    if 10 <= number % 100 <= 20:
        suffix = "th"
    else:
        suffix = {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"


# -- words ---------------------------------------------------------------------
# In the language of the moment (``pbem.i18n``; English outside a request).
def local_ordinal(number: int) -> str:
    """``ordinal`` in the language of the moment: 1st, 2nd (English), 1er, 2e (French)."""
    if current_language() == "fr":
        return "1er" if number == 1 else f"{number}e"
    return ordinal(number)


def result_words(groups: Sequence[Sequence[int]], seat: int, players: int, you: bool = True) -> str:
    """``seat``'s result in plain words: "you won", "you lost", "a draw",
    "you shared the win", "2nd of 3", "2nd= of 4" (tied); with ``you``
    False, about someone else ("won", "lost", "2nd of 3")."""
    found = place_of(groups, seat)
    if found is None:
        return gettext("no result")
    place, tied = found
    if players == 1:
        if place == 1 and len(groups) == 1 and groups[0]:
            return gettext("you won") if you else gettext("won")
        return gettext("no result")
    if tied == players:
        return gettext("a draw")
    if place == 1 and tied == 1:
        return gettext("you won") if you else gettext("won")
    if place == 1:
        return gettext("you shared the win") if you else gettext("shared the win")
    if players == 2:
        return gettext("you lost") if you else gettext("lost")
    return gettext("%(place)s%(tied)s of %(players)s", place=local_ordinal(place), tied="=" if tied > 1 else "",
                   players=players)


def verdict(groups: Sequence[Sequence[int]], names: Sequence[str]) -> str:
    """The sentence saying who won a finished game: "alice won.", "A draw
    between alice and bob.", "alice and carol shared the win."
    (``names`` by 0-based seat)."""
    if not groups or not groups[0]:
        return gettext("Nobody won.")
    first = [names[seat] for seat in groups[0]]
    if len(first) == 1:
        return gettext("%(name)s won.", name=first[0])
    listed = gettext("%(names)s and %(last)s", names=", ".join(first[:-1]), last=first[-1])
    if len(first) == len(names):
        return gettext("A draw between %(names)s.", names=listed)
    return gettext("%(names)s shared the win.", names=listed)


def unfinished_words(status: str) -> str:
    """What the home list says of a game that ended without a result."""
    if status == "abandoned":
        return gettext("abandoned before it started")
    if status == "cancelled":
        return gettext("cancelled before it started")
    return gettext("no result")
