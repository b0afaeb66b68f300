"""The games the project hosts, by name.

A game registers itself with an entry point of the group ``pbem.games``
(its name -> ``module:KIND``, a ``notation.base.GameKind``), declared by the
distribution that holds it: this project's own games in its
``pyproject.toml`` (``[project.entry-points."pbem.games"]``), a game in a
package of its own in that package's.  Installing the distribution is
registering the game; nothing in the server, the mail robot or the command
line names a game.  The group ``pbem.games.not_offered`` registers the same
way the games whose rules and records are complete but which the server
does not offer yet (``get_any``).

The entry points are read when this module is imported (``refresh`` reads
them again); a game is imported at its first use.  A plug-in that cannot
be used is an error at that use, never a game silently left out or
replaced: ``GameLoadError`` names the game, its entry point and the
distribution that declares it, with the import's own error chained (a
module that fails to import, a missing attribute, something that is not a
``GameKind``, a ``GameKind`` of another name, or two distributions giving
the same name different targets).  The other games are not affected.
"""

from __future__ import annotations

from functools import reduce
from importlib import import_module
from importlib.metadata import EntryPoint, entry_points

from engine.errors import OptionError
from notation.base import GameKind
from notation.quote import quote

#: the entry-point group of the games the server offers
GROUP = "pbem.games"
#: the entry-point group of the games it does not offer yet (records and the pure layers find them)
NOT_OFFERED_GROUP = "pbem.games.not_offered"

# name -> "module:attribute" of a GameKind, imported on first use (read from
# the entry points by ``refresh``)
_GAMES: dict[str, str] = {}

# games whose rules and records are complete but which the server does not
# offer yet: records and the pure layers find them through ``get_any``;
# ``names`` and ``get``, which the server uses, do not list them
_NOT_OFFERED: dict[str, str] = {}

_loaded: dict[str, GameKind] = {}

# name -> the entry point as declared ("name = target (group, distribution version)"), for errors
_ORIGINS: dict[str, str] = {}
# names declared more than once with different targets -> every declaration
_CLASHES: dict[str, list[str]] = {}


class GameLoadError(RuntimeError):
    """A registered game that cannot be loaded: the message names the game,
    its entry point and its distribution; the cause is chained."""


def _declared(point: EntryPoint) -> str:
    dist = getattr(point, "dist", None)
    where = f"{dist.metadata['Name']} {dist.version}" if dist is not None else "unknown distribution"
    return f"{point.name} = {point.value} (entry point group {point.group}, distribution {where})"


def refresh() -> None:
    """Read the entry points again and forget the games loaded: after a
    distribution is installed or removed while running (the tests do)."""
    _ORIGINS.clear()
    _CLASHES.clear()
    for table, group in ((_GAMES, GROUP), (_NOT_OFFERED, NOT_OFFERED_GROUP)):
        table.clear()
        for point in entry_points(group=group):
            name = point.name.strip().lower()
            if name in table and table[name] != point.value:
                _CLASHES.setdefault(name, [_ORIGINS[name]]).append(_declared(point))
                continue
            table[name] = point.value
            _ORIGINS.setdefault(name, _declared(point))
    _loaded.clear()


def _load(key: str, target: str) -> GameKind:
    """The GameKind that ``target`` ("module:attribute") names, checked."""
    declared = _ORIGINS.get(key, f"{key} = {target}")
    if key in _CLASHES:
        raise GameLoadError(f"the game {key!r} is registered more than once with different targets: "
                            + "; ".join(_CLASHES[key]))
    module, _, attribute = target.partition(":")
    try:
        found = reduce(getattr, attribute.split("."), import_module(module.strip())) if attribute \
            else import_module(module.strip())
    except Exception as error:
        raise GameLoadError(f"the game {key!r} cannot be loaded: its entry point {declared} "
                            f"failed with {type(error).__name__}: {error}") from error
    if not isinstance(found, GameKind):
        raise GameLoadError(f"the game {key!r} cannot be loaded: its entry point {declared} "
                            f"names a {type(found).__name__}, not a notation.base.GameKind")
    if found.name != key:
        raise GameLoadError(f"the game {key!r} cannot be loaded: its entry point {declared} "
                            f"names the game {found.name!r}; the entry point's name must be the game's name")
    return found


def names() -> list[str]:
    """The names of every hosted game, sorted."""
    return sorted(_GAMES)


def all_names() -> list[str]:
    """Every game the project has rules for, offered by the server or not, sorted."""
    return sorted({*_GAMES, *_NOT_OFFERED})


def get(name: str) -> GameKind:
    """The game called ``name`` (case-insensitive); ``OptionError`` if none,
    ``GameLoadError`` if its plug-in cannot be loaded."""
    if type(name) is str and name in _GAMES:  # a game's own name, as stored (a turn asks some twenty times)
        found = _loaded.get(name)
        if found is not None:
            return found
    key = str(name).strip().lower()
    if key not in _GAMES:
        raise OptionError(f"unknown game {quote(name)}; the games are: {', '.join(names())}")
    if key not in _loaded:
        _loaded[key] = _load(key, _GAMES[key])
    return _loaded[key]


def get_any(name: str) -> GameKind:
    """Like ``get``, but also finds the games the server does not offer
    yet; records use it, so any finished game's record can be checked."""
    key = str(name).strip().lower()
    if key in _NOT_OFFERED:
        if key not in _loaded:
            _loaded[key] = _load(key, _NOT_OFFERED[key])
        return _loaded[key]
    return get(name)


refresh()
