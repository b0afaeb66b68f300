"""Every stored table: importing this module puts them all in
``SQLModel.metadata`` (for the migrations, their check against the models,
and the tests that empty every table).

``pbem.models`` holds the core tables and what the others build on (the
clock ``CLOCK``/``utcnow``, the ``UTCTime`` column type); the other
``pbem.models_*`` modules import it, and it imports none of them, so there is
no import cycle among the models.  A new ``models_*`` module is added here.
"""

from pbem import models  # noqa: F401  (players, games, seats, turns, tokens, outbox)
from pbem.models import auth as models_auth  # noqa: F401  (the sign-in tables)
from pbem.models import clock as models_clock  # noqa: F401  (the clock's tables)
from pbem.models import events as models_events  # noqa: F401  (the changes of games, for event streams)
from pbem.models import mail as models_mail  # noqa: F401  (the mail tables)
from pbem.models import puzzles as models_puzzles  # noqa: F401  (shared puzzles)
from pbem.models import refusals as models_refusals  # noqa: F401  (the mail refusals)
