"""Play by clicking, for every game: what each click on the board means.

A turn is clicked as a sequence of *clicks*.  A click is a short string:

- a square of the diagram's grid, named as ``Diagram.square_name`` names it
  ("a1", "c3"): the player clicks that square of the board;
- a *region* of a zone, named by its item's label as the diagram draws it
  (a stack "#3", see ``notation.drawing.regions``): the player clicks that item;
- any other word ("G", "P:", "+", "0000"): offered as a button beside the
  board, labelled with the word itself.

``Notation.turn_clicks(state, turn)`` gives the clicks of one legal turn; its
default (``clicks_from_text``) reads them from the turn's canonical text: the
square names in it, in order, and the words between them (punctuation that
only joins two squares, such as the "-" of "a1-a3", is dropped).  A game
overrides it when a click should mean something else (Martian Greenhouse:
the two parents, then each chromosome of the children).

``click_options(notation, state, prefix)`` is the step-by-step question the
server answers (``Notation.click_options`` calls it unless a game answers
faster): given the clicks made so far, which clicks may come next and which
turns are complete.  When a complete click sequence fits several turns, the
player chooses among their texts.  ``clicked_turns`` lists every turn with
its clicks when there are few enough to send the browser at once.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Iterable, Iterator, Sequence

#: a square name: a letter and a rank number, not inside a longer word
_SQUARE = re.compile(r"(?<![A-Za-z])([a-z])([1-9][0-9]?)(?![0-9])")
#: separators that only join two squares ("a1-a3", "c4,d5", "c3>c4", "d4=b2")
_JOINERS = re.compile(r"[\s\-,>=/:;x]*")

#: how many candidate turns the generic scan looks at before it gives up
#: listing them (it still answers with what it found)
SCAN_LIMIT = 20_000


def clicks_from_text(text: str, files: int, ranks: int) -> tuple[str, ...]:
    """The clicks of a turn written ``text`` on a board of ``files`` x
    ``ranks`` squares: each square named in it (in order) and each word
    between them that is more than punctuation joining two squares; a turn
    that names no square is clicked word by word (so the turns group by
    their first word, and a word that labels a zone item is clicked on the
    board)."""
    clicks: list[str] = []
    last = 0
    found = [m for m in _SQUARE.finditer(text)
             if ord(m.group(1)) - ord("a") < files and 0 < int(m.group(2)) <= ranks]
    for index, match in enumerate(found):
        between = text[last:match.start()].strip()
        if between and not (index > 0 and _JOINERS.fullmatch(between)):
            clicks.append(between)
        clicks.append(match.group(0))
        last = match.end()
    tail = text[last:].strip()
    if not found:  # no square: word by word, so the turns group by their first word
        return tuple(text.split()) or (text,)
    if tail:
        clicks.append(tail)
    return tuple(clicks)


@dataclass(frozen=True)
class ClickOptions:
    """The answer to "I clicked ``prefix``; what now?".

    ``next``: the clicks that may come next, each once, in the rules' order;
    ``complete``: the canonical texts of the turns whose clicks are exactly
    ``prefix`` (more than one: the player chooses); ``text``: what the turn
    box shows so far (the longest start shared by every turn still
    possible); ``count``: how many turns are still possible (a lower bound
    when ``cut``); ``cut``: the scan stopped before the end."""

    next: tuple[str, ...] = ()
    complete: tuple[str, ...] = ()
    text: str = ""
    count: int = 0
    cut: bool = False

    def as_dict(self) -> dict[str, Any]:
        return {"next": list(self.next), "complete": list(self.complete), "text": self.text,
                "count": self.count, "cut": self.cut}


def common_start(texts: Iterable[str]) -> str:
    """The longest start every text shares (cut back to a whole word or
    square, so the turn box never shows half a name)."""
    texts = list(texts)
    if not texts:
        return ""
    low, high = min(texts), max(texts)  # what they share, all the others share too
    n = 0
    while n < len(low) and n < len(high) and low[n] == high[n]:
        n += 1
    start = low[:n]
    if len(texts) == 1 or all(len(t) == n for t in texts):
        return start
    # a shared start that stops inside a word or a number is cut back to it
    while start and all(len(t) > len(start) for t in texts) and start[-1].isalnum() \
            and any(t[len(start)].isalnum() for t in texts):
        start = start[:-1]
    return start


def lazy_turns(notation: Any, state: Any) -> Iterator[Any]:
    """The legal turns, lazily when the rules have ``iter_turns``."""
    lazy = getattr(notation.game, "iter_turns", None)
    return lazy(state) if callable(lazy) else iter(notation.game.legal_turns(state))


def click_options(notation: Any, state: Any, prefix: Sequence[str], limit: int = SCAN_LIMIT) -> ClickOptions:
    """The generic answer: scan the legal turns (at most ``limit``), keep
    those whose clicks start with ``prefix``."""
    prefix = tuple(prefix)
    nexts: dict[str, None] = {}
    complete: list[str] = []
    texts: list[str] = []
    cut = False
    for seen, turn in enumerate(lazy_turns(notation, state)):
        if seen == limit:
            cut = True
            break
        clicks = tuple(notation.turn_clicks(state, turn))
        if clicks[:len(prefix)] != prefix:
            continue
        text = notation.format_turn(state, turn)
        texts.append(text)
        if len(clicks) == len(prefix):
            complete.append(text)
        else:
            nexts.setdefault(clicks[len(prefix)])
    return ClickOptions(tuple(nexts), tuple(complete), common_start(texts), len(texts), cut)


def clicked_turns(notation: Any, state: Any, limit: int) -> list[tuple[str, tuple[str, ...]]] | None:
    """Every legal turn's text and clicks, or None when there are more than
    ``limit`` (the browser then asks ``click_options`` click by click)."""
    found: list[tuple[str, tuple[str, ...]]] = []
    for turn in lazy_turns(notation, state):
        if len(found) == limit:
            return None
        found.append((notation.format_turn(state, turn), tuple(notation.turn_clicks(state, turn))))
    return found
