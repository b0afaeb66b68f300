"""The bots' strength table (benchmarks/bots_strength.py) counts only the
games of the current bots: a row played by an older version of a game's
bot (or on another deal) is set aside, not added to."""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "bots_strength.py"


@pytest.fixture
def strength(tmp_path, monkeypatch):
    spec = importlib.util.spec_from_file_location("bots_strength", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    monkeypatch.setattr(module, "RESULTS", tmp_path / "results.json")
    return module


def test_rows_of_older_bots_are_not_counted_and_are_played_again(strength):
    row = {"games": 20, "score": 12.0, "wins": 12, "draws": 0, "losses": 8, "cpu": 1.0, "done": list(range(20))}
    tag = strength.bots_tag("ataxx")
    strength.RESULTS.write_text(json.dumps({"rows": {
        "ataxx/easy/beginner": dict(row, bots="v0"),  # an older Ataxx bot
        "ataxx/easy/random": dict(row, score=20.0, wins=20, losses=0, bots=tag),
    }}))
    table = strength.table(["ataxx"], ["beginner", "easy"])
    assert "| ataxx | easy | beginner | not measured | | 0 |" in table
    assert "| ataxx | easy | random | 100% | 84-100% | 20 |" in table

    results = strength.load()
    strength.retire(results)
    assert list(results["rows"]) == ["ataxx/easy/random"]
    assert results["stale"]["ataxx/easy/beginner (v0)"]["games"] == 20
    todo = list(strength.tasks(results, [("ataxx", "easy", "beginner"), ("ataxx", "easy", "random")], 21))
    assert todo[0] == ("ataxx", "easy", "beginner", 0) and len(todo) == 22
    strength.add(results, "ataxx/easy/beginner", 0, 1.0, 0.5)
    assert results["rows"]["ataxx/easy/beginner"]["bots"] == tag and results["rows"]["ataxx/easy/beginner"]["games"] == 1


def test_the_rows_of_a_bot_change_undone_count_again(strength):
    row = {"games": 20, "score": 20.0, "wins": 20, "draws": 0, "losses": 0, "cpu": 1.0, "done": list(range(20))}
    tag = strength.bots_tag("ataxx")
    strength.RESULTS.write_text(json.dumps({"rows": {"ataxx/easy/random": dict(row, score=3.0, bots="v99")},
                                            "stale": {f"ataxx/easy/random ({tag})": dict(row, bots=tag)}}))
    results = strength.load()
    strength.retire(results)  # v99 undone: the games of the current bots are back, the others set aside
    assert results["rows"]["ataxx/easy/random"]["score"] == 20.0
    assert list(results["stale"]) == ["ataxx/easy/random (v99)"]


def test_a_tag_names_the_bots_version_and_the_deal(strength):
    from engine.bots.hooks import hooks_for
    from notation import registry

    for name in strength.GAMES:
        assert strength.bots_tag(name).split()[0] == f"v{hooks_for(registry.get(name).rules).version}"
    assert "stashes=" in strength.bots_tag("greenhouse")


def test_a_solitaire_level_beats_another_by_the_game_s_own_score():
    """Martian Greenhouse's levels are compared on the same deal by the
    game's score: filling every order beats failing, and of two that fill
    them, fewer breedings win (both filling used to be an even game)."""
    from dataclasses import replace

    from engine.bots.match import Played, solitaire_points
    from notation import registry

    game = registry.get("greenhouse").rules
    state = game.seeded_state(1, game.normalize_options({}), "5e" * 32)

    def played(won: bool, breedings: int) -> Played:
        return Played((1.0 if won else 0.0,), breedings, replace(state, breedings=breedings))

    assert solitaire_points(game, played(True, 7), played(True, 9)) == 1.0
    assert solitaire_points(game, played(True, 9), played(True, 7)) == 0.0
    assert solitaire_points(game, played(True, 8), played(True, 8)) == 0.5
    assert solitaire_points(game, played(True, 30), played(False, 5)) == 1.0
    assert solitaire_points(game, played(False, 5), played(False, 9)) == 0.5


def test_greenhouse_rows_scored_by_filled_orders_only_are_set_aside(strength):
    tag = strength.bots_tag("greenhouse")
    assert "by=score" in tag and "orders=4" in tag
    row = {"games": 20, "score": 10.0, "wins": 0, "draws": 20, "losses": 0, "cpu": 1.0, "done": list(range(20))}
    strength.RESULTS.write_text(json.dumps({"rows": {
        "greenhouse/easy/beginner": dict(row, bots=tag.split()[0] + " orders=1,stashes=rb")}}))
    results = strength.load()
    strength.retire(results)
    assert not results["rows"] and f"greenhouse/easy/beginner ({tag.split()[0]} orders=1,stashes=rb)" in results["stale"]


def test_a_solitaire_level_plays_each_deal_once_for_all_its_rows(strength, monkeypatch):
    """Game 0 of 'beginner against random' and of 'easy against beginner'
    are on the same deal, and the beginner's game on it is played once:
    the second row reads its outcome."""
    monkeypatch.setitem(strength.OPTIONS, "greenhouse", {"stashes": "rb", "orders": "1"})
    calls = []
    real = strength.play_game

    def spy(game, levels, seed, options=None, timed=False):
        calls.append((tuple(levels), seed))
        return real(game, levels, seed, options, timed)

    monkeypatch.setattr(strength, "play_game", spy)
    results = strength.load()
    for level, opponent in (("beginner", "random"), ("easy", "beginner")):
        [todo] = strength.tasks(results, [("greenhouse", level, opponent)], 1)
        key, index, points, cpu, seed, played = strength.play_one(strength.task_for(results, *todo))
        strength.keep_outcomes(results, "greenhouse", seed, index, played)
        strength.add(results, key, index, points, cpu)
    assert calls == [(("beginner",), ("greenhouse/deal", 0)), (("random",), ("greenhouse/deal", 0)),
                     (("easy",), ("greenhouse/deal", 0))]
    assert results["rows"]["greenhouse/easy/beginner"]["deals"] == "shared"
    assert results["rows"]["greenhouse/easy/beginner"]["games"] == 1


def test_a_solitaire_row_begun_on_its_own_deals_keeps_them(strength):
    tag = strength.bots_tag("greenhouse", "easy")
    row = {"games": 1, "score": 1.0, "wins": 1, "draws": 0, "losses": 0, "cpu": 1.0, "done": [0], "bots": tag}
    strength.RESULTS.write_text(json.dumps({"rows": {"greenhouse/easy/random": row}}))
    results = strength.load()
    assert strength.task_for(results, "greenhouse", "easy", "random", 1)[4] == "greenhouse/easy/random"
    assert strength.task_for(results, "greenhouse", "medium", "random", 0)[4] == "greenhouse/deal"
    assert strength.task_for(results, "ataxx", "easy", "random", 0)[4] == "ataxx/easy/random"


def test_outcomes_of_an_older_solitaire_bot_are_forgotten(strength):
    tag = strength.bots_tag("greenhouse", "easy")
    strength.RESULTS.write_text(json.dumps({"rows": {}, "solitaire": {
        f"greenhouse/deal#0 easy ({tag})": [1.0, 8], "greenhouse/deal#0 easy (v0 by=score)": [1.0, 9]}}))
    results = strength.load()
    strength.retire(results)
    assert list(results["solitaire"]) == [f"greenhouse/deal#0 easy ({tag})"]
    assert strength.task_for(results, "greenhouse", "easy", "random", 0)[5] == {"easy": (1.0, 8)}


def test_rows_of_levels_a_new_version_left_alone_stay_counted(strength, monkeypatch):
    """A new bot version that changes only medium and up keeps the rows of
    beginner and easy (``Hooks.kept``) and sets aside those with medium."""
    from dataclasses import replace

    real = strength.hooks_for(strength.registry.get("ataxx").rules)
    old = f"v{real.version}"
    newer = replace(real, version=real.version + 1, kept={"beginner": real.version, "easy": real.version})
    monkeypatch.setattr(strength, "hooks_for", lambda game: newer)
    row = {"games": 20, "score": 20.0, "wins": 20, "draws": 0, "losses": 0, "cpu": 1.0, "done": list(range(20))}
    strength.RESULTS.write_text(json.dumps({"rows": {
        "ataxx/easy/beginner": dict(row, bots=old), "ataxx/easy/random": dict(row, bots=old),
        "ataxx/medium/easy": dict(row, bots=old), "ataxx/medium/random": dict(row, bots=old)}}))
    results = strength.load()
    strength.retire(results)
    assert sorted(results["rows"]) == ["ataxx/easy/beginner", "ataxx/easy/random"]
    assert sorted(results["stale"]) == [f"ataxx/medium/easy ({old})", f"ataxx/medium/random ({old})"]
    strength.add(results, "ataxx/medium/easy", 0, 1.0, 0.5)
    assert results["rows"]["ataxx/medium/easy"]["bots"] == f"v{real.version + 1}"


def test_turn_times_without_the_cap_time_each_level_as_the_strength_rows_play_it(strength, monkeypatch):
    caps = []
    real = strength.choose

    def spy(*args, **kwargs):
        caps.append(kwargs.get("timed", True))
        return real(*args, **kwargs)

    monkeypatch.setattr(strength, "choose", spy)
    table = strength.times_table(["ataxx"], ["beginner", "easy"], 1, timed=False)
    assert "no time cap" in table
    assert re.search(r"^\| ataxx \| beginner \| 3 \| [0-9.]+ \| [0-9.]+ \| 1 \|$", table, re.M)
    assert re.search(r"^\| ataxx \| easy \| 3 \| [0-9.]+ \| [0-9.]+ \| 1.5 \|$", table, re.M)
    # for each level, the game the positions come from is played as the server plays (cap on), then
    # the level's 3 turns without it
    assert caps.count(False) == 6 and caps[-3:] == [False] * 3 and caps.count(True) > 0


def test_turn_times_say_which_level_a_game_plays_its_default_as_and_give_that_levels_cap(strength, monkeypatch):
    monkeypatch.setattr(strength, "turn_times", lambda name, level, turns, timed=True: [0.25, 0.5])
    table = strength.times_table(["taiga", "logger"], ["medium"], 1, timed=True)
    assert "| taiga | medium (plays as strongest) | 2 | 0.38 | 0.50 | 20 |" in table
    assert "| logger | medium | 2 | 0.38 | 0.50 | 1.5 |" in table


def test_rows_of_games_whose_bots_outthink_their_caps_are_played_with_the_caps_on(strength, monkeypatch):
    """Alheimur's and Greenhouse's bots think several times longer than
    their levels' caps when untimed, so the server (which caps every turn)
    plays them with fewer playouts: their rows are played capped, as the
    server plays, and their untimed rows are set aside."""
    from engine.bots.match import Played

    assert strength.bots_tag("alheimur").endswith(" timed") and strength.bots_tag("greenhouse").endswith(" timed")
    assert "timed" not in strength.bots_tag("logger") and "timed" not in strength.bots_tag("taiga")

    untimed = strength.bots_tag("alheimur").removesuffix(" timed")
    row = {"games": 2, "score": 1.0, "wins": 1, "draws": 0, "losses": 1, "cpu": 1.0, "done": [0, 1], "bots": untimed}
    strength.RESULTS.write_text(json.dumps({"rows": {"alheimur/easy/beginner": row}}))
    results = strength.load()
    strength.retire(results)
    assert not results["rows"] and f"alheimur/easy/beginner ({untimed})" in results["stale"]

    asked = {}

    def spy(game, levels, seed, options=None, timed=False):
        asked[game.name] = timed
        return Played((0.0,) * len(levels), 1, None)  # a loss: nothing more of it is read

    monkeypatch.setattr(strength, "play_game", spy)
    for name in ("alheimur", "greenhouse", "logger", "taiga"):
        strength.play_one(strength.task_for(results, name, "easy", "random", 0))
    assert asked == {"alheimur": True, "greenhouse": True, "logger": False, "taiga": False}


def test_a_run_kept_in_another_file_is_merged_back_row_by_row(strength, tmp_path):
    """Two runs at once each keep their games in a file of their own
    (``--results``); merging adds the rows the other run played on, and
    refuses a row both played on."""
    tag = strength.bots_tag("ataxx")
    row = {"games": 1, "score": 1.0, "wins": 1, "draws": 0, "losses": 0, "cpu": 1.0, "done": [0], "bots": tag}
    strength.save({"rows": {"ataxx/easy/random": row, "ataxx/hard/random": dict(row, bots="v0"),
                            "ataxx/beginner/random": dict(row, bots="v0", score=0.0)}})
    other_path = tmp_path / "other.json"
    strength.save(strength.load(), other_path)
    other = strength.load(other_path)
    strength.retire(other)  # as the other run does before it plays
    strength.add(other, "ataxx/easy/random", 1, 0.0, 2.0)
    strength.add(other, "ataxx/medium/random", 0, 1.0, 2.0)
    strength.add(other, "ataxx/beginner/random", 0, 1.0, 2.0)  # played again by the current bots
    strength.save(other, other_path)

    results = strength.load()
    assert sorted(strength.merge(results, strength.load(other_path))) == [
        "ataxx/beginner/random", "ataxx/easy/random", "ataxx/medium/random"]
    # the older bots' row that the other run played again is set aside, not overwritten
    assert results["rows"]["ataxx/beginner/random"]["bots"] == tag
    assert results["stale"]["ataxx/beginner/random (v0)"]["score"] == 0.0
    assert results["rows"]["ataxx/easy/random"]["games"] == 2 and results["rows"]["ataxx/easy/random"]["score"] == 1.0
    # a row of older bots is set aside, as a run sets it aside
    assert "ataxx/hard/random" not in results["rows"] and "ataxx/hard/random (v0)" in results["stale"]
    assert strength.merge(results, strength.load(other_path)) == []  # nothing new the second time

    strength.add(results, "ataxx/easy/random", 2, 1.0, 1.0)  # played on here...
    strength.add(other, "ataxx/easy/random", 3, 1.0, 1.0)  # ...and there
    before = json.dumps(results, sort_keys=True)
    with pytest.raises(ValueError, match="ataxx/easy/random"):
        strength.merge(results, other)
    assert json.dumps(results, sort_keys=True) == before


def test_a_game_offering_fewer_levels_has_rows_only_for_them_each_against_the_one_it_offers_below(strength):
    rows = strength.rows(["taiga", "logger"], ["beginner", "easy", "medium", "hard", "strongest"])
    assert [r for r in rows if r[0] == "taiga"] == [
        ("taiga", "beginner", "random"), ("taiga", "strongest", "random"), ("taiga", "strongest", "beginner")]
    assert ("logger", "hard", "medium") in rows and ("logger", "strongest", "hard") in rows
