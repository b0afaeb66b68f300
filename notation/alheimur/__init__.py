"""Alheimur notation: turns (``notation.alheimur.turns``), positions
(``notation.alheimur.position``), diagrams and the plain-text picture of
every world, as ``notation/alheimur/guide.md`` describes."""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Any, Mapping, Sequence

from engine.alheimur import AlheimurGame, AlheimurState
from engine.alheimur.deck import ELEMENT_COLOURS, ELEMENTS
from engine.alheimur.pieces import AlheimurTurn, Colonists, Place, Pyramid, Ship, Turn, World
from engine.alheimur.rules import play_out
from engine.alheimur.scoring import score
from engine.alheimur.setup import place_text
from engine.alheimur.worlds import geometry
from engine.errors import GameOverError, IllegalTurnError, MalformedTurnError, TurnError
from engine.i18n import N_, _
from notation.alheimur import clicks as alheimur_clicks
from notation.alheimur import position as positions
from notation.alheimur import turns
from notation.base import Diagram, GameKind, Notation, Piece, SeatSetting, Stack, Tile, Zone, player_colour
from notation.clicks import ClickOptions
from notation.quote import quote


class AlheimurNotation(Notation[AlheimurState, Any]):
    game = AlheimurGame()
    turn_examples = ("1b3+2 1c4-d4 1b3^F; battles 2; fire", "e~", "1a4+1 1b4+1 1a3+1", "pass")
    seat_settings = (SeatSetting(
        "fire",
        _("your standing fire order, which your ships follow in every battle you do not order yourself "
          "(other players' turns too): 'fire' (the largest enemy fighter, else the largest transport), "
          "'fire 3 2' (player 3's ships first, then player 2's), 'fire t' (transports first) or 'hold'"),
        "fire 3 t", "fire"),)

    # -- turns -----------------------------------------------------------
    def parse_turn(self, state: AlheimurState, text: str) -> Any:
        if not isinstance(text, str):
            raise MalformedTurnError(_("a turn is text, not {name}", name=type(text).__name__))
        if self.game.is_over(state):
            raise GameOverError(_("the game is over; no turn can be played"))
        try:
            turn: AlheimurTurn
            if state.phase == "build":
                turn = turns.read_place(text)
            elif state.phase == "colonists":
                turn = turns.read_colonists(state, text)
            elif state.phase == "play":
                turn = turns.read_play(state, text)
            else:
                raise IllegalTurnError(_("the game waits for chance (the server settles it)"))
            self.game.apply(state, turn)
        except TurnError as error:
            if isinstance(error, MalformedTurnError):
                raise
            raise type(error)(_("{text}: {error}", text=quote(text.strip()), error=error)) from None
        return turn

    def format_turn(self, state: AlheimurState, turn: Any) -> str:
        if isinstance(turn, Place):
            return turns.place_turn_text(turn)
        if isinstance(turn, Colonists):
            return turns.colonists_text(state, turn)
        if isinstance(turn, Turn):
            return turns.play_text(turn)
        raise TypeError(f"not an Alheimur turn: {turn!r}")

    # -- play by clicking ---------------------------------------------------
    def turn_clicks(self, state: AlheimurState, turn: Any) -> tuple[str, ...]:
        """An item on a territory is the territory, clicked on its world's
        picture (``1a4``, any tile of it), then what is done there, a
        button (``+3``, ``=2``, ``^F``); a migration is the territory,
        ``-``, then the territory it goes to (``1a2-c3``: ``1a2``, ``-``,
        ``1c3``).  A ship's move is the ship, clicked in its orbit or in
        space (``ship 2F2``), then a button (``>S``, ``=T``), or ``>`` or ``!``
        then the territory it returns or lands on (``2c3``).  Everything
        else is a button per word, as written: a placement (``sw~``),
        ``pass``, and the sections after the items (``battles``, ``2;``,
        ``fire``)."""
        text = self.format_turn(state, turn)
        items, _, sections = text.partition("; ")
        clicks: list[str] = []
        for word in items.split():
            on = _ON_TERRITORY.fullmatch(word)
            ship = _SHIP_MOVE.fullmatch(word)
            if ship is not None and ship["place"]:  # to a territory of the orbit's world
                clicks += ["ship " + ship["ship"], ship["how"], ship["ship"][0] + ship["place"]]
            elif ship is not None:
                clicks += ["ship " + ship["ship"], ship["how"] + ship["to"]]
            elif on is None:
                clicks.append(word)
            elif on["rest"].startswith("-"):
                clicks += [on["world"] + on["territory"], "-", on["world"] + on["rest"][1:]]
            else:
                clicks += [on["world"] + on["territory"], on["rest"]]
        return tuple(clicks + sections.split())

    def click_options(self, state: AlheimurState, prefix: Sequence[str]) -> ClickOptions:
        """Answered from the rules, down only the turns that agree with
        ``prefix`` (``notation.alheimur.clicks``): whole even when the
        legal turns are far too many to scan."""
        return alheimur_clicks.click_options(self, state, prefix)

    # -- positions -------------------------------------------------------
    def format_position(self, state: AlheimurState) -> str:
        return positions.format_position(state)

    def parse_position(self, text: str, options: Mapping[str, Any] | None = None) -> AlheimurState:
        self.game.normalize_options(options)
        return positions.parse_position(text, options)

    # -- diagrams --------------------------------------------------------
    def diagram(self, state: AlheimurState) -> Diagram:
        """Each world as 4 x 4 tiles in element colours, its territories'
        names and borders, and pyramids (invaders lying on their side);
        each orbit and space as ships (a fighter lying on its side, a
        transport upright with its marine on top); the caption says whose
        turn it is."""
        zones: list[Zone] = []
        mover = state.current if state.phase == "play" else None
        for world in state.worlds:
            zones.append(Zone(world_title(state, world), "tiles", world_tiles(world)))
            zones.append(Zone(str(_("Orbit {name}", name=world.name)), "stacks", ship_stacks(world.ships, mover, world.name),
                              beside=True))
        if state.phase in ("play", "over"):
            zones.append(Zone(str(_("Space")), "stacks", ship_stacks(state.space, mover, "S")))
        if not zones:  # before the deal: nothing is built yet
            zones.append(Zone(str(_("No world is built yet")), "stacks", ()))
        legend = (N_("Tiles: {tiles}; pyramids: player number and pips, i for an invader; ships: p and the "
                     "player, F fighter or T transport, pips, + a marine (p2T3+1)").format(
                         tiles=", ".join(f"{e} {n}" for e, n in ELEMENTS.items())),)
        return Diagram(0, 0, {}, tuple(caption(state)), legend, players=state.players, zones=tuple(zones))

    def text_diagram(self, state: AlheimurState) -> str:
        lines: list[str] = []
        for world in state.worlds:
            # never "orbit: none", which reads like the hidden orbit card
            lines.append(str(_("{world}; ships in orbit: {ships}", world=world_title(state, world),
                               ships=ships_text(world.ships)) if world.ships else
                             _("{world}; no ships in orbit", world=world_title(state, world))))
            lines.extend(world_text(world))
            lines.append("")
        if state.phase in ("play", "over"):
            lines.append(str(_("Ships in space: {ships}", ships=ships_text(state.space)) if state.space else
                             _("No ships in space")))
        if state.phase == "build" and state.building:
            lines.append("Being built: " + " ".join(f"{c}@{place_text(x, y, False) if (x, y) != (0, 0) else 'first'}"
                                                    for x, y, c in state.building))
        lines.extend(caption(state))
        lines.append("Elements: " + ", ".join(f"{e} {n}" for e, n in ELEMENTS.items())
                     + "; pyramids: player and pips (12 = player 1's 2), i invader"
                     + "; ships: p, player, F fighter or T transport, pips, +marine (p1T3+1)")
        return "\n".join(lines)

    def player_label(self, player: int) -> str:
        return str(player + 1)

    # -- standing fire orders set outside a turn ----------------------------
    def read_setting(self, state: AlheimurState, seat: int, name: str, text: str) -> str:
        if name != "fire":
            raise MalformedTurnError(_("Alheimur has one setting, 'fire' (your standing fire order); not {name}",
                                       name=quote(name)))
        if not isinstance(text, str):
            raise MalformedTurnError(_("a standing fire order is text, such as 'fire 3 t' or 'hold'"))
        words = turns.clean(text).lower().replace(",", " ").split()
        if words[:1] in (["standing"], ["stand"]):
            words = words[1:]
        if not words:
            raise MalformedTurnError(_("a standing fire order is 'fire', 'fire 3 2', 'fire t' or 'hold', "
                                       "such as 'fire 3 t'"))
        return turns.fire_text(turns.read_fire(words, text, state.players))

    def setting_of(self, state: AlheimurState, seat: int, name: str) -> str:
        return turns.fire_text(state.orders[seat])

    def with_settings(self, state: AlheimurState, turn: Any, changes: Mapping[int, Mapping[str, str]]) -> Any:
        if not isinstance(turn, Turn):
            return None  # setup turns carry no orders: they wait for the first turn of play
        standings = dict(turn.standings)
        standing = turn.standing
        for seat, values in changes.items():
            if "fire" not in values:
                continue
            order = turns.read_fire(values["fire"].split(), values["fire"], state.players)
            if seat == state.current:
                standing = order if standing is None else standing  # the turn's own wins
            else:
                standings[seat] = order
        return replace(turn, standing=standing, standings=tuple(sorted(standings.items())))

    def turn_settings(self, state: AlheimurState, turn: Any) -> Mapping[int, Mapping[str, str]]:
        if not isinstance(turn, Turn):
            return {}
        found = {seat: {"fire": turns.fire_text(order)} for seat, order in turn.standings}
        if turn.standing is not None:
            found[state.current] = {"fire": turns.fire_text(turn.standing)}
        return found

    def private_turn_text(self, text: str, mover: int, viewer: int | None) -> str:
        """Drops the standing orders of players other than ``viewer``:
        ``standing ...`` (the mover's) and ``standing N ...``."""
        sections = re.split(r"[;\n]", text)
        kept: list[str] = []
        for section in sections:
            words = section.split()
            if words and words[0].lower() in ("standing", "stand"):
                other = turns.standing_player(words)
                whose = mover if other is None else other
                if whose != viewer:
                    continue
            kept.append(section)
        if len(kept) == len(sections):
            return text  # nothing hidden: as written
        return "; ".join(k.strip() for k in kept if k.strip()) or "pass"

    def turn_report(self, state: AlheimurState, turn: Any, outcomes: Sequence[Sequence[str]]) -> str:
        """What happened in ``turn`` played from ``state`` with the chance
        outcomes that followed it (as the record holds them): every
        expansion, survival check, move, lot, battle step and die, one line
        each, short enough for a phone.  For the mail and the page."""
        _after, log = play_out(self.game, state, turn, [tuple(o) for o in outcomes])
        return "\n".join(line.strip() for line in log) or str(_("Nothing happened."))


#: a ship's move: the ship (zone, kind, size, marine), how it moves, where to (a territory, or the rest)
_SHIP_MOVE = re.compile(r"(?P<ship>[1-8NS][FT][1-3](?:\+[1-3])?)(?P<how>[>!=])(?:(?P<place>[a-d][1-4])|(?P<to>.+))")
#: an item done on a territory: the world, the territory, what is done there
_ON_TERRITORY = re.compile(r"(?P<world>[1-8N])(?P<territory>[a-d][1-4])(?P<rest>[-+=^].+)")


#: the players' colours as world titles name them (``player_colour``), for the catalogue
COLOUR_WORDS = (N_("red"), N_("blue"), N_("green"), N_("gold"), N_("purple"), N_("orange"), N_("sky"), N_("black"))


def world_title(state: AlheimurState, world: World) -> str:
    """A world's title over its picture, in the language of the moment."""
    if world.owner is None:
        return str(_("World N (neutral)"))
    return str(_("World {name} ({colour})", name=world.name, colour=_(player_colour(world.owner).name)))


#: the five elements' names, as the scores in the caption name them
ELEMENT_WORDS = (N_("air"), N_("earth"), N_("fire"), N_("water"), N_("ether"))


def caption(state: AlheimurState) -> list[str]:
    """Whose turn it is (or the final scores), in the language of the
    moment: the pictures are cached by language."""
    if state.phase == "over":  # two lines a player: the whole score line is wider than a board
        return [line for p in range(state.players) for line in _score_lines(p + 1, score(state, p))]
    lines = []
    if state.phase == "build":
        lines.append(str(_("Player {n} lays {card}", n=state.builder + 1, card=state.card)))
    elif state.phase == "colonists":
        lines.append(str(_("Player {n} places three colonists", n=state.current + 1)))
    else:
        lines.append(str(_("Player {n} to play, turn {turn}", n=state.current + 1, turn=state.turns + 1)))
    if state.last_round is not None:
        lines.append(str(_("Last round: still to play {players}",
                           players=" ".join(str(p + 1) for p in state.last_round))))
    return lines


def _score_lines(n: int, result: Any) -> list[str]:
    """Player ``n``'s final score (``Score.text``) in the language of the
    moment, in two lines short enough for the board's width: the total and
    progress, then the element scores."""
    def number(value: Any) -> str:
        return str(value.numerator) if value.denominator == 1 else f"{float(value):g}"

    parts = " ".join(f"{_(ELEMENTS[e])} {number(v)}" for e, v in result.elements.items())
    return [str(_("Player {n}: total {total}, progress {progress}", n=n, total=number(result.total),
                  progress=result.progress)), f"  {parts}"]


def _label(p: Pyramid) -> str:
    return f"{p.owner + 1}{p.size}{'i' if p.invader else ''}"


def world_tiles(world: World) -> tuple[Tile, ...]:
    geo = geometry(world.layout)
    pieces = dict(world.pieces)
    owner = {tile: terr.name for terr in geo.territories for tile in terr.tiles}
    sides = {"n": (0, -1), "e": (1, 0), "s": (0, 1), "w": (-1, 0)}  # (column, row) steps; row 0 on top
    tiles = []
    for terr in geo.territories:
        for i, (col, row) in enumerate(terr.tiles):
            piece = None
            if i == 0 and terr.name in pieces:
                p = pieces[terr.name]  # an invader lies on its side
                piece = Piece("pyramid", _label(p), p.owner, p.size, lying=p.invader)
            walls = "".join(side for side, (dc, dr) in sides.items() if owner.get((col + dc, row + dr)) != terr.name)
            tiles.append(Tile((col, 3 - row), terr.name if i == 0 else terr.element,
                              ELEMENT_COLOURS[terr.element], piece, walls=walls, click=f"{world.name}{terr.name}"))
    return tuple(sorted(tiles, key=lambda t: (-t.at[1], t.at[0])))


def ship_stacks(ships: tuple[Ship, ...], mover: int | None = None, zone: str = "") -> tuple[Stack, ...]:
    """The ships as stacks; those of ``mover`` (the player to play) are
    clicked as their moves name them (``ship 2F2``: a fighter of 2 in the
    orbit of world 2; ``ship ST2+1`` in space); a stack's label names its
    owner as positions do, ``p1F2`` (player 1's fighter of 2)."""
    stacks = []
    for s in ships:
        # a fighter lies on its side, a transport stands with its marine on top
        body = Piece("pyramid", positions.format_ship(replace(s, marine=0)), s.owner, s.size, lying=s.fighter)
        cargo = (Piece("pyramid", f"+{s.marine}", s.owner, s.marine),) if s.marine else ()
        click = f"ship {turns.ship_text(zone, s.size, s.fighter, s.marine)}" if s.owner == mover and zone else ""
        stacks.append(Stack(positions.format_ship(s), cargo + (body,), click=click))
    return tuple(stacks)


def ships_text(ships: tuple[Ship, ...]) -> str:
    return " ".join(positions.format_ship(s) for s in ships)


def world_text(world: World) -> list[str]:
    """4 x 4 cells: the element letter, the pyramid on the territory's
    first tile; '|' and '---' mark borders between territories."""
    geo = geometry(world.layout)
    pieces = dict(world.pieces)
    firsts = {t.tiles[0]: t.name for t in geo.territories}
    element = {tile: geo.territory(name).element for tile, name in geo.at_tile.items()}
    lines = ["   a    b    c    d"]
    for row in range(4):
        cells = []
        for col in range(4):
            here = geo.at_tile[(col, row)]
            code = _label(pieces[here]) if (col, row) in firsts and here in pieces else ""
            cells.append(f"{element[(col, row)]}{code:<3}")
            if col < 3:
                cells.append("|" if geo.at_tile[(col + 1, row)] != here else " ")
        lines.append((f"{4 - row}  " + "".join(cells)).rstrip())
        if row < 3:
            border = "".join(("----" if geo.at_tile[(col, row + 1)] != geo.at_tile[(col, row)] else "    ")
                             + (" " if col < 3 else "") for col in range(4))
            lines.append(("   " + border).rstrip())
    return lines


NOTATION = AlheimurNotation()
KIND = GameKind(
    "alheimur",
    NOTATION.game,
    NOTATION,
    N_("Alheimur: worlds of Aquarius cards, colonists, fleets and dice, for 2 to 8 players."),
    package=__name__,  # its guide and catalogue (notation.base.GameKind.package)
)
