"""The command language of mail sent to the robot.

One command per line, keywords in any letter case.  In mail to a game's reply
address (``play+<token>@...``):

=====================  =====================================================
``<turn>``             any other text: a turn in the game's notation
``#12 <turn>``         the same, answering ply 12 (also ``12: <turn>``); a
                       stale ply is refused by the server ('#3 x #7 ...'
                       is a turn, not ply 3: a breeding of Martian Greenhouse)
``preview <turn>``     show the resulting board without playing (ply prefix
                       allowed after the keyword: ``preview #12 <turn>``)
``legal``              list the legal turns
``board``/``status``   show the board
``record``             send the game record
``resign``             resign the game
``draw``               offer a draw, or accept the one offered
``vacation <days>``    pause my clock for that many days (0 ends it)
``set <name> <value>`` change one of my settings that the game lets a
                       player change at any time, also outside their turn
                       (Alheimur: ``set fire hold``)
``settings``           show those settings
``accept``             accept the invitation to the game
``decline``            decline it (the game is cancelled)
``help``               explain all this
=====================  =====================================================

In mail to the plain address (no token): ``help``, ``games``,
``new <game> with <address>[, <address>...]`` (addresses separated by commas,
spaces or ``and``), ``new <game> vs bot [<level>]`` (a game against the computer), ``puzzles`` (today's and recent puzzles) and
``puzzle <number>`` (start a game of that puzzle; ``puzzle #12`` too).  Any
other line there is :data:`INVALID`.

:data:`WORDS` holds each command's words (:class:`Word`); the server gives
each its action and its help.  :func:`parse_command` never raises: a line
it cannot use becomes a :class:`Command` of kind :data:`INVALID` with an
``error`` explaining why.
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

TURN = "turn"
PREVIEW = "preview"
LEGAL = "legal"
BOARD = "board"
RECORD = "record"
RESIGN = "resign"
DRAW = "draw"
HELP = "help"
VACATION = "vacation"
SET = "set"
SETTINGS = "settings"
ACCEPT = "accept"
DECLINE = "decline"
GAMES = "games"
NEW = "new"
PUZZLES = "puzzles"
PUZZLE = "puzzle"
INVALID = "invalid"


@dataclass(frozen=True)
class Word:
    """A command of the language as the parser knows it: its ``name`` (the
    kind of :class:`Command` it makes), the other words for it
    (``aliases``), whether it is a word alone on its line (``bare``; else it
    takes an argument, read by :func:`parse_command`) and whether mail to
    the plain address may send it (``plain``).  What a command does, and
    how the help describes it, is the server's (``pbem.mailrobot.commands``)."""

    name: str
    aliases: tuple[str, ...] = ()
    bare: bool = True
    plain: bool = False


#: Every command word, by name.
WORDS: dict[str, Word] = {word.name: word for word in (
    Word(TURN, bare=False), Word(PREVIEW, bare=False), Word(LEGAL), Word(BOARD, aliases=("status",)),
    Word(RECORD), Word(RESIGN), Word(DRAW), Word(VACATION, bare=False), Word(SET, bare=False), Word(SETTINGS),
    Word(ACCEPT), Word(DECLINE), Word(HELP, plain=True), Word(GAMES, plain=True), Word(NEW, bare=False, plain=True),
    Word(PUZZLES, plain=True), Word(PUZZLE, bare=False, plain=True),
)}
#: Words that are commands on their own (no argument), aliases included.
_BARE = {written: word.name for word in WORDS.values() if word.bare for written in (word.name, *word.aliases)}
#: Commands allowed in mail to the plain address.
PLAIN_COMMANDS = frozenset(word.name for word in WORDS.values() if word.plain)
#: Longest line we look at; longer lines are refused.
MAX_LINE = 500
_MAX_VACATION_DAYS = 365

_PLY = re.compile(r"^(?:#\s*(\d{1,9})\s*[:.]?|(\d{1,9})\s*:)\s*(.*)$", re.DOTALL)
_ADDRESS = re.compile(r"^[^@\s,;<>()]+@[^@\s,;<>()]+\.[^@\s,;<>()]+$")


@dataclass(frozen=True)
class Command:
    """One parsed line.

    ``kind`` is one of the module constants; ``argument`` is the turn text for
    ``turn`` and ``preview``, the game name for ``new``, the puzzle number for
    ``puzzle``, the new value for ``set``; ``ply`` is the ply the
    player answered, if given; ``addresses`` for ``new``; ``setting``: the
    setting's name for ``set``; ``days`` for
    ``vacation``; ``error`` says why an ``invalid`` line was refused; ``line``
    is the line as written (for quoting in replies).
    """

    kind: str
    line: str
    argument: str = ""
    ply: int | None = None
    days: int | None = None
    addresses: tuple[str, ...] = field(default_factory=tuple)
    error: str = ""
    #: for ``new ... vs bot [level]``: the level of each computer opponent ("" for the default)
    bots: tuple[str, ...] = field(default_factory=tuple)
    #: for ``set``: the name of the setting to change
    setting: str = ""


#: the dash family (hyphens, dashes, minus signs) that mail clients put for '-'
_DASHES = dict.fromkeys(map(ord, "\u2010\u2011\u2012\u2013\u2014\u2015\u2043\u2212\ufe58\ufe63\uff0d\u00ad"), "-")
_QUOTES = {**dict.fromkeys(map(ord, "\u2018\u2019\u201a\u201b\u2032\u00b4"), "'"),
           **dict.fromkeys(map(ord, "\u201c\u201d\u201e\u201f\u2033\u00ab\u00bb"), '"')}
_INVISIBLE = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff"), None)


def normalize_line(text: str) -> str:
    """A command line as the player meant it: mail clients' smart punctuation
    undone -- Unicode NFKC (full-width letters and digits, non-breaking
    spaces), every dash, hyphen and minus sign made ``-``, curly quotes made
    straight, zero-width characters dropped."""
    text = text.translate(_INVISIBLE).translate(_DASHES)
    return unicodedata.normalize("NFKC", text).translate(_DASHES).translate(_QUOTES)


#: a turn that itself starts with '#N x #M' (numbered pieces crossed, as in
#: Martian Greenhouse's '#3 x #7 -> ...') is not a ply prefix; give the ply
#: before it ('#12 #3 x #7 -> ...' or '12: #3 x #7 -> ...')
_NUMBERED_PAIR = re.compile(r"^#\s*\d{1,9}\s*[xX\u00d7*]\s*#\s*\d")


def _split_ply(text: str) -> tuple[int | None, str]:
    if _NUMBERED_PAIR.match(text):
        return None, text
    match = _PLY.match(text)
    if not match:
        return None, text
    number = match.group(1) or match.group(2)
    return int(number), match.group(3).strip()


def _invalid(line: str, error: str) -> Command:
    return Command(kind=INVALID, line=line, error=error)


_VS_BOT = re.compile(r"^(\S+)\s+(?:vs\.?|versus|against)\s+(?:a\s+|the\s+)?bot(?:\s+(\S+))?\s*$", re.IGNORECASE)


def _parse_new(line: str, rest: str) -> Command:
    bot = _VS_BOT.match(rest.strip())
    if bot:  # new logger vs bot hard: a game against the computer
        return Command(kind=NEW, line=line, argument=bot.group(1).lower(), bots=((bot.group(2) or "").lower(),))
    if re.fullmatch(r"\S+", rest.strip()):  # a game of one player (solitaire): nobody to invite
        return Command(kind=NEW, line=line, argument=rest.strip().lower(), addresses=())
    match = re.match(r"^(\S+)\s+with\s+(.+)$", rest, re.IGNORECASE | re.DOTALL)
    if not match:
        return _invalid(line, "write: new <game> with <address>, <address> (or new <game> alone for a game "
                              "of one player)")
    game = match.group(1).lower()
    words = re.split(r"[\s,;]+", match.group(2).strip())
    addresses: list[str] = []
    for word in words:
        word = word.strip().strip("<>").rstrip(".")
        if not word or word.lower() == "and":
            continue
        if not _ADDRESS.match(word):
            return _invalid(line, f"not an email address: {word}")
        if word.lower() not in addresses:
            addresses.append(word.lower())
    if not addresses:
        return _invalid(line, "name at least one player to invite")
    return Command(kind=NEW, line=line, argument=game, addresses=tuple(addresses))


def parse_command(line: str, *, in_game: bool = True) -> Command:
    """Parse one line.

    *in_game* is true for mail to a game's reply address, where any line that
    is not a keyword is a turn; for the plain address only
    :data:`PLAIN_COMMANDS` are accepted.
    """
    if not isinstance(line, str):
        return _invalid(repr(line), "not text")
    text = " ".join(normalize_line(line).split())
    if not text:
        return _invalid(line, "empty line")
    if len(text) > MAX_LINE:
        return _invalid(text[:MAX_LINE] + "...", f"line longer than {MAX_LINE} characters")
    ply, body = _split_ply(text)
    if not body:
        return _invalid(text, "a ply number but no turn after it")
    word, _, rest = body.partition(" ")
    keyword = word.lower().strip("'\"`*_").rstrip(".!").strip("'\"`*_")
    rest = rest.strip()

    if ply is None and keyword in _BARE and not rest:
        kind = _BARE[keyword]
        if not in_game and kind not in PLAIN_COMMANDS:
            return _invalid(text, f"'{keyword}' needs a game: reply to that game's mail")
        return Command(kind=kind, line=text)
    if ply is None and keyword == "new" and not in_game:
        return _parse_new(text, rest)
    if ply is None and keyword == "puzzle" and not in_game:
        number = rest.lstrip("#").strip()
        if not re.fullmatch(r"\d{1,9}", number):
            return _invalid(text, "write: puzzle <number>, e.g. puzzle 12 (send 'puzzles' for the list)")
        return Command(kind=PUZZLE, line=text, argument=str(int(number)))
    if ply is None and keyword == "vacation":
        if not re.fullmatch(r"\d{1,4}", rest or ""):
            return _invalid(text, "write: vacation <days>, e.g. vacation 7")
        days = int(rest)
        if days > _MAX_VACATION_DAYS:
            return _invalid(text, f"at most {_MAX_VACATION_DAYS} days")
        if not in_game:
            return _invalid(text, "'vacation' needs a game: reply to that game's mail")
        return Command(kind=VACATION, line=text, days=days)
    if ply is None and keyword == "set":
        if not in_game:
            return _invalid(text, "'set' needs a game: reply to that game's mail")
        name, _, value = rest.partition(" ")
        if not name or not value.strip():
            return _invalid(text, "write: set <setting> <value>; send 'settings' to see the game's settings")
        return Command(kind=SET, line=text, argument=value.strip(), setting=name.lower())
    if ply is None and keyword == "preview":
        if not in_game:
            return _invalid(text, "'preview' needs a game: reply to that game's mail")
        preview_ply, turn = _split_ply(rest)
        if not turn:
            return _invalid(text, "write: preview <turn>")
        return Command(kind=PREVIEW, line=text, argument=turn, ply=preview_ply)
    if not in_game:
        return _invalid(text, "unknown command; send 'help' for the list")
    return Command(kind=TURN, line=text, argument=body, ply=ply)


def parse_commands(lines: list[str], *, in_game: bool = True) -> list[Command]:
    """Parse each non-empty line with :func:`parse_command`."""
    return [parse_command(line, in_game=in_game) for line in lines if line and line.strip()]
