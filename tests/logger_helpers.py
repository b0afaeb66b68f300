"""Shared helpers for the Logger tests: read positions and play turns
through the public notation, as the server and the CLI do."""

from __future__ import annotations

from notation.registry import get

KIND = get("logger")
RULES = KIND.rules
NOTATION = KIND.notation


def position(text: str, **options):
    return NOTATION.parse_position(text, options or None)


def play(text: str, *turns: str, **options) -> str:
    """Apply the turns in order from position ``text``; return the final
    position string."""
    state = position(text, **options)
    for turn in turns:
        state = RULES.apply(state, NOTATION.parse_turn(state, turn))
    return NOTATION.format_position(state)


def legal(text: str, **options) -> list[str]:
    return NOTATION.legal_texts(position(text, **options))
