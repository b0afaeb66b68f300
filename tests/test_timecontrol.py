"""Time control arithmetic: deadlines over weekends and vacations, time banks."""

from datetime import datetime, timedelta, timezone

import pytest

from pbem.services.clock.control import Clock, TimeControl, TimeControlError, counted, deadline

UTC = timezone.utc
FRIDAY_NOON = datetime(2026, 11, 27, 12, tzinfo=UTC)  # a Friday


def test_deadline_is_plain_addition_when_everything_counts():
    assert deadline(FRIDAY_NOON, timedelta(hours=48)) == FRIDAY_NOON + timedelta(hours=48)


def test_weekends_that_do_not_count_push_the_deadline_past_them():
    # 24 hours from Friday noon: 12 hours on Friday, then Monday 00:00 + 12h
    assert deadline(FRIDAY_NOON, timedelta(hours=24), weekends=False) == datetime(2026, 11, 30, 12, tzinfo=UTC)
    # starting on a Saturday: the clock starts on Monday
    saturday = datetime(2026, 11, 28, 9, tzinfo=UTC)
    assert deadline(saturday, timedelta(hours=1), weekends=False) == datetime(2026, 11, 30, 1, tzinfo=UTC)


def test_a_deadline_that_runs_out_exactly_at_the_weekend_stays_on_friday():
    assert deadline(FRIDAY_NOON, timedelta(hours=12), weekends=False) == datetime(2026, 11, 28, 0, tzinfo=UTC)


def test_vacations_stop_the_clock():
    trip = (FRIDAY_NOON + timedelta(hours=6), FRIDAY_NOON + timedelta(days=3, hours=6))
    assert deadline(FRIDAY_NOON, timedelta(hours=24), vacations=[trip]) == FRIDAY_NOON + timedelta(days=4)


def test_vacation_and_weekend_overlapping_count_once():
    trip = (datetime(2026, 11, 27, 18, tzinfo=UTC), datetime(2026, 11, 29, 12, tzinfo=UTC))
    # Friday 12-18 counts (6h), then paused until Monday 00:00, then 18 more hours
    assert deadline(FRIDAY_NOON, timedelta(hours=24), weekends=False, vacations=[trip]) == datetime(
        2026, 11, 30, 18, tzinfo=UTC
    )


def test_counted_time_is_the_inverse_of_deadline():
    trip = (datetime(2026, 12, 2, tzinfo=UTC), datetime(2026, 12, 5, tzinfo=UTC))
    for hours in (1, 13, 47, 200):
        for weekends in (True, False):
            due = deadline(FRIDAY_NOON, timedelta(hours=hours), weekends, [trip])
            assert counted(FRIDAY_NOON, due, weekends, [trip]) == timedelta(hours=hours)


def test_time_bank_pays_for_overruns_and_grows_to_its_cap():
    control = TimeControl(hours_per_turn=24, bank_hours=10, bank_increment_hours=4, bank_cap_hours=16)
    clock = Clock.start(control)
    assert clock.allowance(control) == timedelta(hours=34)
    clock = clock.after_turn(control, timedelta(hours=30))  # 6 hours from the bank, then +4
    assert clock.bank == timedelta(hours=8)
    clock = clock.after_turn(control, timedelta(hours=1))
    clock = clock.after_turn(control, timedelta(hours=1))
    clock = clock.after_turn(control, timedelta(hours=1))
    assert clock.bank == timedelta(hours=16)  # capped


@pytest.mark.parametrize(
    "data,message",
    [
        ({"hours_per_turn": 0}, "from 1 hour to 365 days"),
        ({"on_timeout": "explode"}, "claim .*forfeit .*out"),
        ({"hours_per_turn": "soon"}, "whole hours"),
        ({"weekends": "maybe"}, "whole hours, weekends yes or no"),
    ],
)
def test_bad_time_controls_say_what_is_allowed(data, message):
    with pytest.raises(TimeControlError, match=message):
        TimeControl.from_dict(data)


def test_time_control_round_trips_and_describes_itself():
    control = TimeControl.from_dict({"hours_per_turn": "48", "weekends": "no", "on_timeout": "Forfeit"})
    assert TimeControl.from_dict(control.to_dict()) == control
    assert control.describe() == "2 days per turn; weekends do not count; on timeout: the turn is forfeited and passes to the next player"
