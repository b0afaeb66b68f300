"""The text side of the one game interface: turns, positions and diagrams.

Every game supplies a ``Notation`` subclass next to its ``engine.base.Rules``.
Parsing is forgiving (case, spacing); formatting is canonical.  Parsers raise
only the error types of ``engine.errors``.

Diagrams are described once per game as a ``Diagram`` (a grid of cells with
the pieces on them, and any number of ``Zone``s beside or below it: stacks in
a row, piles, hands, dice, tiles); ``render_text`` here, and the SVG and PNG
renderers of the server, draw any game's diagram without knowing the game.
Players 1 to 8 each have a colour (``PLAYER_COLOURS``: a name for legends, a
CSS colour, a text symbol).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, Mapping, Sequence, TypeVar

from engine.base import MAX_PLAYERS, Rules
from engine.i18n import Text, _, add_catalogue
from notation.zones_text import zones_text

if TYPE_CHECKING:
    from notation.clicks import ClickOptions

S = TypeVar("S")
T = TypeVar("T")

@dataclass(frozen=True)
class PlayerColour:
    """How player ``n`` is shown: ``name`` in legends ("player 5 purple"),
    ``css`` in pictures, ``symbol`` (one letter) in text diagrams."""

    name: str
    css: str
    symbol: str


#: one per player, in turn order.  The first four are the colours the boards
#: always had; the eight differ in lightness as well as hue, so they stay
#: apart for colour-blind players too, and legends name them.
PLAYER_COLOURS: tuple[PlayerColour, ...] = (
    PlayerColour("red", "#c62828", "R"),
    PlayerColour("blue", "#1f4fbf", "B"),
    PlayerColour("green", "#2e7d32", "G"),
    PlayerColour("gold", "#d4a017", "Y"),
    PlayerColour("purple", "#6a1b9a", "P"),
    PlayerColour("orange", "#ef6c00", "O"),
    PlayerColour("sky", "#56b4e9", "S"),
    PlayerColour("black", "#111111", "K"),
)

assert len(PLAYER_COLOURS) == MAX_PLAYERS


def reason_words(reason: str) -> str:
    """A result's reason (kept in English, its parts joined by "; ", each a
    message marked where the game makes it) in the language of the moment."""
    return "; ".join(str(_(part)) for part in str(reason).split("; "))


def player_colour(player: int) -> PlayerColour:
    """The colour of 0-based ``player`` (cycling past the eighth)."""
    return PLAYER_COLOURS[player % len(PLAYER_COLOURS)]


def players_legend(players: int) -> str:
    """One line naming each player's colour and text symbol."""
    return "Players: " + ", ".join(
        f"{p + 1} {player_colour(p).name} ({player_colour(p).symbol})" for p in range(players))


@dataclass(frozen=True)
class Piece:
    """One thing standing on a square.

    ``kind`` is a short word saying how the picture renderers draw it: its
    ``PieceLook``, which the game declares (``Notation.piece_looks``: Logger's
    "tree" and "logger", Ataxx's "stone" and "blocked"), or the shared
    "pyramid" (``SHARED_LOOKS``); a kind no game declares is drawn as its
    label.  ``player`` is 0-based or None
    for neutral pieces; ``size`` is 1-3 for pyramids and tree stages;
    ``marked`` flags an extra marker (a protester on a tree); ``label`` is the
    character the text diagram shows.  ``colour``, when set, is the CSS
    colour the piece really has (a Martian Greenhouse chromosome); renderers
    that do not read it draw the player's colour as before.
    """

    kind: str
    label: str
    player: int | None = None
    size: int = 1
    marked: bool = False
    colour: str | None = None
    #: drawn lying on its side, pointing right (an Icehouse pyramid laid
    #: down: an invader, a fighter); renderers that do not read it draw it upright
    lying: bool = False


#: the shapes a ``PieceLook`` may have
LOOK_SHAPES = ("pyramid", "disc", "square", "label")


@dataclass(frozen=True)
class PieceLook:
    """How the SVG and PNG renderers draw a kind of piece (``Piece.kind``),
    in pixels of a 56-pixel square.  ``shape``: "pyramid" (an Icehouse
    pyramid of the piece's size 1-3, upright or lying; a marked one has a
    dot in its corner), "disc" (a circle of radius ``size``), "square" (a
    square ``size`` pixels inside the square's edges) or "label" (the
    piece's label in ink, as an unknown kind is drawn).  Its fill is
    ``fill`` when set, whoever's piece it is; else the piece's own
    ``colour``, else its player's, else ``neutral`` when set (a piece of no
    player: a Logger tree), else grey.  ``label``, when set, is the colour
    of the piece's label written over it."""

    shape: str
    fill: str | None = None
    neutral: str | None = None
    size: int = 0
    label: str | None = None

    def __post_init__(self) -> None:
        if self.shape not in LOOK_SHAPES:
            raise ValueError(f"a piece look is one of {', '.join(LOOK_SHAPES)}; not {self.shape!r}")


#: the looks of the kinds of piece every game may use: the Icehouse pyramid
SHARED_LOOKS: Mapping[str, PieceLook] = {"pyramid": PieceLook("pyramid")}


#: what a ``Zone`` may hold, by kind
ZONE_KINDS = ("grid", "stacks", "pile", "hand", "dice", "tiles")


@dataclass(frozen=True)
class Stack:
    """Pieces stacked on each other, listed top first (a Martian Greenhouse
    flower: six pyramids); ``label`` names it ("#3"), ``note`` says more
    ("filled by #7").  ``click``, when set, is the click clicking it makes
    (``notation.clicks``), when that is not its label: its clickable area
    is named so (several stacks may share one: any of them is clicked)."""

    label: str
    pieces: tuple[Piece, ...]
    note: str = ""
    click: str = ""


@dataclass(frozen=True)
class Card:
    """A card or tile in a hand or on a pile.  Face up it shows ``label`` on
    ``colour`` (or its player's colour); face down it shows nothing, and
    cannot carry a face: a hidden card's label or colour is refused, so a
    diagram cannot leak it."""

    label: str = ""
    face_up: bool = True
    colour: str | None = None
    player: int | None = None

    def __post_init__(self) -> None:
        if not self.face_up and (self.label or self.colour):
            raise ValueError(_('a face-down card shows no label or colour'))


@dataclass(frozen=True)
class Die:
    """A die showing ``value`` (1 to ``sides``), in its player's colour."""

    value: int
    sides: int = 6
    player: int | None = None


@dataclass(frozen=True)
class TileShape:
    """Part of a tile's own picture, in fractions of the tile (0 to 1, from
    its top-left corner, y down): ``kind`` "polygon" (``data``: the points),
    "circle" (cx, cy, r) or "text" (x, y, text); filled with ``fill``,
    outlined with ``outline`` when set (text: ``fill`` is its colour)."""

    kind: str
    data: tuple[Any, ...]
    fill: str
    outline: str | None = None

    def __post_init__(self) -> None:
        if self.kind not in ("polygon", "circle", "text"):
            raise ValueError(f"a tile shape is a polygon, circle or text; not {self.kind!r}")


@dataclass(frozen=True)
class Tile:
    """A tile on a map that grows in any direction: ``at`` is (x, y), y up,
    any integers; ``label`` names it and ``colour`` fills it; ``piece``, when
    set, is the picture drawn on it.  A game with pictures of its own gives
    ``shapes`` (drawn over the fill, under the piece and label) and, for the
    text map, ``glyph``: rows of characters, all tiles' glyphs the same size
    (the text map then sets them side by side with the coordinates around).
    ``walls``: its sides drawn thick.  ``click``, when set, is the click
    (``notation.clicks``) that clicking this tile makes: its clickable area
    on the picture is named so (several tiles may share one click: a
    territory of several tiles is clicked on any of them)."""

    at: tuple[int, int]
    label: str
    colour: str | None = None
    piece: Piece | None = None
    shapes: tuple[TileShape, ...] = ()
    glyph: tuple[str, ...] = ()
    #: the sides ("n", "e", "s", "w"; y up) drawn as a thick border: where
    #: a region of several tiles (a territory) ends
    walls: str = ""
    click: str = ""


@dataclass(frozen=True)
class Zone:
    """A part of a diagram beside or below the board.  ``kind`` is one of
    ``ZONE_KINDS``, and ``items`` holds, by kind: "grid" one ``Diagram``;
    "stacks" ``Stack``s in a row; "pile" the face-up ``Card``s on top, if any
    (``count`` is how many cards are in the pile); "hand" ``Card``s; "dice"
    ``Die``s; "tiles" ``Tile``s.  ``beside`` draws the zone to the right of
    the one before it instead of below."""

    title: str
    kind: str
    items: tuple[Any, ...] = ()
    count: int = 0
    beside: bool = False

    def __post_init__(self) -> None:
        wanted: dict[str, type[object]] = {"grid": Diagram, "stacks": Stack, "pile": Card, "hand": Card, "dice": Die,
                                           "tiles": Tile}
        if self.kind not in wanted:
            raise ValueError(_('a zone is one of {zone_kinds}; not {kind}', zone_kinds=', '.join(ZONE_KINDS), kind=repr(self.kind)))
        kind = wanted[self.kind]
        if not all(isinstance(item, kind) for item in self.items):
            raise ValueError(_('a {kind} zone holds {name} items', kind=self.kind, name=kind.__name__))
        if self.kind == "grid" and len(self.items) != 1:
            raise ValueError(_('a grid zone holds exactly one Diagram'))


@dataclass(frozen=True)
class Diagram:
    """A board to draw: ``files`` x ``ranks`` squares, rank 1 at the bottom,
    then its ``zones`` (a diagram of zones only has no squares: 0 files)."""

    files: int
    ranks: int
    cells: Mapping[tuple[int, int], Piece]  # (file, rank), 0-based -> piece
    caption: tuple[str, ...] = ()  # lines under the board: to move, scores...
    legend: tuple[str, ...] = ()  # what the labels mean
    #: when set, the renderers add a legend of the player colours (1..players)
    players: int = 0
    zones: tuple[Zone, ...] = ()

    @property
    def has_grid(self) -> bool:
        return self.files > 0 and self.ranks > 0

    def square_name(self, file: int, rank: int) -> str:
        return f"{chr(ord('a') + file)}{rank + 1}"


def render_text(diagram: Diagram) -> str:
    """A monospaced diagram: rank numbers on the left, files underneath;
    then the zones (``notation.zones_text``), then the caption and legend."""
    lines: list[str] = []
    width = len(str(diagram.ranks))
    for rank in reversed(range(diagram.ranks)) if diagram.has_grid else ():
        row = []
        for file in range(diagram.files):
            piece = diagram.cells.get((file, rank))
            row.append(piece.label if piece else ".")
        lines.append(f"{rank + 1:>{width}} " + " ".join(row))
    if diagram.has_grid:
        lines.append(" " * (width + 1) + " ".join(chr(ord("a") + f) for f in range(diagram.files)))
    if diagram.zones:
        if lines:
            lines.append("")
        lines.extend(zones_text(diagram.zones, render_text))
    if diagram.caption:
        lines.append("")
        lines.extend(diagram.caption)
    if diagram.legend:
        lines.append("")
        lines.extend(diagram.legend)
    if diagram.players:
        lines.append(players_legend(diagram.players))
    return "\n".join(lines)


@dataclass(frozen=True)
class SeatSetting:
    """A setting of one seat that its player may change at any time, also
    outside their turn (by mail, on the web, through the API): ``name``
    (one word, as players write it), what it decides (``description``),
    an ``example`` value and the ``default`` value, all in the game's
    notation.  The server keeps a change pending until the next turn
    played, then folds it into that turn (``Notation.with_settings``), so
    the record holds it and replays."""

    name: str
    description: str | Text  # Text: read in the language of the moment
    example: str
    default: str


@dataclass(frozen=True)
class LegalGroup:
    """Legal turns a person reads together (``Notation.legal_groups``):
    ``text`` says them in one line (a turn, or a turn's start and what may
    follow it, such as Taiga's "S4 at 1,0 turn 90 alone or with one of:
    surveyor e | keeper"); ``count`` is how many legal turns it stands for."""

    text: str
    count: int = 1


class Notation(ABC, Generic[S, T]):
    """Text in and out for one game."""

    game: Rules[S, T]
    #: examples shown in help texts and error messages
    turn_examples: tuple[str, ...] = ()
    #: the settings a player may change outside their turn (none by default)
    seat_settings: tuple[SeatSetting, ...] = ()
    #: how the pictures draw the kinds of piece this game's diagrams use
    #: beyond the shared ones (``SHARED_LOOKS``), by ``Piece.kind``; a kind
    #: is a word shared by every game, so two games using one give it the
    #: same look (the renderer refuses to draw a kind given two)
    piece_looks: Mapping[str, PieceLook] = {}

    def example_turn(self, default: str | None = "...") -> str | None:
        """The game's first turn example, for help texts and error messages;
        ``default`` when it has none."""
        return self.turn_examples[0] if self.turn_examples else default

    def option_words(self, options: Mapping[str, Any]) -> list[str]:
        """A game's options as a player reads them, one phrase each, in the
        reader's language ("mature trees spawn seedlings"); by default the
        option's name and value, for a game that has no words for them."""
        return [f"{name}: {value}" for name, value in options.items()]

    @abstractmethod
    def parse_turn(self, state: S, text: str) -> T:
        """Read a turn as a player wrote it.  Returns a legal turn (as the
        game's canonical value) or raises ``MalformedTurnError``,
        ``IllegalTurnError`` or ``AmbiguousTurnError``."""

    @abstractmethod
    def format_turn(self, state: S, turn: T) -> str:
        """The canonical text of a legal ``turn`` played from ``state``."""

    @abstractmethod
    def parse_position(self, text: str, options: Mapping[str, Any] | None = None) -> S:
        """Read a position string; raise ``PositionError``."""

    @abstractmethod
    def format_position(self, state: S) -> str:
        """The canonical position string."""

    @abstractmethod
    def diagram(self, state: S) -> Diagram:
        """The board as a grid of pieces, with a caption."""

    def text_diagram(self, state: S) -> str:
        return render_text(self.diagram(state))

    def legal_texts(self, state: S) -> list[str]:
        """Every legal turn in canonical notation."""
        return [self.format_turn(state, t) for t in self.game.legal_turns(state)]

    def first_legal_texts(self, state: S, limit: int = 100) -> tuple[list[str], bool]:
        """At most ``limit`` legal turns in canonical notation, in the
        rules' order, and whether there are more.  Uses the rules' lazy
        ``iter_turns`` when they have one, so a game with millions of legal
        turns (Martian Greenhouse) is never enumerated whole."""
        lazy = getattr(self.game, "iter_turns", None)
        turns = lazy(state) if callable(lazy) else iter(self.game.legal_turns(state))
        texts: list[str] = []
        for turn in turns:
            if len(texts) == limit:
                return texts, True
            texts.append(self.format_turn(state, turn))
        return texts, False

    def legal_groups(self, state: S, limit: int = 100) -> tuple[list[LegalGroup], bool]:
        """The legal turns grouped so that a person can read them: at most
        ``limit`` groups in the rules' order, and whether there are more.
        Their counts add up to the legal turns listed.  By default a group
        is one turn (``first_legal_texts``); a game whose turns share long
        starts (Taiga: a tile's place, then the meeple or truck, then the
        choices) groups them, so that thousands of turns read in a page.
        The server shows these to people (mail ``legal``, the game page, the
        API's ``legal_groups``) and names no game; the turns one by one stay
        for programs (``first_legal_texts``)."""
        texts, more = self.first_legal_texts(state, limit)
        return [LegalGroup(text) for text in texts], more

    # -- play by clicking (notation/clicks.py, docs/games/contract.md) ------
    def click_grid(self, state: S) -> tuple[int, int]:
        """The files and ranks of the diagram's grid (0, 0: none), which
        the default ``turn_clicks`` reads square names against."""
        cached = self.__dict__.get("_click_grid")
        if cached is not None and cached[0] == state:
            known: tuple[int, int] = cached[1]  # stored below
            return known
        drawn = self.diagram(state)
        grid = (drawn.files, drawn.ranks) if drawn.has_grid else (0, 0)
        self.__dict__["_click_grid"] = (state, grid)
        return grid

    def turn_clicks(self, state: S, turn: T) -> tuple[str, ...]:
        """The clicks that play the legal ``turn``: squares of the diagram
        ("a1"), labels of its zones' items ("#3"), or words offered as
        buttons ("G").  The default reads them from the canonical text
        (``notation.clicks.clicks_from_text``)."""
        from notation.clicks import clicks_from_text

        files, ranks = self.click_grid(state)
        return clicks_from_text(self.format_turn(state, turn), files, ranks)

    def click_options(self, state: S, prefix: Sequence[str]) -> "ClickOptions":
        """What may be clicked after ``prefix`` and which turns it completes
        (``notation.clicks.ClickOptions``).  The default scans the legal
        turns; a game with very many overrides it with a direct answer that
        agrees with ``turn_clicks``."""
        from notation.clicks import click_options

        return click_options(self, state, prefix)

    def turn_report(self, state: S, turn: T, outcomes: Sequence[Sequence[str]]) -> str:
        """What happened in ``turn`` played from ``state`` (the full,
        unviewed position before it), with the chance outcomes that
        followed it (each a tuple of values, as the record holds them):
        lines of text for the mail after the turn and the game page.  The
        default, "", means the game has no report.  The server shows the
        report to every player (through ``pbem.services.visibility``), so it
        must name only what all players may see."""
        return ""

    def player_label(self, player: int) -> str:
        """How the notation names a 0-based player."""
        return str(player + 1)

    # -- settings a player changes outside their turn (``seat_settings``) ---
    def read_setting(self, state: S, seat: int, name: str, text: str) -> str:
        """The canonical value of setting ``name`` of 0-based ``seat`` as
        written in ``text``; raise ``MalformedTurnError`` naming what is
        wrong.  Only games with ``seat_settings`` are asked."""
        raise NotImplementedError

    def setting_of(self, state: S, seat: int, name: str) -> str:
        """The value of setting ``name`` of ``seat`` in force in ``state``."""
        raise NotImplementedError

    def with_settings(self, state: S, turn: T, changes: Mapping[int, Mapping[str, str]]) -> T | None:
        """``turn`` that also makes ``changes`` (by 0-based seat, setting
        name, canonical value) before anything they decide happens in it; a
        value the turn's mover wrote in the turn itself wins.  None when
        this turn cannot carry them (then they wait for the next turn)."""
        return None

    def turn_settings(self, state: S, turn: T) -> Mapping[int, Mapping[str, str]]:
        """The settings ``turn`` changes, by seat (a player's turn may
        change only their own; the server checks)."""
        return {}

    def private_turn_text(self, text: str, mover: int, viewer: int | None) -> str:
        """A turn's text (as written or canonical) as ``viewer`` (a 0-based
        seat, None for anyone else) may read it while the game is on: a
        game whose settings are secret drops the settings of other seats."""
        return text


@dataclass(frozen=True)
class GameKind:
    """A game as the rest of the project sees it: rules plus notation, and
    where its own files are (``package``)."""

    name: str
    rules: Rules[Any, Any]
    notation: Notation[Any, Any]
    summary: str = ""
    extra: Mapping[str, Any] = field(default_factory=dict)
    #: the package whose data files are the game's own, read with
    #: ``importlib.resources`` wherever the game is installed: its guide
    #: (``guide.md``; ``guide.<lang>.md`` written in another language, with
    #: any pictures it shows beside it) and its catalogue
    #: (``locale/<lang>/LC_MESSAGES/<name>.po``); "" for a game without them
    package: str = ""

    def __post_init__(self) -> None:
        found = self.locale_dir()
        if found is not None:  # its words read in every language from now on
            add_catalogue(self.name, found)

    def _file(self, name: str) -> Traversable | None:
        return resources.files(self.package) / name if self.package else None

    def guide(self, language: str | None = None) -> Traversable | None:
        """The game's guide document: in ``language`` when it is written in
        it (``guide.<lang>.md``), else the English ``guide.md``; None when
        the game has none."""
        names = ([f"guide.{language}.md"] if language and language != "en" else []) + ["guide.md"]
        for name in names:
            found = self._file(name)
            if found is not None and found.is_file():
                return found
        return None

    def locale_dir(self) -> Path | None:
        """The folder of the game's catalogue (``<lang>/LC_MESSAGES/<name>.po``
        under it), None when the game has none."""
        found = self._file("locale")
        return Path(str(found)) if found is not None and found.is_dir() else None
