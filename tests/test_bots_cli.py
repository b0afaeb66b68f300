"""``pbem bot play`` prints the bot's turn; ``pbem bot match`` prints a
score with its 95% interval; bad levels and positions are clear errors."""

from __future__ import annotations

import re

from click.testing import CliRunner

from notation import registry
from pbem.cli import main


def run(*args):
    return CliRunner().invoke(main, list(args))


def test_bot_play_prints_the_winning_ataxx_move():
    out = run("bot", "play", "ataxx", "6o/7/4x2/7/7/7/x6 x 0 1", "--level", "beginner")
    assert out.exit_code == 0, out.output
    kind = registry.get("ataxx")
    state = kind.notation.parse_position("6o/7/4x2/7/7/7/x6 x 0 1")
    turn = kind.notation.parse_turn(state, out.stdout.splitlines()[0])
    assert kind.rules.is_over(kind.rules.apply(state, turn))


def test_bot_play_prints_a_legal_logger_turn():
    kind = registry.get("logger")
    start = kind.notation.format_position(kind.rules.initial_state(2))
    out = run("bot", "play", "logger", start, "--level", "beginner")
    assert out.exit_code == 0, out.output
    kind.notation.parse_turn(kind.rules.initial_state(2), out.stdout.splitlines()[0])


def test_bot_match_prints_score_and_interval():
    out = run("bot", "match", "ataxx", "--levels", "beginner,random", "--games", "2")
    assert out.exit_code == 0, out.output
    assert re.search(r"beginner vs random: [\d.]+/2 .*95% interval \d+-\d+%", out.output)


def test_bot_match_of_a_solitaire_plays_both_levels_on_the_same_deal_without_being_told_the_players():
    out = run("bot", "match", "greenhouse", "--levels", "beginner,random", "--games", "2",
              "--option", "stashes=rb", "--option", "orders=1")
    assert out.exit_code == 0, out.output
    assert re.search(r"beginner vs random: 2/2 \(2 won", out.output)  # random play never fills the order
    out = run("bot", "match", "greenhouse", "--levels", "beginner,random", "--players", "2")
    assert out.exit_code == 1 and "1 player" in out.output


def test_bot_errors_name_what_is_wrong():
    out = run("bot", "match", "ataxx", "--levels", "beginner,genius", "--games", "2")
    assert out.exit_code == 1 and "no level 'genius'" in out.output and "medium" in out.output
    out = run("bot", "match", "taiga", "--levels", "medium,beginner", "--games", "2")
    assert out.exit_code == 1 and "plays at these levels: beginner, strongest; there is no level 'medium'" \
        in out.output
    out = run("bot", "match", "ataxx", "--levels", "beginner", "--games", "2")
    assert out.exit_code == 1 and "two levels" in out.output
    out = run("bot", "play", "ataxx", "x5o/7/7/7/7/7/7 x 0 1 junk")
    assert out.exit_code == 1
