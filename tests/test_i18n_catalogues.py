"""The French catalogues are complete and up to date: every message marked
in the sources (pages, server, mail, and the games' refusals) is in its
catalogue with a French translation that is neither empty nor fuzzy, and
the translations keep the named values of their English message."""

from __future__ import annotations

import re

import pytest

from pbem.catalogues import LANGUAGES, SOURCES, extract, missing, read


@pytest.mark.parametrize("source", SOURCES, ids=[s.domain for s in SOURCES])
@pytest.mark.parametrize("language", LANGUAGES)
def test_every_marked_message_has_a_translation(source, language):
    untranslated = missing(source, language)
    assert not untranslated, (
        f"{len(untranslated)} message(s) of the {source.domain!r} catalogue have no {language} translation; "
        "run `sh scripts/i18n update`, translate them in "
        f"{source.locale_dir.name}/{language}/LC_MESSAGES/{source.domain}.po, then `sh scripts/i18n missing`:\n"
        + "\n".join(untranslated[:40]))


_FIELD = re.compile(r"%\([a-z_]+\)[sdr]|\{[a-z_]+\}")


@pytest.mark.parametrize("source", SOURCES, ids=[s.domain for s in SOURCES])
@pytest.mark.parametrize("language", LANGUAGES)
def test_translations_keep_the_named_values(source, language):
    catalogue = read(source, language)
    wrong = []
    for message in catalogue:
        if not message.id or not message.string:
            continue
        ids = message.id if isinstance(message.id, (tuple, list)) else (message.id,)
        strings = message.string if isinstance(message.string, (tuple, list)) else (message.string,)
        wanted = set(_FIELD.findall(ids[-1]))
        for string in strings:
            if set(_FIELD.findall(string)) != wanted:
                wrong.append(f"{ids[0]!r} -> {string!r}")
    assert not wrong, "translations whose named values differ from the English:\n" + "\n".join(wrong)


def test_the_extraction_finds_the_marked_messages():
    # the check above means something only if extraction sees the sources
    server = {m.id for m in extract(SOURCES[0]) if m.id}
    games = {m.id for m in extract(SOURCES[1]) if m.id}
    assert "My games" in server and "Your turn" in server
    assert len(games) > 20


def test_a_message_without_translation_is_reported(tmp_path, monkeypatch):
    from dataclasses import replace

    (tmp_path / "pbem").mkdir()
    (tmp_path / "pbem" / "x.py").write_text('from flask_babel import gettext\ngettext("A brand new message")\n')
    source = replace(SOURCES[0], folders=("pbem",), locale_dir=tmp_path / "translations")
    monkeypatch.setattr("pbem.catalogues.ROOT", tmp_path)
    assert any("A brand new message" in line for line in missing(source, "fr"))
