"""The mail layer's own words, translated through a function the server
installs: mail knows no catalogue, no language and no game.

Messages are marked with ``_("...")`` (or ``_("... {name} ...",
name=value)``) and stay lazy: the text is translated when it is turned into
a string, so it reads in the language of the moment, whatever that is to the
translator.  ``N_("...")`` marks a constant translated later with
``_(CONSTANT)``.  The translator is ``set_translator(callable)``'s, a
function from the English message to its translation; until one is
installed (a script, a test of mail alone) the words are English.

The server installs ``engine.i18n.translate`` (``pbem.i18n.init_app``):
mail's messages are extracted into the games' catalogue
(``engine/locale``, docs/i18n.md)."""

from __future__ import annotations

from typing import Any, Callable

_translator: Callable[[str], str] | None = None


def set_translator(translator: Callable[[str], str] | None) -> None:
    """Translate mail's words with ``translator`` from now on; None: English."""
    global _translator
    _translator = translator


def translate(message: str) -> str:
    """``message`` in the language of the moment, as the installed translator reads it."""
    return message if _translator is None else _translator(message)


class Text:
    """A message to translate when read, with its named values (``{name}``
    fields, filled after translation)."""

    __slots__ = ("message", "values")

    def __init__(self, message: str, values: dict[str, Any]) -> None:
        self.message = message
        self.values = values

    def __str__(self) -> str:
        text = translate(self.message)
        return text.format(**{k: str(v) if isinstance(v, Text) else v for k, v in self.values.items()}) if self.values else text

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)

    def __repr__(self) -> str:
        return repr(str(self))


def _(message: str, **values: Any) -> Text:
    """Mark ``message`` for translation; read it with ``str()``."""
    return Text(message, values)


def N_(message: str) -> str:
    """Mark ``message`` for extraction only (translated later with ``_(message)``)."""
    return message
