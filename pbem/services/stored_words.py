"""Words the server keeps in English, shown in the reader's language.

A finished game's termination ("alice gave up after 3 turns", "game over:
most points") is stored in English, once, whoever reads it later; a board's
legend lines come from the game's notation, also in English, because the
same drawing serves every reader.  Each of these texts is a message of one
of the catalogues (``docs/i18n.md``), marked where it is made (``N_``,
a constant or a pattern with named fields).  Shown to a reader, the text is
found again in the catalogue, its fields read back from the English, and
the French written with them (each field's words translated in turn, so
"game over: most points" reads "partie terminée : le plus de points").  A
text that no message matches is shown as it is.
"""

from __future__ import annotations

import functools
import re

from pbem.catalogues import read, sources


def N_(message: str) -> str:
    """Mark ``message`` for the catalogue only (it is stored in English)."""
    return message


#: the terminations the server stores (pbem/services/games.py, sweep.py), as
#: the catalogue knows them; the games' own reasons are marked in each game
STORED = (
    N_("%(name)s gave up after %(count)s turn"), N_("%(name)s gave up after %(count)s turns"),
    N_("player %(label)s (%(name)s) resigned"), N_("drawn by agreement"),
    N_("abandoned by %(name)s before it started"), N_("game over"), N_("game over: %(reason)s"),
    N_("game over: %(reason)s (out on time: %(names)s)"), N_("%(name)s ran out of time"),
    N_("%(name)s ran out of time and is out of the game"),
    N_("%(name)s ran out of time and is out of the game; player %(label)s (%(last)s) is the last player left"),
    N_("player %(label)s (%(name)s) ran out of time; player %(other)s (%(claimer)s) claimed the win"),
    # a bot's name (pbem/services/bot_seats.py) and its levels (engine/bots/levels.py)
    N_("Bot (%(level)s)"), N_("random"), N_("beginner"), N_("easy"), N_("medium"), N_("hard"), N_("strongest"),
)

#: a named field: ``%(name)s`` (server) or ``{name}`` (games)
_FIELD = re.compile(r"%\((\w+)\)[sd]|\{(\w+)\}")


def _pattern(english: str) -> re.Pattern[str] | None:
    """The message as a regular expression whose groups are its fields."""
    parts, last, names = [], 0, []
    for match in _FIELD.finditer(english):
        parts.append(re.escape(english[last:match.start()]))
        name = match.group(1) or match.group(2)
        if name in names:
            return None
        names.append(name)
        parts.append(f"(?P<{name}>.+?)")
        last = match.end()
    parts.append(re.escape(english[last:]))
    return re.compile("^" + "".join(parts) + "$", re.S) if names else None


@functools.cache
def _messages(language: str) -> tuple[dict[str, str], tuple[tuple[re.Pattern[str], str], ...]]:
    """The catalogues' messages in ``language``: the constant ones by their
    English, and those with fields as patterns (the longest first, so the
    most literal reading wins)."""
    constant: dict[str, str] = {}
    patterns: list[tuple[int, re.Pattern[str], str]] = []
    for source in sources():
        for message in read(source, language):
            if not message.id or not message.string or isinstance(message.id, (tuple, list)) or message.fuzzy:
                continue
            english, translated = str(message.id), str(message.string)
            pattern = _pattern(english)
            if pattern is not None and len(_FIELD.sub("", english).strip(" .,:;()")) < 3:
                continue  # a message that is little more than its fields would match anything
            if pattern is None:
                constant.setdefault(english, translated)
            else:
                patterns.append((len(_FIELD.sub("", english)), pattern, translated))
    patterns.sort(key=lambda entry: -entry[0])
    return constant, tuple((pattern, translated) for _, pattern, translated in patterns)


def _fill(translated: str, values: dict[str, str]) -> str:
    return _FIELD.sub(lambda m: values.get(m.group(1) or m.group(2), m.group(0)), translated)


def shown(text: object, language: str | None, depth: int = 3) -> str:
    """``text`` (stored or drawn in English) in ``language``: as it is for
    English, for no language, or when no message matches."""
    text = "" if text is None else str(text)
    if not text or not language or language == "en" or depth <= 0:
        return text
    constant, patterns = _messages(language)
    if text in constant:
        return constant[text]
    for pattern, translated in patterns:
        match = pattern.match(text)
        if match:
            values = {name: shown(value, language, depth - 1) for name, value in match.groupdict().items()}
            return _fill(translated, values)
    if text.endswith(".") and not text.endswith(".."):  # a stored text ended as a sentence
        bare = shown(text[:-1], language, depth)
        if bare != text[:-1]:
            return bare + "."
    return text


def shown_lines(text: str, language: str | None) -> str:
    """A drawing in text (a board with its caption and legend), each of its
    lines that a message matches in ``language`` (the board's own rows
    match none)."""
    if not language or language == "en":
        return text
    return "\n".join(shown(line, language) if line.strip() else line for line in text.split("\n"))
