"""Error types shared by every game's rules and notation.

Modelled on python-chess: a turn can be *malformed* (the text does not follow
the notation), *illegal* (well formed, but the rules forbid it in this
position) or *ambiguous* (legal in more than one way, and the text does not
say which).  All of them are ``TurnError``, which is a ``ValueError``.
"""

from __future__ import annotations

#: characters of a user's value quoted back in an error message
SHOWN = 60


def shown(value: object, limit: int = SHOWN) -> str:
    """``value`` quoted for an error message, cut to ``limit`` characters
    (marked with "…") so a huge input is never echoed back whole."""
    text = str(value)
    return repr(text) if len(text) <= limit else repr(text[:limit]) + "…"


class PbemError(ValueError):
    """Base of every error the engine and notation raise on bad input."""


class TurnError(PbemError):
    """A turn that cannot be played as written."""


class MalformedTurnError(TurnError):
    """The text is not a turn in the game's notation."""


class IllegalTurnError(TurnError):
    """The turn is well formed but the rules forbid it here."""


class AmbiguousTurnError(TurnError):
    """The turn leaves a choice unstated that the mover must make."""


class PositionError(PbemError):
    """A position string that cannot be read."""


class OptionError(PbemError):
    """A game option that is unknown or has a bad value."""


class GameOverError(IllegalTurnError):
    """A turn was given for a game that is already over."""


class RecordError(PbemError):
    """A game record that cannot be read or replayed."""
