"""Game records in text and JSON: round trips, replay, and `pbem record`
naming the first bad turn."""

import json
import random

import pytest
from click.testing import CliRunner
from logger_helpers import NOTATION, RULES

from engine.errors import RecordError
from notation import record as records
from pbem.cli import main


def random_record(seed: int, players: int) -> records.Record:
    rng = random.Random(seed)
    state = RULES.initial_state(players)
    texts = []
    while not RULES.is_over(state):
        turn = rng.choice(RULES.legal_turns(state))
        texts.append(NOTATION.format_turn(state, turn))
        state = RULES.apply(state, turn)
    return records.Record(
        game="logger",
        players=[f"Player {i} <p{i}@example.org>" for i in range(1, players + 1)],
        turns=texts,
        date="2026.11.23",
        end_date="2026.12.24",
        result=RULES.result(state).tag(),
        tags={"Site": 'pbem "test" server'},
    ), state


@pytest.mark.parametrize("players", [2, 3, 4])
def test_text_records_round_trip_and_replay_to_the_same_position(players):
    rec, final = random_record(players, players)
    text = records.write_text(rec)
    again = records.read_text(text)
    assert records.write_text(again) == text
    assert records.replay(again).final == final
    assert again.players == rec.players
    assert again.tags["Site"] == 'pbem "test" server'


@pytest.mark.parametrize("players", [2, 4])
def test_json_records_round_trip(players):
    rec, final = random_record(10 + players, players)
    data = json.loads(records.write_json(rec))
    assert data["game"] == "logger"
    assert data["turns"][0] == {"round": 1, "player": 1, "turn": rec.turns[0]}
    assert data["final_position"] == NOTATION.format_position(final)
    again = records.read_json(records.write_json(rec))
    assert records.write_json(again) == records.write_json(rec)
    assert records.write_text(again) == records.write_text(rec)


def test_text_layout_is_one_round_per_line():
    rec = records.Record("logger", ["Ann", "Bob"], ["a1", "e5", "a1-a3 G P:b3", "e5-c5 G P:d5"], date="2026.11.23")
    assert records.write_text(rec) == (
        '[Game "logger"]\n'
        '[Options "spawn=seedling"]\n'
        '[Player1 "Ann"]\n'
        '[Player2 "Bob"]\n'
        '[Date "2026.11.23"]\n'
        '[Result "*"]\n'
        "\n"
        "1. a1 | e5\n"
        "2. a1-a3 G P:b3 | e5-c5 G P:d5\n"
        "*\n"
    )


def test_writing_canonicalises_forgiving_input():
    rec = records.Record("logger", ["Ann", "Bob"], ["A1", "e5", "a1 - a3 p:b3"])
    assert "2. a1-a3 G P:b3\n" in records.write_text(rec)


def test_a_record_from_a_start_position_keeps_it():
    start = "....2/...../...../...../1MMsM 1 0,0 2,2"
    rec = records.Record("logger", ["Ann", "Bob"], ["C:b1"], start=start)
    text = records.write_text(rec)
    assert f'[Start "{start}"]' in text
    assert NOTATION.format_position(records.replay(records.read_text(text)).final) == "....2/...../...../.ss.s/1..SM 2 2,0 2,2"


def write(tmp_path, text, name="game.pgn"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_record_check_accepts_a_good_record(tmp_path):
    rec, _ = random_record(3, 3)
    result = CliRunner().invoke(main, ["record", "check", write(tmp_path, records.write_text(rec))])
    assert result.exit_code == 0, result.output
    assert result.output.startswith(f"ok: {len(rec.turns)} turns")


def test_record_check_names_the_first_bad_turn(tmp_path):
    text = '[Game "logger"]\n[Player1 "Ann"]\n[Player2 "Bob"]\n\n1. a1 | e5\n2. a1-a3 G P:b3 | e5-e1 G\n*\n'
    result = CliRunner().invoke(main, ["record", "check", write(tmp_path, text)])
    assert result.exit_code == 1
    assert "turn 4 (round 2, player 2) 'e5-e1 G'" in result.stderr
    assert "cannot reach e1" in result.stderr


def test_record_check_catches_a_wrong_result(tmp_path):
    rec, _ = random_record(5, 2)
    winner = rec.result
    rec.result = "2" if winner == "1" else "1"
    text = records.write_text(rec)
    result = CliRunner().invoke(main, ["record", "check", write(tmp_path, text)])
    assert result.exit_code == 1
    assert "Result tag says" in result.stderr


def test_record_replay_prints_the_final_position_and_result(tmp_path):
    rec, final = random_record(8, 2)
    result = CliRunner().invoke(main, ["record", "replay", write(tmp_path, records.write_json(rec), "game.json")])
    assert result.exit_code == 0, result.output
    assert result.output == f"{NOTATION.format_position(final)}\nresult: {rec.result}\n"


@pytest.mark.parametrize(
    "text,message",
    [
        ("", "no Game tag"),
        ('[Game "chess"]\n[Player1 "a"]\n', "unknown game 'chess'"),
        ('[Game "logger"]\n', "names no players"),
        ('[Game "logger"]\n[Player1 "a"]\n[Player2 "b"]\n\n1. a1 | e5\n3. a1-a2 G P:b2\n', "round 2 was expected"),
        ('[Game "logger"]\n[Player1 "a"]\n[Player2 "b"]\n\nwhat is this\n', "expected a round"),
        ('[Game "logger"\n', "a tag pair looks like"),
        ('[Game "logger"]\n[Player1 "a"]\n[Player2 "b"]\n[Result "1"]\n\n1. a1 | e5\n2\n', "differ"),
    ],
)
def test_bad_records_are_refused_with_the_line(text, message):
    with pytest.raises(RecordError, match=message):
        records.read_text(text)


def test_bad_json_records_are_refused():
    for text, message in [("{", "not valid JSON"), ('{"game": "logger", "players": [1]}', "list of names")]:
        with pytest.raises(RecordError, match=message):
            records.read_json(text)


def test_record_cli_reports_unreadable_files(tmp_path):
    result = CliRunner().invoke(main, ["record", "check", str(tmp_path / "missing.pgn")])
    assert result.exit_code == 1
    assert result.stderr.startswith("error: cannot read")


def test_a_forfeited_turn_is_written_and_replayed_as_the_games_forfeit():
    # player 1's setup turn ran out: forfeit_turn puts the logger on the first free corner
    rec = records.Record("logger", ["Ann", "Bob"], ["--", "e5", "--"])
    played = records.replay(rec)
    assert played.texts == ["--", "e5", "--"]
    assert NOTATION.format_position(played.final) == "....2/...../..s../...../1.... 2 0,0 2,2"
    text = records.write_text(rec)
    assert "1. -- | e5\n2. --\n" in text
    assert records.write_text(records.read_text(text)) == text
    assert records.write_json(records.read_json(records.write_json(rec))) == records.write_json(rec)


def test_a_forfeit_after_the_end_is_refused():
    rec, _ = random_record(4, 2)
    rec.turns.append("--")
    with pytest.raises(records.BadTurn, match="the game is over"):
        records.replay(rec)


# -- players put out on time: the Out tag -------------------------------------------------------
OUT_START = "1...2/...../..s../...../3.... 1 3,12,5 1,1,1"  # player 2 leads with 12 points


def out_record(turns, out="2@0", result="*", **tags):
    return records.Record("logger", ["Ann", "Bob", "Cy"], list(turns), start=OUT_START, result=result,
                          tags={"Out": out, **tags})


def test_a_player_out_on_time_cannot_win_even_with_the_most_points():
    rec = out_record(["G P:a4", "--", "G P:b1"])
    final = records.replay(rec).final
    assert RULES.is_over(final) and RULES.result(final).winners == (1,)  # by the rules alone player 2 wins
    ranking = [g for g in RULES.ranking(final)]
    expected = "=".join(str(p + 1) for p in next(g for g in ranking if 1 not in g))
    rec.result = expected
    records.check(rec)
    rec.result = "2"
    with pytest.raises(RecordError, match=r"the game ended '.*' \(players out on time: 2\)"):
        records.check(rec)


def test_the_out_tag_is_written_read_and_checked_in_text_and_json():
    rec = out_record(["G P:a4", "--", "G P:b1"])
    rec.result = "=".join(str(p + 1) for p in [g for g in RULES.ranking(records.replay(rec).final) if 1 not in g][0])
    text = records.write_text(rec)
    assert '[Out "2@0"]' in text
    again = records.read_text(text)
    assert records.outs(again) == {1: 0}
    records.check(again)
    records.check(records.read_json(records.write_json(rec)))


def test_an_out_players_turn_must_be_the_forfeited_turn():
    rec = out_record(["G P:a4", "G P:d5", "G P:b1"])
    with pytest.raises(records.BadTurn, match=r"turn 2 \(round 1, player 2\).*out after turn 0.*'--'"):
        records.replay(rec)


def test_the_last_player_left_wins_at_once_and_the_game_ends_there():
    rec = records.Record("logger", ["Ann", "Bob", "Cy"], ["a1", "--", "e5", "a1-a2 G P:a3", "--"],
                         result="1", tags={"Out": "2@1 3@5"})
    played = records.check(rec)  # not a finished position: player 1 is the last one left
    assert not RULES.is_over(played.final)
    rec.result = "*"
    with pytest.raises(RecordError, match="the game ended '1'"):
        records.check(rec)
    rec.result = "1"
    rec.tags["Out"] = "2@1 3@4"  # the game ended after turn 4, but the record goes on
    with pytest.raises(RecordError, match="only player 1 was left after turn 4"):
        records.check(rec)


def test_two_players_one_out_the_other_wins_before_any_turn():
    rec = records.Record("logger", ["Ann", "Bob"], [], result="2", tags={"Out": "1@0", "Termination": "time"})
    records.check(rec)
    assert '[Out "1@0"]' in records.write_text(rec)


def test_a_game_going_on_after_a_player_is_out_checks_with_a_star():
    rec = records.Record("logger", ["Ann", "Bob", "Cy"], ["a1", "--", "e5", "a1-a2 G P:a3", "--"],
                         tags={"Out": "2@1"})
    records.check(rec)
    rec.result = "1"
    with pytest.raises(RecordError, match="not a finished game"):
        records.check(rec)


@pytest.mark.parametrize("out,message", [
    ("2", "PLAYER@TURN"),
    ("4@1", "names player 4, but the record has 3 players"),
    ("2@1 2@3", "names player 2 twice"),
    ("2@9", "after turn 9, but the record has 5 turns"),
    ("1@1 2@1 3@1", "puts every player out"),
])
def test_bad_out_tags_are_refused(out, message):
    rec = records.Record("logger", ["Ann", "Bob", "Cy"], ["a1", "--", "e5", "a1-a2 G P:a3", "--"],
                         tags={"Out": out})
    with pytest.raises(RecordError, match=message):
        records.check(rec)


@pytest.mark.parametrize("seed", range(6))
def test_random_games_with_a_player_out_check_and_the_out_player_never_wins(seed):
    rng = random.Random(seed)
    players = rng.choice([3, 4])
    out_player, out_after = rng.randrange(players), rng.randrange(0, 12)
    state, texts = RULES.initial_state(players), []
    while not RULES.is_over(state):
        if RULES.to_move(state) == out_player and len(texts) >= out_after:
            texts.append("--")
            state = RULES.forfeit_turn(state)
            continue
        turn = rng.choice(RULES.legal_turns(state))
        texts.append(NOTATION.format_turn(state, turn))
        state = RULES.apply(state, turn)
    winners = next(tuple(p for p in g if p != out_player) for g in RULES.ranking(state) if set(g) - {out_player})
    rec = records.Record("logger", [f"P{i}" for i in range(players)], texts,
                         result="=".join(str(p + 1) for p in winners),
                         tags={"Out": f"{out_player + 1}@{out_after}"})
    records.check(records.read_text(records.write_text(rec)))
    assert str(out_player + 1) not in rec.result.split("=")


# -- round numbers -------------------------------------------------------------------------------
def _lines_of_rounds(rec: records.Record) -> tuple[list[str], list[list[str]]]:
    """The record's text split into its tag lines and its rounds (lists of turns)."""
    text = records.write_text(rec)
    head, body = text.split("\n\n", 1)
    rounds = [line.split(". ", 1)[1].split(" | ") for line in body.splitlines()[:-1]]
    return head.splitlines(), rounds


def _text_of(head: list[str], rounds: list[list[str]], numbers=None) -> str:
    numbers = numbers or range(1, len(rounds) + 1)
    body = [f"{n}. " + " | ".join(turns) for n, turns in zip(numbers, rounds)]
    return "\n".join(head) + "\n\n" + "\n".join(body) + "\n*\n"


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_turn_written_under_the_wrong_round_is_refused_naming_both_numbers(players, tmp_path):
    rec, _ = random_record(20 + players, players)
    rec.result = "*"
    head, rounds = _lines_of_rounds(rec)
    # the first turn of round 2 written at the end of round 1
    early = [rounds[0] + rounds[1][:1], rounds[1][1:], *rounds[2:]]
    with pytest.raises(records.BadTurn, match=rf"turn {players + 1} .*numbered round 1.* round 2"):
        records.replay(records.read_text(_text_of(head, early)))
    # the last turn of round 1 written at the start of round 2
    late = [rounds[0][:-1], rounds[0][-1:] + rounds[1], *rounds[2:]]
    with pytest.raises(records.BadTurn, match=rf"turn {players} .*numbered round 2.* round 1"):
        records.replay(records.read_text(_text_of(head, late)))
    result = CliRunner().invoke(main, ["record", "check", write(tmp_path, _text_of(head, late))])
    assert result.exit_code == 1
    assert "numbered round 2" in result.stderr


@pytest.mark.parametrize("players", [2, 3, 4])
def test_round_numbers_must_count_from_one_without_gaps(players):
    rec, _ = random_record(30 + players, players)
    head, rounds = _lines_of_rounds(rec)
    with pytest.raises(RecordError, match="round 1 was expected, not 2"):
        records.read_text(_text_of(head, rounds, range(2, len(rounds) + 2)))
    gap = [1, 3, *range(4, len(rounds) + 2)]
    with pytest.raises(RecordError, match="line .*: round 2 was expected, not 3"):
        records.read_text(_text_of(head, rounds, gap))


def test_several_rounds_may_share_a_line_but_each_is_numbered_right():
    head = '[Game "logger"]\n[Player1 "a"]\n[Player2 "b"]\n\n'
    one_line = records.read_text(head + "1. a1 | e5 2. a1-a3 G P:b3 | e5-c5 G P:d5\n*\n")
    assert one_line.turns == ["a1", "e5", "a1-a3 G P:b3", "e5-c5 G P:d5"]
    with pytest.raises(RecordError, match="round 2 was expected, not 3"):
        records.read_text(head + "1. a1 | e5 3. a1-a3 G P:b3 | e5-c5 G P:d5\n*\n")


def test_a_json_turn_with_the_wrong_round_is_refused():
    rec, _ = random_record(7, 3)
    data = json.loads(records.write_json(rec))
    data["turns"][3]["round"] = 1
    with pytest.raises(records.BadTurn, match="turn 4 .*numbered round 1.* round 2"):
        records.replay(records.read_json(json.dumps(data)))
    data["turns"][3]["round"] = "two"
    with pytest.raises(RecordError, match="round of turn 4"):
        records.read_json(json.dumps(data))


def test_a_huge_round_number_is_refused_not_a_crash():
    head = '[Game "logger"]\n[Player1 "a"]\n[Player2 "b"]\n\n'
    with pytest.raises(RecordError, match="round 1 was expected"):
        records.read_text(head + "9" * 5000 + ". a1 | e5\n*\n")


# -- long texts in errors are cut -----------------------------------------------------------------
HUGE = "e5" * 50_000


def test_an_error_about_a_100kb_turn_quotes_only_its_start(tmp_path):
    text = f'[Game "logger"]\n[Player1 "a"]\n[Player2 "b"]\n\n1. a1 | e5\n2. {HUGE}\n*\n'
    result = CliRunner().invoke(main, ["record", "check", write(tmp_path, text)])
    assert result.exit_code == 1
    assert "turn 3 (round 2, player 1) 'e5e5" in result.stderr
    assert "100000 characters" in result.stderr
    assert len(result.stderr) < 1000


def test_an_error_about_a_100kb_line_quotes_only_its_start():
    with pytest.raises(RecordError) as error:
        records.read_text(f'[Game "logger"]\n[Player1 "a"]\n\n{HUGE}\n')
    assert "expected a round" in str(error.value)
    assert len(str(error.value)) < 1000
    with pytest.raises(RecordError) as error:
        records.read_text(f'[Game "logger{HUGE}\n')
    assert len(str(error.value)) < 1000


@pytest.mark.parametrize("game,players", [("logger", 2), ("attactics", 2), ("ataxx", 2)])
@pytest.mark.parametrize("turn", [HUGE, "a1-" + HUGE, "G " + HUGE, "a1 " * 30_000, "x:" + ",".join(["c3"] * 30_000)])
def test_turn_errors_of_every_game_quote_only_the_start_of_a_huge_turn(game, players, turn):
    from engine.errors import TurnError
    from notation import registry

    kind = registry.get(game)
    state = kind.rules.initial_state(players)
    if game == "logger":
        state = kind.notation.parse_position("....2/...../..s../...../1.... 1 0,0 2,2")
    with pytest.raises(TurnError) as error:
        kind.notation.parse_turn(state, turn)
    assert len(str(error.value)) < 1000


@pytest.mark.parametrize("game", ["logger", "attactics", "ataxx"])
def test_position_errors_quote_only_the_start_of_a_huge_position(game):
    from engine.errors import PositionError
    from notation import registry

    for text in (HUGE, f"{HUGE} 1 0,0 2,2", f"...../...../..s../...../..... {HUGE} 0,0 2,2", f"a b c {HUGE}"):
        with pytest.raises(PositionError) as error:
            registry.get(game).notation.parse_position(text)
        assert len(str(error.value)) < 1000, str(error.value)[:200]
