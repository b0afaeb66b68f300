"""Taiga routes, logging and final scoring (rulings 7 and 8 of
``notation/taiga/guide.md``): what a player's camps reach by road, when a
lumberjack's forest is logged, and the money added at the end."""

from __future__ import annotations

from dataclasses import replace

from engine.taiga import board as maps
from engine.taiga.board import Key, Map
from engine.taiga.state import TaigaState

TOKEN_VALUE = 2  # per token, times the number of different species held
SERVED_FOREST = 3  # final scoring: per completed forest a camp reaches
UNLOGGED_TILE = 1  # final scoring: per tile of a connected, unlogged lumberjack forest
LOG_TILE = 2  # logging: per tile of the forest


def camp_reach(state: TaigaState, board: Map, player: int) -> list[tuple[set[Key], set[Key]]]:
    """For each camp ``player`` keeps: the road segments and forests a route
    from it reaches without passing an opponent's camp."""
    keepers = {(p.x, p.y): p.player for p in state.pieces if p.role == "keeper"}
    blocked = [board.camps[at] for at, owner in keepers.items() if owner != player and at in board.camps]
    return [maps.reach(board, board.camps[at], blocked) for at, owner in sorted(keepers.items())
            if owner == player and at in board.camps]


def connected(state: TaigaState, board: Map, player: int, forest: Key,
              reach: list[tuple[set[Key], set[Key]]] | None = None) -> bool:
    """True when a camp of ``player`` reaches the forest by road, with a
    truck of ``player`` anywhere on that camp's road network (any segment
    it reaches, not only one between it and the forest); ``reach``: the
    player's ``camp_reach``, when already followed."""
    trucks = {(p.x, p.y, p.spot) for p in state.pieces if p.role == "truck" and p.player == player}
    routes = camp_reach(state, board, player) if reach is None else reach
    return any(forest in forests and trucks & segments for segments, forests in routes)


def log_forests(state: TaigaState) -> TaigaState:
    """Log every forest whose lumberjack's owner now reaches it from a camp
    with a truck on that camp's road network: $2 a tile plus printed
    values, its species tokens, and the lumberjack comes back."""
    board = maps.analyse(state.placed)
    for jack in [p for p in state.pieces if p.role == "lumberjack"]:
        index = board.forest_of[(jack.x, jack.y, jack.spot)]
        if not connected(state, board, jack.player, index):
            continue
        forest = board.forests[index]
        money = list(state.money)
        money[jack.player] += LOG_TILE * forest.size + forest.value
        tokens = list(state.tokens)
        tokens[jack.player] = tuple(sorted(tokens[jack.player] + tuple(s for _, _, s in forest.species)))
        state = replace(state, pieces=tuple(p for p in state.pieces if p != jack), money=tuple(money),
                        tokens=tuple(tokens), logged=tuple(sorted(state.logged + (forest.key,))))
    return state


def token_value(tokens: tuple[str, ...]) -> int:
    """Species tokens at the end: each worth $2 times the number of
    different species held ($2, $4, $6 or $8 each)."""
    return len(tokens) * TOKEN_VALUE * len(set(tokens))


def final_scoring(state: TaigaState, board: Map | None = None,
                  reach: list[list[tuple[set[Key], set[Key]]]] | None = None) -> list[dict[str, int]]:
    """Each player's final money, by source (ruling 8): money, unlogged
    lumberjack forests connected by road and truck ($1 a tile), completed
    forests each camp reaches ($3 each, per camp), species tokens.
    ``board`` (``maps.analyse``) and ``reach`` (each player's
    ``camp_reach``), when given, are not worked out again; each player's
    routes are followed once."""
    board = maps.analyse(state.placed) if board is None else board
    if reach is None:
        reach = [camp_reach(state, board, player) for player in range(state.players)]
    parts = []
    for player in range(state.players):
        unlogged = sum(board.forests[board.forest_of[(p.x, p.y, p.spot)]].size
                       for p in state.pieces if p.role == "lumberjack" and p.player == player
                       and connected(state, board, player, board.forest_of[(p.x, p.y, p.spot)], reach[player]))
        served = sum(sum(1 for f in forests if board.forests[f].complete) for _, forests in reach[player])
        parts.append({"money": state.money[player], "lumberjack forests": UNLOGGED_TILE * unlogged,
                      "forests served": SERVED_FOREST * served, "species": token_value(state.tokens[player])})
    return parts
