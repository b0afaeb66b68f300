"""Taiga – Battle Boreal: turn notation, position strings and diagrams, as
defined in ``notation/taiga/guide.md``.

Coordinates: the start tile lies at ``0,0``; x grows to the east (right),
y to the north (up), both may go negative.  A tile's turn is 0, 90, 180 or
270 degrees clockwise from the way ``tiles.txt`` prints it (north up).
Spots on a tile are named by a side as it lies: ``n e s w``; ``c`` the camp.

Turns (canonical; input is forgiving about case, spacing, punctuation,
"at", "north" for "n", "rotate"/"r" for "turn", ``r1``-``r3`` for the
quarter turns older position strings wrote, and fills in what only one
choice would fit).  A turn is written in degrees clockwise, ``turn 90``,
in turns and positions alike (``S4@1,0turn90`` in a position)::

    S4 at 1,0 turn 90                 lay S4 (the drawn tile, or a discard)
    S4 at 1,0 turn 90, surveyor e     ... and a surveyor on its forest at e
    C1 at 0,-1, keeper                ... and a camp keeper
    R2 at 2,0, truck 0,0 e            ... and a truck ($5) on a road
    H1 at 0,1 turn 180, surveyor s, lumberjack s   ... completing the forest
    discard H8                        the drawn tile fits nowhere
    pay / lumberjack                  the choice for your surveyor's forest
                                      that another player completed

Position: ten fields (``notation.taiga.positions``), ``<map> <pieces> <logged> <money> <tokens> <discards>
<pile> <drawn> <to move> <pending>`` (see the docs).
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from typing import Any, Mapping

from engine.errors import AmbiguousTurnError, GameOverError, IllegalTurnError, MalformedTurnError, TurnError
from engine.i18n import N_, Text, _
from engine.taiga import board as maps
from engine.taiga.rules import TaigaGame
from engine.taiga.scoring import final_scoring
from engine.taiga.state import (
    HIDDEN,
    LUMBERJACK_COST,
    MEEPLES,
    TRUCK_COST,
    Choose,
    Discard,
    Place,
    Placed,
    TaigaState,
    TaigaTurn,
)
from engine.taiga.tiles import CAMP_SPOT, DIRECTIONS, KINDS, Turned, canonical_turn, turned, turns_of
from notation.base import Card, Diagram, GameKind, LegalGroup, Notation, Tile, TileShape, Zone, player_colour
from notation.quote import quote
from notation.taiga.pictures import EMPTY_GLYPH, corner_colour, tile_glyph, tile_shapes
from notation.taiga.positions import EXAMPLE, read_position, write_position

__all__ = ["NOTATION", "KIND", "TaigaNotation", "EXAMPLE", "read_position", "write_position"]

_HELP = _("a Taiga turn lays a tile: its code, 'at x,y', 'turn 90' (0, 90, 180, 270 clockwise), then "
          "optionally ', surveyor n' (or keeper, or 'truck x,y e'), then ', pay n' or ', lumberjack n' for a "
          "forest it completes with your surveyor; such as 'S4 at 1,0 turn 90, surveyor e'; or 'discard S4' "
          "when your drawn tile fits nowhere; or 'pay' / 'lumberjack'")
_LOOKALIKES = str.maketrans({"\u2212": "-", "\u2013": "-", "\u2014": "-", "\u00b0": " ", "\uff0c": ",",
                             ";": ",", "(": " ", ")": " ", "[": " ", "]": " "})
_SIDE = r"(north|east|south|west|n|e|s|w)"
_NUM = r"([+-]?[0-9]{1,4})"
_COORD = rf"{_NUM}\s*[, ]\s*{_NUM}"
_PLACE = re.compile(rf"^(?:place\s+|lay\s+|play\s+)?([a-z]{{1,2}}[0-9]?)\s*(?:at\s+|@\s*|\s)\s*{_COORD}(.*)$")
_ITEM = re.compile(
    rf"(?P<turn>(?P<how>turn(?:ed)?|rotated?|rot|r|t)\s*(?P<deg>[0-9]{{1,4}})(?:\s*(?:deg(?:rees)?|cw))?)"
    rf"|(?P<truck>truck\s*(?:at\s+|on\s+)?(?:{_COORD})(?:\s*{_SIDE})?)"
    rf"|(?P<surveyor>(?:surveyor|survey|meeple)(?:\s+(?:at\s+|on\s+)?{_SIDE})?)"
    r"|(?P<keeper>(?:keeper|keep(?:\s+the)?\s+camp|camp))"
    rf"|(?P<choice>(?P<what>pay|payout|lumberjack|log)(?:\s+{_SIDE})?)")
#: what may stand between the parts of a turn: separators and a few words (one way to match each text)
_GLUE = re.compile(r"^(?:[\s,.&+]|\b(?:and|then|with|a)\b)*$")
_CHOOSE = re.compile(r"^(?:i\s+)?(?:choose\s+)?(pay|payout|take the payout|take the money|lumberjack|log|log it|"
                     r"place a lumberjack|a lumberjack)[.!]?$")
_DISCARD = re.compile(r"^discard(?:\s+(?:the\s+)?(?:tile\s+)?([a-z]{1,2}[0-9]?))?(?:\s*\(.*\))?[.!]?$")
_DEGREES = {0: 0, 90: 1, 180: 2, 270: 3, 360: 0}


def _malformed(text: str, why: str | Text) -> MalformedTurnError:
    return MalformedTurnError(_("cannot read {text}: {why}; {help}", text=quote(text), why=why, help=_HELP))


def _side(word: str | None) -> str | None:
    return None if word is None else word[0]


def _clean(text: str) -> str:
    cleaned = unicodedata.normalize("NFKC", text).translate(_LOOKALIKES).lower()
    return " ".join(cleaned.split()).strip(" .!")


class TaigaNotation(Notation[TaigaState, TaigaTurn]):
    game = TaigaGame()
    turn_examples = ("S4 at 1,0 turn 90, surveyor e", "C1 at 0,-1, keeper", "R2 at 2,0, truck 0,0 e",
                     "discard H8", "pay", "lumberjack")

    # -- turns -----------------------------------------------------------
    def parse_turn(self, state: TaigaState, text: str) -> TaigaTurn:
        if not isinstance(text, str):
            raise MalformedTurnError(_("a turn is text, not {name}", name=type(text).__name__))
        result = self.game.result(state)  # None until the game is over
        if result is not None:
            raise GameOverError(_("the game is over ({reason}); no turn can be played", reason=result.reason))
        cleaned = _clean(text)
        if not cleaned:
            raise MalformedTurnError(_("the turn is empty; {help}", help=_HELP))
        try:
            turn = self._read(state, cleaned, text)
            self.game.apply(state, turn)
        except TurnError as error:
            if isinstance(error, MalformedTurnError):
                raise
            raise type(error)(_("{text}: {error}", text=quote(text.strip()), error=error)) from None
        return turn

    def _read(self, state: TaigaState, cleaned: str, text: str) -> TaigaTurn:
        choose = _CHOOSE.match(cleaned)
        if choose:
            return Choose("pay" if choose[1].startswith(("pay", "take")) else "lumberjack")
        discard = _DISCARD.match(cleaned)
        if discard:
            code = discard[1].upper() if discard[1] else state.drawn
            if code is None or code == HIDDEN:
                raise IllegalTurnError(_("you drew no tile to discard"))
            return Discard(code)
        match = _PLACE.match(cleaned)
        if not match:
            raise _malformed(text, _("it does not start with a tile's code and where it goes, such as 'S4 at 1,0'"))
        code, x, y, rest = match[1].upper(), int(match[2]), int(match[3]), match[4]
        if code not in KINDS:
            raise _malformed(text, _("there is no tile {code}; the codes are {codes}", code=code,
                                     codes=", ".join(KINDS)))
        turn_deg: int | None = None
        meeple: str | None = None
        truck: tuple[int, int, str | None] | None = None
        choices: list[tuple[str | None, str]] = []
        at = 0
        for item in _ITEM.finditer(rest):
            if not _GLUE.match(rest[at:item.start()]):
                raise _malformed(text, _("{words} is not part of a turn", words=quote(rest[at:item.start()].strip(" ,"))))
            at = item.end()
            if item["turn"]:
                degrees = int(item["deg"])
                if item["how"] == "r" and item["deg"] in ("1", "2", "3"):
                    degrees *= 90  # r1 to r3: quarter turns, as older position strings wrote them
                if degrees not in _DEGREES or turn_deg is not None:
                    raise _malformed(text, _("a tile turns 0, 90, 180 or 270 degrees clockwise, once"))
                turn_deg = _DEGREES[degrees]
            elif item["truck"] or item["surveyor"] or item["keeper"]:
                if meeple is not None or truck is not None:
                    raise IllegalTurnError(_("with a tile, put one meeple on it or place one truck, not more"))
                if item["truck"]:
                    words = item["truck"].split()
                    numbers = re.findall(r"[+-]?[0-9]{1,4}", item["truck"])
                    side = words[-1] if words[-1] in ("n", "e", "s", "w", "north", "east", "south", "west") else None
                    truck = (int(numbers[0]), int(numbers[1]), _side(side))
                elif item["surveyor"]:
                    words = item["surveyor"].split()
                    meeple = _side(words[-1]) if len(words) > 1 else ""
                else:
                    meeple = CAMP_SPOT
            else:
                words = item["choice"].split()
                what = "pay" if words[0].startswith("pay") else "lumberjack"
                choices.append((_side(words[-1]) if len(words) > 1 else None, what))
        if not _GLUE.match(rest[at:]):
            raise _malformed(text, _("{words} is not part of a turn", words=quote(rest[at:].strip(" ,"))))
        turn = self._turn_for(state, code, x, y, turn_deg)
        tile = turned(code, turn)
        target = maps.analyse(state.placed).tiles.get((truck[0], truck[1])) if truck else None
        if truck is not None and target is None and (truck[0], truck[1]) == (x, y):
            target = tile
        # a part is named by any of its sides: "surveyor w" on a forest of sides s and w is that forest
        if meeple and meeple != CAMP_SPOT:
            meeple = tile.spot_of(DIRECTIONS.index(meeple)) or meeple
        if truck is not None and truck[2] and target is not None:
            truck = (truck[0], truck[1], target.spot_of(DIRECTIONS.index(truck[2])) or truck[2])
        choices = [(tile.spot_of(DIRECTIONS.index(c)) or c if c else c, what) for c, what in choices]
        if meeple == "":
            spots = tile.forest_spots
            if len(spots) != 1:
                raise (AmbiguousTurnError if spots else IllegalTurnError)(
                    _("say which forest the surveyor goes on: {spots}", spots=", ".join(spots)) if spots
                    else _("{code} has no forest for a surveyor", code=code))
            meeple = spots[0]
        laid_truck: tuple[int, int, str] | None = None
        if truck is not None:
            truck_x, truck_y, road = truck
            if road is None:
                roads = target.road_spots if target else ()
                if len(roads) != 1:
                    where = f"{truck_x},{truck_y}"
                    raise IllegalTurnError(
                        _("say which road of the tile at {at} the truck goes on: {roads}", at=where,
                          roads=", ".join(roads))
                        if roads else _("say which road of the tile at {at} the truck goes on; it has none", at=where))
                road = roads[0]
            laid_truck = (truck_x, truck_y, road)
        place = Place(code, x, y, turn, meeple, laid_truck, ())
        return replace_choices(self.game, state, place, choices)

    def _turn_for(self, state: TaigaState, code: str, x: int, y: int, turn: int | None) -> int:
        """The canonical turn: as written; or, when none is written, the one
        turn that fits (the printed one when it fits)."""
        if turn is not None:
            return canonical_turn(code, turn)
        fitting = [t for t in turns_of(code) if maps.mismatch(maps.analyse(state.placed).tiles, x, y,
                                                               turned(code, t)) is None]
        if 0 in fitting or not fitting or (x, y) in maps.analyse(state.placed).tiles:
            return 0
        if len(fitting) == 1:
            return fitting[0]
        raise AmbiguousTurnError(_("{code} fits at {at} turned {turns}; say which, such as 'turn {first}'", code=code,
                                   at=f"{x},{y}", turns=_(" or ").join(str(90 * t) for t in fitting),
                                   first=90 * fitting[0]))

    def format_turn(self, state: TaigaState, turn: TaigaTurn) -> str:
        if isinstance(turn, Choose):
            return turn.option
        if isinstance(turn, Discard):
            return f"discard {turn.code}"
        text = f"{turn.code} at {turn.x},{turn.y}"
        if turn.turn:
            text += f" turn {90 * turn.turn}"
        if turn.meeple == CAMP_SPOT:
            text += ", keeper"
        elif turn.meeple:
            text += f", surveyor {turn.meeple}"
        if turn.truck:
            text += f", truck {turn.truck[0]},{turn.truck[1]} {turn.truck[2]}"
        for spot, choice in turn.choices:
            text += f", {choice} {spot}"
        return text

    # -- legal turns a person reads ------------------------------------------
    def legal_groups(self, state: TaigaState, limit: int = 100) -> tuple[list[LegalGroup], bool]:
        """The legal turns by tile and place, then what goes with it: a line
        for each tile and place, ``S4 at 1,0 turn 90 alone or with one of:
        surveyor e | keeper; S4 at 1,0 turn 180``: each turn of the tile that
        fits there, as written, with what may be added to it (a meeple; the
        choices for the forests it completes); then one line for the trucks, which go
        instead of a meeple with any of those on any free road (most of a
        position's turns: every place times every road); then the discard.
        The counts add up to every legal turn; a pending choice is listed as
        it is, ``pay`` and ``lumberjack``."""
        if state.pending or self.game.to_move(state) is None:
            return super().legal_groups(state, limit)
        places: dict[tuple[str, int, int], dict[str, list[str]]] = {}  # tile and place: each turn written, its extras
        trucks, truck_example, trucks_choose = 0, "", False
        others: list[LegalGroup] = []
        for turn in self.game.iter_turns(state):
            if not isinstance(turn, Place):
                others.append(LegalGroup(self.format_turn(state, turn)))
                continue
            text = self.format_turn(state, turn)
            if turn.truck is not None:
                trucks += 1
                truck_example = truck_example or text
                trucks_choose = trucks_choose or bool(turn.choices)
                continue
            head = self.format_turn(state, Place(turn.code, turn.x, turn.y, turn.turn))
            turns = places.setdefault((turn.code, turn.x, turn.y), {})
            turns.setdefault(head, []).append(text[len(head):].lstrip(", "))
        groups = [LegalGroup(_place_line(turns), sum(len(extras) for extras in turns.values()))
                  for turns in places.values()]
        if trucks:
            groups.append(LegalGroup(self._truck_line(state, truck_example, trucks_choose), trucks))
        groups += others
        return groups[:limit], len(groups) > limit

    def _truck_line(self, state: TaigaState, example: str, choose: bool) -> str:
        taken = {(p.x, p.y, p.spot) for p in state.pieces if p.role == "truck"}
        roads = ", ".join(f"{x},{y} {spot}" for x, y, spot in maps.analyse(state.placed).segment_keys()
                          if (x, y, spot) not in taken)
        line = _("or, instead of a meeple, a truck (${cost}) with any tile, place and turn above: add ', truck x,y "
                 "side' for a free road, one of {roads}, or for a road of the tile laid if it has one; such as "
                 "{example}", cost=TRUCK_COST, roads=roads or _("none"), example=quote(example))
        if choose:
            line = _("{line}; the choices a tile needs come after the truck, and a lumberjack with it costs "
                     "${cost} more", line=line, cost=LUMBERJACK_COST)
        return str(line)

    # -- play by clicking ---------------------------------------------------
    def turn_clicks(self, state: TaigaState, turn: TaigaTurn) -> tuple[str, ...]:
        """The drawn tile (its code, clicked on the picture), then the
        place on the map (``0,1``, clicked on the map: an empty place
        next to it), then a button for each further part: the rotation
        (``turn 0`` too, unwritten in the turn, so that every rotation is
        asked the same way; the only one that fits is clicked for the
        player), ``keeper``,
        ``keeper``, ``surveyor e``, ``truck`` then the truck's tile on the
        map then its side (``e``), ``pay s``; a discard is the drawn tile
        then ``discard``; the choice for a completed forest, ``pay`` or
        ``lumberjack``, is a button."""
        if isinstance(turn, Choose):
            return (turn.option,)
        if isinstance(turn, Discard):
            return (turn.code, "discard")
        clicks = [turn.code, f"{turn.x},{turn.y}", f"turn {90 * turn.turn}"]
        if turn.meeple == CAMP_SPOT:
            clicks.append("keeper")
        elif turn.meeple:
            clicks.append(f"surveyor {turn.meeple}")
        if turn.truck:
            clicks += ["truck", f"{turn.truck[0]},{turn.truck[1]}", turn.truck[2]]
        clicks += [f"{choice} {spot}" for spot, choice in turn.choices]
        return tuple(clicks)

    # -- positions -------------------------------------------------------
    def format_position(self, state: TaigaState) -> str:
        return write_position(state)

    def parse_position(self, text: str, options: Mapping[str, Any] | None = None) -> TaigaState:
        self.game.normalize_options(options)
        return read_position(text)

    # -- diagrams --------------------------------------------------------
    def diagram(self, state: TaigaState) -> Diagram:
        """The map (each tile drawn from the tile data, with its pieces; the
        empty places next to it outlined with their coordinates), the drawn
        tile (face down to all but its player), the discards and the pile;
        the caption gives each player's money, pieces and tokens."""
        board = maps.analyse(state.placed)
        on_tile: dict[tuple[int, int], list[tuple[str, str, int]]] = {}
        for p in state.pieces:
            on_tile.setdefault((p.x, p.y), []).append((p.spot, p.role, p.player))
        logged_keys = {k for name in state.logged for k in board.forests[board.forest_of[name]].keys} \
            if all(name in board.forest_of for name in state.logged) else set()
        tiles = []
        for (x, y), tile in sorted(board.tiles.items(), key=lambda item: (-item[0][1], item[0][0])):
            pieces = tuple(sorted(on_tile[x, y])) if (x, y) in on_tile else ()
            logged = tuple(s for s in tile.forest_spots if (x, y, s) in logged_keys) if logged_keys else ()
            tiles.append(_map_tile(x, y, tile, pieces, logged))
        tiles.extend(_empty_place(x, y) for x, y in maps.frontier(board.tiles))
        # the words are read now, in the language of the moment (the pictures are cached by language)
        zones = [Zone(str(_("Map (x east, y north; the start tile at 0,0)")), "tiles", tuple(tiles))]
        if state.drawn == HIDDEN:
            zones.append(Zone(str(_("Player {player}'s drawn tile", player=state.mover + 1)), "hand",
                              (Card(face_up=False),)))
        elif state.drawn is not None:
            zones.append(Zone(str(_("Player {player}'s drawn tile: {code}", player=state.mover + 1,
                                    code=state.drawn)), "tiles", (_loose(state.drawn, 0, click=True),)))
        if state.discards:
            zones.append(Zone(str(_("Discards (face up): {codes}", codes=", ".join(state.discards))), "tiles",
                              tuple(_loose(code, i) for i, code in enumerate(state.discards)),
                              beside=state.drawn is not None))
        zones.append(Zone(str(_("Draw pile")), "pile", (), count=len(state.pile), beside=True))
        return Diagram(0, 0, {}, self._caption(state), tuple(str(line) for line in LEGEND), players=state.players,
                       zones=tuple(zones))

    def _caption(self, state: TaigaState) -> tuple[str, ...]:
        lines = []
        over = self.game.is_over(state)
        final = final_scoring(state) if over else None
        for player in range(state.players):
            tokens = ", ".join(str(_(t)) for t in state.tokens[player]) or _("no tokens")
            line = str(_("Player {player} ({colour}): ${money}, {left} of {meeples} meeples, {trucks} trucks, "
                         "{tokens}", player=player + 1, colour=player_colour(player).name,
                         money=state.money[player], left=state.meeples_left(player), meeples=MEEPLES,
                         trucks=state.trucks_left(player), tokens=tokens))
            if final:
                parts = final[player]
                line += str(_("; final ${total} (+{served} forests served, +{species} species, +{jacks} lumberjack "
                              "forests)", total=sum(parts.values()), served=parts["forests served"],
                              species=parts["species"], jacks=parts["lumberjack forests"]))
            lines.append(line)
        if over:
            result = self.game.result(state)
            assert result is not None  # the game is over: it has a result
            if len(result.winners) > 1:
                lines.append(str(_("Game over: players {players} win (most money)",
                                   players=_(" and ").join(str(w + 1) for w in result.winners))))
            else:
                lines.append(str(_("Game over: player {player} wins (most money)", player=result.winners[0] + 1)))
        elif state.pending:
            p = state.pending[0]
            lines.append(str(_("Player {player} to choose for the completed forest at {at} ({spot}): pay or "
                               "lumberjack", player=p.player + 1, at=f"{p.x},{p.y}", spot=p.spot)))
        else:
            lines.append(str(_("Player {player} to move; {count} tiles left to draw", player=state.mover + 1,
                               count=len(state.pile))))
        return tuple(lines)

    def player_label(self, player: int) -> str:
        return str(player + 1)


LEGEND = (_("Tiles: dark green softwood, light green hardwood, brown roads, a hut a logging camp, a disc a species "
            "symbol; pieces S surveyor, L lumberjack, K camp keeper, T truck, in the player's colour."),
          _("Text map: each tile is three rows: a meeple (s surveyor, l lumberjack, k keeper) and its player, and "
            "the north edge; west edge, code, mark (* camp, m b a o species token, x logged), east edge; a truck "
            "(t and its player) and the south edge.  Edges: S softwood, H hardwood, . grass, | = road."))


@lru_cache(maxsize=8192)
def _map_tile(x: int, y: int, tile: Turned, pieces: tuple[tuple[str, str, int], ...],
              logged: tuple[str, ...]) -> Tile:
    """``tile`` laid at x, y on the map with ``pieces`` on it and its
    ``logged`` forest spots cleared, kept: a map shows the same tiles where
    they were at every turn (a late map has some seventy)."""
    token = bool(tile.feature) and not logged
    return Tile((x, y), f"{x},{y}", corner_colour(tile, logged), None, *_pictures(tile, pieces, logged, token),
                click=f"{x},{y}")


@lru_cache(maxsize=8192)
def _empty_place(x: int, y: int) -> Tile:
    """The empty place x, y next to the map, outlined with its coordinates."""
    return Tile((x, y), f"{x},{y}", "#ffffff", None, (), EMPTY_GLYPH, click=f"{x},{y}")


@lru_cache(maxsize=4096)
def _pictures(tile: Turned, pieces: tuple[tuple[str, str, int], ...], logged: tuple[str, ...],
              token: bool) -> tuple[tuple[TileShape, ...], tuple[str, ...]]:
    """A tile's shapes and glyph on the map, kept: a map shows the same few
    tiles (with the same pieces) again at every turn."""
    return tile_shapes(tile, pieces, logged, token), tile_glyph(tile, pieces, logged, token)


def _loose(code: str, index: int, click: bool = False) -> Tile:
    """A tile off the map (drawn, discarded), as printed; ``click``: clicked
    by its code (the drawn tile, the first click of a turn)."""
    tile = turned(code, 0)
    return Tile((index, 0), code, corner_colour(tile), None, tile_shapes(tile), tile_glyph(tile),
                click=code if click else "")


def _place_line(turns: dict[str, list[str]]) -> str:
    """A tile and place: each turn of the tile that fits there, as written
    (``S4 at 1,0 turn 90``), with what may be added to it (``extras``, ""
    for nothing)."""
    parts = []
    for written, extras in turns.items():
        added = [extra for extra in extras if extra]
        if not added:
            parts.append(written)
            continue
        what = added[0] if len(added) == 1 else _("one of: {extras}", extras=" | ".join(added))
        parts.append(str(_("{turn} alone or with {what}", turn=written, what=what) if "" in extras
                         else _("{turn} with {what}", turn=written, what=what)))
    return "; ".join(parts)


def replace_choices(game: TaigaGame, state: TaigaState, place: Place,
                    choices: list[tuple[str | None, str]]) -> Place:
    """``place`` with its choices, a choice without a spot given the one
    completed forest that needs it."""
    if not choices:
        return place
    needed = game._choice_spots(state, maps.analyse(state.placed + (Placed(place.x, place.y, place.code,
                                                                          place.turn),)), place) \
        if maps.mismatch(maps.analyse(state.placed).tiles, place.x, place.y, turned(place.code, place.turn)) is None \
        and (place.x, place.y) not in maps.analyse(state.placed).tiles else []
    filled = []
    for spot, what in choices:
        if spot is None:
            if len(needed) != 1:
                raise AmbiguousTurnError(_("say which completed forest you {what}: {choices}", what=what,
                                           choices=", ".join(f"'{what} {s}'" for s in needed)
                                           or _("none needs a choice")))
            spot = needed[0]
        filled.append((spot, what))
    return Place(place.code, place.x, place.y, place.turn, place.meeple, place.truck, tuple(sorted(filled)))


NOTATION = TaigaNotation()
KIND = GameKind(
    "taiga",
    NOTATION.game,
    NOTATION,
    N_("Taiga – Battle Boreal: lay forest and road tiles, survey and log forests, run camps and trucks; 2 to 5 players."),
    package=__name__,  # its guide and catalogue (notation.base.GameKind.package)
)
