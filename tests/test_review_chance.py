"""Review of chance during play: hostile outcomes are refused as such (never
another exception), and records are read in time linear in their length."""

from __future__ import annotations

import pytest

from engine.base import ChanceEvent

ROLL = ChanceEvent("roll", "attack", 2, sides=6)


@pytest.mark.parametrize("value", ["²", "٣", "１", "0", "7", "01", "+1", " 1", "1\n", "1" * 5000, ""])
def test_a_roll_outcome_that_is_no_face_is_refused_not_raised(value):
    assert ROLL.allows(("1", value)) is False
    assert ROLL.allows(("1", "6")) is True


def test_a_die_with_many_faces_takes_every_face():
    die = ChanceEvent("roll", "big", 1, sides=1000)
    assert die.allows(("1000",)) and die.allows(("7",)) and not die.allows(("1001",))
