"""Hand-made Alheimur positions for the tests.

Pieces are written ``"b3=1:2 c3=2:1i"``: territory, player (1-based),
size, ``i`` for an invader.  Ships are written ``"1T2 1F3 2T3+1"``:
player, T(ransport) or F(ighter), size, ``+`` marine size.
"""

from __future__ import annotations

from dataclasses import replace

from engine.alheimur import AlheimurGame
from engine.alheimur.pieces import DEFAULT_ORDER, AlheimurState, Pyramid, Ship, World

GAME = AlheimurGame()
#: four quartered cards: sixteen one-tile territories, a4 .. d1
GRID = ("EFWT", "EWTF", "AFWT", "AWTF")
#: four whole cards: four territories, each adjacent to the three others
WHOLE = ("AAAA", "EEEE", "FFFF", "WWWW")


def pieces(text: str) -> tuple[tuple[str, Pyramid], ...]:
    result = {}
    for item in text.split():
        where, _, what = item.partition("=")
        owner, _, size = what.partition(":")
        result[where] = Pyramid(int(owner) - 1, int(size.rstrip("i")), size.endswith("i"))
    return tuple(sorted(result.items()))


def ships(text: str) -> tuple[Ship, ...]:
    result = []
    for item in text.split():
        main, _, marine = item.partition("+")
        result.append(Ship(int(main[0]) - 1, int(main[2]), main[1] == "F", int(marine or 0)))
    return tuple(sorted(result))


def world(name: str, layout=GRID, on: str = "", orbit: str = "", card: str = "AEFW") -> World:
    owner = None if name == "N" else int(name) - 1
    return World(name, owner, tuple(layout), card, pieces(on), ships(orbit))


def position(*worlds: World, players: int = 2, current: int = 0, space: str = "", **changes) -> AlheimurState:
    state = AlheimurState(players=players, phase="play", worlds=tuple(worlds), current=current,
                          space=ships(space), orders=tuple(DEFAULT_ORDER for _ in range(players)))
    return replace(state, **changes)


def offered_with_seed(monkeypatch, seed: str):
    """Alheimur offered on the server (as the registry offers it), each new
    game dealt from ``seed``; the game's kind."""
    from notation import registry
    from notation.alheimur import KIND
    from pbem.services import games

    monkeypatch.setitem(registry._GAMES, "alheimur", "notation.alheimur:KIND")
    monkeypatch.setitem(registry._loaded, "alheimur", KIND)
    monkeypatch.setattr(games, "NEW_SEED", lambda: seed)
    return KIND
