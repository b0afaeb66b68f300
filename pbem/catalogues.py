"""The translation catalogues: extract the marked messages from the sources,
merge them into the ``.po`` files, list what has no translation, compile.

Two catalogues: the server's (``pbem/translations``, domain ``messages``:
pages, server errors, mail) and the games' (``engine/locale``, domain
``games``: the refusals of the rules and the notation, and the mail
layer's own words: engine/, notation/ and mail/, which know nothing of
Flask, through ``engine.i18n`` and, for mail/, ``mail.i18n``).  ``sh scripts/i18n update|missing|compile``
(docs/i18n.md); the test ``tests/test_i18n_catalogues.py`` fails when a
marked message is missing from a catalogue or has no French translation."""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Source:
    domain: str
    locale_dir: Path
    folders: tuple[str, ...]
    method_map: tuple[tuple[str, str], ...]


SOURCES = (
    Source("messages", ROOT / "pbem" / "translations", ("pbem",),
           (("translations/**", "ignore"), ("**.py", "python"), ("templates/**.html", "jinja2.ext:babel_extract"))),
    Source("games", ROOT / "engine" / "locale", ("engine", "notation", "mail"), (("**.py", "python"),)),
)
KEYWORDS = {**DEFAULT_KEYWORDS, "_l": None, "lazy_gettext": None}
LANGUAGES = ("fr",)


def extract(source: Source) -> Catalog:
    """Every message marked in the source folders, as a template catalogue."""
    catalogue = Catalog(domain=source.domain, project="pbem", charset="utf-8")
    for folder in source.folders:
        found = extract_from_dir(ROOT / folder, list(source.method_map), {}, keywords=KEYWORDS,
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


def message_ids(message) -> tuple[str, ...]:
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

    for source in SOURCES:
        compile_catalogues(source.locale_dir, source.domain)


def main(argv: list[str]) -> int:
    command = argv[0] if argv else "missing"
    if command == "update":
        for source in SOURCES:
            for language in LANGUAGES:
                update(source, language)
        return 0
    if command == "compile":
        compile_all()
        return 0
    if command == "missing":
        count = 0
        for source in SOURCES:
            for language in LANGUAGES:
                for line in missing(source, language):
                    print(f"{source.domain} {language}: {line}")
                    count += 1
        return 1 if count else 0
    print("usage: sh scripts/i18n update|missing|compile", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
