"""Quoting what a player or a file wrote inside an error message.

Error messages name the text they refuse, but a turn, a line or a position
can be any length (a mail body, a 100 KB file); they quote its start only,
as the mail robot cuts long lines, and say how long it was.
"""

from __future__ import annotations

#: characters of a text quoted in full; longer texts are cut to this many
QUOTE_LIMIT = 80


def quote(text: object, limit: int = QUOTE_LIMIT) -> str:
    """``repr(text)``, cut to its first ``limit`` characters with ``...``
    and the full length when it is longer: ``'e5e5e5...'... (100000 characters)``."""
    if not isinstance(text, str):
        shown = repr(text)
        return shown if len(shown) <= limit else f"{shown[:limit]}... ({len(shown)} characters)"
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}... ({len(text)} characters)"
