"""The API's planned dump (``pbem.api.fast_dump``) gives exactly what
marshmallow's ``Schema.dump`` gives: for every schema of the API on
generated objects (values of each field's type, None, or left out), and on
a real game's detail as the API answers a turn with it."""

from __future__ import annotations

import datetime as dt

from hypothesis import given, settings
from hypothesis import strategies as st
from marshmallow import Schema, fields

from notation import registry
from pbem.api import schemas
from pbem.api.fast_dump import dumper
from pbem.services import present
from pbem.services.stored import load_seated
from pbem.services.turns import submit_turn

SCHEMAS = sorted((value for value in vars(schemas).values()
                  if isinstance(value, type) and issubclass(value, Schema) and value is not Schema),
                 key=lambda schema: schema.__name__)

_TEXT = st.text(max_size=8)


def _values(field: fields.Field, depth: int = 0) -> st.SearchStrategy:
    """Values a field may be given: of its type (or not quite: a number for
    a string), and None."""
    if isinstance(field, fields.Nested):
        found = _objects(field.schema, depth + 1)
        found = st.lists(found, max_size=3) if field.many else found
    elif isinstance(field, fields.List):
        found = st.lists(_values(field.inner, depth), max_size=3)
    elif isinstance(field, fields.Dict):
        found = st.dictionaries(_TEXT, _TEXT | st.integers(), max_size=3)
    elif isinstance(field, fields.Boolean):
        found = st.booleans() | st.sampled_from(["true", "no", 1, 0])
    elif isinstance(field, fields.Integer):
        found = st.integers() | st.floats(-1e6, 1e6, allow_nan=False)
    elif isinstance(field, fields.Float):
        found = st.floats(allow_nan=False, allow_infinity=False) | st.integers()
    elif isinstance(field, fields.DateTime):
        found = st.datetimes() | st.datetimes(timezones=st.just(dt.timezone.utc))
    elif isinstance(field, fields.Date):
        found = st.dates()
    elif isinstance(field, fields.String):
        found = _TEXT | st.integers() | st.binary(max_size=4).map(lambda b: b.hex().encode())
    else:
        found = _TEXT | st.integers()
    return st.none() | found


def _objects(schema: Schema, depth: int = 0) -> st.SearchStrategy:
    """Dicts with any of the schema's fields (by attribute name)."""
    if depth > 2:
        return st.just({})
    return st.fixed_dictionaries({}, optional={
        (field.attribute or name): _values(field, depth) for name, field in schema.dump_fields.items()})


def test_every_api_schema_is_dumped_as_marshmallow_dumps_it():
    for schema_class in SCHEMAS:
        schema = schema_class()

        @settings(max_examples=60, deadline=None, database=None)
        @given(_objects(schema))
        def check(obj):
            assert dumper(schema)(obj) == schema.dump(obj), schema_class.__name__

        check()


def test_objects_with_attributes_are_dumped_as_marshmallow_dumps_them():
    class Turn:
        ply, seat, player, text = 3, 1, "A", "a1"
        created_at = dt.datetime(2026, 11, 25, 12, 0, tzinfo=dt.timezone.utc)

    schema = schemas.TurnOut()
    assert dumper(schema)(Turn()) == schema.dump(Turn())
    assert dumper(schemas.GameDetailOut())({"turns": [Turn(), Turn()]}) == schemas.GameDetailOut().dump(
        {"turns": [Turn(), Turn()]})


def test_a_game_as_the_api_answers_a_turn_is_dumped_as_marshmallow_dumps_it(session, make_players, start_game):
    alice, bob = make_players("alice", "bob")
    game = start_game(alice, bob)
    kind = registry.get(game.kind)
    for _ in range(6):
        state = kind.notation.parse_position(game.position, game.options)
        mover = (alice, bob)[kind.rules.to_move(state)]
        done = submit_turn(session, game.id, mover, kind.notation.legal_texts(state)[0], game.ply, "api")
        game = done.game
        answer = present.after_turn(session, load_seated(session, game.id), mover, [done.turn])
        schema = schemas.GameDetailOut()
        assert dumper(schema)(answer) == schema.dump(answer)
        assert answer["diagram"] and answer["turns"]
