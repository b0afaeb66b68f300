"""A turn's JSON body taken as it is on the hot path is exactly one the
API's ``TurnIn`` schema loads unchanged; any other body is left to the
schema, which names what is wrong."""

from hypothesis import given, settings
from hypothesis import strategies as st
from marshmallow import ValidationError

from pbem.api import schemas
from pbem.api.routes import _plain_turn

_values = st.one_of(st.none(), st.booleans(), st.integers(-3, 10**12), st.floats(allow_nan=False),
                    st.text(max_size=3), st.text(min_size=498, max_size=502), st.lists(st.integers(), max_size=2))
_bodies = st.dictionaries(st.sampled_from(["turn", "ply", "Turn", "extra"]), _values, max_size=4)


@settings(max_examples=600, deadline=None)
@given(_bodies)
def test_a_turn_body_is_taken_as_it_is_only_when_the_schema_loads_it_unchanged(body):
    try:
        loaded = schemas.TurnIn().load(body)
    except ValidationError:
        loaded = None
    if _plain_turn(body):
        assert loaded == body and all(type(loaded[k]) is type(body[k]) for k in body)
    else:  # left to the schema: a body it loads as it is would only be slower, never wrong
        assert loaded is None or loaded == body


def test_a_plain_turn_body_is_one_the_schema_takes():
    body = {"turn": "b1-b3 G P:b4", "ply": 4}
    assert _plain_turn(body) and schemas.TurnIn().load(body) == body
    assert not _plain_turn({"turn": "b1-b3 G P:b4", "ply": True})
    assert not _plain_turn({"turn": "", "ply": 0})
    assert not _plain_turn({"turn": "x" * 501, "ply": 0})
    assert not _plain_turn({"turn": "a1", "ply": 0, "extra": 1})
