"""What a game knows about its published seed and par: whether its seed was
published before it started (so it is shown from the start), the puzzle it
was started from, and how far from par a finished puzzle game was.

Read-only and game-neutral (the words come from the rules'
``distance_from_par``); ``pbem.services.notify``, ``pbem.services.present`` and
``pbem.services.records`` use it, so it imports none of the services that write."""

from __future__ import annotations

from typing import Any

from sqlmodel import Session

from engine.base import PuzzlePar
from notation import registry
from pbem.models import FINISHED, Game
from pbem.models.puzzles import PublishedSeedGame, Puzzle
from pbem.services.stored import kind_of, state_of


def published(session: Session, game: Game) -> PublishedSeedGame | None:
    """The game's row of ``published_seed_games`` (None: a secret seed, or none)."""
    if game.id is None or not game.seed_hash:
        return None
    return session.get(PublishedSeedGame, game.id)


def seed_is_public(session: Session, game: Game) -> bool:
    """True when the game's seed was published before it started."""
    return published(session, game) is not None


def puzzle_of(session: Session, game: Game) -> Puzzle | None:
    """The puzzle the game was started from, if any."""
    row = published(session, game)
    return session.get(Puzzle, row.puzzle_id) if row is not None and row.puzzle_id is not None else None


def par_of(puzzle: Puzzle) -> PuzzlePar | None:
    """The puzzle's par as the rules' ``PuzzlePar`` (None: no solver)."""
    if puzzle.lower_bound is None:
        return None
    return PuzzlePar(puzzle.par, puzzle.lower_bound, puzzle.optimal)


def completed_score(game: Game) -> int | None:
    """The score of a game played to its end by the rules with a winner
    (a puzzle solved), else None (still on, given up, abandoned)."""
    if game.status != FINISHED:
        return None
    state = state_of(game)
    rules = kind_of(game).rules
    if state is None or not rules.is_over(state):
        return None
    outcome = rules.result(state)
    scores = rules.scores(state)
    if outcome is None or not outcome.winners or not scores:
        return None
    return scores[0]


def distance(session: Session, game: Game, puzzle: Puzzle | None = None) -> str | None:
    """How far from par a finished puzzle game was ("9 breedings: 2 over
    par (7)"); None for other games and for games given up."""
    puzzle = puzzle or puzzle_of(session, game)
    par = par_of(puzzle) if puzzle is not None else None
    score = completed_score(game)
    if par is None or score is None:
        return None
    return kind_of(game).rules.distance_from_par(par, score)


def puzzle_brief(puzzle: Puzzle) -> dict[str, Any]:
    """A puzzle's identity and par, for a game's page, the API and mail."""
    return {
        "id": puzzle.id,
        "name": name_of(puzzle),
        "day": puzzle.day,
        "par": puzzle.par,
        "lower_bound": puzzle.lower_bound,
        "optimal": puzzle.optimal,
        "par_text": par_text(puzzle),
    }


def name_of(puzzle: Puzzle) -> str:
    """"Martian Greenhouse daily puzzle of 2026-11-25" or "... puzzle 7"."""
    title = registry.get(puzzle.kind).rules.title or puzzle.kind
    return f"{title} daily puzzle of {puzzle.day:%Y-%m-%d}" if puzzle.day else f"{title} puzzle {puzzle.id}"


def par_text(puzzle: Puzzle) -> str:
    """"par 7 (the solver's best in 10 s; no solution has fewer than 3)"."""
    if puzzle.lower_bound is None:
        return "no par (this game has no solver)"
    budget = f"{puzzle.solver_seconds:g} s"
    if puzzle.par is None:
        return f"no par: the solver found no solution in {budget} (none has fewer than {puzzle.lower_bound})"
    if puzzle.optimal:
        return f"par {puzzle.par} (proven the fewest possible)"
    return f"par {puzzle.par} (the solver's best in {budget}; no solution has fewer than {puzzle.lower_bound})"
