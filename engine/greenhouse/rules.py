"""Martian Greenhouse rules: options, the seeded deal, breeding, delivery,
the end and the score, as ruled in ``notation/greenhouse/guide.md``."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any, Iterator, Mapping, Sequence

from engine import chance
from engine.base import OptionSpec, PuzzlePar, Result, Rules
from engine.errors import GameOverError, IllegalTurnError, OptionError, shown
from engine.greenhouse import breeding, solver
from engine.greenhouse.delivery import breedable, deliver
from engine.greenhouse.flowers import (
    COLOURS,
    GENES,
    PER_SIZE,
    Breed,
    Flower,
    Genes,
    GiveUp,
    GreenhouseState,
    GreenhouseTurn,
    is_chromosome,
    split_genes,
    stash_pyramids,
)
from engine.i18n import N_, _

DEFAULT_STASHES = "rbpc"
DEFAULT_ORDERS = "4"
_COUNT = re.compile(r"^[0-9]{1,3}$")


def canonical_stashes(text: str) -> str:
    """The stash colours as lowercase letters in the rulings' order;
    ``OptionError`` unless an even number (2 to 10) of distinct colours."""
    letters = str(text).strip().upper()
    known = "".join(COLOURS)
    bad = [c for c in letters if c not in COLOURS]
    if bad or not letters:
        raise OptionError(_('stashes are colour letters, one per stash, such as rbpc (red, blue, purple, cyan); the letters are {known}; not {text}', known=known, text=shown(text)))
    if len(set(letters)) != len(letters):
        raise OptionError(_('each stash is a different colour; {text} names a colour twice', text=shown(text)))
    if len(letters) % 2 or not 2 <= len(letters) <= 10:
        raise OptionError(_('Martian Greenhouse takes an even number of stashes, 2 to 10; {text} names {letters}', text=shown(text), letters=len(letters)))
    return "".join(c for c in known if c in letters).lower()


def read_orders(text: str) -> tuple[Genes, ...]:
    """An order list written as flowers of six chromosomes separated by
    ``/``, such as ``1P1P2P2P3P3P/2B2C1C1R3R1B``; ``OptionError`` if not."""
    orders = []
    for item in str(text).replace(" ", "").upper().split("/"):
        genes = split_genes(item)
        if len(item) != 2 * GENES or not all(is_chromosome(g) for g in genes):
            raise OptionError(_("an order is six chromosomes such as 1P1P2P2P3P3P (size 1-3, colour letter), orders separated by '/'; not {item}", item=shown(item)))
        orders.append(genes)
    return tuple(orders)


def check_orders(orders: Sequence[Genes], stashes: str) -> None:
    """``OptionError`` when the orders need a colour not in the stashes or
    more than five of one chromosome in total (ruling 3), or more flowers
    than the greenhouse holds."""
    if not orders:
        raise OptionError(_('the order list is empty; give at least one order'))
    flowers = len(stash_pyramids(stashes.upper())) // GENES
    if len(orders) > flowers:
        raise OptionError(_('{orders} orders, but {stashes} stashes make only {flowers} flowers; give at most {flowers} orders', orders=len(orders), stashes=len(stashes), flowers=flowers))
    counts = Counter(g for order in orders for g in order)
    for gene, count in sorted(counts.items()):
        if gene[1].lower() not in stashes:
            raise OptionError(_('the orders need {gene}, but there is no {colours} stash; the stashes are {stashes}', gene=gene, colours=COLOURS[gene[1]], stashes=stashes))
        if count > PER_SIZE:
            raise OptionError(_('the orders need {count} {gene} in total; no order list may need more than {per_size} of one chromosome', count=count, gene=gene, per_size=PER_SIZE))


class GreenhouseGame(Rules[GreenhouseState, GreenhouseTurn]):
    """Martian Greenhouse (Becca Stallings, 2002): a solitaire."""

    name = "greenhouse"
    title = "Martian Greenhouse"
    min_players = 1
    max_players = 1
    uses_chance = True
    option_specs = (
        OptionSpec("stashes", ("rbpc", "rb", "rbpcgy", "..."), DEFAULT_STASHES,
                   N_("the stashes' colours, an even number of letters from RYGBKPCOWX")),
        OptionSpec("orders", ("1", "2", "3", "4", "5", "6", "7", "..."), DEFAULT_ORDERS,
                   N_("how many orders to draw from the seed, or the order list itself (1P1P2P2P3P3P/...)")),
    )

    # -- options -------------------------------------------------------
    def normalize_options(self, options: Mapping[str, Any] | None = None) -> dict[str, str]:
        result = {"stashes": DEFAULT_STASHES, "orders": DEFAULT_ORDERS}
        for key, value in (options or {}).items():
            name = str(key).strip().lower()
            if name not in result:
                raise OptionError(_('{name} has no option {key}; its options are: orders, stashes', name=self.name, key=shown(key)))
            result[name] = str(value).strip()
        result["stashes"] = canonical_stashes(result["stashes"])
        text = result["orders"]
        if _COUNT.match(text):
            flowers = len(result["stashes"]) * 3 * PER_SIZE // GENES
            if not 1 <= int(text) <= flowers:
                raise OptionError(_('orders={text}: draw 1 to {flowers} orders with {len} stashes', text=shown(text), flowers=flowers, len=len(result['stashes'])))
            result["orders"] = str(int(text))
        else:
            orders = read_orders(text)
            check_orders(orders, result["stashes"])
            result["orders"] = "/".join("".join(o) for o in orders)
        return result

    # -- setup ---------------------------------------------------------
    def initial_state(self, players: int = 1, options: Mapping[str, Any] | None = None) -> GreenhouseState:
        raise OptionError(_('Martian Greenhouse deals its greenhouse from a seed: use seeded_state(players, options, seed)'))

    def seeded_state(self, players: int, options: Mapping[str, Any] | None, seed: str) -> GreenhouseState:
        """The deal: every pyramid of the stashes, in bag order, shuffled by
        the ``deal`` stream of the seed and stacked six at a time into
        flowers #1, #2, ... (each flower's first pyramid on top).  Drawn
        orders are the first six, next six, ... pyramids of the same bag
        shuffled by the ``orders`` stream."""
        self.check_players(players)
        opts = self.normalize_options(options)
        bag = stash_pyramids(opts["stashes"].upper())
        dealt = chance.shuffled(seed, "deal", bag)
        flowers = [tuple(dealt[i:i + GENES]) for i in range(0, len(dealt), GENES)]
        if _COUNT.match(opts["orders"]):
            drawn = chance.shuffled(seed, "orders", bag)
            orders = [tuple(drawn[i * GENES:(i + 1) * GENES]) for i in range(int(opts["orders"]))]
        else:
            orders = list(read_orders(opts["orders"]))
        return self.start(flowers, orders)

    def start(self, flowers: Sequence[Genes], orders: Sequence[Genes]) -> GreenhouseState:
        """The position with these flowers numbered #1, #2, ... and these
        orders, after the first delivery."""
        state = GreenhouseState(
            flowers=tuple(Flower(n, tuple(g)) for n, g in enumerate(flowers, start=1)),
            siblings=(),
            orders=tuple(tuple(o) for o in orders),
            filled=tuple(0 for _ in orders),
            next_number=len(flowers) + 1,
        )
        return deliver(state)

    # -- play ----------------------------------------------------------
    def players(self, state: GreenhouseState) -> int:
        return 1

    def to_move(self, state: GreenhouseState) -> int | None:
        return None if state.over else 0

    def breedable(self, state: GreenhouseState) -> list[tuple[Flower, Flower]]:
        """The pairs of flowers that may be bred (not siblings), by number."""
        return breedable(state)

    def iter_turns(self, state: GreenhouseState) -> Iterator[GreenhouseTurn]:
        """Every legal turn, lazily: each breeding of each pair (children in
        both orders, which number them differently), then giving up."""
        if state.over:
            return
        for f, g in self.breedable(state):
            for first, second in breeding.children(f.genes, g.genes):
                yield Breed(f.number, g.number, first, second)
        yield GiveUp()

    def legal_turns(self, state: GreenhouseState) -> list[GreenhouseTurn]:
        return list(self.iter_turns(state))

    def apply(self, state: GreenhouseState, turn: GreenhouseTurn) -> GreenhouseState:
        if state.over:
            raise GameOverError(_('the game is over; no more breeding'))
        if isinstance(turn, GiveUp):
            return _replace(state, given_up=True)
        if not isinstance(turn, Breed):
            raise IllegalTurnError(_('not a Martian Greenhouse turn: {turn}', turn=shown(turn)))
        parents = []
        for number in (turn.a, turn.b):
            flower = state.flower(number)
            if flower is None:
                raise IllegalTurnError(_('there is no #{number} in the greenhouse; it holds {state}', number=number, state=_numbers(state)))
            parents.append(flower)
        if turn.a == turn.b:
            raise IllegalTurnError(_('#{a} cannot be bred with itself; name two different flowers', a=turn.a))
        if state.are_siblings(turn.a, turn.b):
            raise IllegalTurnError(_('#{a} and #{b} are siblings (children of one breeding) and may never be bred together', a=turn.a, b=turn.b))
        a, b = parents
        reason = breeding.why_not(a.genes, b.genes, turn.first, turn.second, (f"#{a.number}", f"#{b.number}"))
        if reason:
            raise IllegalTurnError(_('#{number} x #{number2}: {reason}', number=a.number, number2=b.number, reason=reason))
        one, two = state.next_number, state.next_number + 1
        flowers = tuple(f for f in state.flowers if f.number not in (a.number, b.number))
        flowers += (Flower(one, tuple(turn.first)), Flower(two, tuple(turn.second)))
        siblings = tuple(p for p in state.siblings if a.number not in p and b.number not in p) + ((one, two),)
        bred = _replace(state, flowers=flowers, siblings=siblings, next_number=two + 1,
                        breedings=state.breedings + 1)
        return deliver(bred)

    #: the reasons ``result`` gives, stored in English and shown translated (pbem/services/stored_words.py)
    REASONS = (N_("gave up after {n} breeding"), N_("gave up after {n} breedings"),
               N_("every order filled in {n} breeding"), N_("every order filled in {n} breedings"))

    def result(self, state: GreenhouseState) -> Result | None:
        score = (state.breedings,)
        plural = "s" if state.breedings != 1 else ""
        if state.given_up:
            return Result((), f"gave up after {state.breedings} breeding{plural}", score)
        if state.done:
            return Result((0,), f"every order filled in {state.breedings} breeding{plural}", score)
        return None

    def scores(self, state: GreenhouseState) -> tuple[int, ...]:
        return (state.breedings,)

    def bot_hooks(self) -> Any:
        from engine.greenhouse.bot import HOOKS  # the bots' help for this game, imported when a bot plays

        return HOOKS

    # -- shared puzzles ------------------------------------------------
    def puzzle_options(self) -> dict[str, str]:
        """The daily puzzle is a default game: four stashes, four orders."""
        return self.normalize_options({})

    def par(self, state: GreenhouseState, max_seconds: float) -> PuzzlePar:
        """The solver's par (``engine.greenhouse.solver.solve``) within
        ``max_seconds`` and its default node budget."""
        found = solver.solve(state, max_seconds=max_seconds)
        return PuzzlePar(found.found, found.lower_bound, found.optimal)

    def distance_from_par(self, par: PuzzlePar, score: int) -> str:
        return solver.distance_from_par(solver.Par(par.found, par.lower_bound, (), 0, 0.0, False), score)


def _replace(state: GreenhouseState, **changes: Any) -> GreenhouseState:
    fields = {name: getattr(state, name) for name in GreenhouseState.__dataclass_fields__}
    fields.update(changes)
    return GreenhouseState(**fields)


def _numbers(state: GreenhouseState) -> str:
    return ", ".join(f"#{f.number}" for f in state.flowers) or "nothing"
