"""Shared puzzles: making them (the daily puzzle of each game that offers
puzzles, made by the scheduler), listing them, starting a game from one,
and the leaderboard of its finished games.

A puzzle is a published seed and a game's options (``pbem.models.puzzles``);
its par comes from the rules' optional ``par`` hook, computed once when the
puzzle is made within ``PUZZLE_SOLVER_SECONDS``.  Nothing here names a game:
a game offers puzzles when its rules' ``puzzle_options()`` is not None.
Rules (``notation/greenhouse/guide.md``, "Shared puzzles"): anyone
signed in may play any puzzle, as often as they like; the leaderboard ranks
each player's first solved game of it by score (fewer is better), ties by
who finished first; games given up are not ranked.
"""

from __future__ import annotations

from datetime import date
from typing import Any, Callable

from flask import current_app, has_app_context
from sqlalchemy import Engine, func
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, col, select

from engine import chance
from engine.base import settle_from_seed
from engine.errors import PbemError, shown
from notation import registry
from pbem.i18n import gettext
from pbem.models import FINISHED, Game, Player, Seat, utcnow
from pbem.models.puzzles import PublishedSeedGame, Puzzle
from pbem.services import games
from pbem.services import visibility as views
from pbem.services.errors import BadInput, NotFound
from pbem.services.par import completed_score, distance, name_of, par_short, par_text
from pbem.services.stored import option_words

#: where a daily puzzle gets its seed; tests may replace it
NEW_SEED: Callable[[], str] = chance.new_seed

#: the solver's budget in seconds when ``PUZZLE_SOLVER_SECONDS`` is not set
DEFAULT_SOLVER_SECONDS = 10.0

#: puzzles listed on /puzzles and by the API, newest first
LISTED = 60


def puzzle_kinds() -> list[str]:
    """The games that offer puzzles (their rules' ``puzzle_options()``)."""
    return [name for name in registry.names() if registry.get(name).rules.puzzle_options() is not None]


def solver_seconds() -> float:
    """The solver's budget for a new puzzle: ``PUZZLE_SOLVER_SECONDS``."""
    if has_app_context():
        return float(current_app.config.get("PUZZLE_SOLVER_SECONDS", DEFAULT_SOLVER_SECONDS))
    return DEFAULT_SOLVER_SECONDS


def build(kind_name: str, options: dict[str, Any] | None = None, seed: str | None = None,
          day: date | None = None, seconds: float | None = None) -> Puzzle:
    """A new puzzle (not yet stored) of ``kind_name`` with ``options`` (the
    game's daily options when None), dealt from ``seed`` (a fresh one when
    None), its par found within ``seconds`` (``PUZZLE_SOLVER_SECONDS``);
    ``BadInput`` naming what is wrong."""
    try:
        kind = registry.get(kind_name)
        if kind.rules.puzzle_options() is None:
            raise BadInput(gettext('%(value)s has no puzzles; the games with puzzles are: %(value2)s', value=kind.rules.title or kind.name, value2=', '.join(puzzle_kinds()) or 'none'))
        normalized = kind.rules.normalize_options(kind.rules.puzzle_options() if options is None else options)
        seed = (seed or NEW_SEED()).strip().lower()
        state = _dealt(kind, normalized, seed)
    except PbemError as error:
        raise BadInput(str(error)) from None
    budget = solver_seconds() if seconds is None else float(seconds)
    par = kind.rules.par(state, budget)
    return Puzzle(kind=kind.name, options=normalized, seed=seed, seed_hash=chance.commitment(seed), day=day,
                  par=par.found if par else None, lower_bound=par.lower_bound if par else None,
                  optimal=bool(par and par.optimal), solver_seconds=budget)


def _dealt(kind: Any, options: dict[str, Any], seed: str) -> Any:
    """The puzzle's position before the first turn, as its games start:
    dealt from the seed, after the chance events before the first turn."""
    return settle_from_seed(kind.rules, kind.rules.seeded_state(1, options, seed), seed, 0)[0]


def make(session: Session, kind_name: str, options: dict[str, Any] | None = None, seed: str | None = None,
         seconds: float | None = None) -> Puzzle:
    """Make and store a puzzle that is not a daily one; commits."""
    puzzle = build(kind_name, options, seed, None, seconds)
    session.add(puzzle)
    session.commit()
    return puzzle


def make_daily(engine: Engine, day: date | None = None) -> int:
    """Make today's (or ``day``'s, UTC) puzzle of every game that offers
    puzzles and has none yet; how many were made.  Safe to run in two
    processes at once: the unique (game, day) lets one insert win and the
    other's fail, which is then rolled back and not counted."""
    day = day or utcnow().date()
    made = 0
    for name in puzzle_kinds():
        with Session(engine) as session:
            if session.exec(select(Puzzle.id).where(Puzzle.kind == name, Puzzle.day == day)).first() is not None:
                continue
            session.add(build(name, day=day))
            try:
                session.commit()
            except IntegrityError:  # another process made it meanwhile
                session.rollback()
            else:
                made += 1
    return made


def load(session: Session, puzzle_id: Any) -> Puzzle:
    """The puzzle with this id; ``NotFound`` naming the id otherwise."""
    text = str(puzzle_id).strip().lstrip("#")
    number = int(text) if text.isascii() and text.isdigit() and len(text) <= 9 else None
    puzzle = session.get(Puzzle, number) if number else None
    if puzzle is None:
        known = session.exec(select(Puzzle.id).order_by(col(Puzzle.id).desc())).first()
        hint = (f"the puzzles are numbered up to {known}; see the list of puzzles" if known
                else "there are no puzzles yet; a new one is made every day")
        named = str(number) if number else shown(puzzle_id)
        raise NotFound(gettext('there is no puzzle %(named)s; %(hint)s', named=named, hint=hint))
    return puzzle


def listed(session: Session, limit: int = LISTED) -> list[Puzzle]:
    """The newest puzzles first."""
    return list(session.exec(select(Puzzle).order_by(col(Puzzle.id).desc()).limit(limit)))


def today(session: Session) -> list[Puzzle]:
    """Today's (UTC) daily puzzles, one per game that offers puzzles."""
    return list(session.exec(select(Puzzle).where(Puzzle.day == utcnow().date()).order_by(Puzzle.kind)))


def start_game(session: Session, player: Player, puzzle_id: Any) -> Game:
    """Start a game of the puzzle for ``player`` (through the one game
    creation service); commits.  A player may play a puzzle again: only
    their first solved game counts on the leaderboard."""
    puzzle = load(session, puzzle_id)
    return games.create_game(session, player, puzzle.kind, [player.email],
                             options={**puzzle.options, games.SEED_OPTION: puzzle.seed}, puzzle_id=puzzle.id)


def leaderboard(session: Session, puzzle: Puzzle, viewer: Player | None = None) -> list[dict[str, Any]]:
    """The ranked games of the puzzle: each player's first solved game
    (filling everything, not given up), by score (fewer first), ties by who
    finished first and sharing a rank.  Display names only, never addresses."""
    rows = session.exec(
        select(Game, Player)
        .join(PublishedSeedGame, col(PublishedSeedGame.game_id) == Game.id)
        .join(Seat, col(Seat.game_id) == Game.id)
        .join(Player, col(Player.id) == Seat.player_id)
        .where(PublishedSeedGame.puzzle_id == puzzle.id, Game.status == FINISHED)
        .order_by(col(Game.finished_at), col(Game.id))
    )
    entries: list[dict[str, Any]] = []
    seen: set[int] = set()
    for game, player in rows:
        score = completed_score(game)
        if score is None or player.id in seen:
            continue
        assert player.id is not None  # a stored player
        seen.add(player.id)
        entries.append({"player": public_name(player), "score": score, "finished_at": game.finished_at,
                        "distance": distance(session, game, puzzle), "game": game.id,
                        "yours": viewer is not None and viewer.id == player.id})
    entries.sort(key=lambda e: (e["score"], e["finished_at"], e["game"]))
    for index, entry in enumerate(entries):
        same = index and entries[index - 1]["score"] == entry["score"]
        entry["rank"] = entries[index - 1]["rank"] if same else index + 1
    return entries


def public_name(player: Player) -> str:
    """How a leaderboard, which anyone reads, names a player (``Player.public_name``)."""
    return player.public_name


def games_started(session: Session, puzzle: Puzzle) -> int:
    return session.exec(select(func.count()).select_from(PublishedSeedGame)
                        .where(PublishedSeedGame.puzzle_id == puzzle.id)).one()


def your_games(session: Session, puzzle: Puzzle, viewer: Player | None) -> list[dict[str, Any]]:
    """The viewer's games of the puzzle, oldest first."""
    if viewer is None:
        return []
    rows = session.exec(
        select(Game).join(PublishedSeedGame, col(PublishedSeedGame.game_id) == Game.id)
        .join(Seat, col(Seat.game_id) == Game.id)
        .where(PublishedSeedGame.puzzle_id == puzzle.id, Seat.player_id == viewer.id).order_by(col(Game.id)))
    return [{"id": g.id, "status": g.status, "score": completed_score(g), "distance": distance(session, g, puzzle)}
            for g in rows]


def summary(puzzle: Puzzle) -> dict[str, Any]:
    """A puzzle as plain data, for the pages, the API and mail."""
    kind = registry.get(puzzle.kind)
    return {
        "id": puzzle.id,
        "game": puzzle.kind,
        "title": kind.rules.title or puzzle.kind,
        "name": name_of(puzzle),
        "day": puzzle.day,
        "options": dict(puzzle.options),
        "option_words": option_words(puzzle.kind, puzzle.options),
        "seed": puzzle.seed,
        "seed_hash": puzzle.seed_hash,
        "par": puzzle.par,
        "lower_bound": puzzle.lower_bound,
        "optimal": puzzle.optimal,
        "solver_seconds": puzzle.solver_seconds,
        "par_text": par_text(puzzle),
        "par_short": par_short(puzzle),
        "created_at": puzzle.created_at,
    }


def detail(session: Session, puzzle: Puzzle, viewer: Player | None = None) -> dict[str, Any]:
    """``summary`` with the dealt position, its diagram, the leaderboard,
    how many games were started and the viewer's own games."""
    position, diagram = views.published_deal(puzzle.kind, dict(puzzle.options), puzzle.seed)
    return summary(puzzle) | {
        "position": position,
        "diagram": diagram,
        "leaderboard": leaderboard(session, puzzle, viewer),
        "games_started": games_started(session, puzzle),
        "your_games": your_games(session, puzzle, viewer),
    }


__all__ = ["build", "make", "make_daily", "load", "listed", "today", "start_game", "leaderboard", "summary",
           "detail", "puzzle_kinds", "name_of"]
