"""Alheimur turn notation: short, forgiving on input, canonical on output;
refusals name the step and the reason; records of rich random games (with
battles) replay from their text and their rolls, and views hide cards."""

import random
import re

import pytest
from alheimur_helpers import GAME, position, world
from alheimur_selfplay import random_turn, sensible_colonists

from engine.alheimur.pieces import Board, Expand, FireOrder, Flip, Fly, Land, Launch, Migrate, Place, Return, Turn
from engine.base import settle_from_seed
from engine.errors import IllegalTurnError, MalformedTurnError
from notation import record as records
from notation.alheimur import NOTATION
from notation.alheimur.turns import read_place

HOME = "a4=1:1 b4=1:2 c4=1:1 a3=1:1 b3=1:3"
HALVES = ("AAEE", "AEAE", "FFFF", "WWTT")


def state():
    w3 = world("3", on="a4=2:1 d4=1:1i", orbit="1T2 1T3+2")
    return position(world("1", on=HOME, orbit="1F2 1T3+1 1T2"), world("2", on="d1=2:3", orbit="2F1"), w3,
                    space="1F1", players=3)


def test_every_kind_of_item_reads_and_writes_back():
    text = ("1d1+1 1c4-d4 1a3^T 1b4^M2 1T3+1>d3 3d4^M2 1F2=T 3T3+2!d1 1F2>S SF1>2; "
            "battles 2; fire 2 t; standing hold")
    from notation.alheimur.turns import play_text, read_play
    turn = read_play(state(), text)
    assert turn.expansion == (Expand("1", "d1", 1),)
    assert turn.moves == (Migrate("1", "c4", "d4"), Launch("1", "a3", "T"), Launch("1", "b4", "M", 2),
                          Return("1", 3, False, 1, "d3"), Flip("1", 2, False), Land("3", 3, 2, "d1"),
                          Board("3", "d4", 2), Fly("1", "S", 2, True), Fly("S", "2", 1, True))
    assert turn.battles == ("2",) and turn.fire == FireOrder(False, (1,), True)
    assert turn.standing == FireOrder(hold=True)
    assert play_text(turn) == ("1d1+1 1c4-d4 1a3^T 1b4^M2 1T3+1>d3 1F2=T 3T3+2!d1 3d4^B2 1F2>S SF1>2; "
                               "battles 2; fire 2 t; standing hold")


def test_input_is_forgiving_about_case_commas_arrows_order_and_tiles():
    s = position(world("1", layout=HALVES, on="a4=1:1 a3=1:1 c4=1:1 a2=1:3", orbit="1F2"),
                 world("2", on="d1=2:3"))
    turn = NOTATION.parse_turn(s, "1f2 -> s ,  1D3+1\nHOLD")  # d3 is a tile of territory d4
    assert NOTATION.format_turn(s, NOTATION.parse_turn(s, "1F2→S; 1d3+1; hold")) == "1d4+1 1F2>S; hold"
    assert turn == Turn((Expand("1", "d4", 1),), (Fly("1", "S", 2, True),), (), FireOrder(hold=True))
    assert NOTATION.format_turn(s, NOTATION.parse_turn(s, "1a4 = 2")) == "1a4=2"


def test_the_empty_turn_is_pass():
    s = position(world("1", on=HOME), world("2", on="d1=2:3"))
    assert NOTATION.format_turn(s, NOTATION.parse_turn(s, "pass")) == "pass"
    assert NOTATION.parse_turn(s, "-") == Turn()


def test_refusals_name_the_step_and_the_reason():
    s = position(world("1", on=HOME, orbit="1F2"), world("2", on="d1=2:3"))
    with pytest.raises(IllegalTurnError, match=r"movement step 1 \(migrate\).*spaceport"):
        NOTATION.parse_turn(s, "1b3-c3")
    with pytest.raises(IllegalTurnError, match=r"expansion on world 1: .*occupied"):
        NOTATION.parse_turn(s, "1a4+1")
    with pytest.raises(IllegalTurnError, match=r"movement step 6 \(fly\).*no fighter of 3"):
        NOTATION.parse_turn(s, "1F3>S")
    with pytest.raises(IllegalTurnError, match="no world 5"):
        NOTATION.parse_turn(s, "5a4+1")
    with pytest.raises(MalformedTurnError, match="no expansion action or move"):
        NOTATION.parse_turn(s, "1a4*1")
    with pytest.raises(MalformedTurnError, match="a fighter carries no marine"):
        NOTATION.parse_turn(s, "1F2+1>S")


def test_a_placement_reads_turned_in_several_ways():
    for text in ("e~", "E~", "et", "e t", "e turned", "e180"):
        assert read_place(text) == Place(1, 0, True)
    assert read_place("se") == Place(1, 1, False)
    with pytest.raises(MalformedTurnError, match="n, s, e, w"):
        read_place("up")


def rich_game(players: int, seed: str, rng: random.Random, limit: int = 400):
    """A random game with moves and battles, as the server plays it: texts,
    outcomes after each, states."""
    state, happened = settle_from_seed(GAME, GAME.seeded_state(players, None, seed), seed, 0)
    texts, outcomes, states = [], [[records.Outcome(e.purpose, v) for e, v in happened]], [state]
    while not GAME.is_over(state) and len(texts) < limit:
        if state.phase == "play":
            turn = random_turn(state, rng)
        elif state.phase == "colonists":
            turn = sensible_colonists(state, rng)
        else:
            turn = rng.choice(GAME.legal_turns(state))
        text = NOTATION.format_turn(state, turn)
        assert NOTATION.parse_turn(state, text) == turn
        state, happened = settle_from_seed(GAME, GAME.apply(state, turn), seed, len(texts) + 1)
        texts.append(text)
        outcomes.append([records.Outcome(e.purpose, v) for e, v in happened])
        states.append(state)
    return texts, outcomes, states


def test_records_of_games_with_battles_replay_and_hide_nothing_they_should_show():
    rolled = 0
    for n, players in enumerate((2, 3, 4, 8)):
        seed = f"{n + 10:02x}" * 32
        texts, outcomes, states = rich_game(players, seed, random.Random(n))
        rolled += sum(1 for o in outcomes for x in o if x.purpose in ("attack", "defence"))
        names = [f"P{i} <p{i}@example.org>" for i in range(players)]
        record = records.seeded_record("alheimur", names, {}, seed, date="2026.11.25")
        record.turns = texts
        record.chance = [list(o) for o in outcomes]
        record.result = records.result_tag(NOTATION, states[-1]) if False else records.result_tag(
            __import__("notation.registry").registry.get_any("alheimur"), states[-1])
        record.tags[records.SEED] = seed
        played = records.replay(record)
        assert played.final == states[-1]
        for s in states:
            for viewer in list(range(players)) + [None]:
                view = GAME.view(s, viewer)
                text = NOTATION.format_position(view)
                if s.phase != "over":
                    assert all(w.orbit_card == "?" for w in view.worlds)
                assert NOTATION.parse_position(text) == view
    assert rolled > 0, "the random games fought no battle"


def test_the_turn_report_shows_survival_checks_moves_and_every_die():
    s = position(world("1", on=HOME), world("2", on="d1=2:3", orbit="1F3 2T2"))
    turn = NOTATION.parse_turn(s, "1d4+1 1c4-d3")
    from notation.alheimur import KIND
    report = KIND.notation.turn_report(s, turn, [("6", "1"), ("6", "2", "3"), ("4", "3", "1"), ("1", "2"),
                                            ("5", "5", "6"), ("6",)])
    lines = report.splitlines()
    assert lines[0] == "World 1: expand d4 with a 1"
    assert lines[1].startswith("World 1 survival: a3 1: 3 neighbours (needs 2-3)")
    assert "World 1: c4 migrates to d3" in lines
    assert "2's transport 2 fires at 1's fighter 3: 6 1, 1 hit" in lines
    assert "defence 6 2 3: 1 cancelled" in lines
    assert "defence 6: 1 cancelled, destroyed" in lines


def test_boarding_after_a_landing_on_the_same_territory_reads_as_step_5():
    s = position(world("1", on=HOME), world("2", on="d1=2:3 a1=2:1", orbit="1T2+2 1T3"))
    turn = NOTATION.parse_turn(s, "2T2+2!a4 2a4^M3")
    assert turn.moves == (Land("2", 2, 2, "a4"), Board("2", "a4", 3))
    assert NOTATION.format_turn(s, turn) == "2T2+2!a4 2a4^B3"


def test_a_colonist_that_migrated_in_step_1_launches_as_a_marine_in_step_2():
    s = position(world("1", on=HOME, orbit="1T2"), world("2", on="d1=2:3"))
    turn = NOTATION.parse_turn(s, "1c4-d4 1d4^M2")
    assert turn.moves == (Migrate("1", "c4", "d4"), Launch("1", "d4", "M", 2))


def test_fire_at_one_world_reads_and_writes_in_world_order():
    s = position(world("1", on=HOME), world("2", on="d1=2:3", orbit="1F1 2F1"),
                 world("3", on="d1=3:3", orbit="1F1 3F1"), players=3)
    turn = NOTATION.parse_turn(s, "pass; AT 3 fire 2 t; hold; at 2 hold")
    assert turn.fire == FireOrder(hold=True)
    assert turn.fire_at == (("2", FireOrder(hold=True)), ("3", FireOrder(False, (1,), True)))
    assert NOTATION.format_turn(s, turn) == "pass; hold; at 2 hold; at 3 fire 2 t"
    with pytest.raises(MalformedTurnError, match="fire at world 2 is given twice"):
        NOTATION.parse_turn(s, "at 2 hold; at 2 fire")


def test_a_bad_position_string_is_refused_in_the_reader_s_language():
    from engine.errors import PositionError
    from engine.i18n import language

    with language("fr"):
        with pytest.raises(PositionError) as refused:
            NOTATION.parse_position("9 play", {})
        assert str(refused.value).startswith("'9 play' a 2 champs ; une position en a 14, puis un par monde")
    with pytest.raises(PositionError) as refused:
        NOTATION.parse_position("9 play", {})
    assert str(refused.value).startswith("'9 play' has 2 fields; a position has 14 and then one per world")


def test_a_position_names_a_ships_owner_apart_from_a_turns_orbit_and_still_reads_the_old_form():
    # in a turn, 1F2 is a fighter of 2 in the orbit of world 1; in a position it was player 1's fighter of 2
    s = position(world("1", on=HOME, orbit="2F2 1T3+1"), world("2", on="d1=2:3"), space="1F1")
    text = NOTATION.format_position(s)
    fields = text.split()
    assert fields[13] == "p1F1"  # space
    assert fields[14].endswith(":p1T3+1,p2F2") and fields[15].endswith(":-")  # world 1's orbit, world 2's
    assert not re.search(r"(^|[:,.])[1-8][FT][1-3]", " ".join(fields[13:]).replace(" ", ":"))
    assert NOTATION.parse_position(text) == s
    old = re.sub(r"(?<=[:,.\s])p(?=[1-8][FT])", "", text)  # as positions were stored before
    assert "p2F2" not in old and ":1T3+1,2F2" in old
    assert NOTATION.parse_position(old) == s
    assert NOTATION.format_position(NOTATION.parse_position(old)) == text
    assert "p2F2" in NOTATION.text_diagram(s) and " 2F2" not in NOTATION.text_diagram(s)


def test_a_launch_as_a_marine_and_a_boarding_are_written_apart_and_old_records_still_read():
    # 1b4 is alice's colonist (step 2: launch), 3d4 her invader on world 3 (step 5: board)
    s = state()
    launch, board = Launch("1", "b4", "M", 2), Board("3", "d4", 2)
    assert NOTATION.format_turn(s, Turn(moves=(launch, board))) == "1b4^M2 3d4^B2"
    assert NOTATION.parse_turn(s, "1b4^M2 3d4^B2").moves == (launch, board)
    assert NOTATION.parse_turn(s, "3D4 ^ b2").moves == (board,)
    assert NOTATION.parse_turn(s, "1b4^M2 3d4^M2").moves == (launch, board)  # as records wrote both before '^B'
    with pytest.raises(IllegalTurnError, match=r"step 5 \(board\).*holds a colonist; only invaders board"):
        NOTATION.parse_turn(s, "1b4^B2")
    assert ("1b4", "^M2") in {NOTATION.turn_clicks(s, Turn(moves=(launch,)))}
    assert NOTATION.turn_clicks(s, Turn(moves=(board,))) == ("3d4", "^B2")


def test_the_text_picture_says_no_ships_in_orbit_never_orbit_none():
    from engine.i18n import language

    s = position(world("1", on=HOME), world("2", on="d1=2:3", orbit="1F2 2T3+1"))
    text = NOTATION.text_diagram(s)
    assert "orbit: none" not in text and "none" not in text
    assert "World 1 (red); no ships in orbit" in text
    assert "World 2 (blue); ships in orbit: p1F2 p2T3+1" in text
    assert "No ships in space" in text
    assert "Ships in space: p1F1" in NOTATION.text_diagram(state())
    with language("fr"):
        french = NOTATION.text_diagram(s)
    assert "Monde 1 (rouge) ; aucun vaisseau en orbite" in french
    assert "Monde 2 (bleu) ; vaisseaux en orbite : p1F2 p2T3+1" in french
    assert "Aucun vaisseau dans l'espace" in french


def test_refusing_to_flip_a_loaded_transport_says_it_carries_a_marine():
    s = position(world("1", on=HOME, orbit="1T3+1 1T2"), world("2", on="d1=2:3"))
    with pytest.raises(IllegalTurnError, match=r"movement step 3 \(change status\): your transport of 3 in "
                                               r"the orbit of world 1 carries a marine of 1"):
        NOTATION.parse_turn(s, "1T3=F")
    with pytest.raises(IllegalTurnError, match=r"step 3 \(change status\): a transport carrying a marine "
                                               r"\(here a marine of 1\) does not change status"):
        NOTATION.parse_turn(s, "1T3+1=F")
    assert NOTATION.parse_turn(s, "1T2=F").moves == (Flip("1", 2, True),)  # an empty one does
    two = position(world("1", on=HOME, orbit="1T3+1 1T3"), world("2", on="d1=2:3"))
    assert NOTATION.parse_turn(two, "1T3=F").moves == (Flip("1", 3, True),)  # the empty one of the two
    with pytest.raises(IllegalTurnError, match="your transport of 3 in the orbit of world 1 carries a marine"):
        NOTATION.parse_turn(two, "1T3=F 1T3=F")  # the empty one flipped, the loaded one is left
    with pytest.raises(IllegalTurnError, match="no fighter of 3 in the orbit of world 1 that has not already"):
        NOTATION.parse_turn(two, "1T3=F 1F3=T")
