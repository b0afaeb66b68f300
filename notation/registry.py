"""The games the project hosts, by name.

Adding a game means adding one line to ``_GAMES``; nothing in the server,
the mail robot or the command line names a game.
"""

from __future__ import annotations

from importlib import import_module

from engine.errors import OptionError
from notation.base import GameKind
from notation.quote import quote

# name -> "module:attribute" of a GameKind, imported on first use
_GAMES: dict[str, str] = {
    "logger": "notation.logger:KIND",
    "attactics": "notation.attactics:KIND",
    "ataxx": "notation.ataxx:KIND",
    "greenhouse": "notation.greenhouse:KIND",
    "alheimur": "notation.alheimur:KIND",
    "taiga": "notation.taiga:KIND",
}

# games whose rules and records are complete but which the server does not
# offer yet: records and the pure layers find them through ``get_any``;
# ``names`` and ``get``, which the server uses, do not list them
_NOT_OFFERED: dict[str, str] = {}

_loaded: dict[str, GameKind] = {}


def names() -> list[str]:
    """The names of every hosted game, sorted."""
    return sorted(_GAMES)


def all_names() -> list[str]:
    """Every game the project has rules for, offered by the server or not, sorted."""
    return sorted({*_GAMES, *_NOT_OFFERED})


def get(name: str) -> GameKind:
    """The game called ``name`` (case-insensitive); ``OptionError`` if none."""
    if type(name) is str and name in _GAMES:  # a game's own name, as stored (a turn asks some twenty times)
        found = _loaded.get(name)
        if found is not None:
            return found
    key = str(name).strip().lower()
    if key not in _GAMES:
        raise OptionError(f"unknown game {quote(name)}; the games are: {', '.join(names())}")
    if key not in _loaded:
        module, attribute = _GAMES[key].split(":")
        _loaded[key] = getattr(import_module(module), attribute)
    return _loaded[key]


def get_any(name: str) -> GameKind:
    """Like ``get``, but also finds the games the server does not offer
    yet; records use it, so any finished game's record can be checked."""
    key = str(name).strip().lower()
    if key in _NOT_OFFERED:
        if key not in _loaded:
            module, attribute = _NOT_OFFERED[key].split(":")
            _loaded[key] = getattr(import_module(module), attribute)
        return _loaded[key]
    return get(name)
