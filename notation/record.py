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
from engine.i18n import _
from notation import registry
from notation.ataxx import pgn as ataxx_pgn
from notation.base import GameKind
from notation.quote import quote

# notation.replay's, and this module's too: the records' readers take them from here
from notation.replay import FORFEIT as FORFEIT
from notation.replay import HIDDEN as HIDDEN
from notation.replay import OUT as OUT
from notation.replay import BadTurn as BadTurn
from notation.replay import Outcome as Outcome
from notation.replay import Record as Record
from notation.replay import Replay as Replay
from notation.replay import initial_state as initial_state
from notation.replay import outs as outs
from notation.replay import replay as replay

_TAG = re.compile(r'^\[([A-Za-z][A-Za-z0-9_]*)\s+"((?:[^"\\]|\\.)*)"\]\s*$')
_ROUND = re.compile(r"^(\d+)\.\s*(.*)$")
#: a round number inside a line, which starts a further round
_NEXT_ROUND = re.compile(r"(?<!\S)(\d+)\.(?:\s+|$)")
_RESULT = re.compile(r"^(\*|=|[1-9](?:=[1-9])*)$")
_KNOWN = ("Game", "Options", "Date", "EndDate", "Start", "Result")
#: a chance outcome in the text: ``{draw kiwi}``, ``{attack 3 5 1}``
_OUTCOME = re.compile(r"\{\s*([^{}\s]+)((?:\s+[^{}\s]+)*)\s*\}")
_PURPOSE = re.compile(r"^[a-z][a-z0-9-]{0,19}$")

#: ``viewer`` of the record writers: the whole record, every outcome shown
EVERYONE = "everyone"


def _options_text(options: dict[str, str]) -> str:
    return " ".join(f"{k}={v}" for k, v in sorted(options.items()))


def _parse_options(text: str) -> dict[str, str]:
    options = {}
    for item in text.replace(",", " ").split():
        if "=" not in item:
            raise RecordError(_("the Options tag holds name=value pairs, such as spawn=seedling; not {item}", item=quote(item)))
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
        raise RecordError(_("the Result tag says {result} but the game ended {actual}", result=repr(record.result),
                            actual=repr(actual)))
    if actual == "*" and record.result not in ("*",) and not record.tags.get("Termination"):
        raise RecordError(_(
            "the Result tag says {result} but the position after the last turn is not a finished game; a game "
            "ended by resignation, agreement or time names it in a Termination tag", result=repr(record.result)))
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
        raise RecordError(_("the record has no Start tag holding the dealt position"))
    try:
        chance.check_commitment(seed, hashed)
        dealt = kind.rules.seeded_state(len(record.players), record.options, seed)
        written = kind.notation.parse_position(record.start, record.options)
    except PbemError as error:
        raise RecordError(_("cannot verify the seed: {error}", error=error)) from None
    expected = kind.notation.format_position(dealt)
    if dealt != written:
        raise RecordError(_("the seed does not deal the recorded start: it deals {dealt}, the record starts from "
                            "{start}", dealt=quote(expected, 200), start=quote(record.start, 200)))
    for ply, happened in enumerate(replay(record).events):
        for k, (event, values) in enumerate(happened):
            decided = chance.decide(seed, event, ply, k)
            if decided != values:
                where = _("before the first turn") if ply == 0 else _("after turn {ply}", ply=ply)
                raise RecordError(_(
                    "the seed does not give the recorded outcome {recorded} {where} (chance event {k} there): "
                    "it gives {decided}", recorded=_outcomes_text([Outcome(event.purpose, tuple(values))]),
                    where=where, k=k + 1, decided=_outcomes_text([Outcome(event.purpose, tuple(decided))])))


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


# -- what a reader sees -----------------------------------------------------
def _seen(record: Record, played: Replay, viewer: int | None | str) -> tuple[Any, Any, list[list[Outcome]]]:
    """The start and final states and the outcomes after each turn as
    ``viewer`` sees them: ``EVERYONE`` the whole record; a 0-based player,
    or None for a spectator, the game's ``view`` of the positions and ``?``
    for the outcomes they did not see (``ChanceEvent.seen_by``)."""
    rules = record.kind.rules
    if viewer == EVERYONE:
        outcomes = [[Outcome(event.purpose, values) for event, values in happened] for happened in played.events]
        return played.origin, played.final, outcomes
    player = _player(viewer)
    outcomes = [[Outcome(event.purpose, values if event.visible_to(player) else (HIDDEN,) * len(values))
                 for event, values in happened]
                for happened in played.events]
    return rules.view(played.origin, player), rules.view(played.final, player), outcomes


def _player(viewer: int | None | str) -> int | None:
    """The 0-based player (None: a spectator) a ``viewer`` other than ``EVERYONE`` is."""
    if isinstance(viewer, str):
        raise ValueError(f"a viewer is a 0-based player, None or {EVERYONE!r}; not {viewer!r}")
    return viewer


def _outcomes_text(outcomes: list[Outcome]) -> str:
    return " ".join(f"{{{o.purpose} {' '.join(o.values)}}}" for o in outcomes)


def _with_outcomes(text: str, outcomes: list[Outcome]) -> str:
    return f"{text} {_outcomes_text(outcomes)}" if outcomes else text


def _read_outcomes(text: str, line_number: int) -> list[Outcome]:
    """The ``{purpose value ...}`` groups of ``text`` (nothing else)."""
    found: list[Outcome] = []

    def take(m: re.Match[str]) -> str:
        found.append(Outcome(m[1], tuple(m[2].split())))
        return ""

    rest = _OUTCOME.sub(take, text)
    if rest.strip():
        raise RecordError(_("line {line}: chance outcomes are written {form}, such as {example} or {other}; "
                            "not {text}", line=line_number, form="{purpose value ...}", example="{draw kiwi}",
                            other="{attack 3 5}", text=quote(text.strip())))
    for outcome in found:
        if not _PURPOSE.match(outcome.purpose) or not outcome.values:
            raise RecordError(_("line {line}: a chance outcome names its purpose (a lowercase word) and what "
                                "it gave, such as {example}; not {text}", line=line_number, example="{draw kiwi}",
                                text=quote(_outcomes_text([outcome]))))
    return found


def _turn_and_outcomes(item: str) -> tuple[str, str]:
    """``item`` cut into a turn and the ``{...}`` groups that end it (the
    chance outcomes after the turn), scanning back from the end once: time
    linear in the length (a regular expression took quadratic time on a
    hostile line of many groups)."""
    end = len(item.rstrip())
    cut = end
    while end > 0 and item[end - 1] == "}":
        start = item.rfind("{", 0, end - 1)
        if start < 0 or item.find("}", start + 1, end - 1) >= 0:
            break
        cut = end = start
        while end > 0 and item[end - 1].isspace():
            end -= 1
    return item[:cut], item[cut:]


def _trim(chance_lists: list[list[Outcome]]) -> list[list[Outcome]]:
    while chance_lists and not chance_lists[-1]:
        chance_lists.pop()
    return chance_lists


# -- text -------------------------------------------------------------------
def _turn_seen(record: Record, text: str, mover: int, viewer: int | None | str) -> str:
    """A turn's text as ``viewer`` reads it: in full for ``EVERYONE``,
    else without other seats' secret settings (``Notation.private_turn_text``)."""
    if viewer == EVERYONE:
        return text
    return record.kind.notation.private_turn_text(text, mover, _player(viewer))


def _rounds(record: Record, played: Replay, outcomes: list[list[Outcome]],
            viewer: int | None | str = EVERYONE) -> list[list[str]]:
    rounds: list[list[str]] = []
    last = None
    for number, (text, mover) in enumerate(zip(played.texts, played.movers), start=1):
        if not rounds or (last is not None and mover <= last):
            rounds.append([])
        rounds[-1].append(_with_outcomes(_turn_seen(record, text, mover, viewer),
                                         outcomes[number] if number < len(outcomes) else []))
        last = mover
    return rounds


def write_text(record: Record, viewer: int | None | str = EVERYONE) -> str:
    """The record as text, its turns in canonical notation; as ``viewer``
    (a 0-based player, None for a spectator) sees it while the game goes on,
    or in full (``EVERYONE``)."""
    played = replay(record)
    start, _final, outcomes = _seen(record, played, viewer)
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
        lines.append(f'[Start "{_escape(record.kind.notation.format_position(start))}"]')
    for name, value in record.tags.items():
        lines.append(f'[{name} "{_escape(value)}"]')
    lines.append(f'[Result "{_escape(record.result)}"]')
    lines.append("")
    if outcomes and outcomes[0]:
        lines.append(f"0. {_outcomes_text(outcomes[0])}")
    for number, turns in enumerate(_rounds(record, played, outcomes, viewer), start=1):
        lines.append(f"{number}. " + " | ".join(turns))
    lines.append(record.result)
    return "\n".join(lines) + "\n"


def read_text(text: str) -> Record:
    """Read a text record; raise ``RecordError`` naming the bad line."""
    if not isinstance(text, str):
        raise RecordError(_("a record is text"))
    tags: dict[str, str] = {}
    turns: list[str] = []
    rounds: list[int | None] = []
    chance_lists: list[list[Outcome]] = [[]]
    result_token = None
    expected_round = 1
    for line_number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith(";"):
            continue
        if line.startswith("["):
            match = _TAG.match(line)
            if not match:
                raise RecordError(_('line {line}: a tag pair looks like [Name "value"], not {text}', line=line_number,
                                    text=quote(line)))
            if turns or result_token:
                raise RecordError(_("line {line}: tag pairs come before the turns", line=line_number))
            tags[match[1]] = _unescape(match[2])
            continue
        if result_token is not None:
            raise RecordError(_("line {line}: nothing may follow the result token {token}", line=line_number,
                                token=repr(result_token)))
        match = _ROUND.match(line)
        if match and match[1] == "0" and not turns and not chance_lists[0]:
            chance_lists[0] = _read_outcomes(match[2], line_number)  # "0. {draw ...}": before the first turn
            continue
        if match:
            # "1. a | b 2. c | d": further rounds may follow on the same line
            pieces = [match[1], *_NEXT_ROUND.split(match[2])]
            for digits, body in zip(pieces[::2], pieces[1::2]):
                if len(digits) > 9 or int(digits) != expected_round:
                    shown = digits if len(digits) <= 9 else digits[:9] + f"... ({len(digits)} digits)"
                    raise RecordError(_("line {line}: round {expected} was expected, not {shown}", line=line_number,
                                        expected=expected_round, shown=shown))
                items = [t.strip() for t in body.split("|")]
                if any(not t for t in items):
                    raise RecordError(_("line {line}: an empty turn between '|' separators", line=line_number))
                for item in items:
                    turn, after = _turn_and_outcomes(item)
                    if not turn.strip():
                        raise RecordError(_("line {line}: a chance outcome {item} comes after a turn, such as "
                                            "{example}", line=line_number, item=quote(item),
                                            example="'play ant {draw kiwi}'"))
                    turns.append(turn.strip())
                    chance_lists.append(_read_outcomes(after, line_number))
                rounds.extend([expected_round] * len(items))
                expected_round += 1
            continue
        if _RESULT.match(line):
            result_token = line
            continue
        raise RecordError(_("line {line}: expected a round such as '2. a1-a2 G P:b2 | e5-d5 G C:d4' or the result "
                            "token, not {text}", line=line_number, text=quote(line)))
    record = _from_tags(tags, turns, result_token)
    record.rounds = rounds
    record.chance = _trim(chance_lists)
    return record


def _from_tags(tags: dict[str, str], turns: list[str], result_token: str | None) -> Record:
    if "Game" not in tags:
        raise RecordError(_('the record has no Game tag, such as [Game "logger"]; the games are: {games}',
                            games=", ".join(registry.names())))
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
        raise RecordError(_('the record names no players: add [Player1 "..."], [Player2 "..."] and so on'))
    result = tags.get("Result", result_token or "*")
    if result_token is not None and result_token != result:
        raise RecordError(_("the Result tag {result} and the result token {token} differ", result=repr(result),
                            token=repr(result_token)))
    if not _RESULT.match(result):
        raise RecordError(_("the result {result} is not '*', '=', a player number such as '1', or drawn players such "
                            "as '1=2'", result=repr(result)))
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
        raise RecordError(_("the result {result} names player {player}, but the record has {players} players; a "
                            "result names players 1 to {players}, such as '1' or '1={players}'", result=repr(result),
                            player=beyond[0], players=players))
    if len(set(numbers)) != len(numbers):
        raise RecordError(_("the result {result} names a player twice; drawn players are each named once, such as "
                            "'1=3'", result=repr(result)))


# -- JSON -------------------------------------------------------------------
def _outcomes_data(outcomes: list[Outcome]) -> list[dict[str, Any]]:
    return [{"purpose": o.purpose, "values": list(o.values)} for o in outcomes]


def to_json_data(record: Record, viewer: int | None | str = EVERYONE) -> dict[str, Any]:
    """The record as JSON data; ``viewer`` as for ``write_text``."""
    played = replay(record)
    start, final, outcomes = _seen(record, played, viewer)
    rounds = []
    round_number, last = 1, None
    for number, (text, mover) in enumerate(zip(played.texts, played.movers), start=1):
        if last is not None and mover <= last:
            round_number += 1
        item: dict[str, Any] = {"round": round_number, "player": mover + 1,
                                "turn": _turn_seen(record, text, mover, viewer)}
        if number < len(outcomes) and outcomes[number]:
            item["chance"] = _outcomes_data(outcomes[number])
        rounds.append(item)
        last = mover
    data = {
        "game": record.game,
        "options": record.kind.rules.normalize_options(record.options),
        "players": list(record.players),
        "date": record.date,
        "end_date": record.end_date,
        "start": record.kind.notation.format_position(start) if record.start else None,
        "tags": dict(record.tags),
        "result": record.result,
        "turns": rounds,
        "final_position": record.kind.notation.format_position(final),
    }
    if outcomes and outcomes[0]:
        data["start_chance"] = _outcomes_data(outcomes[0])
    return data


def _outcomes_from(data: Any, where: str) -> list[Outcome]:
    if data is None:
        return []
    try:
        if not isinstance(data, list) or not all(isinstance(o, dict) and isinstance(o["values"], list)
                                                 and isinstance(o["purpose"], str) for o in data) \
                or any(type(v) not in (str, int) for o in data for v in o["values"]):
            raise TypeError("not a list of outcomes")  # a string's letters are no list of values
        found = [Outcome(o["purpose"], tuple(str(v) for v in o["values"])) for o in data]
    except (KeyError, TypeError, AttributeError):
        raise RecordError(_("the chance outcomes {where} are a list of objects such as {example}", where=where,
                            example='{"purpose": "draw", "values": ["kiwi"]}')) from None
    for outcome in found:
        if not _PURPOSE.match(outcome.purpose) or not outcome.values \
                or any(not v or re.search(r"[\s{}|]", v) for v in outcome.values):
            raise RecordError(_("the chance outcome {text} {where} names its purpose (a lowercase word) and what "
                                "it gave, such as {example}", text=quote(_outcomes_text([outcome])), where=where,
                                example="{draw kiwi}"))
    return found


def write_json(record: Record, viewer: int | None | str = EVERYONE) -> str:
    """The record as JSON text; ``viewer`` as for ``write_text``."""
    return json.dumps(to_json_data(record, viewer), indent=2, ensure_ascii=False) + "\n"


def read_json(text: str) -> Record:
    try:
        data = json.loads(text)
    except (ValueError, TypeError) as error:
        raise RecordError(_("not valid JSON: {error}", error=error)) from None
    if not isinstance(data, dict):
        raise RecordError(_("a JSON record is an object with game, players and turns"))
    try:
        turns = [t["turn"] if isinstance(t, dict) else t for t in data.get("turns", [])]
        if not all(isinstance(t, str) for t in turns):
            raise TypeError
        rounds = [t.get("round") if isinstance(t, dict) else None for t in data.get("turns", [])]
        players = data.get("players")
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise RecordError(_("players must be a list of names"))
        tags = {str(k): str(v) for k, v in (data.get("tags") or {}).items()}
        options = {str(k): str(v) for k, v in (data.get("options") or {}).items()}
    except (KeyError, TypeError, AttributeError):
        raise RecordError(_("turns must be a list of strings or of objects with a 'turn' string")) from None
    chance_lists = [_outcomes_from(data.get("start_chance"), str(_("before the first turn")))]
    for number, item in enumerate(data.get("turns", []), start=1):
        chance_lists.append(_outcomes_from(item.get("chance") if isinstance(item, dict) else None,
                                           str(_("after turn {ply}", ply=number))))
    for number, written in enumerate(rounds, start=1):
        if written is not None and (type(written) is not int or written < 1):
            raise RecordError(_("the round of turn {number} is a whole number from 1, such as 1; not {written}",
                                number=number, written=quote(written)))
    game = data.get("game")
    if not isinstance(game, str):
        raise RecordError(_('the record has no game, such as "game": "logger"'))
    try:
        registry.get_any(game)
    except PbemError as error:
        raise RecordError(str(error)) from None
    result = data.get("result") or "*"
    if not isinstance(result, str) or not _RESULT.match(result):
        raise RecordError(_("the result {result} is not '*', '=', or player numbers such as '1' or '1=2'",
                            result=repr(result)))
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
        chance=_trim(chance_lists),
    )


def read(text: str) -> Record:
    """Read a record in any form: JSON if it starts with ``{``, an Ataxx PGN
    as the public Ataxx tools write it (``notation.ataxx.pgn``), else text."""
    if isinstance(text, str) and text.lstrip().startswith("{"):
        return read_json(text)
    if ataxx_pgn.looks_like(text):
        return ataxx_pgn.read_pgn(text)
    return read_text(text)
