"""A bot turn's CPU budget: the level's cap, counted from the start of the
turn.

``player.choose`` starts the budget before it does anything else, so
whatever the turn does counts against the cap: reading the position's
turns (half a second of an Alheimur position of play), looking for a win
in one, a hook's own decision (alpha-beta, Greenhouse's solver) and the
tree search.  Each part stops by the same clock (``time.process_time``,
CPU seconds of this process), so a turn's CPU stays bounded however loaded
the machine; without a cap (``timed=False``) nothing stops on time and a
seeded turn depends only on its seed.
"""

from __future__ import annotations

import time
from dataclasses import dataclass


@dataclass(frozen=True)
class Budget:
    started: float  # time.process_time() when the turn began
    seconds: float | None  # the cap in CPU seconds (None: no cap)

    @classmethod
    def start(cls, max_ms: int | None) -> Budget:
        """A budget of ``max_ms`` CPU milliseconds (None: no cap) from now."""
        return cls(time.process_time(), None if max_ms is None else max_ms / 1000)

    @property
    def capped(self) -> bool:
        return self.seconds is not None

    def spent(self) -> float:
        """CPU seconds since the turn began."""
        return time.process_time() - self.started

    def deadline(self, share: float = 1.0) -> float | None:
        """The ``time.process_time()`` value at which ``share`` of the cap
        (counted from the turn's start) is used up; None without a cap."""
        return None if self.seconds is None else self.started + share * self.seconds

    def left(self, share: float = 1.0) -> float | None:
        """CPU seconds left of ``share`` of the cap (0 when it is used up);
        None without a cap."""
        if self.seconds is None:
            return None
        return max(0.0, share * self.seconds - self.spent())

    def would_overrun(self, more: float) -> bool:
        """Whether ``more`` CPU seconds from now would reach the cap."""
        return self.seconds is not None and self.spent() + more >= self.seconds


#: no cap: a turn decided by its playouts (or nodes) alone
UNCAPPED = Budget(0.0, None)
