"""A stored game as a game record (``notation.record``): its turns with
their clock tags (``pbem.services.sweep.record_turns``), its chance
outcomes and, for a dealt game, the seed hash (the seed once public).  The
record replays the stored canonical turns, so it passes ``pbem record
check``.  What a player downloads, as text or JSON, is written from it by
``pbem.services.visibility`` (``record_text``, ``record_json``), as that
player may see it; ``text`` and ``json_text`` here write the whole record."""

from __future__ import annotations

from typing import Any

from sqlmodel import Session

from engine import chance
from notation import record as records
from pbem.models import OPEN_STATUSES, Game
from pbem.services import par
from pbem.services.stored import kind_of, seated_players, start_state, turns_of
from pbem.services.sweep import record_turns


def record_of(session: Session, game: Game) -> records.Record:
    seated = seated_players(session, game)
    players = [player.display_name for _, player in seated]
    stored = turns_of(session, game)
    turns, clock_tags = record_turns(stored, kind_of(game).notation.player_label)
    out = sorted((seat.out_after, seat.number) for seat, _ in seated if seat.out_after is not None)
    if out:  # players put out on time: [Out "2@7"], player 2 out after turn 7
        clock_tags[records.OUT] = " ".join(f"{number + 1}@{after}" for after, number in out)
    record = records.Record(
        game=game.kind,
        players=players,
        turns=turns,
        options=dict(game.options),
        date=game.started_at.strftime("%Y.%m.%d") if game.started_at else None,
        end_date=game.finished_at.strftime("%Y.%m.%d") if game.finished_at else None,
        result=game.result or "*",
        tags={"Site": f"pbem game {game.id}", **clock_tags},
    )
    if game.start_chance or any(turn.chance for turn in stored):  # chance during play: what it gave, turn by turn
        record.chance = [outcomes(game.start_chance)] + [outcomes(turn.chance) for turn in stored]
    if game.termination and game.status != "active":
        record.tags["Termination"] = game.termination
    if game.seed_hash:  # chance: the dealt start and the hash; the seed once over
        record.start = kind_of(game).notation.format_position(start_state(game, len(seated)))
        record.tags[records.CHANCE] = chance.ALGORITHM
        record.tags[records.SEED_HASH] = game.seed_hash
        if game.status not in OPEN_STATUSES or par.seed_is_public(session, game):  # published: a puzzle
            assert game.seed is not None  # stored with seed_hash (gamestate's start)
            record.tags[records.SEED] = game.seed
    return record


def outcomes(events: list[dict[str, Any]] | None) -> list[records.Outcome]:
    """Stored chance events (``pbem.services.stored.events_data``) as a record's outcomes."""
    return [records.Outcome(event["purpose"], tuple(event["values"])) for event in events or ()]


def text(session: Session, game: Game) -> str:
    """The whole record as text, every outcome shown.  What leaves the server
    for a player goes through ``pbem.services.visibility.record_text``."""
    return records.write_text(record_of(session, game))


def json_text(session: Session, game: Game) -> str:
    """The whole record as JSON (see ``text``)."""
    return records.write_json(record_of(session, game))


def filename(game: Game, extension: str) -> str:
    return f"pbem-{game.kind}-{game.id}.{extension}"
