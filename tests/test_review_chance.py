"""Review of chance during play: hostile outcomes are refused as such (never
another exception), and records are read in time linear in their length."""

from __future__ import annotations

import pytest
from test_record_chance_outcomes import finished  # noqa: F401 - fixture

from engine.base import ChanceEvent

ROLL = ChanceEvent("roll", "attack", 2, sides=6)


@pytest.mark.parametrize("value", ["²", "٣", "１", "0", "7", "01", "+1", " 1", "1\n", "1" * 5000, ""])
def test_a_roll_outcome_that_is_no_face_is_refused_not_raised(value):
    assert ROLL.allows(("1", value)) is False
    assert ROLL.allows(("1", "6")) is True


def test_a_die_with_many_faces_takes_every_face():
    die = ChanceEvent("roll", "big", 1, sides=1000)
    assert die.allows(("1000",)) and die.allows(("7",)) and not die.allows(("1001",))


def test_a_record_line_of_many_outcome_groups_is_read_in_linear_time():
    import time

    from engine.errors import RecordError
    from notation import record as records

    # about 120 KB: a backtracking expression takes minutes over it, a linear
    # reading a fraction of a second; the bound only catches the minutes (the
    # machine may be loaded: it is not a speed measure)
    n, ceiling = 20_000, 30.0
    line = "1. ant " + "{draw kiwi} " * n + "bee\n"
    began = time.perf_counter()
    record = records.read('[Game "logger"]\n[Player1 "A"]\n[Player2 "B"]\n[Result "*"]\n\n' + line + "*\n")
    assert time.perf_counter() - began < ceiling
    with pytest.raises(RecordError):  # the turn is written with braces in it: no turn of Logger
        records.replay(record)
    began = time.perf_counter()
    record = records.read('[Game "logger"]\n[Player1 "A"]\n[Player2 "B"]\n[Result "*"]\n\n'
                          + line.replace(" bee", "") + "*\n")
    assert time.perf_counter() - began < ceiling and len(record.chance[1]) == n


@pytest.mark.parametrize("item, turn, after", [
    ("play ant", "play ant", ""),
    ("play ant {draw kiwi}", "play ant ", "{draw kiwi}"),
    ("play ant {draw kiwi}  {draw owl} ", "play ant ", "{draw kiwi}  {draw owl} "),
    ("play {draw kiwi} ant", "play {draw kiwi} ant", ""),
    ("a}{b}", "a}", "{b}"),
    ("{draw kiwi}", "", "{draw kiwi}"),
    ("x {a}b}", "x {a}b}", ""),
    ("x {{a}", "x {", "{a}"),
])
def test_a_turn_and_its_outcomes_are_cut_as_before(item, turn, after):
    import re

    from notation import record as records

    old = re.compile(r"^(.*?)((?:\s*\{[^{}]*\})*)\s*$", re.S).match(item)  # the expression it replaces
    assert (old[1].strip(), old[2].strip()) == (turn.strip(), after.strip())
    cut = records._turn_and_outcomes(item)
    assert (cut[0].strip(), cut[1].strip()) == (turn.strip(), after.strip())


def test_hostile_record_text_and_json_only_ever_raise_record_errors(finished):
    """Braces, '0.' lines and outcomes put anywhere in a real record of
    Hands, and outcomes of every wrong type in its JSON: a ``RecordError``
    or a record that checks, never another exception."""
    import json
    import random

    from engine.errors import RecordError
    from notation import record as records
    text = finished
    assert text.startswith('[Game "hands"]') and "{draw " in text
    failures = []

    def attempt(candidate: str) -> None:
        try:
            record = records.read(candidate)
            records.check(record)
            records.write_text(record)
            records.write_json(record)
        except RecordError:
            pass
        except Exception as error:  # noqa: BLE001 - what the test looks for
            failures.append(f"{type(error).__name__}: {error} in {candidate[-300:]!r}")

    rng = random.Random(7)
    pieces = ["{", "}", "{draw}", "{draw ?}", "{draw kiwi}", "0. ", "\n0. {draw ant}\n", "{ }", "{{draw kiwi}}",
              "{draw " + "x" * 20000 + "}", "|", " 1. ", "{Draw kiwi}", "{-x y}", "\n2. {draw kiwi}\n", "{draw ٣}"]
    for _ in range(600):
        candidate = text
        for _ in range(rng.randint(1, 3)):
            at = rng.randrange(len(candidate))
            candidate = candidate[:at] + rng.choice(pieces) + candidate[at:]
        attempt(candidate)
    data = json.loads(records.write_json(records.read(text)))
    for value in [1, "x", [1], [None], [{}], [{"purpose": 1, "values": 1}], [{"purpose": "draw", "values": "kiwi"}],
                  [{"purpose": "draw", "values": [None]}], [{"purpose": "draw", "values": {"a": 1}}],
                  {"purpose": "draw"}, [{"purpose": "draw", "values": ["?"]}], [{"purpose": ["draw"], "values": []}],
                  1.5, True, [[1, 2]], ["draw"]]:
        for where in ("start", "turn"):
            changed = json.loads(json.dumps(data))
            if where == "start":
                changed["start_chance"] = value
            else:
                changed["turns"][0]["chance"] = value
            attempt(json.dumps(changed))
    assert not failures, failures[:5]


@pytest.mark.parametrize("item", ["2.", "two words", "a|b", "{kiwi}", "", "tab\there", "new\nline"])
def test_a_draw_of_items_a_record_cannot_write_back_is_refused_by_the_engine(item):
    """An item a record cannot write and read back (``{draw kiwi}``) is a
    game's mistake, caught when it makes the event rather than in a record
    that no longer reads."""
    with pytest.raises(ValueError, match="item"):
        ChanceEvent("draw", "draw", 1, ("kiwi", item))
    assert ChanceEvent("draw", "draw", 1, ("kiwi", "r2-d2", "ÿ", "2", "2.5", "?")).allows(("ÿ",))


@pytest.mark.parametrize("outcomes", [
    "kiwi", {"purpose": "draw", "values": ["kiwi"]}, [{"purpose": "draw", "values": "kiwi"}],
    [{"purpose": "draw", "values": {"kiwi": 1}}], [{"purpose": "draw", "values": [None]}],
    [{"purpose": "draw", "values": [True]}], [{"purpose": "draw", "values": [["kiwi"]]}],
    [{"purpose": ["draw"], "values": ["kiwi"]}], ["draw kiwi"],
])
def test_json_outcomes_of_the_wrong_shape_are_refused_naming_the_shape(outcomes):
    """Not read leniently: the letters of "kiwi" are no outcome of four draws."""
    import json

    from engine.errors import RecordError
    from notation import record as records

    data = {"game": "logger", "players": ["A", "B"], "result": "*",
            "turns": [{"turn": "a1", "chance": outcomes}]}
    with pytest.raises(RecordError, match=r'are a list of objects such as \{"purpose": "draw"'):
        records.read(json.dumps(data))
