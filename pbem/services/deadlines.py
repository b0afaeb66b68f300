"""Deadlines, for the callers that name them here: the module was split
along its jobs.

* ``pbem.clock.deadlines``: each turn's deadline from the game's time
  control, the time banks, the reminder hours, the clock columns of a game;
* ``pbem.services.sweep``: the deadline sweep, the reminders it sends, the
  timeout policies (claim, forfeit, out) and claiming the win on time.

New code imports those modules; the names below stay importable from here.
"""

from __future__ import annotations

from pbem.services.sweep import (  # noqa: F401
    CLOCK_SOURCE,
    OUT_TEXT,
    TIMED_OUT_TEXT,
    Swept,
    claim_win,
    claimable,
    clock_turn,
    out_seats,
    record_turns,
    sweep,
    sweep_game,
    timeout,
    values_after,
)
from pbem.clock.deadlines import (  # noqa: F401
    bank_after_turn,
    control_of,
    mover_seat,
    next_check,
    parse_hours,
    reminder_hours,
    reminders_sent,
    reschedule,
    start_values,
    time_control_for,
    turn_values,
    vacations_of,
)

_mover_seat = mover_seat  # the name tests and older callers use
