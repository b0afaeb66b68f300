"""Shared puzzles: a published seed and a game's options that anyone may
play, with the par a solver found when the puzzle was made, and the games
started from a published seed (``notation/greenhouse/guide.md``,
"Shared puzzles").  ``pbem.services.puzzles`` makes and reads them."""

from __future__ import annotations

from datetime import date, datetime
from typing import Any, Optional

from sqlalchemy import JSON, Column, UniqueConstraint
from sqlmodel import Field, SQLModel

from pbem.models import UTCTime, utcnow


class Puzzle(SQLModel, table=True):
    """A published deal: the game, its options, the seed (public: it is a
    puzzle, not a secret deal) and what the solver found for it.  A daily
    puzzle has its UTC ``day``; one per game and day."""

    __tablename__ = "puzzles"
    __table_args__ = (UniqueConstraint("kind", "day"),)

    id: Optional[int] = Field(default=None, primary_key=True)
    kind: str = Field(max_length=40)  # the game's registry name
    options: dict[str, Any] = Field(default_factory=dict, sa_column=Column(JSON, nullable=False))
    seed: str = Field(max_length=64)
    seed_hash: str = Field(max_length=64)
    day: Optional[date] = None  # the daily puzzle of this UTC day; None for other puzzles
    par: Optional[int] = None  # the lowest score the solver found; None: none within its budget (or no solver)
    lower_bound: Optional[int] = None  # no solution scores less (None: no solver)
    optimal: bool = False  # par is proven the best
    solver_seconds: float = 0.0  # the solver's budget when the puzzle was made
    created_at: datetime = Field(default_factory=utcnow, sa_type=UTCTime)


class PublishedSeedGame(SQLModel, table=True):
    """A game dealt from a seed published before it started: started from a
    puzzle (``puzzle_id``), or from a seed given when it was created
    (``puzzle_id`` None).  Its seed is shown from the start."""

    __tablename__ = "published_seed_games"

    game_id: int = Field(foreign_key="games.id", primary_key=True)
    puzzle_id: Optional[int] = Field(default=None, foreign_key="puzzles.id", index=True)
