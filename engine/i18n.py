"""Translated words of the games (refusals of the rules and the notation),
with plain gettext and no web framework.

Messages are marked with ``_("...")`` (or ``_("... {name} ...", name=value)``)
and stay lazy: the text is looked up in the language of the moment when it
is turned into a string, so an error raised while checking a turn reads in
the language of whoever reads it.  The language of the moment is the
context variable set by ``language(...)`` (the server sets it per request
and per mail recipient); without one, ``set_resolver`` may name a function
that answers it (the server's locale selection), else English.

The shared catalogue is ``engine/locale/<lang>/LC_MESSAGES/games.po``
(domain ``games``: the words of the shared code of engine/, notation/ and
mail/); each game has its own, ``locale/<lang>/LC_MESSAGES/<name>.po`` in its
package (``notation.base.GameKind.package``: the words of its rules and
notation), added with ``add_catalogue`` when the game's ``GameKind`` is made
and read as fallbacks chained to the shared one.  All are extracted with
Babel (see docs/i18n.md, ``pbem.catalogues``); a ``.mo`` is compiled from
its ``.po`` when missing or older than it (``compile_catalogues``)."""

from __future__ import annotations

import gettext
import os
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Iterator

DOMAIN = "games"
LOCALE_DIR = Path(__file__).resolve().parent / "locale"
LANGUAGES = ("en", "fr")

_language: ContextVar[str | None] = ContextVar("pbem_language", default=None)
_resolver: Callable[[], str | None] | None = None
#: the games' own catalogues: domain (the game's name) -> its locale folder
_catalogues: dict[str, Path] = {}


def add_catalogue(domain: str, locale_dir: Path) -> None:
    """Read ``<lang>/LC_MESSAGES/<domain>.po`` under ``locale_dir`` too,
    after the shared catalogue (a game's own words)."""
    if _catalogues.get(domain) != Path(locale_dir):
        _catalogues[domain] = Path(locale_dir)
        translations.cache_clear()


def catalogues() -> dict[str, Path]:
    """Every catalogue read, by domain: the shared one, then the games'."""
    return {DOMAIN: LOCALE_DIR, **dict(sorted(_catalogues.items()))}


def set_resolver(resolver: Callable[[], str | None] | None) -> None:
    """Name the function that answers the language when no ``language(...)``
    block is open (the server's locale selection); None forgets it."""
    global _resolver
    _resolver = resolver


@contextmanager
def language(code: str | None) -> Iterator[None]:
    """Within the block, game words read in ``code`` (None: as outside)."""
    token = _language.set(code)
    try:
        yield
    finally:
        _language.reset(token)


def current_language() -> str:
    code = _language.get()
    if code is None and _resolver is not None:
        try:
            code = _resolver()
        except Exception:  # no request, no app: English
            code = None
    code = (code or "en").split("_")[0].split("-")[0].lower()
    return code if code in LANGUAGES else "en"


def compile_catalogues(locale_dir: Path, domain: str) -> None:
    """Compile every ``<lang>/LC_MESSAGES/<domain>.po`` under ``locale_dir``
    whose ``.mo`` is missing or older than it (Babel's own compiler)."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    for po_path in Path(locale_dir).glob(f"*/LC_MESSAGES/{domain}.po"):
        mo_path = po_path.with_suffix(".mo")
        if mo_path.exists() and mo_path.stat().st_mtime >= po_path.stat().st_mtime:
            continue
        with open(po_path, "rb") as po_file:
            catalogue = read_po(po_file, locale=po_path.parent.parent.name)
        tmp = mo_path.with_suffix(f".mo.{os.getpid()}")
        try:
            with open(tmp, "wb") as mo_file:
                write_mo(mo_file, catalogue)
            os.replace(tmp, mo_path)
        except OSError:  # a read-only install: its .mo files were compiled when it was built
            continue


@lru_cache(maxsize=None)
def translations(code: str) -> gettext.NullTranslations:
    """The shared catalogue in ``code``, the games' own chained to it as
    fallbacks (a message is looked up in the shared one, then in each game's)."""
    if code == "en":
        return gettext.NullTranslations()
    found: gettext.NullTranslations | None = None
    for domain, locale_dir in catalogues().items():
        compile_catalogues(locale_dir, domain)
        read = gettext.translation(domain, localedir=str(locale_dir), languages=[code], fallback=True)
        if found is None:
            found = read
        else:
            found.add_fallback(read)
    assert found is not None
    return found


def translate(message: str, code: str | None = None) -> str:
    return translations(code or current_language()).gettext(message)


class Text:
    """A message to translate when read, with its named values: behaves as
    the string it reads as (``str()``, ``+``, ``%``, ``in``, comparisons)."""

    __slots__ = ("message", "values")

    def __init__(self, message: str, values: dict[str, Any] | None = None) -> None:
        self.message = message
        self.values = values or {}

    def __str__(self) -> str:
        text = translate(self.message)
        if self.values:
            text = text.format(**{k: str(v) if isinstance(v, Text) else v for k, v in self.values.items()})
        return text

    def format(self, **values: Any) -> "Text":
        return Text(self.message, {**self.values, **values})

    def __repr__(self) -> str:
        return repr(str(self))

    def __eq__(self, other: object) -> bool:
        return str(self) == (str(other) if isinstance(other, (Text, str)) else other)

    def __hash__(self) -> int:
        return hash(str(self))

    def __add__(self, other: object) -> str:
        return str(self) + str(other)

    def __radd__(self, other: object) -> str:
        return str(other) + str(self)

    def __mod__(self, other: object) -> str:
        return str(self) % other

    def __contains__(self, item: str) -> bool:
        return item in str(self)

    def __len__(self) -> int:
        return len(str(self))

    def __getattr__(self, name: str) -> Any:  # startswith, lower, split, ...
        return getattr(str(self), name)


def _(message: str, **values: Any) -> Text:
    """Mark ``message`` for translation; ``{name}`` fields are filled from
    ``values`` after it is translated."""
    return Text(message, values)


def N_(message: str) -> str:
    """Mark ``message`` for extraction only (translated later with ``_(message)``)."""
    return message
