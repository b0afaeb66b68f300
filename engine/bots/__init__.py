"""Computer opponents for every game, through the one engine interface.

``choose(game, view, seat, level, seed)`` picks a turn for ``seat`` from
``view``, what ``game.view(state, seat)`` shows that seat: a bot is never
given the hidden state.  The search (``engine.bots.mcts``) is Monte Carlo
tree search over the game's own results; ``engine.bots.hooks`` holds the
optional per-game help (an evaluation, a solver).  Pure: no I/O, no clock
except the think budget's optional time cap.
"""

from engine.bots.levels import DEFAULT_LEVEL, LEVELS, Level, level_named
from engine.bots.player import Choice, choose, random_turn

__all__ = ["DEFAULT_LEVEL", "LEVELS", "Level", "level_named", "Choice", "choose", "random_turn"]
