"""marshmallow's ``Schema.dump``, planned once per schema: the same output,
for a fraction of the calls (a game's detail, dumped on every turn played
over the API, goes through some 70 fields, nested and listed).

``dumper(schema)`` reads the schema's fields once and gives a function of
one object.  Per field it does what ``Field.serialize`` does (the value by
attribute or key, the field's ``dump_default`` when it is missing, nothing
written when still missing, the field's own ``_serialize``), without the
accessor and keyword plumbing around it; nested schemas are planned the
same way.  A schema that this plan does not cover (dump hooks, dotted
attributes, ``only``/``exclude`` on a nested field, ``many``) is dumped by
marshmallow itself, so the output is always marshmallow's.
``tests/test_api_fast_dump.py`` checks it against ``Schema.dump``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Callable

from marshmallow import Schema, fields
from marshmallow.decorators import POST_DUMP, PRE_DUMP
from marshmallow.utils import ensure_text_type, missing

Dump = Callable[[Any], Any]
_Convert = Callable[[Any, str, Any], Any]


def dumper(schema: Schema) -> Dump:
    """A function giving ``schema.dump(obj)`` for one object ``obj``."""
    plan = _plan(schema)
    if plan is None:
        return schema.dump
    return lambda obj: _run(plan, obj)


def _plan(schema: Schema) -> list[tuple[str, str, Any, _Convert]] | None:
    if schema.many or schema.only is not None or schema.exclude or schema._hooks[PRE_DUMP] or schema._hooks[POST_DUMP] or schema.dict_class is not dict:
        return None
    plan = []
    for name, field in schema.dump_fields.items():
        attribute = field.attribute if field.attribute is not None else name
        if not isinstance(attribute, str) or "." in attribute or not field._CHECK_ATTRIBUTE:
            return None
        convert = _converter(field)
        if convert is None:
            return None
        plan.append((attribute, field.data_key if field.data_key is not None else name, field.dump_default, convert))
    return plan


def _run(plan: list[tuple[str, str, Any, _Convert]], obj: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    mapping = isinstance(obj, Mapping)
    for attribute, key, default, convert in plan:
        if mapping:
            value = obj[attribute] if attribute in obj else getattr(obj, attribute, missing)
        else:
            value = getattr(obj, attribute, missing)
        if value is missing:
            value = default() if callable(default) else default
            if value is missing:
                continue
        out[key] = convert(value, attribute, obj)
    return out


def _converter(field: fields.Field[Any]) -> _Convert | None:
    """How ``field`` turns a value found into its output (None: not planned)."""
    if isinstance(field, fields.Nested):
        if field.only is not None or field.exclude or not isinstance(field.schema, Schema):
            return None
        inner = _plan(field.schema)
        if inner is None:
            return None
        if field.many:
            return lambda value, attr, obj: None if value is None else [_run(inner, item) for item in value]
        return lambda value, attr, obj: None if value is None else _run(inner, value)
    if isinstance(field, fields.List):
        if isinstance(field.inner, fields.Nested):
            each = _converter(field.inner)
            if each is None:
                return None
            return lambda value, attr, obj: None if value is None else [each(item, attr, obj) for item in value]
        if type(field.inner) is fields.String:
            return lambda value, attr, obj: None if value is None else [_text(item) for item in value]
    if type(field) is fields.String:
        return lambda value, attr, obj: _text(value)
    return field._serialize


def _text(value: Any) -> str | None:
    """``fields.String``'s output."""
    if value is None or type(value) is str:
        return value
    return ensure_text_type(value)
