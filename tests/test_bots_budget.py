"""The bots' CPU caps cover the whole turn: a level's cap counts from the
start of the bot's turn (``engine.bots.budget``), so reading the
position's turns comes out of it, and Martian Greenhouse's solver stops by
CPU time, like the others, and not at all without a cap."""

from __future__ import annotations

import time
from types import SimpleNamespace

from alheimur_helpers import GAME as ALHEIMUR
from alheimur_helpers import position, world

from engine.base import settle_from_seed
from engine.bots import choose, mcts
from engine.bots.levels import Level, level_named
from notation import registry

SEED = "3c" * 32


def _spin(seconds: float) -> None:
    """Burn ``seconds`` of CPU."""
    end = time.process_time() + seconds
    while time.process_time() < end:
        pass


def _cpu_of(call):
    start = time.process_time()
    result = call()
    return result, time.process_time() - start


def _taiga_view():
    game = registry.get("taiga").rules
    state, _ = settle_from_seed(game, game.seeded_state(2, None, SEED), SEED, 0)
    seat = game.to_move(state)
    return game, state, seat


def test_the_cap_counts_the_listing_of_the_turns(monkeypatch):
    """A slow listing of the position's turns (Alheimur's takes a quarter
    to half a second) leaves the search less of the cap, not the same."""
    game, state, seat = _taiga_view()
    listing, cap = 0.4, 0.6
    listed = []
    real = mcts.turns_of

    def slow_turns_of(*args, **kwargs):
        if not listed:  # the root's listing, before the search
            _spin(listing)
        listed.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(mcts, "turns_of", slow_turns_of)
    level = Level("test", 100_000, int(cap * 1000), "a cap, and more playouts than it allows")
    choice, cpu = _cpu_of(lambda: choose(game, game.view(state, seat), seat, level, seed=1))
    assert listed and choice.playouts >= 1
    assert game.is_legal(state, choice.turn)
    # counted from the search's start, the turn took the listing and then the whole cap (1.0 s)
    assert cpu < cap + 0.15, f"a {cap} s cap took {cpu:.2f} s of CPU"


def test_a_medium_alheimur_turn_stays_under_its_cap():
    """A position of play with 3000 turns and more: its listing (a quarter
    of a second) is inside the medium level's 1.5 s, the whole turn too."""
    state = position(world("1", on="a4=1:3 b3=1:2 c2=1:1 d1=1:2 a1=1:1", orbit="1T2+1 1F3"),
                     world("2", on="a4=2:3 b3=2:2 c2=2:1 d1=2:2 b1=2:1", orbit="2T2+1 2F3"),
                     world("N", on="a4=1:1 d1=2:1"), space="1F2 2F2")
    assert len(mcts.turns_of(ALHEIMUR, state)) == mcts.MAX_TURNS
    cap = level_named("medium").max_ms / 1000
    choice, cpu = _cpu_of(lambda: choose(ALHEIMUR, ALHEIMUR.view(state, 0), 0, "medium", seed=2))
    assert ALHEIMUR.is_legal(state, choice.turn)
    assert cpu < cap * 1.1, f"a medium Alheimur turn took {cpu:.2f} s of CPU"


def test_an_alheimur_beginner_reads_turns_for_half_its_cap_and_then_glances_at_those_read(monkeypatch):
    """In the few positions of play whose legal turns are slow to list
    (reading 3000 took up to 1.8 s), the beginner stops reading at half its
    cap of 1 s and plays the best at a glance of those it read: the whole
    turn stays within the cap.  Untimed, it reads them all."""
    state = position(world("1", on="a4=1:3 b3=1:2 c2=1:1 d1=1:2 a1=1:1", orbit="1T2+1 1F3"),
                     world("2", on="a4=2:3 b3=2:2 c2=2:1 d1=2:2 b1=2:1", orbit="2T2+1 2F3"),
                     world("N", on="a4=1:1 d1=2:1"), space="1F2 2F2")
    rules = type(ALHEIMUR)
    real = rules.iter_turns
    read = []

    def slow(self, view):
        for turn in real(self, view):
            _spin(0.001)  # 3000 turns: 3 s
            read.append(turn)
            yield turn

    monkeypatch.setattr(rules, "iter_turns", slow)
    cap = level_named("beginner").max_ms / 1000
    choice, cpu = _cpu_of(lambda: choose(ALHEIMUR, ALHEIMUR.view(state, 0), 0, "beginner", seed=2))
    assert choice.why == "the best of a few turns at a glance" and ALHEIMUR.is_legal(state, choice.turn)
    assert cpu < cap, f"a beginner Alheimur turn took {cpu:.2f} s of CPU"
    assert 100 < len(read) < 600, f"read {len(read)} turns in half a second at a millisecond each"
    read.clear()
    untimed = choose(ALHEIMUR, ALHEIMUR.view(state, 0), 0, "beginner", seed=2, timed=False)
    assert len(read) == 3000 and ALHEIMUR.is_legal(state, untimed.turn)


def _greenhouse_start():
    game = registry.get("greenhouse").rules
    options = game.normalize_options({"stashes": "rb", "orders": "1"})
    state, _ = settle_from_seed(game, game.seeded_state(1, options, SEED), SEED, 0)
    return game, state


def test_greenhouse_solver_stops_by_cpu_time_and_untimed_never(monkeypatch):
    """With the solver's CPU clock running a hundred seconds a reading, a
    timed turn finds nothing in its cap (the generic search decides); an
    untimed one plays the solver's line whatever the clock says."""
    from engine.greenhouse import solver

    game, state = _greenhouse_start()
    untroubled = choose(game, state, 0, "beginner", seed=3, timed=False)
    assert untroubled.why.startswith("solver")
    ticks = iter(range(0, 10**9, 100))
    monkeypatch.setattr(solver, "time", SimpleNamespace(process_time=lambda: float(next(ticks)),
                                                       perf_counter=time.perf_counter))
    assert choose(game, state, 0, "beginner", seed=3, timed=False) == untroubled
    timed = choose(game, state, 0, "beginner", seed=3)
    assert not timed.why.startswith("solver")
    assert game.is_legal(state, timed.turn)
