"""Taiga position strings: ``write_position`` and ``read_position``
(``notation/taiga/guide.md``, "Position strings").

Ten fields: ``<map> <pieces> <logged> <money> <tokens> <discards> <pile>
<drawn> <to move> <pending>``.  Reading checks what the rules rely on: every
tile fits the tiles laid before it, pieces stand on fitting spots, the set's
counts add up, and so on; anything else is a ``PositionError`` naming it.
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

from engine.errors import PositionError
from engine.i18n import _
from engine.taiga import board as maps
from engine.taiga.state import HIDDEN, MEEPLES, ROLES, Pending, Piece, Placed, TaigaState
from engine.taiga.tiles import CAMP_SPOT, KINDS, SPECIES, START, STEP, canonical_turn, total_tiles, turned
from notation.quote import quote

_N = r"[+-]?[0-9]{1,3}"
#: a tile of the map: its code, where, and its turn, written ``turn90`` (degrees clockwise, as in turns);
#: read too as ``r90`` or ``t90``, and as the quarter turns ``r1`` to ``r3`` of older positions
_TILE = re.compile(rf"^([A-Z]{{1,2}}[0-9]?)@({_N}),({_N})(?:r([0-3])|(?:turn|r|t)(0|90|180|270))?$")
_PIECE = re.compile(rf"^([1-5])([sltk])@({_N}),({_N})([nesw]|c)$")
_KEY = re.compile(rf"^({_N}),({_N})([nesw])$")
_PENDING = re.compile(rf"^([1-5])@({_N}),({_N})([nesw])$")
_PILE_ITEM = re.compile(r"^([A-Z]{1,2}[0-9]?|\?)\*([0-9]{1,3})$")
_MONEY = re.compile(r"^[0-9]{1,5}$")
#: who is to move: the player to lay a tile; while a choice is pending, the player who chooses now, '>'
#: and the player to lay the next tile (``2>3``).  A lone number with a choice pending is read as older
#: positions wrote it: the player to lay the next tile (the chooser is the pending field's first)
_MOVER = re.compile(r"^([1-5])(?:>([1-5]))?$")
_ROLE = {r[0]: r for r in ROLES}
EXAMPLE = "ST@0,0/S4@0,1turn180 1s@0,1s - 10/10 -/- - ?*69 ? 2 -"


def _write_pile(pile: tuple[str, ...]) -> str:
    if not pile:
        return "-"
    counts: dict[str, int] = {}
    for code in pile:
        counts[code] = counts.get(code, 0) + 1
    return "/".join(f"{code}*{n}" for code, n in counts.items())


def _bad(why: Any) -> PositionError:
    return PositionError(_("{why}; a Taiga position is '<map> <pieces> <logged> <money> <tokens> <discards> "
                           "<pile> <drawn> <to move> <pending>', such as {example}", why=why, example=repr(EXAMPLE)))


def read_position(text: str) -> TaigaState:
    """A position string as ``TaigaState``; ``PositionError`` naming what is wrong."""
    if not isinstance(text, str):
        raise _bad(_("a position is text"))
    fields = text.split()
    if len(fields) != 10:
        raise _bad(_("{text} has {count} fields, not 10", text=quote(text), count=len(fields)))
    tiles_t, pieces_t, logged_t, money_t, tokens_t, discards_t, pile_t, drawn_t, mover_t, pending_t = fields
    # money first: it says how many players
    money_items = money_t.split("/")
    if not 2 <= len(money_items) <= 5 or not all(_MONEY.match(m) for m in money_items):
        raise _bad(_("the money is 2 to 5 whole dollar amounts separated by '/', such as 10/12; not {text}",
                     text=quote(money_t)))
    money = tuple(int(m) for m in money_items)
    players = len(money)
    # the map, each tile fitting the ones laid before it
    placed: list[Placed] = []
    seen: dict[tuple[int, int], Any] = {}  # the tiles laid so far, turned
    for index, item in enumerate(tiles_t.split("/")):
        m = _TILE.match(item)
        if not m or m[1] not in KINDS:
            raise _bad(_("a tile on the map is its code, '@x,y' and, when turned, 'turn90', 'turn180' or "
                         "'turn270' (degrees clockwise), such as S4@1,0turn90; not {text}", text=quote(item)))
        x, y, code = int(m[2]), int(m[3]), m[1]
        turn = canonical_turn(code, int(m[4]) if m[4] else int(m[5] or 0) // 90)
        if index == 0 and (code, x, y, turn) != (START, 0, 0, 0):
            raise _bad(_("the map starts with the start tile at 0,0 (ST@0,0)"))
        if index and ((x, y) in seen or not any((x + dx, y + dy) in seen for dx, dy in STEP)):
            raise _bad(_("{text} is laid on another tile or away from the map", text=quote(item)))
        tile = turned(code, turn)
        if index and maps.mismatch(seen, x, y, tile) is not None:
            raise _bad(_("{text} does not fit the tiles next to it", text=quote(item)))
        seen[(x, y)] = tile
        placed.append(Placed(x, y, code, turn))
    board = maps.analyse(tuple(placed))
    # pieces
    pieces: list[Piece] = []
    if pieces_t != "-":
        for item in pieces_t.split("/"):
            m = _PIECE.match(item)
            if not m:
                raise _bad(_("a piece is its player, s/l/k/t (surveyor, lumberjack, keeper, truck), '@x,y' and "
                             "its spot, such as 1s@1,0n; not {text}", text=quote(item)))
            player, role, x, y, spot = int(m[1]) - 1, _ROLE[m[2]], int(m[3]), int(m[4]), m[5]
            under = board.tiles.get((x, y))
            ok = under is not None and player < players and (
                (role in ("surveyor", "lumberjack") and spot in under.forest_spots)
                or (role == "keeper" and spot == CAMP_SPOT and under.feature == "camp")
                or (role == "truck" and spot in under.road_spots))
            if not ok:
                raise _bad(_("{text} does not stand on a fitting spot of a tile on the map", text=quote(item)))
            pieces.append(Piece(x, y, spot, role, player))
    spots = [(p.x, p.y, p.spot, p.role == "truck") for p in pieces]
    if len(set(spots)) != len(spots):
        raise _bad(_("two pieces stand on one spot"))
    for p in pieces:
        if p.role == "lumberjack" and not board.forest_at((p.x, p.y, p.spot)).complete:
            raise _bad(_("a lumberjack stands only in a completed forest"))
    for player in range(players):
        if sum(1 for p in pieces if p.player == player and p.role != "truck") > MEEPLES \
                or sum(1 for p in pieces if p.player == player and p.role == "truck") > 2:
            raise _bad(_("player {player} has more than {meeples} meeples or 2 trucks on the map",
                         player=player + 1, meeples=MEEPLES))
    # logged forests
    logged: list[tuple[int, int, str]] = []
    if logged_t != "-":
        for item in logged_t.split("/"):
            m = _KEY.match(item)
            key = (int(m[1]), int(m[2]), m[3]) if m else None
            if key is None or key not in board.forest_of or board.forest_of[key] != key \
                    or not board.forests[key].complete:
                raise _bad(_("a logged forest is named by its first area, such as 0,1n, and is complete; "
                             "not {text}", text=quote(item)))
            logged.append(key)
    if len(set(logged)) != len(logged):
        raise _bad(_("a forest is logged once"))
    # tokens
    token_items = tokens_t.split("/")
    if len(token_items) != players:
        raise _bad(_("the tokens are listed for each of the {players} players, separated by '/'", players=players))
    tokens = []
    for item in token_items:
        names = () if item == "-" else tuple(item.split("+"))
        if any(n not in SPECIES for n in names):
            raise _bad(_("a species token is one of {species}; not in {text}", species=", ".join(SPECIES),
                         text=quote(item)))
        tokens.append(tuple(sorted(names)))
    for species in SPECIES:
        if sum(t.count(species) for t in tokens) > 2:
            raise _bad(_("there are two {species} tokens", species=species))
    # discards, pile, drawn
    discards = () if discards_t == "-" else tuple(discards_t.split("/"))
    if any(d not in KINDS for d in discards):
        raise _bad(_("the discards are tile codes separated by '/'; not {text}", text=quote(discards_t)))
    pile: list[str] = []
    if pile_t != "-":
        groups = {}
        for item in pile_t.split("/"):
            m = _PILE_ITEM.match(item)
            if not m or (m[1] != HIDDEN and m[1] not in KINDS) or int(m[2]) < 1 or m[1] in groups:
                raise _bad(_("the pile is code*count items separated by '/' (or ?*count when hidden); not {text}",
                             text=quote(item)))
            groups[m[1]] = int(m[2])
        if HIDDEN in groups and len(groups) > 1:
            raise _bad(_("a hidden pile is written ?*count alone"))
        pile = [HIDDEN] * groups[HIDDEN] if HIDDEN in groups else [c for c in KINDS if c in groups
                                                                     for _ in range(groups[c])]
    drawn = None if drawn_t == "-" else drawn_t
    if drawn is not None and drawn != HIDDEN and drawn not in KINDS:
        raise _bad(_("the drawn tile is a code, '?' or '-'; not {text}", text=quote(drawn_t)))
    counted = [p.code for p in placed] + list(discards) + pile + ([drawn] if drawn else [])
    if len(counted) != total_tiles():
        raise _bad(_("the map, discards, pile and drawn tile hold {count} tiles; the set has {total}",
                     count=len(counted), total=total_tiles()))
    held = Counter(counted)
    for code, kind in KINDS.items():
        if held[code] > kind.count or (HIDDEN not in held and held[code] != kind.count):
            raise _bad(_("the set has {count} tile(s) {code}; the position holds {held}", count=kind.count, code=code,
                         held=held[code]))
    moving = _MOVER.match(mover_t)
    if not moving or any(int(n) > players for n in moving.groups() if n):
        raise _bad(_("the player to move is a number from 1 to {players} (while a choice is pending, the player "
                     "who chooses, '>' and the player to lay the next tile, such as 2>3); not {text}",
                     players=players, text=quote(mover_t)))
    mover = int(moving[2] or moving[1]) - 1
    pending = []
    if pending_t != "-":
        for item in pending_t.split("/"):
            m = _PENDING.match(item)
            key = (int(m[2]), int(m[3]), m[4]) if m else None
            if m is None or key is None or int(m[1]) > players or key not in board.forest_of \
                    or not board.forests[board.forest_of[key]].complete:
                raise _bad(_("a pending choice is a player, '@' and an area of a completed forest, such as "
                             "2@1,0n; not {text}", text=quote(item)))
            pending.append(Pending(int(m[1]) - 1, *key))
    if moving[2] and not pending:
        raise _bad(_("{text}: the player to move is written with '>' only while a choice is pending (the player "
                     "who chooses, then the player to lay the next tile); with none, it is one number",
                     text=quote(mover_t)))
    if moving[2] and int(moving[1]) != pending[0].player + 1:
        raise _bad(_("{text}: player {player} is to move, choosing for the first pending forest ({first})",
                     text=quote(mover_t), player=pending[0].player + 1,
                     first=f"{pending[0].player + 1}@{pending[0].x},{pending[0].y}{pending[0].spot}"))
    return TaigaState(tuple(placed), tuple(sorted(pieces)), tuple(sorted(logged)), money, tuple(tokens), discards,
                      tuple(pile), drawn, mover, tuple(pending))



def write_position(state: TaigaState) -> str:
    """The canonical position string of ``state``."""
    tiles = "/".join(f"{p.code}@{p.x},{p.y}" + (f"turn{90 * p.turn}" if p.turn else "") for p in state.placed)
    pieces = "/".join(f"{p.player + 1}{p.role[0]}@{p.x},{p.y}{p.spot}" for p in state.pieces) or "-"
    logged = "/".join(f"{x},{y}{s}" for x, y, s in state.logged) or "-"
    money = "/".join(str(m) for m in state.money)
    tokens = "/".join("+".join(t) or "-" for t in state.tokens)
    discards = "/".join(state.discards) or "-"
    pile = _write_pile(state.pile)
    drawn = state.drawn or "-"
    pending = "/".join(f"{p.player + 1}@{p.x},{p.y}{p.spot}" for p in state.pending) or "-"
    # who acts now: the first pending choice's player, then the player to lay the next tile
    mover = f"{state.pending[0].player + 1}>{state.mover + 1}" if state.pending else str(state.mover + 1)
    return " ".join((tiles, pieces, logged, money, tokens, discards, pile, drawn, mover, pending))
