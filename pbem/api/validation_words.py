"""The JSON API's validation messages (marshmallow's, in English) in the
requester's language: each is a catalogue message marked here (``N_``, its
varying parts as named fields), found again and translated by
``pbem.services.stored_words.shown``."""

from __future__ import annotations

from typing import Any

from pbem.services.stored_words import N_, shown

#: what marshmallow says of a field the schemas of ``pbem.api.schemas`` refuse
MESSAGES = (
    N_("Missing data for required field."), N_("Field may not be null."), N_("Invalid value."),
    N_("Not a valid string."), N_("Not a valid utf-8 string."), N_("Not a valid integer."),
    N_("Not a valid boolean."), N_("Not a valid list."), N_("Not a valid mapping type."), N_("Invalid type."),
    N_("Not a valid number."), N_("Number too large."), N_("Not a valid datetime."), N_("Invalid input type."),
    N_("Unknown field."),
    N_("Must be greater than or equal to %(min)s and less than or equal to %(max)s."),
    N_("Must be greater than or equal to %(min)s."), N_("Must be less than or equal to %(max)s."),
    N_("Length must be between %(min)s and %(max)s."), N_("Longer than maximum length %(max)s."),
    N_("Shorter than minimum length %(min)s."), N_("Length must be %(equal)s."),
    N_("Must be one of: %(choices)s."),
)


def translated(messages: Any, language: str) -> Any:
    """marshmallow's ``normalized_messages()`` (a dict of field -> list of
    messages, nested for lists and objects) with every message in ``language``."""
    if isinstance(messages, dict):
        return {key: translated(value, language) for key, value in messages.items()}
    if isinstance(messages, (list, tuple)):
        return [translated(value, language) for value in messages]
    return shown(messages, language) if isinstance(messages, str) else messages
