"""English and French: Flask-Babel for the pages, the server's messages and
the mail, and the language of the games' own words (``engine.i18n``).

The language of a page is the signed-in player's setting (``Player.language``),
else the browser's ``Accept-Language``, else English.  A mail is written in
its recipient's language (their setting, else English): ``for_player``.
Catalogues: ``pbem/translations/<lang>/LC_MESSAGES/messages.po`` (the
server, mail included) and ``engine/locale`` (the games, domain
``games``); their ``.mo`` files are compiled when the app starts if missing
or older than the ``.po`` (docs/i18n.md)."""

from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import Any, Iterator

from babel import Locale
from flask import Flask, current_app, g, has_app_context, has_request_context, request
from flask_babel import Babel, force_locale, get_domain, get_locale, lazy_gettext, refresh
from flask_babel import gettext as _babel_gettext
from flask_babel import ngettext as _babel_ngettext

from engine import i18n as games_i18n
from mail import i18n as mail_i18n

LANGUAGES = games_i18n.LANGUAGES
NAMES = {"en": "English", "fr": "Français"}
TRANSLATIONS = Path(__file__).resolve().parent / "translations"
#: app.extensions key of the function giving the signed-in player of a request (set by ``pbem.web``)
PLAYER_OF_REQUEST = "pbem_player_of_request"
#: flask.g key of the player a request is read by when it is not the session's (``read_in_language_of``)
READER_OF_REQUEST = "pbem_reader_of_request"

__all__ = ["gettext", "lazy_gettext", "ngettext", "N_", "init_app", "for_language", "for_player", "LANGUAGES", "NAMES"]


def setting_of(value: Any) -> str:
    """A language setting as stored: one of ``LANGUAGES``, or "" (none)."""
    text = str(value or "").strip().lower()
    return text if text in LANGUAGES else ""


def _select_locale() -> Locale:
    if has_request_context():
        player = g.get(READER_OF_REQUEST)
        current_player = current_app.extensions.get(PLAYER_OF_REQUEST)
        try:
            if player is None and current_player is not None:
                player = current_player()
        except Exception:  # no database at hand (an error page before it): the browser's choice
            player = None
        if player is not None and setting_of(getattr(player, "language", "")):
            return _LOCALES[setting_of(player.language)]
        return _LOCALES[request.accept_languages.best_match(LANGUAGES) or "en"]
    return _LOCALES["en"]


def read_in_language_of(player: Any) -> None:
    """The rest of this request reads in ``player``'s language setting (else
    the browser's): the API's caller, known by their token rather than by a
    session."""
    if has_request_context():
        setattr(g, READER_OF_REQUEST, player)
        g.pop(_LANGUAGE_OF_REQUEST, None)
        refresh()


#: flask.g key of the request's language and catalogue, once found (``_of_request``)
_LANGUAGE_OF_REQUEST = "pbem_language_of_request"


def _of_request() -> tuple[str, Any] | None:
    """The request's language code and its catalogue, found once per request
    (Flask-Babel finds them again through its context on every word); None
    outside a request.  ``read_in_language_of`` forgets them."""
    if not has_request_context():
        return None
    found: tuple[str, Any] | None = g.get(_LANGUAGE_OF_REQUEST)
    if found is None:
        locale = get_locale()
        found = (str(locale) if locale is not None else "en", get_domain().get_translations())
        setattr(g, _LANGUAGE_OF_REQUEST, found)
    return found


def _current() -> str | None:
    try:
        found = _of_request()
        if found is not None:
            return found[0]
        locale = get_locale()
    except Exception:
        return None
    return str(locale) if locale is not None else None


def init_app(app: Flask) -> None:
    games_i18n.compile_catalogues(TRANSLATIONS, "messages")
    games_i18n.compile_catalogues(games_i18n.LOCALE_DIR, games_i18n.DOMAIN)
    app.config.setdefault("BABEL_TRANSLATION_DIRECTORIES", str(TRANSLATIONS))
    Babel(app, locale_selector=_select_locale)
    games_i18n.set_resolver(_current)
    mail_i18n.set_translator(games_i18n.translate)  # mail's words are in the games' catalogue

    @app.context_processor
    def _language_globals() -> dict[str, Any]:
        return {"current_language": _current() or "en", "language_names": NAMES}


#: the language a ``for_language`` block has set, so that a block inside one
#: of the same language (a mail's words, then the mail) sets nothing again
_forced: ContextVar[str | None] = ContextVar("pbem_forced_language", default=None)
_LOCALES = {code: Locale.parse(code) for code in LANGUAGES}  # parsed once: parsing looks on disk
#: the catalogue of that language, looked up once per block (Flask-Babel's own
#: ``gettext`` finds it again through the request context on every call)
_catalogue: ContextVar[Any] = ContextVar("pbem_catalogue", default=None)


def gettext(string: str, **variables: Any) -> str:
    """Flask-Babel's ``gettext``; inside a ``for_language`` block, read from
    the block's catalogue directly (the same words, found faster)."""
    catalogue = _catalogue.get()
    if catalogue is None:
        catalogue = _request_catalogue()
        if catalogue is None:
            text: str = _babel_gettext(string, **variables)
            return text
    found: str = catalogue.ugettext(string)
    return found % variables if variables else found


def _request_catalogue() -> Any:
    try:
        found = _of_request()
    except Exception:  # no database at hand to know the reader: Flask-Babel's own way
        return None
    return None if found is None else found[1]


def N_(string: str) -> str:
    """Mark ``string`` for extraction only: it is translated later, with
    ``gettext(string, ...)`` (the mail robot's commands' help)."""
    return string


def ngettext(singular: str, plural: str, num: int, **variables: Any) -> str:
    """Flask-Babel's ``ngettext`` (``num`` is a variable too), faster inside
    a ``for_language`` block like ``gettext``."""
    catalogue = _catalogue.get()
    if catalogue is None:
        catalogue = _request_catalogue()
        if catalogue is None:
            text: str = _babel_ngettext(singular, plural, num, **variables)
            return text
    variables.setdefault("num", num)
    found: str = catalogue.ungettext(singular, plural, num)
    return found % variables


@contextmanager
def for_language(code: str | None) -> Iterator[None]:
    """Within the block, the server's and the games' words read in ``code``
    (None or "": English)."""
    code = setting_of(code) or "en"
    if _forced.get() == code:
        yield
        return
    token = _forced.set(code)
    try:
        reading = _request_reads(code)
        if reading is not None:  # the request reads in this language already: no locale to force
            with games_i18n.language(code):
                found = _catalogue.set(reading)
                try:
                    yield
                finally:
                    _catalogue.reset(found)
            return
        with force_locale(_LOCALES[code]), games_i18n.language(code):
            found = _catalogue.set(get_domain().get_translations() if has_app_context() else None)
            try:
                yield
            finally:
                _catalogue.reset(found)
    finally:
        _forced.reset(token)


def _request_reads(code: str) -> Any:
    """The request's catalogue when its language, already found
    (``_of_request``), is ``code``; else None.  A block of the request's
    own language then forces nothing (Flask-Babel's ``force_locale`` costs
    as much as writing a short mail).  The request's language is looked
    for here only when its reader is known (``read_in_language_of``): else
    finding it could read the database (the session's player)."""
    if not has_request_context():
        return None
    found = g.get(_LANGUAGE_OF_REQUEST)
    if found is None and g.get(READER_OF_REQUEST) is not None:
        found = _of_request()
    return found[1] if found is not None and found[0] == code else None


def for_player(player: Any) -> Any:
    """The block in which a mail to ``player`` is written: their language."""
    return for_language(getattr(player, "language", "") or "en")


# Words the pages translate from data (``_(game.status)``, ``_(p.colour)``):
# marked here so that they are extracted into the catalogue.
DATA_WORDS = (
    lazy_gettext("inviting"), lazy_gettext("active"), lazy_gettext("finished"), lazy_gettext("abandoned"),
    lazy_gettext("cancelled"), lazy_gettext("invited"), lazy_gettext("accepted"), lazy_gettext("declined"),
    lazy_gettext("red"), lazy_gettext("blue"), lazy_gettext("green"), lazy_gettext("gold"),
    lazy_gettext("purple"), lazy_gettext("orange"), lazy_gettext("sky"), lazy_gettext("black"),
)
