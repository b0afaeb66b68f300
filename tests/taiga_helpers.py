"""Positions for the Taiga tests, built tile by tile: ``laid`` puts tiles on
the map around the start tile (each must fit), with pieces, money and the
rest of the set in the pile."""

from __future__ import annotations

from engine.base import settle
from engine.taiga import board as maps
from engine.taiga.state import Piece, Placed, TaigaState
from engine.taiga.tiles import PILE, START, canonical_turn, turned
from notation.taiga import NOTATION

GAME = NOTATION.game


def laid(tiles=(), pieces=(), money=(10, 10), drawn=None, mover=0, discards=(), pile=None, tokens=None,
         logged=(), pending=()) -> TaigaState:
    """The start tile, then ``tiles`` as (code, x, y, degrees), each of which
    must fit where it goes; ``pieces`` as (player from 1, role, x, y, spot);
    the pile is the rest of the set unless given."""
    placed = [Placed(0, 0, START, 0)]
    for code, x, y, degrees in tiles:
        turn = canonical_turn(code, degrees // 90)
        assert maps.mismatch(maps.analyse(tuple(placed)).tiles, x, y, turned(code, turn)) is None, (code, x, y)
        placed.append(Placed(x, y, code, turn))
    rest = list(PILE)
    for code in [p.code for p in placed[1:]] + list(discards) + ([drawn] if drawn else []):
        rest.remove(code)
    return TaigaState(tuple(placed), tuple(sorted(Piece(x, y, spot, role, player - 1)
                                                  for player, role, x, y, spot in pieces)),
                      tuple(sorted(logged)), tuple(money), tokens or ((),) * len(money), tuple(discards),
                      tuple(rest) if pile is None else tuple(pile), drawn, mover, tuple(pending))


def play(state: TaigaState, text: str, then_draw: str | None = None) -> TaigaState:
    """``state`` after the turn written ``text``, then (when given) the
    next player drawing ``then_draw``."""
    after = GAME.apply(state, NOTATION.parse_turn(state, text))
    if then_draw is not None:
        after = GAME.apply_chance(after, (then_draw,))
    return after


def draw_any(state: TaigaState) -> TaigaState:
    """``state`` with any waiting draw settled (the first tile left)."""
    return settle(GAME, state, lambda event, k: [event.items[0]])[0]
