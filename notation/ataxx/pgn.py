"""Ataxx games in PGN as the public Ataxx tools write them (python-ataxx,
libataxx and the UAI tournament managers)::

    [Event "?"]
    [Black "Alice"]
    [White "Bob"]
    [Result "1-0"]
    [FEN "x5o/7/7/7/7/7/o5x x 0 1"]

    1. g2 a2 2. a7c5 0000 1-0

The movetext is written on one line, as those tools write it (and as
python-ataxx needs to read it back).  ``x`` moves first and is Black (player 1); ``o`` is White (player 2).  A
``FEN`` tag gives the start position.  Comments ``{...}``, ``;`` lines,
variations ``(...)``, NAGs ``$1`` and ``!``/``?`` marks are read and ignored.
"""

from __future__ import annotations

import re

from engine.errors import PbemError, RecordError
from engine.i18n import _
from notation.quote import quote
from notation.replay import Record, replay

_TAG = re.compile(r'^\[([A-Za-z][A-Za-z0-9_]*)\s+"((?:[^"\\]|\\.)*)"\]\s*$')
_RESULTS = {"1-0": "1", "0-1": "2", "1/2-1/2": "1=2", "*": "*"}
_TAGS_OUT = {v: k for k, v in _RESULTS.items()}
_MOVE_NUMBER = re.compile(r"^\d+\.+")
_FIRST_TAGS = ("Event", "Site", "Date", "Round", "White", "Black", "Result")
_DERIVED = ("FEN", "SetUp", "White", "Black", "Result", "Date", "Game")


def looks_like(text: str) -> bool:
    """True for a PGN with Ataxx tags and no ``Game`` tag of our own format."""
    if not isinstance(text, str):
        return False
    names = {m[1] for m in (_TAG.match(line.strip()) for line in text.splitlines()) if m}
    if "Game" in names:
        return False
    return bool(names & {"FEN", "White", "Black", "Event"})


def _tokens(movetext: str) -> list[tuple[str | None, str]]:
    """The moves of the movetext, each with the move number written
    before it (``"12"`` for ``12.`` or ``12...``; None when there is none)."""
    text = re.sub(r";[^\n]*", " ", movetext)
    text = re.sub(r"\{[^}]*\}", " ", text)
    while True:  # drop variations, innermost first
        stripped = re.sub(r"\([^()]*\)", " ", text)
        if stripped == text:
            break
        text = stripped
    if any(c in text for c in "{}()"):
        raise RecordError(_("unbalanced braces or parentheses in the movetext"))
    tokens: list[tuple[str | None, str]] = []
    number = None
    for word in text.split():
        written = _MOVE_NUMBER.match(word)
        if written:
            number = written[0].rstrip(".")
            word = word[written.end():]
        word = re.sub(r"[!?]+$", "", word)
        if word and not word.startswith("$"):
            tokens.append((number, word))
            number = None
    return tokens


def _check_numbers(tokens: list[tuple[str | None, str]], fen: str | None) -> None:
    """Refuse a move number that is not the game's: ``N.`` or ``N...``
    before a move is the full-move number of the position it is played
    from (the FEN's last field, 1 by default, one more after each o move)."""
    from notation import registry  # imported here: the registry imports the games

    state = None
    if fen is not None:
        try:
            state = registry.get("ataxx").notation.parse_position(fen)
        except PbemError:
            return  # replaying names the bad FEN
    move, side = (state.fullmove, state.turn) if state is not None else (1, 0)
    for index, (written, text) in enumerate(tokens, start=1):
        if written is not None and (len(written) > 9 or int(written) != move):
            shown = written if len(written) <= 9 else written[:9] + f"... ({len(written)} digits)"
            raise RecordError(_(
                "turn {index} {text} is numbered {shown}, but it is move {move} ({side} to move; the number counts "
                "full moves, one more after each o move, from the FEN's move number or 1): write {number} before it",
                index=index, text=quote(text), shown=shown, move=move, side="x" if side == 0 else "o",
                number=f"{move}{'.' if side == 0 else '...'}"))
        if side == 1:
            move += 1
        side ^= 1


def read_pgn(text: str) -> Record:
    """Read one Ataxx PGN game; raise ``RecordError`` naming what is wrong."""
    if not isinstance(text, str):
        raise RecordError(_("a record is text"))
    tags: dict[str, str] = {}
    body: list[str] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if line.startswith("[") and not body:
            match = _TAG.match(line)
            if not match:
                raise RecordError(_('line {line}: a tag pair looks like [Name "value"], not {text}', line=number,
                                    text=quote(line)))
            tags[match[1]] = re.sub(r"\\(.)", r"\1", match[2])
        elif line or body:
            body.append(raw)
    tokens = _tokens("\n".join(body))
    moves = [move for _number, move in tokens]
    result = None
    if moves and moves[-1] in _RESULTS:
        result = moves.pop()
    stray = [m for m in moves if m in _RESULTS]
    if stray:
        raise RecordError(_("the result {result} may only end the movetext", result=quote(stray[0])))
    tag_result = tags.get("Result", result or "*")
    if tag_result not in _RESULTS:
        raise RecordError(_("the Result tag {result} is not 1-0, 0-1, 1/2-1/2 or *", result=quote(tag_result)))
    if result is not None and result != tag_result:
        raise RecordError(_("the Result tag {result} and the result {token} ending the movetext differ",
                            result=quote(tag_result), token=quote(result)))
    _check_numbers(tokens[: len(moves)], tags.get("FEN"))
    extra = {k: v for k, v in tags.items() if k not in _DERIVED}
    if "Adjudicated" in tags and "Termination" not in extra:
        extra["Termination"] = "adjudication: " + tags["Adjudicated"]
    return Record(
        game="ataxx",
        players=[tags.get("Black", "?"), tags.get("White", "?")],
        turns=moves,
        start=tags.get("FEN"),
        date=tags.get("Date"),
        result=_RESULTS[tag_result],
        tags=extra,
    )


def write_pgn(record: Record) -> str:
    """The record as an Ataxx PGN, its moves in canonical notation."""
    if record.game != "ataxx":
        raise RecordError(_("only Ataxx records can be written as Ataxx PGN, not {game}", game=repr(record.game)))
    played = replay(record)
    tags = {"Event": "?", "Site": "?", "Date": record.date or "????.??.??", "Round": "-"}
    tags.update(record.tags)
    tags.update(White=record.players[1], Black=record.players[0], Result=_TAGS_OUT.get(record.result, "*"))
    ordered = {k: tags[k] for k in _FIRST_TAGS}
    ordered.update((k, v) for k, v in tags.items() if k not in ordered)
    if record.start:
        ordered["FEN"] = record.kind.notation.format_position(played.states[0])
        ordered["SetUp"] = "1"
    lines = [f'[{k} "{_escape(v)}"]' for k, v in ordered.items()]
    words = []
    first = played.states[0]
    number = first.fullmove
    for index, (text, state) in enumerate(zip(played.texts, played.states)):
        if state.turn == 0:
            words.append(f"{number}.")
        elif index == 0:
            words.append(f"{number}...")
        words.append(text)
        number += state.turn
    words.append(ordered["Result"])
    return "\n".join(lines) + "\n\n" + " ".join(words) + "\n"


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ")

