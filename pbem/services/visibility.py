"""What a viewer sees of a stored game's positions: the one chokepoint for
hidden information.

The stored position strings (``Game.position``, ``Turn.position``) are the
full truth, which the server needs; nothing outside this module formats
them for anyone.  Everything that leaves the server about a position (the
viewed state and its position string, the text diagram, SVG and PNG boards,
the legal turns, previews, records, past positions) is made here for one
viewer: ``seat`` is the viewer's 0-based seat, or None for anyone not
seated (a spectator, a signed-out visitor).

While a game is on (inviting or active) a viewer sees
``rules.view(state, seat)``; once it is over (finished, abandoned,
cancelled) everyone sees everything: the full state, and the full record,
as chance games reveal their seed at the end too.

Games without hidden information (whose rules keep ``Rules.view``, which
returns the state unchanged) show their stored strings as they are, byte
for byte.  ``tests/test_views_chokepoint.py`` checks that no other module
formats a stored position or renders a diagram for output.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlmodel import Session, select

from engine.base import Rules, settle_from_seed
from engine.errors import PbemError
from notation import record as record_format
from notation import registry
from notation.base import LegalGroup, Notation
from notation.clicks import ClickOptions, clicked_turns
from notation.drawing import regions as diagram_regions
from notation.drawing import render as diagrams
from pbem.models import FINISHED, OPEN_STATUSES, Game, Player, Turn
from pbem.services import records
from pbem.services.stored import dealt_state, kind_of, seat_of, seats_of, state_of


def shows_everything(game: Game) -> bool:
    """True once the game is over: then every viewer sees the full state."""
    return game.status not in OPEN_STATUSES


def hides_anything(game: Game) -> bool:
    """True when the game's rules have a ``view`` that may hide something."""
    return type(kind_of(game).rules).view is not Rules.view


def seat_for(session: Session, game: Game, player: Player | None) -> int | None:
    """The 0-based seat of ``player`` in ``game``; None for anyone not seated."""
    if player is None:
        return None
    seat = seat_of(session, game, player)
    return None if seat is None else seat.number


def mover(game: Game) -> int | None:
    """The 0-based seat to move (public to everyone), or None."""
    state = state_of(game)
    if state is None or game.status != "active":
        return None
    return kind_of(game).rules.to_move(state)


def _viewed(game: Game, seat: int | None, state: Any) -> Any:
    if shows_everything(game) or not hides_anything(game):
        return state
    return kind_of(game).rules.view(state, seat)


@dataclass(frozen=True)
class View:
    """One viewer's sight of one position of a game.  ``state`` and
    ``position`` are already viewed; ``ply`` is None for a position that is
    not stored (a preview)."""

    game: Game
    seat: int | None
    ply: int | None
    state: Any
    position: str

    def text_diagram(self) -> str:
        return kind_of(self.game).notation.text_diagram(self.state)

    def image(self, fmt: str) -> str | bytes:
        """The board as "svg", "png" or "txt" (``diagrams.FORMATS``), drawn
        from the viewed position; ``KeyError`` for another format."""
        return diagrams.render(self.game.kind, self.game.options, self.position, fmt)

    def svg(self) -> str:
        return str(self.image("svg"))

    def scores(self) -> list[int]:
        return list(kind_of(self.game).rules.scores(self.state))

    def legend(self) -> tuple[tuple[str, ...], int]:
        """What the board's labels mean (the diagram's legend lines) and how
        many players its colour legend names (0: none), for the legend
        shown under the board."""
        drawn = kind_of(self.game).notation.diagram(self.state)
        return tuple(drawn.legend), drawn.players


def _view(game: Game, seat: int | None, ply: int | None, state: Any, stored: str) -> View:
    viewed = _viewed(game, seat, state)
    position = stored if viewed is state else kind_of(game).notation.format_position(viewed)
    return View(game, seat, ply, viewed, position)


def _stored_at(session: Session, game: Game, ply: int) -> str | None:
    """The stored (full) position after ``ply`` turns, or None if unknown."""
    if game.position is None or not 0 <= ply <= game.ply:
        return None
    if ply == game.ply:
        return game.position
    if ply == 0:  # the dealt start, after the chance events settled before the first turn
        start = dealt_state(game, len(seats_of(session, game)))
        return kind_of(game).notation.format_position(start)
    turn = session.exec(select(Turn).where(Turn.game_id == game.id, Turn.ply == ply)).first()
    return turn.position if turn is not None else None


def at(session: Session, game: Game, seat: int | None, ply: int | None = None) -> View | None:
    """``seat``'s view of the game after ``ply`` turns (default: now); None
    before the start or for a ply the game has not reached."""
    ply = game.ply if ply is None else ply
    stored = _stored_at(session, game, ply)
    if stored is None:
        return None
    return _view(game, seat, ply, state_of(game, stored), stored)


def of_position(game: Game, seat: int | None, position: str) -> View:
    """``seat``'s view of a position that is not stored (a preview kept in
    an outbox row).  Viewing a view again changes nothing, so a position
    already viewed for this seat may be given."""
    return _view(game, seat, None, state_of(game, position), position)


def of_preview(game: Game, seat: int | None, preview: Any) -> View:
    """``seat``'s view of the state after a tentative turn
    (``pbem.services.turns.Preview``)."""
    return _view(game, seat, None, preview.state, preview.position)


def has_reports(game: Game) -> bool:
    """True when the game's notation reports what happened in a turn
    (``Notation.turn_report``)."""
    return type(kind_of(game).notation).turn_report is not Notation.turn_report


def turn_text(game: Game, seat: int | None, mover: int, text: str) -> str:
    """A turn's text (as written or canonical) played by 0-based
    ``mover``, as ``seat`` may read it: while the game is on, without the
    settings of other seats a game keeps secret (``Notation.private_turn_text``:
    Alheimur's standing orders); once it is over, as stored."""
    if shows_everything(game):
        return text
    return kind_of(game).notation.private_turn_text(text, mover, seat)


def turn_report(session: Session, game: Game, seat: int | None, ply: int) -> str:
    """What happened in turn ``ply`` (1 for the first) as the game's
    notation reports it (``Notation.turn_report``: every player may see
    it), replayed from the stored full position before the turn, the turn
    as played and the chance outcomes stored with it; "" when the game has
    no report or the turn is not stored.  ``seat`` is the viewer (a report
    names only what every player sees, so it is the same for all)."""
    notation = kind_of(game).notation
    if not has_reports(game) or ply < 1:
        return ""
    before = _stored_at(session, game, ply - 1)
    turn = session.exec(select(Turn).where(Turn.game_id == game.id, Turn.ply == ply)).first()
    if before is None or turn is None:
        return ""
    state = state_of(game, before)
    outcomes = [tuple(event["values"]) for event in turn.chance or ()]
    try:
        return notation.turn_report(state, notation.parse_turn(state, turn.canonical), outcomes)
    except PbemError:  # a stored turn that does not replay from the position before it: no report, no error page
        return ""


def ranking(game: Game) -> list[tuple[int, ...]]:
    """The final standings as the rules order them (groups of 0-based
    seats, best first, ``Rules.ranking``) of a finished game that was played
    out to its end; empty for any other game (resigned, timed out, drawn by
    agreement: the stored result says who won those).  Public: a finished
    game shows everything."""
    if game.status != FINISHED or game.position is None:
        return []
    rules = kind_of(game).rules
    state = state_of(game)
    if not rules.is_over(state):
        return []
    return [tuple(group) for group in rules.ranking(state)]


def sample_boards(kind_name: str, plies: int, options: dict[str, str] | None = None,
                  seed: str = "0" * 64) -> list[tuple[str | None, str, tuple[str, ...]]]:
    """A short sample game for a game's guide page: the start and the
    positions after its first ``plies`` legal turns (the rules' first
    choice each time, chance settled from the published ``seed``), as a
    spectator sees them: ``(turn, svg, legend lines)`` each, ``turn`` None
    for the start.  No stored game: nothing to hide beyond the rules' view."""
    kind = registry.get(kind_name)
    rules, notation = kind.rules, kind.notation
    options = rules.normalize_options(options or {})
    players = rules.min_players
    state = rules.seeded_state(players, options, seed) if rules.uses_chance else rules.initial_state(players, options)
    state, _ = settle_from_seed(rules, state, seed, 0) if rules.uses_chance else (state, None)
    shown: list[tuple[str | None, str, tuple[str, ...]]] = []

    def add(turn: str | None, at: Any) -> None:
        viewed = rules.view(at, None)
        drawn = notation.diagram(viewed)
        svg = diagrams.render(kind.name, options, notation.format_position(viewed), "svg")
        shown.append((turn, str(svg), tuple(drawn.legend)))

    add(None, state)
    for ply in range(1, plies + 1):
        if rules.is_over(state):
            break
        texts, _more = notation.first_legal_texts(state, 1)
        if not texts:
            break
        turn = notation.parse_turn(state, texts[0])
        state = rules.apply(state, turn)
        if rules.uses_chance:
            state, _ = settle_from_seed(rules, state, seed, ply)
        add(texts[0], state)
    return shown


def legal(game: Game, seat: int | None, limit: int) -> tuple[list[str], bool]:
    """At most ``limit`` of the turns ``seat`` may play now, and whether
    there are more: none unless it is that seat's turn."""
    if seat is None or mover(game) != seat:
        return [], False
    return kind_of(game).notation.first_legal_texts(state_of(game), limit)


def legal_groups(game: Game, seat: int | None, limit: int) -> tuple[list[LegalGroup], bool]:
    """``legal`` as a person reads it: at most ``limit`` groups of the turns
    ``seat`` may play now (``Notation.legal_groups``: one turn a group, or a
    game's own grouping, such as Taiga's by tile and place), and whether
    there are more; none unless it is that seat's turn."""
    if seat is None or mover(game) != seat:
        return [], False
    return kind_of(game).notation.legal_groups(state_of(game), limit)


def clicks(game: Game, seat: int | None, prefix: list[str]) -> ClickOptions | None:
    """Play by clicking, step by step: after the clicks ``prefix``, what
    ``seat`` may click next and which turns they complete
    (``notation.clicks``); None unless it is that seat's turn.  Asked of the
    seat's view, so no click reveals what the seat may not see."""
    if seat is None or mover(game) != seat:
        return None
    return kind_of(game).notation.click_options(_viewed(game, seat, state_of(game)), prefix)


#: at most this many legal turns (with their clicks) go into the game page;
#: with more the browser asks ``clicks`` click by click
CLICKED_TURNS_SENT = 3000


def click_board(game: Game, seat: int | None, limit: int = CLICKED_TURNS_SENT) -> dict[str, Any] | None:
    """What the browser needs to play by clicking now, for ``seat`` to
    move: where the board's clickable squares and zone items are drawn, and
    every legal turn with its clicks (``turns`` None when there are more
    than ``limit``, or when the game answers ``click_options`` itself: then
    ask ``clicks`` step by step).  None unless it is
    that seat's turn."""
    if seat is None or mover(game) != seat:
        return None
    notation = kind_of(game).notation
    state = _viewed(game, seat, state_of(game))
    # a game that answers click by click itself (it has very many turns) is asked that way
    stepwise = type(notation).click_options is not Notation.click_options
    listed = None if stepwise else clicked_turns(notation, state, limit)
    return {"board": diagram_regions.regions(notation.diagram(state)),
            "turns": None if listed is None else [[text, list(c)] for text, c in listed]}


def preview_marked_svg(game: Game, seat: int | None, preview: Any) -> str:
    """The board after a previewed turn, as ``seat`` sees it, with the
    squares and zone items the turn changed outlined."""
    notation = kind_of(game).notation
    before = notation.diagram(_viewed(game, seat, state_of(game)))
    sight = of_preview(game, seat, preview)
    return diagram_regions.marked_svg(sight.svg(), diagram_regions.changed(before, notation.diagram(sight.state)))


def example_turn(session: Session, game: Game, seat: int | None, ply: int) -> str:
    """A turn to show in "reply with your turn, e.g. ...": the viewer's
    first legal turn when it was their turn after ``ply`` turns (a mail
    sent late shows the turn it asked for), else the notation's example."""
    kind = kind_of(game)
    stored = _stored_at(session, game, ply)
    state = state_of(game, stored) if stored is not None else None
    listed: list[str] = []
    if seat is not None and state is not None and kind.rules.to_move(state) == seat:
        listed, _more = kind.notation.first_legal_texts(state, 1)
    if listed:
        return listed[0]
    example = kind.notation.example_turn()
    assert example is not None  # its default ("...") when the notation has no example
    return example


def turn_positions(session: Session, game: Game, seat: int | None, turns: list[Turn]) -> dict[int, str]:
    """The position after each of ``turns`` as ``seat`` may see it, by ply."""
    if shows_everything(game) or not hides_anything(game):
        return {turn.ply: turn.position for turn in turns}
    return {turn.ply: _view(game, seat, turn.ply, state_of(game, turn.position), turn.position).position
            for turn in turns}


def published_deal(kind_name: str, options: dict[str, str], seed: str, players: int = 1) -> tuple[str, str]:
    """The deal of a published seed (a puzzle: no stored game, no seat), as
    anyone not seated sees it: its position string and text diagram."""
    kind = registry.get(kind_name)
    state, _ = settle_from_seed(kind.rules, kind.rules.seeded_state(players, options, seed), seed, 0)  # as games start
    viewed = kind.rules.view(state, None)
    return kind.notation.format_position(viewed), kind.notation.text_diagram(viewed)


# -- records ---------------------------------------------------------------
def _reader(game: Game, seat: int | None) -> int | None | str:
    """Whom the record writers write for: everyone once the game is over
    (or when nothing is hidden), else ``seat``."""
    if shows_everything(game) or not hides_anything(game):
        return record_format.EVERYONE
    return seat


def record_json(session: Session, game: Game, seat: int | None) -> str:
    """The game record as JSON: while the game is on, its start, final
    position and chance outcomes as ``seat`` may see them (outcomes they
    did not see written ``?``); after the end, the full record."""
    return record_format.write_json(records.record_of(session, game), _reader(game, seat))


def record_text(session: Session, game: Game, seat: int | None) -> str:
    """The game record as text, viewed as for ``record_json``."""
    return record_format.write_text(records.record_of(session, game), _reader(game, seat))
