"""Taiga notation: turns forgiving on input and canonical on output, the
coordinate scheme of a map growing from 0,0, position strings, records of
2 to 5 players that replay, and the map diagrams (PNG, SVG and text)."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image
from taiga_helpers import GAME, laid, play

from engine import chance
from engine.base import settle_from_seed
from engine.errors import AmbiguousTurnError, IllegalTurnError, MalformedTurnError, PositionError, RecordError
from engine.taiga import board as maps
from engine.taiga.state import Choose, Discard, Place
from notation import record as records
from notation import registry
from notation.drawing import render as diagrams
from notation.taiga import EXAMPLE, NOTATION, read_position
from notation.taiga.pictures import HARDWOOD, SOFTWOOD


@pytest.mark.parametrize("written", [
    "S4 at 0,1 turn 180, surveyor s", "s4 0,1 t180 surveyor s", "S4 @ (0, 1) rotate 180 degrees, surveyor west",
    "place s4 at 0 1 turned 180 with a meeple on s", "  S4  at 0,1   r180 ; surveyor s. ", "S4 0,1 turn 180, surveyor",
])
def test_a_turn_is_read_forgivingly_and_written_canonically(written):
    state = laid(drawn="S4")
    turn = NOTATION.parse_turn(state, written)
    assert turn == Place("S4", 0, 1, 2, meeple="s")
    assert NOTATION.format_turn(state, turn) == "S4 at 0,1 turn 180, surveyor s"


def test_the_coordinates_grow_east_and_north_from_the_start_tile_and_go_negative():
    state = laid(drawn="R1")
    west = NOTATION.parse_turn(state, "R1 at \u22121,0 turn 90")  # a typographic minus
    assert (west.x, west.y) == (-1, 0) and NOTATION.format_turn(state, west) == "R1 at -1,0 turn 90"
    after = play(laid(drawn="S1"), "S1 at 0,1 turn 180")
    assert (after.placed[-1].x, after.placed[-1].y) == (0, 1)  # north of the start tile


def test_an_unwritten_turn_is_the_one_that_fits_and_several_are_asked_for():
    assert NOTATION.parse_turn(laid(drawn="S1"), "S1 at 0,1").turn == 2  # only turned 180 fits north of ST
    with pytest.raises(AmbiguousTurnError, match="S4 fits at 0,1 turned 90 or 180; say which"):
        NOTATION.parse_turn(laid(drawn="S4"), "S4 at 0,1")


def test_what_only_one_choice_fits_may_be_left_out():
    state = laid(drawn="S1")
    assert NOTATION.parse_turn(state, "S1 at 0,1 turn 180, surveyor, pay") == \
        Place("S1", 0, 1, 2, meeple="s", choices=(("s", "pay"),))
    assert NOTATION.parse_turn(laid(drawn="MA"), "discard") == Discard("MA")
    assert NOTATION.parse_turn(laid([("R1", 1, 0, 90)], drawn="S1"), "S1 at 0,1 turn 180, truck 1,0") \
        .truck == (1, 0, "e")


def test_the_choice_for_another_players_completed_forest_is_pay_or_lumberjack():
    state = play(laid(pieces=[(2, "surveyor", 0, 0, "n")], drawn="S1"), "S1 at 0,1 turn 180")
    assert NOTATION.parse_turn(state, "Pay.") == Choose("pay")
    assert NOTATION.parse_turn(state, "I choose lumberjack") == Choose("lumberjack")
    assert [NOTATION.format_turn(state, t) for t in GAME.legal_turns(state)] == ["pay", "lumberjack"]


@pytest.mark.parametrize("written, complaint", [
    ("hello", "does not start with a tile's code"),
    ("Q7 at 0,1", "there is no tile Q7"),
    ("S1 at 0,1 turn 45", "0, 90, 180 or 270"),
    ("S1 at 0,1 turn 180 and a banana", "'and a banana' is not part of a turn|'banana'"),
    ("", "empty"),
])
def test_text_that_is_no_turn_is_refused_saying_what_a_turn_looks_like(written, complaint):
    with pytest.raises(MalformedTurnError, match=complaint) as error:
        NOTATION.parse_turn(laid(drawn="S1"), written)
    assert "S4 at 1,0 turn 90" in str(error.value) or "empty" in complaint


def test_a_refused_turn_changes_nothing():
    state = laid(drawn="S1")
    before = NOTATION.format_position(state)
    with pytest.raises(IllegalTurnError):
        NOTATION.parse_turn(state, "S1 at 0,-1 turn 0")
    assert NOTATION.format_position(state) == before


def test_the_example_position_reads_and_bad_positions_say_what_is_wrong():
    state = read_position(EXAMPLE)
    assert state.drawn == "?" and len(state.pile) == 69 and NOTATION.format_position(state) == EXAMPLE
    with pytest.raises(PositionError, match="has 1 fields, not 10"):
        read_position("ST@0,0")
    with pytest.raises(PositionError, match="does not fit"):
        read_position(EXAMPLE.replace("S4@0,1turn180", "S4@0,1"))
    with pytest.raises(PositionError, match="the set has"):
        read_position(EXAMPLE.replace("?*69", "?*68"))


def test_a_rotation_is_written_in_degrees_in_turns_and_positions_and_quarter_turns_still_read():
    older = "ST@0,0/S4@0,1r2 1s@0,1s - 10/10 -/- - ?*69 ? 2 -"  # as positions were written before
    assert EXAMPLE == older.replace("r2", "turn180")
    for written in (older, EXAMPLE, older.replace("r2", "r180"), older.replace("r2", "t180")):
        assert NOTATION.format_position(read_position(written)) == EXAMPLE
    state = laid(drawn="S4")
    for written in ("S4 at 0,1 turn 180", "S4 at 0,1 r2", "S4@0,1r2", "S4@0,1turn180", "S4 0,1 r180"):
        assert NOTATION.format_turn(state, NOTATION.parse_turn(state, written)) == "S4 at 0,1 turn 180"
    with pytest.raises(PositionError, match="'turn90', 'turn180' or 'turn270'"):
        read_position(older.replace("r2", "r4"))


def test_during_a_pending_choice_the_position_names_who_chooses_now_then_who_lays_the_next_tile():
    # player 1 completes player 3's forest: player 3 chooses now, player 2 lays the next tile
    state = play(laid(money=(10, 10, 10), pieces=[(3, "surveyor", 0, 0, "n")], drawn="S1"), "S1 at 0,1 turn 180")
    written = NOTATION.format_position(state)
    fields = written.split()
    assert GAME.to_move(state) == 2 and state.mover == 1 and fields[8:] == ["3>2", "3@0,1s"]
    assert read_position(written) == state
    assert NOTATION.format_position(GAME.view(state, 0)) == \
        "ST@0,0/S1@0,1turn180 3s@0,0n - 10/10/10 -/-/- - ?*70 - 3>2 3@0,1s"  # the guide's example
    older = " ".join(fields[:8] + ["2", fields[9]])  # as positions were written before: the next to lay a tile
    assert read_position(older) == state
    with pytest.raises(PositionError, match="player 3 is to move, choosing for the first pending forest"):
        read_position(" ".join(fields[:8] + ["1>2", fields[9]]))
    with pytest.raises(PositionError, match="only while a choice is pending"):
        read_position(EXAMPLE.replace(" 2 -", " 1>2 -"))
    assert NOTATION.format_position(read_position(EXAMPLE)).split()[8] == "2"  # no choice pending: one number


def _random_game(players: int, seed: str, rng: random.Random):
    state, happened = settle_from_seed(GAME, GAME.seeded_state(players, {}, seed), seed, 0)
    texts, outcomes = [], [[records.Outcome(e.purpose, o) for e, o in happened]]
    while not GAME.is_over(state):
        text = NOTATION.format_turn(state, rng.choice(GAME.legal_turns(state)))
        state, happened = settle_from_seed(GAME, GAME.apply(state, NOTATION.parse_turn(state, text)), seed,
                                           len(texts) + 1)
        texts.append(text)
        outcomes.append([records.Outcome(e.purpose, o) for e, o in happened])
    return state, texts, outcomes


@pytest.mark.parametrize("players", [2, 5])
def test_records_of_two_to_five_players_replay_and_verify_against_the_seed(players):
    seed = f"{players:064x}"
    final, texts, outcomes = _random_game(players, seed, random.Random(players))
    names = [f"P{n} <p{n}@example.org>" for n in range(1, players + 1)]
    record = records.seeded_record("taiga", names, {}, seed, date="2026.11.25")
    record.turns, record.chance = texts, outcomes
    record.result = records.result_tag(registry.get("taiga"), final)
    record.tags[records.SEED] = seed
    again = records.read_text(records.write_text(record))
    assert records.check(again).final == final
    assert len(final.placed) + len(final.discards) == 72 and chance.commitment(seed) in records.write_text(record)


@pytest.mark.parametrize("viewer", [0, 1])
def test_a_players_copy_of_a_game_in_play_is_refused_as_a_players_view(viewer):
    seed = f"{7:064x}"
    rng = random.Random(7)
    state, happened = settle_from_seed(GAME, GAME.seeded_state(2, {}, seed), seed, 0)
    texts, outcomes = [], [[records.Outcome(e.purpose, o) for e, o in happened]]
    for ply in range(1, 4):
        text = NOTATION.format_turn(state, rng.choice(GAME.legal_turns(state)))
        state, happened = settle_from_seed(GAME, GAME.apply(state, NOTATION.parse_turn(state, text)), seed, ply)
        texts.append(text)
        outcomes.append([records.Outcome(e.purpose, o) for e, o in happened])
    record = records.seeded_record("taiga", ["A", "B"], {}, seed)
    record.turns, record.chance = texts, outcomes
    copy = records.write_text(record, viewer=viewer)
    assert "?*71" in copy and ("0. {draw ?}" in copy) == (viewer == 1)  # player 1 sees their own first draw
    with pytest.raises(RecordError, match="player's view of a game still going on, which cannot be replayed") as refused:
        records.check(records.read(copy))
    assert "waits for no chance event" not in str(refused.value)
    without = records.read(copy)
    without.chance = []  # no outcomes at all: the first turn cannot be played either, and it says why
    with pytest.raises(RecordError, match="player's view of a game still going on"):
        records.replay(without)


# -- diagrams ----------------------------------------------------------------------------------
def _midgame():
    state = laid([("C1", 1, 0, 270), ("H2", -1, 0, 0)], pieces=[(1, "keeper", 1, 0, "c"), (2, "truck", 0, 0, "e"),
                                                               (2, "surveyor", -1, 0, "n")], drawn="S1")
    return state


def test_the_text_map_shows_each_tile_with_coordinates_around_it():
    text = NOTATION.text_diagram(GAME.view(_midgame(), 0))
    lines = text.splitlines()
    assert lines[1].split() == ["-2", "-1", "0", "1", "2"]  # x across the top
    row = next(line for line in lines if line.lstrip().startswith("0 "))
    assert "=ST =" in row and "=C1*." in row and "=H2 =" in row  # y on the left, edges around each code
    assert "k1" in text and "t2" in text and "s2H" in text


def test_the_png_map_draws_forests_in_two_greens_and_pieces_in_player_colours():
    image = Image.open(io.BytesIO(diagrams.render_png(NOTATION.diagram(GAME.view(_midgame(), 0))))).convert("RGB")
    colours = {"#%02x%02x%02x" % c for _, c in image.getcolors(1 << 20)}
    assert {SOFTWOOD, HARDWOOD, diagrams.colour(0), diagrams.colour(1)} <= colours


def test_the_picture_shows_the_drawn_tile_to_its_player_only():
    mine = diagrams.render_svg(NOTATION.diagram(GAME.view(_midgame(), 0)))
    theirs = diagrams.render_svg(NOTATION.diagram(GAME.view(_midgame(), 1)))
    assert "drawn tile: S1" in mine and "tile S1 at 0,0" in mine
    assert "S1" not in theirs and "a face-down card" in theirs


def test_a_map_tile_may_carry_its_own_picture_and_text_glyph():
    """The generic part Taiga added to the diagrams: ``Tile.shapes`` and ``Tile.glyph``."""
    from notation.base import Diagram, Tile, TileShape, Zone, render_text

    shapes = (TileShape("polygon", ((0, 0), (1, 0), (0.5, 0.5)), "#123456"), TileShape("circle", (0.5, 0.5, 0.2), "#654321"))
    diagram = Diagram(0, 0, {}, zones=(Zone("Map", "tiles", (Tile((0, 0), "a", shapes=shapes, glyph=("ab", "cd")),
                                                             Tile((1, -1), "b", glyph=("ef", "gh")))),))
    svg = diagrams.render_svg(diagram)
    assert 'fill="#123456"' in svg and 'fill="#654321"' in svg and 'points="8.0,' in svg
    assert render_text(diagram).splitlines()[1:6] == ["   0 1", "   ab", " 0 cd", "     ef", "-1   gh"]
    with pytest.raises(ValueError, match="polygon, circle or text"):
        TileShape("star", (), "#000000")


def _a_map_of_some_size():
    """After 29 turns of three players (none with a truck): every player with money for one."""
    rng = random.Random(13)
    seed = f"{13:064x}"
    state = settle_from_seed(GAME, GAME.seeded_state(3, {}, seed), seed, 0)[0]
    for ply in range(1, 30):
        turn = rng.choice([t for t in GAME.legal_turns(state) if not getattr(t, "truck", None)])
        state = settle_from_seed(GAME, GAME.apply(state, turn), seed, ply)[0]
    return state


def test_the_first_hundred_legal_turns_show_every_place_the_drawn_tile_fits():
    state = _a_map_of_some_size()
    assert state.drawn and state.money[state.mover] >= 5
    texts, more = NOTATION.first_legal_texts(state, 100)
    places = {(t.code, t.x, t.y, t.turn) for t in GAME.legal_turns(state) if isinstance(t, Place)}
    shown = {(t.code, t.x, t.y, t.turn) for t in (NOTATION.parse_turn(state, text) for text in texts)}
    assert more and places and shown == places


def _turns_of_place_line(text):
    """The turns a line of ``legal_groups`` for one tile and place names."""
    for part in text.split("; "):
        written, alone, extras = part.partition(" alone or with ")
        if not alone:
            written, _with, extras = part.partition(" with ")
        if alone or not extras:
            yield written
        for extra in extras.removeprefix("one of: ").split(" | ") if extras else ():
            yield f"{written}, {extra}"


def test_the_legal_turns_are_grouped_by_tile_and_place_then_what_goes_with_them():
    state = _a_map_of_some_size()
    turns = GAME.legal_turns(state)
    groups, more = NOTATION.legal_groups(state, 1000)
    assert not more and sum(g.count for g in groups) == len(turns) > 10 * len(groups)
    canonical = {NOTATION.format_turn(state, t) for t in turns if not (isinstance(t, Place) and t.truck)}
    named = [text for g in groups if ", truck x,y side" not in g.text for text in _turns_of_place_line(g.text)]
    assert {NOTATION.format_turn(state, NOTATION.parse_turn(state, text)) for text in named} == canonical
    assert len(named) == len(canonical)  # each once
    (trucks,) = [g for g in groups if ", truck x,y side" in g.text]
    with_truck = [t for t in turns if isinstance(t, Place) and t.truck]
    assert trucks.count == len(with_truck) and trucks.text.startswith("or, instead of a meeple, a truck ($5)")
    taken = {(p.x, p.y, p.spot) for p in state.pieces if p.role == "truck"}
    free = [f"{x},{y} {s}" for x, y, s in maps.analyse(state.placed).segment_keys() if (x, y, s) not in taken]
    assert "one of " + ", ".join(free) + ", or for a road of the tile laid" in trucks.text
    assert all(f"{t.truck[0]},{t.truck[1]} {t.truck[2]}" in free or t.truck[:2] == (t.x, t.y) for t in with_truck)
    assert NOTATION.legal_groups(state, 3) == (groups[:3], True)
    # the guide's example, in both languages: player 1 at the start, having drawn S1
    from engine.i18n import language
    from notation.taiga import KIND

    for written in ("en", "fr"):
        with language(written):
            lines = [g.text + (f" ({g.count})" if g.count > 1 else "") for g in NOTATION.legal_groups(laid(drawn="S1"))[0]]
        assert "```\n" + "\n".join(lines) + "\n```" in KIND.guide(written).read_text(encoding="utf-8")
    # a turn of the choice for another player's forest, and a game with no grouping, list turn by turn
    pending = play(laid(pieces=[(2, "surveyor", 0, 0, "n")], drawn="S1"), "S1 at 0,1 turn 180")
    assert [g.text for g in NOTATION.legal_groups(pending)[0]] == ["pay", "lumberjack"]
    logger = registry.get("logger")
    start = logger.rules.initial_state(2)
    assert [g.text for g in logger.notation.legal_groups(start, 5)[0]] == logger.notation.first_legal_texts(start, 5)[0]


def test_a_huge_turn_is_refused_quickly_quoting_only_its_start():
    state = laid(drawn="S4")
    for text in ("x" * 100_000, "S4 at 0,1 " + "and then " * 5_000 + "x", "S4 0,1 " + "a1 " * 30_000):
        with pytest.raises(MalformedTurnError) as error:
            NOTATION.parse_turn(state, text)
        assert len(str(error.value)) < 1000


def test_a_french_reader_gets_taiga_refusals_captions_and_pictures_in_french():
    from engine.i18n import language

    state = _midgame()
    with language("fr"):
        with pytest.raises(IllegalTurnError) as refused:
            NOTATION.parse_turn(state, "S1 at 5,5")
        assert "ne touche aucune tuile" in str(refused.value)
        with pytest.raises(MalformedTurnError, match="ne fait pas partie d'un tour"):
            NOTATION.parse_turn(state, "S1 at 0,1 sideways")
        diagram = NOTATION.diagram(GAME.view(state, 0))
        assert diagram.caption[0].startswith("Joueur 1 (red) : 10 $")
        assert "Tuiles : vert foncé les résineux" in diagram.legend[0]
        position = NOTATION.format_position(GAME.view(state, 0))
        french = diagrams.render("taiga", {}, position, "svg")
    english = diagrams.render("taiga", {}, position, "svg")  # the cached French picture is not shown to others
    assert "Tuile piochée par le joueur 1 : S1" in french and "Player 1's drawn tile: S1" in english
