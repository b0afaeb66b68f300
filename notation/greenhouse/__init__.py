"""Martian Greenhouse turn notation, position strings and diagrams, as
defined in ``notation/greenhouse/guide.md``.

Turns: ``#3 x #7 -> 1P 1B 2P 2B 3P 3R / 2B 2C 1C 1R 3R 1B`` (a breeding:
parents, then the two children, each listed top down) or ``give up``.
Positions: ``<flowers> <orders> <siblings> <next number> <breedings> <status>``.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from typing import Any, Mapping, Sequence

from engine.errors import GameOverError, MalformedTurnError, PbemError, PositionError, TurnError
from engine.greenhouse import Breed, Flower, GiveUp, GreenhouseGame, GreenhouseState
from engine.greenhouse.delivery import deliver
from engine.greenhouse.flowers import COLOURS, GENES, Genes, is_chromosome, split_genes, stash_pyramids
from engine.greenhouse.rules import DEFAULT_ORDERS, DEFAULT_STASHES, read_orders
from engine.i18n import N_, Text, _
from notation.base import Diagram, GameKind, Notation, Piece, Stack, Zone
from notation.clicks import ClickOptions
from notation.greenhouse import clicks as greenhouse_clicks
from notation.quote import quote

_HELP = _("a Martian Greenhouse turn names two flowers and the two children they give, each child "
         "six chromosomes from the top down, such as '#3 x #7 -> 1P 1B 2P 2B 3P 3R / 2B 2C 1C 1R 3R 1B'; "
         "or 'give up'")
_BREED = re.compile(r"^#?\s*(\d+)\s*[x*×]\s*#?\s*(\d+)\s*(?:->|=>|>|:)\s*(.*?)\s*[/|;]\s*(.*?)$",
                    re.IGNORECASE | re.DOTALL)
_GIVE_UP = re.compile(r"^(give\s*up|gave\s*up|giveup|resign|resigns|i\s+give\s+up)[.!]?$", re.IGNORECASE)
_GENE = re.compile(r"([123])\s*([A-Za-z])")
_NUMBER = re.compile(r"^[0-9]{1,9}$")
#: a number of ten digits or more, which no flower, sibling, next number or count in a position has
_LONG_NUMBER = re.compile(r"[0-9]{10,}")
_LOOKALIKES = str.maketrans({"\u2192": ">", "\u27f6": ">", "\u2013": "-", "\u2014": "-", "\u2212": "-"})
#: colour letter -> the renderers' player colour closest to it (red, blue,
#: green, gold, purple, orange); others fall back to neutral grey
_NEAREST_PLAYER = {"R": 0, "B": 1, "C": 1, "G": 2, "Y": 3, "P": 4, "O": 5}
#: colour letter -> a CSS colour for renderers that read ``Piece.colour``
CSS = {"R": "#c62828", "Y": "#f2c200", "G": "#2e7d32", "B": "#1f4fbf", "K": "#212121",
       "P": "#6a1b9a", "C": "#00acc1", "O": "#ef6c00", "W": "#fafafa", "X": "#d0e8f0"}


def _malformed(text: str, why: str | Text) -> MalformedTurnError:
    return MalformedTurnError(_('cannot read {text}: {why}; {help}', text=quote(text), why=why, help=_HELP))


def read_child(text: str, which: str, whole: str) -> Genes:
    """Six chromosomes such as ``1P 1B 2P, 2B 3P 3R`` (spaces and commas
    optional, any case)."""
    cleaned = text.replace(",", " ").strip()
    genes = tuple(f"{m[1]}{m[2].upper()}" for m in _GENE.finditer(cleaned))
    leftover = _GENE.sub(" ", cleaned).strip()
    if leftover:
        raise _malformed(whole, f"the {which} child has {quote(leftover.split()[0])}, which is not a chromosome "
                                "(a size 1-3 then a colour letter, such as 2B)")
    bad = [g for g in genes if not is_chromosome(g)]
    if bad:
        raise _malformed(whole, f"{bad[0]} names no colour; the colour letters are {''.join(COLOURS)}")
    if len(genes) != GENES:
        raise _malformed(whole, f"the {which} child has {len(genes)} chromosomes; a flower has six")
    return genes


def _shortened(digits: str) -> str:
    """A long number as a refusal shows it: its first twelve digits, then '...'."""
    return digits if len(digits) <= 12 else digits[:12] + "..."


def genes_words(genes: Genes) -> str:
    return " ".join(genes)


#: the stashes' colours, as the options name them, in words (shown translated)
_COLOUR_WORDS = {"R": N_("red"), "Y": N_("yellow"), "G": N_("green"), "B": N_("blue"), "K": N_("black"),
                 "P": N_("purple"), "C": N_("cyan"), "O": N_("orange"), "W": N_("white"), "X": N_("clear")}


class GreenhouseNotation(Notation[GreenhouseState, Any]):
    game = GreenhouseGame()
    turn_examples = ("#3 x #7 -> 1P 1B 2P 2B 3P 3R / 2B 2C 1C 1R 3R 1B", "give up")

    def option_words(self, options: Mapping[str, Any]) -> list[str]:
        stashes = str(options.get("stashes", DEFAULT_STASHES)).upper()
        orders = str(options.get("orders", DEFAULT_ORDERS))
        colours = ", ".join(str(_(_COLOUR_WORDS[c])) if c in _COLOUR_WORDS else c for c in stashes)
        words = [str(_("stashes of {colours}", colours=colours))]
        if orders.isdigit():
            words.append(str(_("one order drawn from the seed") if orders == "1"
                             else _("{n} orders drawn from the seed", n=orders)))
        else:
            words.append(str(_("the orders {orders}", orders=orders)))
        return words

    # -- turns -----------------------------------------------------------
    def read_turn(self, text: str) -> Breed | GiveUp:
        """Parse the syntax only; raise ``MalformedTurnError``."""
        if not isinstance(text, str):
            raise MalformedTurnError(_('a turn is text, not {name}', name=type(text).__name__))
        cleaned = " ".join(unicodedata.normalize("NFKC", text).translate(_LOOKALIKES).split())
        if not cleaned:
            raise MalformedTurnError(_('the turn is empty; {help}', help=_HELP))
        if _GIVE_UP.match(cleaned):
            return GiveUp()
        match = _BREED.match(cleaned)
        if not match:
            raise _malformed(text, "it is not a breeding such as '#3 x #7 -> (first child) / (second child)'")
        long = next((n for n in (match[1], match[2]) if len(n) > 9), None)
        if long is not None:
            raise _malformed(text, _("a flower's number has at most nine digits; {number} has {digits} digits",
                                     number=_shortened(long), digits=len(long)))
        a, b = int(match[1]), int(match[2])
        first = read_child(match[3], "first", text)
        second = read_child(match[4], "second", text)
        return Breed(a, b, first, second)

    def parse_turn(self, state: GreenhouseState, text: str) -> Breed | GiveUp:
        result = self.game.result(state)  # None until the game is over
        if result is not None:
            raise GameOverError(_('the game is over ({reason}); no turn can be played', reason=result.reason))
        try:
            turn = self.read_turn(text)
            if isinstance(turn, Breed) and turn.a > turn.b:
                turn = Breed(turn.b, turn.a, turn.first, turn.second)
            self.game.apply(state, turn)
        except TurnError as error:
            if isinstance(error, MalformedTurnError):
                raise
            written = text.strip() if isinstance(text, str) else text
            raise type(error)(f"{quote(written)}: {error}") from None
        return turn

    def turn_clicks(self, state: GreenhouseState, turn: Breed | GiveUp) -> tuple[str, ...]:
        """The parents' stacks, then each chromosome of the children (or
        the "give up" button): ``notation.greenhouse.clicks``."""
        return greenhouse_clicks.turn_clicks(turn)

    def click_options(self, state: GreenhouseState, prefix: Sequence[str]) -> ClickOptions:
        return greenhouse_clicks.click_options(state, prefix)

    def format_turn(self, state: GreenhouseState, turn: Breed | GiveUp) -> str:
        if isinstance(turn, GiveUp):
            return "give up"
        return f"#{turn.a} x #{turn.b} -> {genes_words(turn.first)} / {genes_words(turn.second)}"

    # -- positions -------------------------------------------------------
    def format_position(self, state: GreenhouseState) -> str:
        flowers = "/".join(f"{f.number}:{''.join(f.genes)}" for f in state.flowers) or "-"
        orders = "/".join("".join(o) + (f"={n}" if n else "") for o, n in zip(state.orders, state.filled))
        siblings = ",".join(f"{a}-{b}" for a, b in state.siblings) or "-"
        status = "gave-up" if state.given_up else "-"
        return f"{flowers} {orders} {siblings} {state.next_number} {state.breedings} {status}"

    def parse_position(self, text: str, options: Mapping[str, Any] | None = None) -> GreenhouseState:
        opts = self.game.normalize_options(options)
        example = "1:2B3R1B1B2P3R/2:2C1P1C1R2B3P 1P1P2P2P3P3P - 3 0 -"
        if not isinstance(text, str):
            raise PositionError(_('a position is text'))
        long = _LONG_NUMBER.search(text)
        if long:
            raise PositionError(_("the numbers of a position (flowers, filled orders, siblings, the next number, the "
                                  "breedings) have at most nine digits; {number} has {digits} digits",
                                  number=_shortened(long[0]), digits=len(long[0])))
        fields = text.split()
        if len(fields) != 6:
            raise PositionError(
                _('a Martian Greenhouse position has six fields (flowers, orders, siblings, next number, breedings, status), such as {example}; {text} has {fields}', example=repr(example), text=quote(text), fields=len(fields)))
        flowers_text, orders_text, siblings_text, next_text, breedings_text, status = fields
        flowers = _flowers(flowers_text)
        orders, filled = _orders(orders_text)
        numbers = {f.number for f in flowers}
        if not _NUMBER.match(next_text) or not _NUMBER.match(breedings_text):
            raise PositionError(_('the next number and the breedings are whole numbers; not {next_text} and {breedings_text}', next_text=quote(next_text), breedings_text=quote(breedings_text)))
        next_number, breedings = int(next_text), int(breedings_text)
        for number in sorted(numbers | {n for n in filled if n}):
            if number >= next_number:
                raise PositionError(_('flower #{number} is numbered at or above the next number {next_number}', number=number, next_number=next_number))
        delivered = [n for n in filled if n]
        if len(set(delivered)) != len(delivered) or numbers & set(delivered):
            raise PositionError(_('a flower fills at most one order and leaves the greenhouse when it does'))
        siblings = _siblings(siblings_text, numbers)
        if status not in ("-", "gave-up"):
            raise PositionError(_("the status is '-' or 'gave-up'; not {status}", status=quote(status)))
        _check_options(opts, flowers, orders, filled)
        state = GreenhouseState(flowers, siblings, orders, filled, next_number, breedings, status == "gave-up")
        if deliver(state) != state:
            raise PositionError(_('a flower in the greenhouse matches an unfilled order; it would have been delivered'))
        return state

    # -- diagrams --------------------------------------------------------
    def diagram(self, state: GreenhouseState) -> Diagram:
        """The greenhouse as a row of stacks, one per flower, each pyramid in
        its colour and the top chromosome on top; the orders beside them the
        same way; the caption says how far the game is."""
        flowers = tuple(Stack(f"#{f.number}", tuple(_piece(g) for g in f.genes)) for f in state.flowers)
        orders = tuple(Stack(f"O{i + 1}", tuple(_piece(g, marked=bool(n)) for g in order),
                             str(_("filled by #{n}", n=n)) if n else "")
                       for i, (order, n) in enumerate(zip(state.orders, state.filled)))
        # the words are read now, in the language of the moment (the pictures are cached by language)
        caption: tuple[str, ...] = (self._status(state),)
        if state.siblings:
            caption += (_siblings_words(state),)
        legend = (_LEGEND.format(colours=" ".join(f"{c} {COLOURS[c]}" for c in sorted({g[1] for f in state.flowers for g in f.genes}
                                                                  | {g[1] for o in state.orders for g in o}))),)
        zones = (Zone(str(_("Greenhouse")), "stacks", flowers), Zone(str(_("Orders")), "stacks", orders, beside=True))
        return Diagram(0, 0, {}, caption, legend, zones=zones)

    def text_diagram(self, state: GreenhouseState) -> str:
        """The greenhouse as stacks side by side (top chromosome first),
        then the orders beside them."""
        heads = [f"#{f.number}" for f in state.flowers] or ["(empty)"]
        stacks = [f.genes for f in state.flowers] or [()]
        order_heads = [f"O{i + 1}" for i in range(len(state.orders))]
        lines = ["  ".join(f"{h:>3}" for h in heads) + "  |  " + "  ".join(f"{h:>3}" for h in order_heads)]
        for depth in range(GENES):
            left = "  ".join(f"{s[depth] if depth < len(s) else '':>3}" for s in stacks)
            right = "  ".join(f"{o[depth]:>3}" for o in state.orders)
            lines.append(left + "  |  " + right)
        marks = "  ".join(f"{('#' + str(n)) if n else '--':>3}" for n in state.filled)
        lines.append(" " * len(left) + "  |  " + marks)
        lines.append("")
        lines.append(self._status(state))
        if state.siblings:
            lines.append(_siblings_words(state))
        lines.append(str(_("Orders: {orders}", orders="; ".join(
            f"O{i + 1} {genes_words(o)}" + (" " + str(_("filled by #{n}", n=n)) if n else "")
            for i, (o, n) in enumerate(zip(state.orders, state.filled))))))
        return "\n".join(lines)

    def _status(self, state: GreenhouseState) -> str:
        """How far the game is, in the language of the moment."""
        done, orders, n = sum(1 for n in state.filled if n), len(state.orders), state.breedings
        if state.given_up:
            if n == 1:
                return str(_("Gave up after {n} breeding, {done} of {orders} orders filled", n=n, done=done, orders=orders))
            return str(_("Gave up after {n} breedings, {done} of {orders} orders filled", n=n, done=done, orders=orders))
        if state.done:
            if n == 1:
                return str(_("Every order filled in {n} breeding", n=n))
            return str(_("Every order filled in {n} breedings", n=n))
        if n == 1:
            return str(_("{n} breeding so far; {done} of {orders} orders filled", n=n, done=done, orders=orders))
        return str(_("{n} breedings so far; {done} of {orders} orders filled", n=n, done=done, orders=orders))

    def player_label(self, player: int) -> str:
        return N_("the botanist")  # shown translated (pbem/services/stored_words.py)


def _siblings_words(state: GreenhouseState) -> str:
    """The caption's line of siblings, in the language of the moment."""
    pairs = ", ".join(str(_("#{a} and #{b}", a=a, b=b)) for a, b in state.siblings)
    return str(_("Siblings (never bred together): {pairs}", pairs=pairs))


#: the board's legend (shown translated under the board: pbem/services/stored_words.py)
_LEGEND = N_("Each stack is a flower, top chromosome at the top; 1 small, 2 medium, 3 large; {colours}")


def _piece(gene: str, marked: bool = False) -> Piece:
    return Piece("pyramid", gene, _NEAREST_PLAYER.get(gene[1]), int(gene[0]), marked, colour=CSS[gene[1]])


def _flowers(text: str) -> tuple[Flower, ...]:
    if text == "-":
        return ()
    flowers = []
    for item in text.split("/"):
        number, _sep, genes_text = item.partition(":")
        genes = split_genes(genes_text.upper())
        if not _NUMBER.match(number) or int(number) < 1 or len(genes_text) != 2 * GENES \
                or not all(is_chromosome(g) for g in genes):
            raise PositionError(_("a flower is its number, ':' and six chromosomes, such as 3:2B3R1B1B2P3R; not {item}", item=quote(item)))
        flowers.append(Flower(int(number), genes))
    numbers = [f.number for f in flowers]
    if numbers != sorted(set(numbers)):
        raise PositionError(_('the flowers are listed by number, each number once'))
    return tuple(flowers)


def _orders(text: str) -> tuple[tuple[Genes, ...], tuple[int, ...]]:
    orders, filled = [], []
    for item in text.split("/"):
        genes_text, _sep, number = item.partition("=")
        try:
            (order,) = read_orders(genes_text)
        except PbemError as error:
            raise PositionError(_('the orders: {error}', error=error)) from None
        if number and (not _NUMBER.match(number) or int(number) < 1):
            raise PositionError(_("a filled order ends with '=' and the number of the flower that filled it, such as 1P1P2P2P3P3P=7; not {item}", item=quote(item)))
        orders.append(order)
        filled.append(int(number) if number else 0)
    return tuple(orders), tuple(filled)


def _siblings(text: str, numbers: set[int]) -> tuple[tuple[int, int], ...]:
    if text == "-":
        return ()
    pairs = []
    for item in text.split(","):
        a, _sep, b = item.partition("-")
        if not (_NUMBER.match(a) and _NUMBER.match(b)) or int(a) >= int(b):
            raise PositionError(_('siblings are pairs such as 11-12 (smaller number first), separated by commas; not {item}', item=quote(item)))
        if int(a) not in numbers or int(b) not in numbers:
            raise PositionError(_('siblings {item} name a flower that is not in the greenhouse', item=quote(item)))
        pairs.append((int(a), int(b)))
    if pairs != sorted(set(pairs)):
        raise PositionError(_('sibling pairs are listed in order, each once'))
    return tuple(pairs)


def _check_options(opts: dict[str, str], flowers: tuple[Flower, ...], orders: tuple[Genes, ...],
                   filled: tuple[int, ...]) -> None:
    """The position holds exactly the stashes' pyramids (in the greenhouse
    or delivered) and the orders the options ask for."""
    have = Counter(g for f in flowers for g in f.genes) + Counter(
        g for o, n in zip(orders, filled) if n for g in o)
    want = Counter(stash_pyramids(opts["stashes"].upper()))
    if have != want:
        diff = sorted((want - have).items()) or sorted((have - want).items())
        gene, count = diff[0]
        side = "missing" if want[gene] > have[gene] else "too many"
        raise PositionError(_('the flowers and delivered orders must hold every pyramid of the stashes {opts} exactly once (five of each size and colour); {gene}: {side}', opts=opts['stashes'], gene=gene, side=side))
    if opts["orders"].isdigit():
        if len(orders) != int(opts["orders"]):
            raise PositionError(_('the options ask for {opts} orders but the position has {orders}', opts=opts['orders'], orders=len(orders)))
    elif read_orders(opts["orders"]) != orders:
        raise PositionError(_("the position's orders differ from the order list of the options"))


NOTATION = GreenhouseNotation()
KIND = GameKind(
    "greenhouse",
    NOTATION.game,
    NOTATION,
    N_("Martian Greenhouse: a solitaire of breeding six-pyramid flowers to fill an order list."),
    package=__name__,  # its guide and catalogue (notation.base.GameKind.package)
)
