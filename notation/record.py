"""Game records: a PGN-like text format and the same record as JSON.

Text form::

    [Game "logger"]
    [Options "spawn=seedling"]
    [Player1 "Alice"]
    [Player2 "Bob"]
    [Date "2026.11.23"]
    [Result "*"]

    1. a1 | e5
    2. a1-a2 G P:b2 | e5-c5 G P:d5
    *

Tag pairs first (values in double quotes, ``\\"`` and ``\\\\`` escaped), a
blank line, then the turns numbered by round, one line per round, the turns of
a round separated by ``|`` (turns may contain spaces), and last the result
token, the same as the Result tag.  ``docs/records.md`` describes it in full.
"""

from __future__ import annotations

import json
import re
from typing import Any

from engine import chance
from engine.base import winners_without
from engine.errors import PbemError, RecordError
from notation import ataxx_pgn, registry
from notation.base import GameKind
from notation.quote import quote
from notation.replay import FORFEIT, OUT, BadTurn, Record, Replay, initial_state, outs, replay  # noqa: F401

_TAG = re.compile(r'^\[([A-Za-z][A-Za-z0-9_]*)\s+"((?:[^"\\]|\\.)*)"\]\s*$')
_ROUND = re.compile(r"^(\d+)\.\s*(.*)$")
#: a round number inside a line, which starts a further round
_NEXT_ROUND = re.compile(r"(?<!\S)(\d+)\.(?:\s+|$)")
_RESULT = re.compile(r"^(\*|=|[1-9](?:=[1-9])*)$")
_KNOWN = ("Game", "Options", "Date", "EndDate", "Start", "Result")


def _options_text(options: dict[str, str]) -> str:
    return " ".join(f"{k}={v}" for k, v in sorted(options.items()))


def _parse_options(text: str) -> dict[str, str]:
    options = {}
    for item in text.replace(",", " ").split():
        if "=" not in item:
            raise RecordError(f"the Options tag holds name=value pairs, such as spawn=seedling; not {quote(item)}")
        key, value = item.split("=", 1)
        options[key.strip()] = value.strip()
    return options


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ")


def _unescape(value: str) -> str:
    return re.sub(r"\\(.)", r"\1", value)


def result_tag(kind: GameKind, state: Any) -> str:
    outcome = kind.rules.result(state)
    return "*" if outcome is None else outcome.tag()


def check(record: Record) -> Replay:
    """Replay the record and check its Result tag against the final position
    (and the players put out on time, when the record has an ``Out`` tag).
    A finished game of chance must reveal its seed, and its start position
    must be the one the seed deals (``verify_seed``)."""
    played = replay(record)
    if record.kind.rules.uses_chance and (record.tags.get(SEED) or record.result != "*"):
        verify_seed(record)
    out = outs(record)
    if out:
        return _check_out(record, played, out)
    actual = result_tag(record.kind, played.final)
    if actual != "*" and record.result != actual:
        raise RecordError(f"the Result tag says {record.result!r} but the game ended {actual!r}")
    if actual == "*" and record.result not in ("*",) and not record.tags.get("Termination"):
        raise RecordError(
            f"the Result tag says {record.result!r} but the position after the last turn is not "
            "a finished game; a game ended by resignation, agreement or time names it in a Termination tag"
        )
    return played


# -- chance -----------------------------------------------------------------
#: tags of a game that uses chance: the stream's name, the seed's SHA-256
#: (from the start) and the seed (once the game is over).  The chance
#: outcomes themselves are in the record as they happened: the dealt start
#: position in the ``Start`` tag.
CHANCE, SEED_HASH, SEED = "Chance", "SeedHash", "Seed"


def seeded_record(game: str, players: list[str], options: dict[str, str], seed: str, **fields: Any) -> Record:
    """A new record of a chance game: the position ``seed`` deals as its
    ``Start``, the seed's hash in ``SeedHash``; the seed stays secret."""
    kind = registry.get_any(game)
    state = kind.rules.seeded_state(len(players), options, seed)
    tags = {CHANCE: chance.ALGORITHM, SEED_HASH: chance.commitment(seed)}
    tags.update(fields.pop("tags", {}))
    return Record(game=kind.name, players=list(players), options=kind.rules.normalize_options(options),
                  start=kind.notation.format_position(state), tags=tags, **fields)


def verify_seed(record: Record) -> None:
    """Check a finished chance game against its revealed seed: the seed
    matches the ``SeedHash`` shown from the start, and it deals exactly the
    record's ``Start``.  ``RecordError`` saying what differs."""
    kind = record.kind
    if not kind.rules.uses_chance:
        raise RecordError(f"{kind.name} uses no chance, so its record has no seed to verify")
    seed, hashed = record.tags.get(SEED), record.tags.get(SEED_HASH)
    algorithm = record.tags.get(CHANCE, chance.ALGORITHM)
    if algorithm != chance.ALGORITHM:
        raise RecordError(f"the record's chance comes from {quote(algorithm)}; this server checks {chance.ALGORITHM}")
    if not seed:
        raise RecordError(f"the game is over but the record reveals no seed; add its [{SEED} \"...\"] tag")
    if not hashed:
        raise RecordError(f"the record has no [{SEED_HASH} \"...\"] tag, the hash shown before the seed was revealed")
    if not record.start:
        raise RecordError("the record has no Start tag holding the dealt position")
    try:
        chance.check_commitment(seed, hashed)
        dealt = kind.rules.seeded_state(len(record.players), record.options, seed)
        written = kind.notation.parse_position(record.start, record.options)
    except PbemError as error:
        raise RecordError(f"cannot verify the seed: {error}") from None
    expected = kind.notation.format_position(dealt)
    if dealt != written:
        raise RecordError(f"the seed does not deal the recorded start: it deals {quote(expected, 200)}, "
                          f"the record starts from {quote(record.start, 200)}")


def _check_out(record: Record, played: Replay, out: dict[int, int]) -> Replay:
    """The result of a game with players put out on time: the last player
    left wins at once; else the best group of the final ranking that holds
    players still in the game."""
    rules = record.kind.rules
    left = [p for p in range(len(record.players)) if p not in out]
    names = ", ".join(str(p + 1) for p in sorted(out))
    if len(left) == 1:
        ended = max(out.values())
        if len(record.turns) != ended:
            raise RecordError(f"only player {left[0] + 1} was left after turn {ended} (the {OUT} tag), so the game "
                              f"ended there, but the record has {len(record.turns)} turns")
    winners = winners_without(rules, played.final, out)
    if winners is None:
        if record.result != "*" and not record.tags.get("Termination"):
            raise RecordError(
                f"the Result tag says {record.result!r} but the position after the last turn is not a finished "
                "game and more than one player is still in it; a game ended by resignation, agreement or time "
                "names it in a Termination tag"
            )
        return played
    expected = "=".join(str(p + 1) for p in winners)
    if record.result != expected:
        raise RecordError(f"the Result tag says {record.result!r} but the game ended {expected!r} "
                          f"(players out on time: {names})")
    return played


# -- text -------------------------------------------------------------------
def _rounds(record: Record, played: Replay) -> list[list[str]]:
    rounds: list[list[str]] = []
    last = None
    for text, mover in zip(played.texts, played.movers):
        if not rounds or (last is not None and mover <= last):
            rounds.append([])
        rounds[-1].append(text)
        last = mover
    return rounds


def write_text(record: Record) -> str:
    """The record as text, its turns in canonical notation."""
    played = replay(record)
    lines = [f'[Game "{_escape(record.game)}"]']
    options = record.kind.rules.normalize_options(record.options)
    lines.append(f'[Options "{_escape(_options_text(options))}"]')
    for number, name in enumerate(record.players, start=1):
        lines.append(f'[Player{number} "{_escape(name)}"]')
    if record.date:
        lines.append(f'[Date "{_escape(record.date)}"]')
    if record.end_date:
        lines.append(f'[EndDate "{_escape(record.end_date)}"]')
    if record.start:
        start = record.kind.notation.format_position(played.states[0])
        lines.append(f'[Start "{_escape(start)}"]')
    for name, value in record.tags.items():
        lines.append(f'[{name} "{_escape(value)}"]')
    lines.append(f'[Result "{_escape(record.result)}"]')
    lines.append("")
    for number, turns in enumerate(_rounds(record, played), start=1):
        lines.append(f"{number}. " + " | ".join(turns))
    lines.append(record.result)
    return "\n".join(lines) + "\n"


def read_text(text: str) -> Record:
    """Read a text record; raise ``RecordError`` naming the bad line."""
    if not isinstance(text, str):
        raise RecordError("a record is text")
    tags: dict[str, str] = {}
    turns: list[str] = []
    rounds: list[int | None] = []
    result_token = None
    expected_round = 1
    for line_number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith(";"):
            continue
        if line.startswith("["):
            match = _TAG.match(line)
            if not match:
                raise RecordError(f'line {line_number}: a tag pair looks like [Name "value"], not {quote(line)}')
            if turns or result_token:
                raise RecordError(f"line {line_number}: tag pairs come before the turns")
            tags[match[1]] = _unescape(match[2])
            continue
        if result_token is not None:
            raise RecordError(f"line {line_number}: nothing may follow the result token {result_token!r}")
        match = _ROUND.match(line)
        if match:
            # "1. a | b 2. c | d": further rounds may follow on the same line
            pieces = [match[1], *_NEXT_ROUND.split(match[2])]
            for digits, body in zip(pieces[::2], pieces[1::2]):
                if len(digits) > 9 or int(digits) != expected_round:
                    shown = digits if len(digits) <= 9 else digits[:9] + f"... ({len(digits)} digits)"
                    raise RecordError(f"line {line_number}: round {expected_round} was expected, not {shown}")
                items = [t.strip() for t in body.split("|")]
                if any(not t for t in items):
                    raise RecordError(f"line {line_number}: an empty turn between '|' separators")
                turns.extend(items)
                rounds.extend([expected_round] * len(items))
                expected_round += 1
            continue
        if _RESULT.match(line):
            result_token = line
            continue
        raise RecordError(
            f"line {line_number}: expected a round such as '2. a1-a2 G P:b2 | e5-d5 G C:d4' "
            f"or the result token, not {quote(line)}"
        )
    record = _from_tags(tags, turns, result_token)
    record.rounds = rounds
    return record


def _from_tags(tags: dict[str, str], turns: list[str], result_token: str | None) -> Record:
    if "Game" not in tags:
        raise RecordError(f'the record has no Game tag, such as [Game "logger"]; the games are: {", ".join(registry.names())}')
    try:
        registry.get_any(tags["Game"])
    except PbemError as error:
        raise RecordError(str(error)) from None
    players = []
    number = 1
    while f"Player{number}" in tags:
        players.append(tags[f"Player{number}"])
        number += 1
    if not players:
        raise RecordError('the record names no players: add [Player1 "..."], [Player2 "..."] and so on')
    result = tags.get("Result", result_token or "*")
    if result_token is not None and result_token != result:
        raise RecordError(f"the Result tag {result!r} and the result token {result_token!r} differ")
    if not _RESULT.match(result):
        raise RecordError(f"the result {result!r} is not '*', '=', a player number such as '1', or drawn players such as '1=2'")
    _check_result_players(result, len(players))
    extra = {k: v for k, v in tags.items() if k not in _KNOWN and not re.fullmatch(r"Player\d+", k)}
    return Record(
        game=tags["Game"].strip().lower(),
        players=players,
        turns=turns,
        options=_parse_options(tags.get("Options", "")),
        start=tags.get("Start"),
        date=tags.get("Date"),
        end_date=tags.get("EndDate"),
        result=result,
        tags=extra,
    )


def _check_result_players(result: str, players: int) -> None:
    """A result names players of the record (1 to 8), each once."""
    if result in ("*", "="):
        return
    numbers = [int(n) for n in result.split("=")]
    beyond = [n for n in numbers if n > players]
    if beyond:
        raise RecordError(f"the result {result!r} names player {beyond[0]}, but the record has {players} players; "
                          f"a result names players 1 to {players}, such as '1' or '1={players}'")
    if len(set(numbers)) != len(numbers):
        raise RecordError(f"the result {result!r} names a player twice; drawn players are each named once, such as '1=3'")


# -- JSON -------------------------------------------------------------------
def to_json_data(record: Record) -> dict[str, Any]:
    played = replay(record)
    rounds = []
    round_number, last = 1, None
    for text, mover in zip(played.texts, played.movers):
        if last is not None and mover <= last:
            round_number += 1
        rounds.append({"round": round_number, "player": mover + 1, "turn": text})
        last = mover
    return {
        "game": record.game,
        "options": record.kind.rules.normalize_options(record.options),
        "players": list(record.players),
        "date": record.date,
        "end_date": record.end_date,
        "start": record.kind.notation.format_position(played.states[0]) if record.start else None,
        "tags": dict(record.tags),
        "result": record.result,
        "turns": rounds,
        "final_position": record.kind.notation.format_position(played.final),
    }


def write_json(record: Record) -> str:
    return json.dumps(to_json_data(record), indent=2, ensure_ascii=False) + "\n"


def read_json(text: str) -> Record:
    try:
        data = json.loads(text)
    except (ValueError, TypeError) as error:
        raise RecordError(f"not valid JSON: {error}") from None
    if not isinstance(data, dict):
        raise RecordError("a JSON record is an object with game, players and turns")
    try:
        turns = [t["turn"] if isinstance(t, dict) else t for t in data.get("turns", [])]
        if not all(isinstance(t, str) for t in turns):
            raise TypeError
        rounds = [t.get("round") if isinstance(t, dict) else None for t in data.get("turns", [])]
        players = data.get("players")
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise RecordError("players must be a list of names")
        tags = {str(k): str(v) for k, v in (data.get("tags") or {}).items()}
        options = {str(k): str(v) for k, v in (data.get("options") or {}).items()}
    except (KeyError, TypeError, AttributeError):
        raise RecordError("turns must be a list of strings or of objects with a 'turn' string") from None
    for number, written in enumerate(rounds, start=1):
        if written is not None and (type(written) is not int or written < 1):
            raise RecordError(f"the round of turn {number} is a whole number from 1, such as 1; not {quote(written)}")
    game = data.get("game")
    if not isinstance(game, str):
        raise RecordError('the record has no game, such as "game": "logger"')
    try:
        registry.get_any(game)
    except PbemError as error:
        raise RecordError(str(error)) from None
    result = data.get("result") or "*"
    if not isinstance(result, str) or not _RESULT.match(result):
        raise RecordError(f"the result {result!r} is not '*', '=', or player numbers such as '1' or '1=2'")
    _check_result_players(result, len(players))
    return Record(
        game=game.strip().lower(),
        players=players,
        turns=turns,
        options=options,
        start=data.get("start") or None,
        date=data.get("date"),
        end_date=data.get("end_date"),
        result=result,
        tags=tags,
        rounds=rounds,
    )


def read(text: str) -> Record:
    """Read a record in any form: JSON if it starts with ``{``, an Ataxx PGN
    as the public Ataxx tools write it (``notation.ataxx_pgn``), else text."""
    if isinstance(text, str) and text.lstrip().startswith("{"):
        return read_json(text)
    if ataxx_pgn.looks_like(text):
        return ataxx_pgn.read_pgn(text)
    return read_text(text)
