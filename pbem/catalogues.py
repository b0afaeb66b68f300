"""The translation catalogues: extract the marked messages from the sources,
merge them into the ``.po`` files, list what has no translation, compile.

The server's catalogue (``pbem/translations``, domain ``messages``: pages,
server errors, mail); the shared games' catalogue (``engine/locale``,
domain ``games``: the shared code of engine/, notation/ and mail/, which
know nothing of Flask, through ``engine.i18n`` and, for mail/,
``mail.i18n``: engine/base.py, the bots, notation/base.py, records, the
mail layer's words...); and each registered game's own (``locale/`` in its
package, ``notation.base.GameKind.package``, domain the game's name: the
refusals of its rules and its notation, from the packages of its rules and
its notation, which the shared catalogue leaves out).
``sh scripts/i18n update|missing|compile`` (docs/i18n.md); the test
``tests/test_i18n_catalogues.py`` fails when a marked message is missing
from a catalogue or has no French translation."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from functools import cache
from importlib import import_module, resources
from pathlib import Path
from typing import Any

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Source:
    domain: str
    locale_dir: Path
    #: the folders extracted: relative to ``ROOT``, or absolute (a game installed elsewhere)
    folders: tuple[str, ...]
    method_map: tuple[tuple[str, str], ...]
    #: folders inside those left out (relative to ``ROOT``): the games' own, which have their catalogues
    skip: tuple[str, ...] = ()


PYTHON = (("**.py", "python"),)
SERVER = Source("messages", ROOT / "pbem" / "translations", ("pbem",),
                (("translations/**", "ignore"), *PYTHON, ("templates/**.html", "jinja2.ext:babel_extract")))


def _folder(module_name: str) -> Path:
    """The folder of the package ``module_name`` is (or is in)."""
    module = import_module(module_name)
    package = module_name if hasattr(module, "__path__") else module.__package__
    if not package:  # a module of its own, outside any package: its file alone
        return Path(str(module.__file__))
    return Path(list(import_module(package).__path__)[0]).resolve()


def _shown(folder: Path) -> str:
    return str(folder.relative_to(ROOT)) if folder.is_relative_to(ROOT) else str(folder)


def game_source(kind: Any) -> Source:
    """A game's own catalogue: the words of the packages of its rules and
    its notation, in ``locale/`` of its package (``GameKind.package``)."""
    folders = dict.fromkeys(_shown(_folder(name)) for name in
                            (kind.package, type(kind.rules).__module__, type(kind.notation).__module__))
    return Source(kind.name, Path(str(resources.files(kind.package))).resolve() / "locale", tuple(folders), PYTHON)


@cache
def sources() -> tuple[Source, ...]:
    """Every catalogue: the server's, the shared games' one, then each
    registered game's own (those with a package: ``GameKind.package``)."""
    from notation import registry

    games = [game_source(kind) for kind in (registry.get_any(name) for name in registry.all_names()) if kind.package]
    inside = tuple(folder for source in games for folder in source.folders if not Path(folder).is_absolute())
    shared = Source("games", ROOT / "engine" / "locale", ("engine", "notation", "mail"), PYTHON, inside)
    return (SERVER, shared, *games)


def __getattr__(name: str) -> Any:
    if name == "SOURCES":  # every catalogue, made on first use (it loads every game)
        return sources()
    raise AttributeError(name)


KEYWORDS = {**DEFAULT_KEYWORDS, "_l": None, "lazy_gettext": None}
LANGUAGES = ("fr",)


def extract(source: Source) -> Catalog:
    """Every message marked in the source folders, as a template catalogue."""
    catalogue = Catalog(domain=source.domain, project="pbem", charset="utf-8")
    for folder in source.folders:
        skipped = [(f"{Path(skip).relative_to(folder)}/**", "ignore") for skip in source.skip
                   if Path(skip).is_relative_to(folder)]
        found = extract_from_dir(ROOT / folder, skipped + list(source.method_map), {}, keywords=KEYWORDS,
                                 strip_comment_tags=True)
        for filename, lineno, message, comments, context in found:
            catalogue.add(message, None, [(f"{folder}/{filename}", lineno)], auto_comments=comments, context=context)
    return catalogue


def po_path(source: Source, language: str) -> Path:
    return source.locale_dir / language / "LC_MESSAGES" / f"{source.domain}.po"


def read(source: Source, language: str) -> Catalog:
    path = po_path(source, language)
    if not path.exists():
        return Catalog(locale=language, domain=source.domain)
    with open(path, "rb") as handle:
        return read_po(handle, locale=language)


def update(source: Source, language: str) -> None:
    """Merge the extracted messages into the ``.po`` (new ones untranslated;
    no fuzzy guesses, so a new message is plainly missing)."""
    catalogue = read(source, language)
    catalogue.update(extract(source), no_fuzzy_matching=True)
    path = po_path(source, language)
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "wb") as handle:
        write_po(handle, catalogue, width=100, omit_header=False, ignore_obsolete=True, sort_by_file=True)


def message_ids(message: Message) -> tuple[str, ...]:
    return tuple(message.id) if isinstance(message.id, (tuple, list)) else (message.id,)


def missing(source: Source, language: str) -> list[str]:
    """The marked messages that the ``.po`` does not translate: absent,
    empty, or fuzzy."""
    catalogue = read(source, language)
    wanted = extract(source)
    out = []
    for message in wanted:
        if not message.id:
            continue
        have = catalogue.get(message.id, context=message.context)
        strings = have.string if have is not None else None
        if isinstance(strings, (tuple, list)):
            empty = not all(strings)
        else:
            empty = not strings
        if have is None or empty or have.fuzzy:
            where = ", ".join(f"{f}:{n}" for f, n in message.locations[:2])
            out.append(f"{message_ids(message)[0]!r} ({where})")
    return out


def compile_all() -> None:
    from engine.i18n import compile_catalogues

    for source in sources():
        compile_catalogues(source.locale_dir, source.domain)


def main(argv: list[str]) -> int:
    command = argv[0] if argv else "missing"
    if command == "update":
        for source in sources():
            for language in LANGUAGES:
                update(source, language)
        return 0
    if command == "compile":
        compile_all()
        return 0
    if command == "missing":
        count = 0
        for source in sources():
            for language in LANGUAGES:
                for line in missing(source, language):
                    print(f"{source.domain} {language}: {line}")
                    count += 1
        return 1 if count else 0
    print("usage: sh scripts/i18n update|missing|compile", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
