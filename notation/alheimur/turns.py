"""Alheimur turn notation: reading what a player writes, writing it back
canonically.  See ``notation/alheimur/guide.md`` ("Notation").

Names: worlds ``1``-``8`` (their owner's number) and ``N`` (neutral);
territories by a tile, ``a4`` top left to ``d1`` bottom right (any tile of
a territory names it; the canonical name is its first tile); a place on a
world is world then territory, ``2b3``.  A ship is zone, kind, size and
any marine: ``2F3`` (a fighter of 3 in the orbit of world 2), ``ST2+1`` (a
transport of 2 carrying a marine of 1, in space).

A play turn, items separated by spaces or commas, sections by ``;`` or
new lines::

    2b3+2          expand: a new 2 on 2b3
    2b3=3          civilize: the pyramid on 2b3 becomes a 3
    2b3-c3         step 1, migrate
    2b3^F 2b3^T    step 2, launch as a fighter or a transport
    2b3^M3         step 2: the colonist on 2b3 launches as the marine of
                   the empty transport of 3 in orbit
    2b3^B3         step 5: the invader on 2b3 boards the empty transport
                   of 3 in orbit as its marine (records written before
                   '^B' wrote '^M3' for both: '^M3' where the mover has no
                   colonist when step 2 begins still reads as boarding)
    2F2>c3         step 2, a ship returns to c3 (2T3+1>c3: its marine)
    2T2=F 2F2=T    step 3, change status
    2T3+1!c3       step 4, the marine lands on c3
    2F2>S  SF2>4   step 6, orbit to space, space to an orbit
    battles 4 2    the order of fleet battles
    fire 3 t       this turn's fire: player 3's ships first, transports
                   first; ``fire`` alone is the default, ``hold`` never
    at 2 hold      the fire at one world (over ``fire`` there)
    standing hold  a new standing fire order (same words; ``standing fire
                   3 t``, also read from ``standing 3 t``)
    standing 3 hold  player 3's new standing order, set outside their
                   turn and folded into this one by the server (``standing
                   N`` then ``fire`` or ``hold``: only the server writes it)
    pass           nothing at all

Moves are put in step order (the rules allow no other); setup turns are a
placement (``e``, ``sw~``: ``~`` for half a turn) or three colonists
(``1a4+1 1b4+1 1a3+1``).
"""

from __future__ import annotations

import re
import unicodedata
from typing import Union

from engine.alheimur.movement import move
from engine.alheimur.pieces import (
    STEP,
    AlheimurState,
    Board,
    Civilize,
    Colonists,
    Expand,
    FireOrder,
    Flip,
    Fly,
    Land,
    Launch,
    Migrate,
    Move,
    Place,
    Return,
    Turn,
)
from engine.alheimur.setup import place_text, read_place_text
from engine.alheimur.survival import expand, survive
from engine.alheimur.worlds import geometry, tile_at
from engine.errors import IllegalTurnError, MalformedTurnError
from engine.i18n import Text, _
from notation.quote import quote

HELP = _("an Alheimur turn lists expansion actions and moves such as '2b3+2 2c4-d4 2b3^F 2F1>S', then, "
         "after ';', 'battles 2 4', 'fire', 'hold' or 'standing ...'; 'pass' for nothing")
_LOOKALIKES = str.maketrans({"\u2192": ">", "\u27f6": ">", "\u2013": "-", "\u2014": "-", "\u2212": "-",
                             "\u00d7": "x", "\uff0b": "+"})
_WORLD = r"([1-8n])"
_TILE = r"([a-d][1-4])"
_SHIP = r"([1-8ns])([ft])([1-3])(?:\+([1-3]))?"
TOKENS = [
    ("expand", re.compile(rf"^{_WORLD}{_TILE}\+([1-3])$")),
    ("civilize", re.compile(rf"^{_WORLD}{_TILE}=([1-3])$")),
    ("migrate", re.compile(rf"^{_WORLD}{_TILE}-(?:\1)?{_TILE}$")),
    ("up", re.compile(rf"^{_WORLD}{_TILE}\^(f|t|m([1-3])|b([1-3]))$")),
    ("ship", re.compile(rf"^{_SHIP}>(s|[1-8n]|[a-d][1-4])$")),
    ("flip", re.compile(rf"^{_SHIP}=(f|t)$")),
    ("land", re.compile(rf"^{_SHIP}!{_TILE}$")),
]
_PASS = {"pass", "-", "nothing", "none"}
#: ``('up', world, territory, into)``: a '^M', a launch or, as records written
#: before '^B' have it, a boarding (known once the turn's expansion and
#: migrations are played, :func:`_up`)
_Up = tuple[str, str, str, int]
#: what :func:`read_item` reads
Item = Union[Expand, Civilize, Move, _Up]


def clean(text: str) -> str:
    text = unicodedata.normalize("NFKC", text).translate(_LOOKALIKES)
    text = text.replace("->", ">").replace("=>", ">")
    return re.sub(r"\s*([>!^=+])\s*", r"\1", text)


def _malformed(text: str, why: str | Text) -> MalformedTurnError:
    return MalformedTurnError(_("cannot read {text}: {why}; {help}", text=quote(text), why=why, help=HELP))


def world_key(name: str) -> str:
    return "N" if name.lower() == "n" else name


def territory(state: AlheimurState, world: str, tile: str, token: str) -> str:
    """The canonical territory of ``tile`` on ``world``."""
    w = state.world(world)
    if w is None:
        raise IllegalTurnError(_("{token}: there is no world {world}; the worlds are {worlds}", token=quote(token),
                                 world=world, worlds=" ".join(x.name for x in state.worlds)))
    at = tile_at(tile)
    assert at is not None  # the callers' patterns match a1-d4 only
    return geometry(w.layout).at_tile[at]


def read_fire(words: list[str], text: str, players: int) -> FireOrder:
    """``hold``, or ``fire`` then player numbers and ``t`` (transports first);
    without its ``fire``, player numbers and ``t`` are read as after it
    (``3 t`` as ``fire 3 t``)."""
    if not words:
        raise _malformed(text, _("a fire order is 'fire', 'fire 3 t' or 'hold'"))
    if re.fullmatch(r"[1-8]|t|transports?|f|fighters?", words[0]):
        words = ["fire"] + words
    head, rest = words[0], words[1:]
    if head == "hold" and not rest:
        return FireOrder(hold=True)
    if head != "fire":
        raise _malformed(text, _("a fire order starts with 'fire' or is 'hold', not {word}", word=quote(head)))
    transports, order = False, []
    for word in rest:
        if word in ("t", "transports", "transport"):
            transports = True
        elif word in ("f", "fighters", "fighter"):
            transports = False
        elif re.fullmatch(r"[1-8]", word) and int(word) <= players:
            if int(word) - 1 in order:
                raise _malformed(text, _("player {player} is named twice in the fire order", player=word))
            order.append(int(word) - 1)
        else:
            raise _malformed(text, _("in a fire order, {word} is neither a player (1-{players}) nor 't'",
                                     word=quote(word), players=players))
    return FireOrder(False, tuple(order), transports)


def standing_player(words: list[str]) -> int | None:
    """The player (0-based) another player's order in a ``standing`` section
    is for, as the server folds it in: ``standing 2 hold``, ``standing 2 fire
    3 t``; None for the section's own player's order, which is also
    ``standing 2 t`` (what a player means by it: ``standing fire 2 t``, their
    ships to shoot player 2's first, transports first)."""
    if len(words) > 2 and words[1].isdigit() and words[2].lower() in ("fire", "hold"):
        return int(words[1]) - 1
    return None


def fire_text(order: FireOrder) -> str:
    if order.hold:
        return "hold"
    return " ".join(["fire"] + [str(p + 1) for p in order.players] + (["t"] if order.transports else []))


def read_play(state: AlheimurState, text: str) -> Turn:
    sections = [s.strip() for s in re.split(r"[;\n]", clean(text).lower()) if s.strip()]
    if not sections:
        raise MalformedTurnError(_("the turn is empty; {help}", help=HELP))
    actions: list[Expand | Civilize] = []
    pending: list[Move | _Up] = []
    battles: tuple[str, ...] = ()
    fire = standing = None
    fire_at: dict[str, FireOrder] = {}
    standings: dict[int, FireOrder] = {}
    seen: set[str] = set()
    for section in sections:
        words = section.replace(",", " ").split()
        head = words[0]
        key = {"battles": "battles", "battle": "battles", "b": "battles", "fire": "fire", "hold": "fire",
               "standing": "standing", "stand": "standing", "at": "at"}.get(head)
        if key == "standing" and standing_player(words) is not None:
            key = "standing N"  # another player's, once per player ('standing 2 t' is the mover's own)
        if key in seen and key not in ("at", "standing N"):
            raise _malformed(text, _("'{key}' is given twice", key=key))
        if key == "at":
            name = world_key(words[1]) if len(words) > 1 else ""
            if not re.fullmatch(r"[1-8N]", name):
                raise _malformed(text, _("fire at one world is written like 'at 2 hold' or 'at 2 fire 3 t'"))
            if name in fire_at:
                raise _malformed(text, _("the fire at world {world} is given twice", world=name))
            fire_at[name] = read_fire(words[2:], text, state.players)
            continue
        if key == "battles":
            seen.add(key)
            names = [world_key(w) for w in words[1:]]
            if not names or not all(re.fullmatch(r"[1-8N]", n) for n in names):
                raise _malformed(text, _("the battle order names worlds, such as 'battles 2 N 4'"))
            battles = tuple(names)
        elif key == "fire":
            seen.add(key)
            fire = read_fire(words, text, state.players)
        elif key == "standing N":
            # another player's order, set outside their turn (the server folds it in)
            who = int(words[1]) - 1
            if not 0 <= who < state.players:
                raise _malformed(text, _("there is no player {player} to set a standing order for (players "
                                         "1-{players})", player=words[1], players=state.players))
            if who in standings:
                raise _malformed(text, _("player {player}'s standing order is given twice", player=words[1]))
            standings[who] = read_fire(words[2:], text, state.players)
        elif key == "standing":
            seen.add(key)
            standing = read_fire(words[1:], text, state.players)
        else:
            for word in words:
                if word in _PASS:
                    continue
                item = read_item(state, word)
                if isinstance(item, (Expand, Civilize)):
                    actions.append(item)
                else:
                    pending.append(item)
    order = {w.name: i for i, w in enumerate(state.worlds)}
    actions.sort(key=lambda a: order.get(a.world, 99))
    moves: list[Move]
    if any(isinstance(m, tuple) for m in pending):
        # '^M': a colonist launches as a marine (step 2), an invader boards
        # (step 5); which it is shows once expansion, survival and the
        # migrations of step 1 are played
        mid = survive(expand(state, tuple(actions), []), [])
        mid = move(mid, tuple(m for m in pending if isinstance(m, Migrate)), [])
        launched: set[tuple[str, str]] = set()
        moves = [_up(mid, launched, *m[1:]) if isinstance(m, tuple) else m for m in pending]
    else:
        moves = [m for m in pending if not isinstance(m, tuple)]  # all of them: none is a '^M'
    moves.sort(key=lambda m: STEP[type(m)])
    at = tuple(sorted(fire_at.items(), key=lambda item: order.get(item[0], 99)))
    if state.current in standings:  # the mover's own, numbered: as 'standing ...'
        if standing is not None:
            raise _malformed(text, _("your standing order is given twice"))
        standing = standings.pop(state.current)
    return Turn(tuple(actions), tuple(moves), battles, fire, standing, at, tuple(sorted(standings.items())))


def _up(mid: AlheimurState, launched: set[tuple[str, str]], world: str, where: str, into: int) -> Launch | Board:
    """A launch when the player's colonist stands there when step 2 begins
    (once per territory); else boarding."""
    w = mid.world(world)
    piece = w.at(where) if w is not None else None
    if piece is not None and piece.owner == mid.current and not piece.invader and (world, where) not in launched:
        launched.add((world, where))
        return Launch(world, where, "M", into)
    return Board(world, where, into)


def read_item(state: AlheimurState, word: str) -> Item:
    for kind, pattern in TOKENS:
        m = pattern.match(word)
        if not m:
            continue
        if kind in ("expand", "civilize", "migrate", "up"):
            world = world_key(m[1])
            where = territory(state, world, m[2], word)
            if kind == "expand":
                return Expand(world, where, int(m[3]))
            if kind == "civilize":
                return Civilize(world, where, int(m[3]))
            if kind == "migrate":
                return Migrate(world, where, territory(state, world, m[3], word))
            if m[3] in ("f", "t"):
                return Launch(world, where, m[3].upper())
            if m[5]:  # '^B3': boarding, step 5
                return Board(world, where, int(m[5]))
            return ("up", world, where, int(m[4]))
        zone = "S" if m[1] == "s" else world_key(m[1])
        size, fighter, marine = int(m[3]), m[2] == "f", int(m[4] or 0)
        if fighter and marine:
            raise _malformed(word, _("a fighter carries no marine (only transports do: T3+1)"))
        if kind == "flip":
            if zone == "S":
                raise IllegalTurnError(_("{word}: ships change status in an orbit, not in space", word=quote(word)))
            becomes = m[5] == "f"
            if marine:
                raise IllegalTurnError(_("{word}: movement step 3 (change status): a transport carrying a marine "
                                         "(here a marine of {marine}) does not change status; only a ship without "
                                         "a marine does", word=quote(word), marine=marine))
            if becomes == fighter:
                raise _malformed(word, _("a fighter can only become a transport (=T)") if fighter else
                                 _("a transport can only become a fighter (=F)"))
            return Flip(zone, size, becomes)
        if kind == "land":
            if zone == "S" or fighter or not marine:
                raise _malformed(word, _("a marine lands from a transport in orbit, written like 2T3+1!c3"))
            return Land(zone, size, marine, territory(state, zone, m[5], word))
        dest = m[5]
        if re.fullmatch(r"[a-d][1-4]", dest):
            if zone == "S":
                raise IllegalTurnError(_("{word}: a ship in space must fly to an orbit first", word=quote(word)))
            return Return(zone, size, fighter, marine, territory(state, zone, dest, word))
        return Fly(zone, "S" if dest == "s" else world_key(dest), size, fighter, marine)
    raise _malformed(word, _("this is no expansion action or move"))


def ship_text(zone: str, size: int, fighter: bool, marine: int = 0) -> str:
    return f"{zone}{'F' if fighter else 'T'}{size}" + (f"+{marine}" if marine else "")


def item_text(item: Expand | Civilize | Move) -> str:
    if isinstance(item, Expand):
        return f"{item.world}{item.territory}+{item.size}"
    if isinstance(item, Civilize):
        return f"{item.world}{item.territory}={item.size}"
    if isinstance(item, Migrate):
        return f"{item.world}{item.start}-{item.end}"
    if isinstance(item, Launch):
        return f"{item.world}{item.territory}^{item.as_}{item.into if item.as_ == 'M' else ''}"
    if isinstance(item, Board):
        return f"{item.world}{item.territory}^B{item.into}"
    if isinstance(item, Return):
        return f"{ship_text(item.world, item.size, item.fighter, item.marine)}>{item.territory}"
    if isinstance(item, Flip):
        return f"{ship_text(item.world, item.size, not item.fighter)}={'F' if item.fighter else 'T'}"
    if isinstance(item, Land):
        return f"{ship_text(item.world, item.size, False, item.marine)}!{item.territory}"
    if isinstance(item, Fly):
        return f"{ship_text(item.start, item.size, item.fighter, item.marine)}>{item.end}"
    raise TypeError(item)


def play_text(turn: Turn) -> str:
    items = " ".join(item_text(i) for i in turn.expansion + turn.moves) or "pass"
    parts = [items]
    if turn.battles:
        parts.append("battles " + " ".join(turn.battles))
    if turn.fire is not None:
        parts.append(fire_text(turn.fire))
    parts.extend(f"at {world} {fire_text(order)}" for world, order in turn.fire_at)
    if turn.standing is not None:
        parts.append("standing " + fire_text(turn.standing))
    parts.extend(f"standing {player + 1} {fire_text(order)}" for player, order in turn.standings)
    return "; ".join(parts)


def read_place(text: str) -> Place:
    word = re.sub(r"\s+", "", clean(text).lower())
    word = re.sub(r"(turned|180|t)$", "~", word) if not re.fullmatch(r"(n|s|e|w|ne|nw|se|sw)", word) else word
    at = read_place_text(word)
    if at is None:
        raise MalformedTurnError(_("cannot read {text}: world building lays the card on a side of the first card: "
                                   "n, s, e, w, ne, nw, se or sw, with '~' when turned half a turn (such as 'e' or "
                                   "'sw~')", text=quote(text)))
    return Place(*at)


def colonists_text(state: AlheimurState, turn: Colonists) -> str:
    name = str(state.current + 1)
    return " ".join(f"{name}{t}+{size}" for t, size in turn.placed)


def read_colonists(state: AlheimurState, text: str) -> Colonists:
    own = str(state.current + 1)
    world = state.world(own)
    if world is None:
        raise IllegalTurnError(_("starting colonists: player {player} has no world", player=own))
    placed = []
    for word in clean(text).lower().replace(",", " ").split():
        m = re.fullmatch(rf"{_WORLD}?{_TILE}[+:=]([1-3])", word)
        if not m:
            raise MalformedTurnError(_("cannot read {word}: a starting colonist is a territory and a size, such as "
                                       "{example}; place three", word=quote(word), example=f"{own}a4+1"))
        if m[1] and world_key(m[1]) != own:
            raise IllegalTurnError(_("{word}: starting colonists go on your own world, {world}", word=quote(word),
                                     world=own))
        placed.append((territory(state, own, m[2], word), int(m[3])))
    names = geometry(world.layout).names()
    placed.sort(key=lambda p: names.index(p[0]))
    return Colonists(tuple(placed))


def place_turn_text(turn: Place) -> str:
    return place_text(turn.x, turn.y, turn.turned)
