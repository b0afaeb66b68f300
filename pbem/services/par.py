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
from pbem.i18n import gettext
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
        "par_short": par_short(puzzle),
    }


def name_of(puzzle: Puzzle) -> str:
    """"Martian Greenhouse daily puzzle of 2026-11-25" or "... puzzle 7", in the reader's language."""
    title = registry.get(puzzle.kind).rules.title or puzzle.kind
    if puzzle.day:
        return gettext("%(game)s daily puzzle of %(day)s", game=title, day=f"{puzzle.day:%Y-%m-%d}")
    return gettext("%(game)s puzzle %(id)s", game=title, id=puzzle.id)


def par_text(puzzle: Puzzle) -> str:
    """"par 7: the solver's best in 10 s, and no solution has fewer than 3",
    in the reader's language: a sentence of its own, never inside brackets."""
    if puzzle.lower_bound is None:
        return gettext("no par: this game has no solver")
    budget = f"{puzzle.solver_seconds:g}"
    if puzzle.par is None:
        return gettext("no par: the solver found no solution in %(seconds)s s, and none has fewer than %(bound)s",
                       seconds=budget, bound=puzzle.lower_bound)
    if puzzle.optimal:
        return gettext("par %(par)s, proven the fewest possible", par=puzzle.par)
    return gettext("par %(par)s: the solver's best in %(seconds)s s, and no solution has fewer than %(bound)s",
                   par=puzzle.par, seconds=budget, bound=puzzle.lower_bound)


def par_short(puzzle: Puzzle) -> str:
    """"par 7" (or "no par"), for a list beside the puzzle's name."""
    return gettext("par %(par)s", par=puzzle.par) if puzzle.par is not None else gettext("no par")
