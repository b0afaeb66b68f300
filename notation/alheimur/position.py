"""Alheimur position strings: the whole state as space-separated fields.

``players phase mover turns deals piles pile-of extra builder building
card last-round orders space world...``

- ``piles``: the eight piles' cards not yet turned over, ``.`` between
  cards, ``/`` between piles, ``-`` for an empty pile; ``?`` for a hidden card.
- ``pile-of``: the pile (1-8) of each builder, players then the neutral
  world; ``extra``: extra piles not yet taken (``-``: none).
- ``builder``: whose world is being built (1-8, ``N``); ``building``: its
  laid cards ``CARD@x,y`` joined by ``.`` (``-``: none); ``card``: the card
  turned over (``-``).
- ``last-round``: ``-`` before the last round, else the players still owed
  a turn, joined by ``.`` (``end`` when none).
- ``orders``: each player's standing fire order, ``/`` between players:
  ``h`` (hold) or ``f``, the players shot first, ``t`` for transports first
  (``f32t``); ``?`` another player's, which a player's view hides while
  the game is on.
- ``space``: ships ``p1F2`` (``p`` and the player, F or T, size,
  ``+marine``: player 1's fighter of 2) joined by ``.`` (``-``: none).  The
  ``p`` keeps a ship apart from the turn notation's ``1F2`` (a fighter of 2
  in the orbit of world 1); positions written before it (``1F2``) still
  read, and are written back with it.
- each world: ``name:layout:orbit:pyramids:ships``, the layout four cards
  joined by ``.``, the orbit card or ``?``, pyramids ``a4=12`` (territory,
  player, size, ``i`` for an invader) and ships joined by ``,`` (``-``).
"""

from __future__ import annotations

import re
from collections import Counter
from typing import Any, Mapping

from engine.alheimur.deck import DECK, turned
from engine.alheimur.pieces import HIDDEN_ORDER, PER_SIZE, AlheimurState, FireOrder, Pyramid, Ship, World
from engine.alheimur.worlds import COMPASS, geometry
from engine.errors import PositionError
from engine.i18n import _
from notation.quote import quote

PHASES = ("deal", "build", "colonists", "play", "over")
_CARDS = set(DECK)
_NUM = re.compile(r"^(0|[1-9][0-9]{0,5})$")
#: ``p1F2`` (``1F2``, without the ``p``, as positions were written before it: still read)
_SHIP = re.compile(r"^p?([1-8])([FT])([1-3])(?:\+([1-3]))?$")
_PIECE = re.compile(r"^([a-d][1-4])=([1-8])([1-3])(i?)$")
_ORDER = re.compile(r"^(h|f([1-8]*)(t?))$")
EXAMPLE = ("2 play 1 0 1 -/-/-/?.?.?.?.?/?.?.?.?.?/?.?.?.?.?/?.?.?.?.?/?.?.?.?.? 1.2.3 4.5.6.7.8 1 - - - f/f - "
           "1:AAEE.AEAE.FFFF.WWTT:?:a4=11:p1F2 ...")


def _bad(why: Any) -> PositionError:
    """A refusal of a position string (in the language of the moment)."""
    return PositionError(_("{why}; an Alheimur position reads like {example}", why=why, example=repr(EXAMPLE)))


def format_ship(ship: Ship) -> str:
    """``p1F2``: player 1's fighter of 2 (``p2T3+1``: player 2's transport of
    3 carrying a marine of 1); never the turn notation's ``1F2``, a fighter
    of 2 in the orbit of world 1."""
    return f"p{ship.owner + 1}{'F' if ship.fighter else 'T'}{ship.size}" + (f"+{ship.marine}" if ship.marine else "")


def format_order(order: FireOrder) -> str:
    if order.hidden:
        return "?"
    if order.hold:
        return "h"
    return "f" + "".join(str(p + 1) for p in order.players) + ("t" if order.transports else "")


def format_world(world: World) -> str:
    pieces = ",".join(f"{t}={p.owner + 1}{p.size}{'i' if p.invader else ''}" for t, p in world.pieces) or "-"
    ships = ",".join(format_ship(s) for s in world.ships) or "-"
    return f"{world.name}:{'.'.join(world.layout)}:{world.orbit_card}:{pieces}:{ships}"


def format_position(state: AlheimurState) -> str:
    piles = "/".join(".".join(p) or "-" for p in state.piles) if state.piles else "-"
    pile_of = ".".join(str(p + 1) for p in state.pile_of) or "-"
    extra = ".".join(str(p + 1) for p in state.extra) or "-"
    builder = "N" if state.builder == state.players else str(state.builder + 1)
    building = ".".join(f"{c}@{x},{y}" for x, y, c in state.building) or "-"
    if state.last_round is None:
        last = "-"
    else:
        last = ".".join(str(p + 1) for p in state.last_round) or "end"
    orders = "/".join(format_order(o) for o in state.orders)
    space = ".".join(format_ship(s) for s in state.space) or "-"
    fields = [str(state.players), state.phase, str(state.current + 1), str(state.turns), str(state.deals),
              piles, pile_of, extra, builder, building, state.card or "-", last, orders, space]
    fields += [format_world(w) for w in state.worlds]
    return " ".join(fields)


def _num(text: str, what: Any, low: int, high: int) -> int:
    if not _NUM.fullmatch(text) or not low <= int(text) <= high:
        raise _bad(_("{what} is a whole number from {low} to {high}, not {text}", what=what, low=low, high=high,
                     text=quote(text)))
    return int(text)


def _card(text: str, hidden_ok: bool, what: Any) -> str:
    if text == "?" and hidden_ok:
        return text
    if text not in _CARDS and turned(text) not in _CARDS:
        raise _bad(_("{what}: {text} is no Element card (four letters of A E F W T, such as AAEE)", what=what,
                     text=quote(text)))
    return text


def _list(text: str, low: int, high: int, what: Any) -> tuple[int, ...]:
    if text == "-":
        return ()
    values = tuple(_num(v, what, low, high) - 1 for v in text.split("."))
    if len(set(values)) != len(values):
        raise _bad(_("{what}: a number is given twice in {text}", what=what, text=quote(text)))
    return values


def _ship(text: str, players: int) -> Ship:
    m = _SHIP.fullmatch(text)
    if not m or int(m[1]) > players:
        raise _bad(_("a ship is p and a player (1-{players}), F or T, a size and any marine (p1T3+1: player "
                     "1's transport of 3 carrying a marine of 1), not {text}", players=players, text=quote(text)))
    ship = Ship(int(m[1]) - 1, int(m[3]), m[2] == "F", int(m[4] or 0))
    if ship.fighter and ship.marine or ship.marine > ship.size:
        raise _bad(_("{text}: only transports carry marines, no larger than themselves", text=quote(text)))
    return ship


def _ships(text: str, players: int, sep: str) -> tuple[Ship, ...]:
    return () if text == "-" else tuple(sorted(_ship(s, players) for s in text.split(sep)))


def _order(text: str, players: int) -> FireOrder:
    if text == "?":  # another player's, in a player's view
        return HIDDEN_ORDER
    m = _ORDER.fullmatch(text)
    if not m:
        raise _bad(_("a fire order is h, or f with players shot first and t for transports first (f32t); "
                     "not {text}", text=quote(text)))
    if text == "h":
        return FireOrder(hold=True)
    who = [int(c) - 1 for c in m[2]]
    if len(set(who)) != len(who) or any(p >= players for p in who):
        raise _bad(_("fire order {text} names a player twice or a player not in the game", text=quote(text)))
    return FireOrder(False, tuple(who), bool(m[3]))


def _world(text: str, players: int) -> World:
    parts = text.split(":")
    if len(parts) != 5:
        raise _bad(_("a world is name:layout:orbit:pyramids:ships, not {text}", text=quote(text)))
    name, layout_text, orbit, pieces_text, ships_text = parts
    owner = None if name == "N" else _num(name, _("a world's name (1-8 or N)"), 1, players) - 1
    cards = layout_text.split(".")
    if len(cards) != 4:
        raise _bad(_("a world's layout is four cards joined by '.', not {text}", text=quote(layout_text)))
    first, second, third, fourth = (_card(c, False, _("world {name}", name=name)) for c in cards)
    layout = (first, second, third, fourth)
    orbit = _card(orbit, True, _("world {name}'s orbit", name=name))
    names = geometry(layout).names()
    pieces: dict[str, Pyramid] = {}
    if pieces_text != "-":
        for item in pieces_text.split(","):
            m = _PIECE.fullmatch(item)
            if not m or int(m[2]) > players:
                raise _bad(_("a pyramid is a territory, a player (1-{players}) and a size, i for an invader "
                             "(b3=12i); not {text}", players=players, text=quote(item)))
            if m[1] not in names or m[1] in pieces:
                raise _bad(_("world {name} has no territory {territory} (its territories: {names}) or it is "
                             "given twice", name=name, territory=m[1], names=" ".join(names)))
            pieces[m[1]] = Pyramid(int(m[2]) - 1, int(m[3]), bool(m[4]))
    return World(name, owner, layout, orbit, tuple(sorted(pieces.items())), _ships(ships_text, players, ","))


def parse_position(text: str, options: Mapping[str, Any] | None = None) -> AlheimurState:
    if not isinstance(text, str):
        raise PositionError(_("a position is text"))
    fields = text.split()
    if len(fields) < 14:
        raise _bad(_("{text} has {count} fields; a position has 14 and then one per world", text=quote(text),
                     count=len(fields)))
    (players_t, phase, mover_t, turns_t, deals_t, piles_t, pile_of_t, extra_t, builder_t, building_t,
     card_t, last_t, orders_t, space_t) = fields[:14]
    players = _num(players_t, _("the number of players"), 2, 8)
    if phase not in PHASES:
        raise _bad(_("the phase is one of {phases}, not {text}", phases=", ".join(PHASES), text=quote(phase)))
    current = _num(mover_t, _("the player to move"), 1, players) - 1
    turns = _num(turns_t, _("the turns played"), 0, 999999)
    deals = _num(deals_t, _("the deals"), 0, 999)
    piles: tuple[tuple[str, ...], ...] = ()
    if piles_t != "-":
        raw = piles_t.split("/")
        if len(raw) != 8:
            raise _bad(_("there are eight piles, separated by '/'; {text} has {count}", text=quote(piles_t),
                         count=len(raw)))
        piles = tuple(() if p == "-" else tuple(_card(c, True, _("a pile")) for c in p.split(".")) for p in raw)
        if any(len(p) > 5 for p in piles):
            raise _bad(_("a pile has at most five cards"))
    pile_of = _list(pile_of_t, 1, 8, _("pile-of"))
    extra = _list(extra_t, 1, 8, _("extra piles"))
    if builder_t == "N":
        builder = players
    else:
        builder = _num(builder_t, _("the builder"), 1, players) - 1
    building: list[tuple[int, int, str]] = []
    if building_t != "-":
        for item in building_t.split("."):
            m = re.fullmatch(r"([AEFWT]{4})@(-?1|0),(-?1|0)", item)
            if not m:
                raise _bad(_("a laid card is CARD@x,y with x and y from -1 to 1, such as AAEE@1,0; not {text}",
                             text=quote(item)))
            building.append((int(m[2]), int(m[3]), _card(m[1], False, _("a laid card"))))
        spots = [(x, y) for x, y, _ in building]
        if len(building) > 3 or len(set(spots)) != len(spots) or spots[0] != (0, 0) \
                or any(s not in COMPASS.values() for s in spots[1:]):
            raise _bad(_("a world being built has one to three cards, the first at 0,0, the others around it"))
    card = "" if card_t == "-" else _card(card_t, False, _("the turned-over card"))
    last: tuple[int, ...] | None
    if last_t == "-":
        last = None
    elif last_t == "end":
        last = ()
    else:
        last = _list(last_t, 1, players, _("the last round"))
    orders_raw = orders_t.split("/")
    if len(orders_raw) != players:
        raise _bad(_("one fire order per player ({players}), separated by '/'; not {text}", players=players,
                     text=quote(orders_t)))
    orders = tuple(_order(o, players) for o in orders_raw)
    space = _ships(space_t, players, ".")
    worlds = [_world(w, players) for w in fields[14:]]
    names = [w.name for w in worlds]
    if len(set(names)) != len(names):
        raise _bad(_("each world is given once"))
    if "N" in names and players == 8:
        raise _bad(_("eight players leave no neutral world"))
    worlds.sort(key=lambda w: (w.owner is None, w.owner or 0))
    if phase == "build":
        builders = players + (1 if players < 8 else 0)
        if len(piles) != 8 or len(pile_of) != builders or builder >= builders or not building or not card:
            raise _bad(_("a world being built needs the eight piles, a pile for each builder, its first "
                         "card laid and a card turned over"))
        if len(piles[pile_of[builder]]) != 4 - len(building):
            raise _bad(_("the builder's pile must still hold {count} cards (the rest of the world and its "
                         "orbit card)", count=4 - len(building)))
    state = AlheimurState(players=players, phase=phase, piles=piles, pile_of=pile_of, extra=extra,
                          worlds=tuple(worlds), building=tuple(building), card=card, builder=builder,
                          current=current, space=space, orders=orders, last_round=last, deals=deals,
                          turns=turns)
    for p in range(players):
        used = Counter(state.in_play(p))
        for size, count in used.items():
            if count > PER_SIZE:
                raise _bad(_("player {player} has {count} pyramids of {size} pips in play; a stash has {most}",
                             player=p + 1, count=count, size=size, most=PER_SIZE))
    return state


__all__ = ["format_position", "parse_position", "format_ship", "format_world"]
