"""The contract every game keeps, checked for every game the registry knows
(those the server does not offer yet included):

- the turn and position parsers return a value or raise the project's own
  errors (``TurnError``, ``PositionError``) on any text;
- position strings and turn texts round-trip;
- every legal turn formats to text that re-parses to the same turn and applies;
- random self-play (seeded, so failures repeat) reaches the end within a
  bound, or by the game's own explicit ending (giving up), with ``to_move``,
  ``result``, ``ranking`` and ``scores`` consistent after every turn;
- records of those games replay to the same final position and round-trip
  through text and JSON;
- every legal turn can be played by clicking (``Notation.turn_clicks`` and
  ``Notation.click_options``, ``notation/clicks.py``);
- views leak nothing: a chance game's seed is in no state, view, position,
  diagram or record before the end;
- a chance game's record replays without the seed, verifies against the
  revealed seed, and a wrong seed is detected; a game without chance
  ignores the seed; chance during play (a draw, a roll: ``Rules.chance``) is
  settled from the seed after every turn, and a player's view of the record
  hides the outcomes they did not see.

Besides the registry's games, the suite holds the test-only games to the
contract (``TEST_GAMES``): Hands has hidden hands and draws during play,
which no hosted game has yet.

Game-specific rules (rulings, perft, comparisons with other programs, a
game's own invariants) stay in the per-game test files.
"""

from __future__ import annotations

import functools
import hashlib
import json
import random
import re
from collections import Counter
from dataclasses import dataclass, field
from itertools import islice
from typing import Any

import hands_game
import pytest
import tally_game
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.base import Rules, settle_from_seed
from engine.errors import IllegalTurnError, PbemError, PositionError, RecordError, TurnError
from notation import record as records
from notation import registry
from notation.base import GameKind, Notation

#: games that exist only in the tests, held to the contract as well
TEST_GAMES = {"hands": hands_game.KIND, "tally": tally_game.KIND}
GAMES = registry.all_names() + sorted(TEST_GAMES)


@pytest.fixture(scope="module", autouse=True)
def _test_games_registered():
    """The test games are found by name (records look games up) in this module."""
    with pytest.MonkeyPatch.context() as patch:
        for name, kind in TEST_GAMES.items():
            patch.setitem(registry._NOT_OFFERED, name, f"{name}_game:KIND")
            patch.setitem(registry._loaded, name, kind)
        yield

#: what a game needs beyond its interface to be played at random: a bound on
#: the plies of a random game, and the game's explicit ending (a turn text)
#: played when random play reaches the bound.  A game not named here must
#: end within ``DEFAULT_BOUND`` plies of random play.
DEFAULT_BOUND = 1000
PROFILES: dict[str, dict[str, Any]] = {
    # random breeding practically never fills the orders: give up after a while
    "greenhouse": {"bound": 6, "ending": "give up"},
}
#: legal turns looked at per position: the first ones of the game's lazy
#: iterator (``iter_turns``) when it has one, else the whole list
TURNS_LOOKED_AT = 300
#: the players of the largest game set up, at most
MOST_PLAYERS = 4


def seed_for(*parts: object) -> str:
    return hashlib.sha256(" ".join(map(str, parts)).encode()).hexdigest()


def kind_of(name: str) -> GameKind:
    return TEST_GAMES[name] if name in TEST_GAMES else registry.get_any(name)


def settled(rules: Rules, state: Any, seed: str, ply: int) -> tuple[Any, list[records.Outcome]]:
    """``state`` after the chance events that follow turn ``ply``, decided
    from ``seed`` as the server decides them; and their outcomes."""
    state, happened = settle_from_seed(rules, state, seed, ply)
    return state, [records.Outcome(event.purpose, values) for event, values in happened]


def dealt(rules: Rules, players: int, options: dict[str, str], seed: str) -> Any:
    """The position before the first turn: dealt from the seed, then the
    chance events before the first turn settled."""
    return settled(rules, rules.seeded_state(players, options, seed), seed, 0)[0]


def some_turns(rules: Rules, state: Any, limit: int = TURNS_LOOKED_AT) -> list[Any]:
    """Legal turns of ``state``: all of them, or the first ``limit`` of a
    game whose list can be huge (it offers a lazy ``iter_turns``)."""
    lazy = getattr(rules, "iter_turns", None)
    if lazy is not None:
        return list(islice(lazy(state), limit))
    return rules.legal_turns(state)


@dataclass
class Played:
    """One seeded random game, played through the notation as the server
    plays it (each turn formatted, re-parsed, then applied)."""

    players: int
    options: dict[str, str]
    seed: str
    states: list[Any] = field(default_factory=list)
    texts: list[str] = field(default_factory=list)
    #: the chance outcomes before the first turn, then after each turn
    outcomes: list[list[records.Outcome]] = field(default_factory=list)

    @property
    def final(self) -> Any:
        return self.states[-1]


def setups(rules: Rules) -> list[tuple[int, dict[str, str]]]:
    """Every player count (up to ``MOST_PLAYERS``) with the default options,
    then every other valid value of each option with the fewest players."""
    found = [(n, {}) for n in range(rules.min_players, min(rules.max_players, MOST_PLAYERS) + 1)]
    for spec in rules.option_specs:
        for choice in spec.choices:
            if choice == spec.default:
                continue
            try:
                rules.normalize_options({spec.name: choice})
            except PbemError:
                continue  # a placeholder such as "..." in the list of choices
            found.append((rules.min_players, {spec.name: choice}))
    return found


def check_consistent(rules: Rules, state: Any, players: int) -> None:
    """``to_move``, ``is_over``, ``result``, ``ranking`` and ``scores`` agree."""
    assert rules.players(state) == players
    mover, outcome, ranking, scores = rules.to_move(state), rules.result(state), rules.ranking(state), rules.scores(state)
    assert rules.is_over(state) == (mover is None) == (outcome is not None)
    assert len(scores) in (0, players)
    if mover is not None:
        assert 0 <= mover < players
        assert ranking == []
        assert some_turns(rules, state, 1), "the player to move always has a legal turn"
        return
    everyone = [p for group in ranking for p in group]
    assert sorted(everyone) == list(range(players)) and all(ranking), ranking
    assert set(outcome.winners) <= set(range(players))
    if outcome.winners:
        assert ranking[0] == tuple(sorted(outcome.winners)), (ranking, outcome)
    if outcome.scores:
        assert tuple(outcome.scores) == tuple(scores)


def play(name: str, players: int, options: dict[str, str], index: int) -> Played:
    kind = kind_of(name)
    rules, notation = kind.rules, kind.notation
    profile = PROFILES.get(name, {})
    bound, ending = profile.get("bound", DEFAULT_BOUND), profile.get("ending")
    rng = random.Random(seed_for(name, players, sorted(options.items()), index))
    game = Played(players, options, seed_for("seed", name, players, sorted(options.items()), index))
    state, happened = settled(rules, rules.seeded_state(players, options, game.seed), game.seed, 0)
    game.states.append(state)
    game.outcomes.append(happened)
    while not rules.is_over(state):
        check_consistent(rules, state, players)
        if len(game.texts) < bound:
            text = notation.format_turn(state, rng.choice(some_turns(rules, state)))
        else:
            assert ending, f"{name}: random play did not end within {bound} plies"
            text = ending
        turn = notation.parse_turn(state, text)
        assert notation.format_turn(state, turn) == text
        state, happened = settled(rules, rules.apply(state, turn), game.seed, len(game.texts) + 1)
        game.states.append(state)
        game.texts.append(text)
        game.outcomes.append(happened)
        assert len(game.texts) <= bound + 1, f"{name}: the ending {ending!r} did not end the game"
    check_consistent(rules, state, players)
    return game


@functools.cache
def games(name: str) -> tuple[Played, ...]:
    """Random games of every set-up of the game, two of the first."""
    rules = kind_of(name).rules
    chosen = setups(rules)
    plays = [play(name, n, options, 0) for n, options in chosen]
    plays.append(play(name, *chosen[0], 1))
    return tuple(plays)


@functools.cache
def positions(name: str) -> tuple[tuple[Any, dict[str, str]], ...]:
    """About 40 positions reached by the random games, with their options,
    finished positions included."""
    everything = [(s, g.options) for g in games(name) for s in g.states]
    step = max(1, len(everything) // 40)
    chosen = everything[::step] + [(g.final, g.options) for g in games(name)]
    return tuple(chosen)


def test_the_contract_covers_every_game_offered_or_not():
    assert set(registry.names()) <= set(GAMES) and "greenhouse" in GAMES  # offered or not
    assert all(registry.get_any(name).name == name for name in GAMES)
    assert any(kind_of(name).rules.chance is not Rules.chance for name in GAMES)  # chance during play
    assert any(type(kind_of(name).rules).view is not Rules.view for name in GAMES)  # hidden information


# -- parsers on any text ---------------------------------------------------------
#: field values that trip careless parsers: empty, negative, huge, signs,
#: digits that are not ASCII, words
ODD_FIELDS = ["", "-1", "+1", "0", "00", "99999999999999999999", "1e3", "0x1", "\u00b2", "\u0663", "\uff10", "1.5",
              "-", "--", "w1", "none", "\u200b", "#", "#0", "1-1", "x", "NaN"]

ODD_NUMBERS = ["0", "00", "01", "99999999999999999999", "\u00b2", "\u0663", "\uff11", "-1"]


def _mutated(data: st.DataObject, text: str) -> str:
    """``text`` with a few random edits: a slice cut, text inserted, a
    character repeated or changed, the case swapped."""
    alphabet = sorted(set(text)) + list("0123456789 -/:.,|#x*>=+")
    for _ in range(data.draw(st.integers(1, 3))):
        where = data.draw(st.integers(0, len(text)))
        edit = data.draw(st.sampled_from(["cut", "insert", "repeat", "change", "case", "field", "part", "number"]))
        numbers = list(re.finditer(r"[0-9]+", text))
        if edit == "number" and numbers:
            # a number becomes another: zero, huge, out of range, not ASCII
            found = data.draw(st.sampled_from(numbers))
            other = data.draw(st.sampled_from(ODD_NUMBERS) | st.integers(0, 120).map(str))
            text = text[:found.start()] + other + text[found.end():]
        elif edit in ("field", "part"):
            # one whitespace-separated field (or one piece of it between
            # '/', ',' or ':') becomes something else, the rest stays valid
            pieces = re.split(r"(\s+)" if edit == "field" else r"([\s/,:]+)", text)
            index = 2 * data.draw(st.integers(0, len(pieces) // 2))
            pieces[index] = data.draw(st.sampled_from(ODD_FIELDS) | st.text(alphabet=st.sampled_from(alphabet), max_size=6))
            text = "".join(pieces)
        elif edit == "cut":
            text = text[:where] + text[where + data.draw(st.integers(1, 6)):]
        elif edit == "insert":
            text = text[:where] + data.draw(st.text(alphabet=st.sampled_from(alphabet), max_size=4) | st.text(max_size=3)) + text[where:]
        elif edit == "repeat" and where < len(text):
            text = text[:where] + text[where] * data.draw(st.integers(2, 12)) + text[where:]
        elif edit == "change" and where < len(text):
            text = text[:where] + data.draw(st.sampled_from(alphabet)) + text[where + 1:]
        elif edit == "case":
            text = text.swapcase()
    return text


def _renumbered(data: st.DataObject, text: str) -> str:
    """``text`` with some of its numbers (squares, flowers, sizes) changed:
    to zero, huge, out of range, or digits that are not ASCII."""
    pieces = re.split(r"([0-9]+)", text)
    for index in range(1, len(pieces), 2):
        if data.draw(st.booleans()):
            pieces[index] = data.draw(st.sampled_from(ODD_NUMBERS) | st.integers(0, 120).map(str))
    return "".join(pieces)


def _turn_text(data: st.DataObject, notation: Any, state: Any, turns: list[Any]) -> str:
    """Any text, or (more often) text made from the game's own turns."""
    texts = [notation.format_turn(state, t) for t in turns[:: max(1, len(turns) // 20)]]
    texts += list(notation.turn_examples)
    how = data.draw(st.sampled_from(["any", "legal", "mutated", "renumbered", "pieces"]))
    if how == "any":
        return data.draw(st.text(max_size=60))
    if how == "legal":
        return data.draw(st.sampled_from(texts))
    if how == "mutated":
        return _mutated(data, data.draw(st.sampled_from(texts)))
    if how == "renumbered":
        return _renumbered(data, data.draw(st.sampled_from(texts)))
    pieces = sorted({p for t in texts for p in re.split(r"(\W)", t) if p.strip()} | set(ODD_NUMBERS))
    glue = data.draw(st.sampled_from([" ", ""]))
    return glue.join(data.draw(st.lists(st.sampled_from(pieces), max_size=8)))


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_the_turn_parser_returns_a_legal_turn_or_raises_a_turn_error(name, data):
    kind = kind_of(name)
    state, _ = data.draw(st.sampled_from(positions(name)))
    turns = [] if kind.rules.is_over(state) else some_turns(kind.rules, state, 60)
    text = _turn_text(data, kind.notation, state, turns)
    try:
        turn = kind.notation.parse_turn(state, text)
    except TurnError:
        return
    kind.rules.apply(state, turn)  # a turn the parser accepts is legal
    if not hasattr(kind.rules, "iter_turns"):  # and listed, where the list is not huge
        assert turn in kind.rules.legal_turns(state)
    assert kind.notation.parse_turn(state, kind.notation.format_turn(state, turn)) == turn


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_the_position_parser_returns_a_position_or_raises_a_position_error(name, data):
    kind = kind_of(name)
    state, options = data.draw(st.sampled_from(positions(name)))
    written = kind.notation.format_position(state)
    text = data.draw(st.sampled_from(["any", "mutated", "mutated", "fields"]))
    if text == "any":
        text = data.draw(st.text(max_size=80))
    elif text == "mutated":
        text = _mutated(data, written)
    else:
        fields = written.split()
        text = " ".join(data.draw(st.lists(st.sampled_from(fields), max_size=len(fields) + 1)))
    try:
        parsed = kind.notation.parse_position(text, options)
    except PositionError:
        return
    again = kind.notation.format_position(parsed)
    assert kind.notation.parse_position(again, options) == parsed
    assert kind.notation.format_position(kind.notation.parse_position(again, options)) == again


# -- round trips and legal turns ---------------------------------------------------
@pytest.mark.parametrize("name", GAMES)
def test_position_strings_round_trip(name):
    notation = kind_of(name).notation
    for state, options in positions(name):
        text = notation.format_position(state)
        assert notation.parse_position(text, options) == state, text
        assert notation.format_position(notation.parse_position(text, options)) == text


@pytest.mark.parametrize("name", GAMES)
def test_every_legal_turn_formats_reparses_and_applies(name):
    kind = kind_of(name)
    rules, notation = kind.rules, kind.notation
    rng = random.Random(name)
    looked_at = 0
    for state, _ in positions(name):
        if rules.is_over(state):
            continue
        turns = some_turns(rules, state)
        assert len(set(turns)) == len(turns), "each legal turn is listed once"
        texts = [notation.format_turn(state, turn) for turn in turns]
        assert len(set(texts)) == len(texts), "two legal turns are written the same"
        for index in rng.sample(range(len(turns)), min(len(turns), 12)):
            assert notation.parse_turn(state, texts[index]) == turns[index], texts[index]
            rules.apply(state, turns[index])
            assert rules.is_legal(state, turns[index]), texts[index]
            looked_at += 1
    assert looked_at > 0


@pytest.mark.parametrize("name", GAMES)
def test_a_turn_of_another_position_is_legal_only_where_the_rules_list_it(name):
    """``is_legal`` (what the bots and clicks ask) agrees with the list:
    turns taken from other positions are legal exactly when listed."""
    rules = kind_of(name).rules
    states = [state for state, _ in positions(name) if not rules.is_over(state)]
    rng = random.Random(name)
    checked = 0
    for state, other in zip(states, states[1:]):
        listed = set(some_turns(rules, state, 10_000))
        for turn in rng.sample(some_turns(rules, other), min(12, len(some_turns(rules, other)))):
            if turn in listed or getattr(rules, "iter_turns", None) is None:
                assert rules.is_legal(state, turn) == (turn in listed)
                checked += 1
    # a game listing its turns lazily may share no turn between two positions' first 10,000
    assert checked > 0 or getattr(rules, "iter_turns", None) is not None


@pytest.mark.parametrize("name", [name for name in GAMES if getattr(kind_of(name).rules, "iter_turns", None) is None])
def test_the_states_a_position_leads_to_are_those_its_listed_turns_lead_to(name):
    """``next_states`` (how the bots' searches expand a position) gives the
    position after each legal turn, whatever order it finds them in."""
    rules = kind_of(name).rules
    looked_at = 0
    for state, _ in positions(name):
        after = Counter(repr(s) for s in rules.next_states(state))
        assert after == Counter(repr(rules.apply(state, turn)) for turn in rules.legal_turns(state))
        looked_at += bool(after)
    assert looked_at > 0


@pytest.mark.parametrize("name", GAMES)
def test_the_bot_offers_beginner_and_strongest_weakest_first_and_plays_any_level_as_one_it_offers(name):
    """A game's bot may offer fewer levels than all (``Hooks.levels``), but
    always beginner and strongest, in the order of ``LEVELS``; the default
    level (asked for by ``vs bot`` alone) and any level of an older game
    play as a level it offers."""
    from engine.bots import LEVELS
    from engine.bots.hooks import level_for, offered, played_as

    rules = kind_of(name).rules
    levels = offered(rules)
    assert {"beginner", "strongest"} <= set(levels) and "random" not in levels
    assert list(levels) == [level for level in LEVELS if level in levels]
    assert level_for(rules, None).name in levels and level_for(rules, "").name in levels
    assert all(played_as(rules, LEVELS[level]).name in levels for level in LEVELS if level != "random")


# -- self-play and records --------------------------------------------------------
@pytest.mark.parametrize("name", GAMES)
def test_random_self_play_ends_with_a_consistent_result(name):
    rules, notation = kind_of(name).rules, kind_of(name).notation
    for game in games(name):
        final = game.final
        assert rules.is_over(final)  # ``play`` checked every position on the way
        with pytest.raises(TurnError):
            notation.parse_turn(final, game.texts[-1])
        with pytest.raises(IllegalTurnError):
            rules.apply(final, notation.parse_turn(game.states[-2], game.texts[-1]))


def record_of(name: str, game: Played, turns: int | None = None) -> records.Record:
    """The record of ``game`` (its first ``turns`` turns), as the server
    writes it: a chance game's from its seed, the seed not yet revealed."""
    kind = kind_of(name)
    players = [f"Player {n} <p{n}@example.org>" for n in range(1, game.players + 1)]
    if kind.rules.uses_chance:
        record = records.seeded_record(name, players, game.options, game.seed, date="2026.11.23")
    else:
        record = records.Record(name, players, options=dict(game.options), date="2026.11.23")
    record.turns = list(game.texts[:turns])
    record.chance = [list(o) for o in game.outcomes[:len(record.turns) + 1]]
    record.result = records.result_tag(kind, game.states[len(record.turns)])
    return record


@pytest.mark.parametrize("name", GAMES)
def test_records_of_self_play_replay_and_round_trip_through_text_and_json(name):
    kind = kind_of(name)
    for game in games(name):
        record = record_of(name, game)
        if kind.rules.uses_chance:
            record.tags[records.SEED] = game.seed
        played = records.replay(record)
        assert played.final == game.final and played.texts == game.texts
        text = records.write_text(record)
        again = records.read_text(text)
        assert records.write_text(again) == text
        assert records.check(again).final == game.final
        data = records.write_json(record)
        from_json = records.read_json(data)
        assert records.write_json(from_json) == data
        assert records.write_text(from_json) == text
        assert records.check(from_json).final == game.final
        assert json.loads(data)["final_position"] == kind.notation.format_position(game.final)


# -- hidden information and chance --------------------------------------------------
@pytest.mark.parametrize("name", GAMES)
def test_views_leak_nothing(name):
    kind = kind_of(name)
    rules, notation = kind.rules, kind.notation
    for game in games(name):
        secret = game.seed if rules.uses_chance else None
        for state in game.states[::7] + [game.final]:
            seen = [rules.view(state, p) for p in [*range(game.players), None]]
            for player, view in zip([*range(game.players), None], seen):
                assert rules.view(view, player) == view  # a view hides nothing more when viewed again
                assert rules.view(view, None) == seen[-1]  # a spectator sees no more than any player
                assert rules.to_move(view) == rules.to_move(state) and rules.players(view) == game.players
                if type(rules).view is Rules.view:
                    assert view == state  # no hidden information: everyone sees everything
                else:  # what a player sees can be written down and read back
                    assert notation.parse_position(notation.format_position(view), game.options) == view
                if secret and not (rules.is_over(state) and state is game.final):
                    shown = [repr(view), notation.format_position(view), notation.text_diagram(view)]
                    assert not any(secret in text for text in shown), "the seed shows before the end"
        if secret:  # the record shows the seed's hash from the start, the seed only at the end
            unfinished = record_of(name, game, len(game.texts) - 1)
            for text in (records.write_text(unfinished), records.write_json(unfinished)):
                assert secret not in text, "the seed shows in the record before the end"
                assert records.chance.commitment(secret) in text and records.chance.ALGORITHM in text
            # a player's record shows the outcomes they saw, '?' for the others, and their view of the positions
            events = [e for happened in records.replay(unfinished).events for e, _ in happened]
            for player in [*range(game.players), None]:
                for text in (records.write_text(unfinished, player), records.write_json(unfinished, player)):
                    seen = records.read(text)
                    hidden = [o.hidden for outcomes in seen.chance for o in outcomes]
                    assert hidden == [not e.visible_to(player) for e in events][:len(hidden)]
                    assert len(hidden) == len(events) or not any(hidden[len(hidden):])
                final = rules.view(game.states[len(game.texts) - 1], player)
                data = json.loads(records.write_json(unfinished, player))
                assert data["final_position"] == notation.format_position(final)


CHANCE_GAMES = [name for name in GAMES if kind_of(name).rules.uses_chance]


@pytest.mark.parametrize("name", [name for name in GAMES if name not in CHANCE_GAMES])
def test_a_game_without_chance_ignores_the_seed(name):
    rules = kind_of(name).rules
    for players, options in setups(rules):
        dealt = {rules.seeded_state(players, options, seed_for(n)) for n in range(3)}
        assert dealt == {rules.initial_state(players, options)}


@pytest.mark.parametrize("name", CHANCE_GAMES)
def test_the_seed_alone_decides_the_deal(name):
    rules = kind_of(name).rules
    for players, options in setups(rules):
        assert dealt(rules, players, options, seed_for(1)) == dealt(rules, players, options, seed_for(1))
        deals = {dealt(rules, players, options, seed_for(n)) for n in range(3)}
        assert len(deals) > 1, f"{name} {options}: three seeds dealt the same game"


@pytest.mark.parametrize("name", CHANCE_GAMES)
def test_a_chance_record_replays_without_the_seed_and_verifies_against_it(name):
    for game in games(name):
        record = record_of(name, game)
        assert records.SEED not in record.tags
        assert records.replay(record).final == game.final  # the outcomes are in the record
        with pytest.raises(RecordError, match="reveals no seed"):
            records.check(record)  # a finished game must reveal its seed
        record.tags[records.SEED] = game.seed
        records.check(records.read(records.write_text(record)))
        other = seed_for("another", game.seed)
        record.tags[records.SEED] = other
        with pytest.raises(RecordError, match="does not match its hash"):
            records.check(records.read(records.write_text(record)))
        record.tags[records.SEED_HASH] = records.chance.commitment(other)
        with pytest.raises(RecordError, match="does not deal the recorded start|does not give the recorded outcome"):
            records.check(records.read(records.write_text(record)))


# -- play by clicking ------------------------------------------------------------
#: a player may be asked to choose among at most this many turns that fit the same clicks
MOST_CHOICES = 12


@pytest.mark.parametrize("name", GAMES)
def test_every_legal_turn_can_be_played_by_clicking(name):
    """Each legal turn's clicks (``Notation.turn_clicks``) lead, step by
    step through ``Notation.click_options``, to the turn: every click is
    offered when its turn needs it, the last one completes the turn among
    few enough choices, no offered click leads nowhere, and every click
    that names a square of the board is a square the board draws."""
    from notation.drawing import regions as diagram_regions

    kind = kind_of(name)
    rules, notation = kind.rules, kind.notation
    rng = random.Random(name)
    walked = 0
    # a game listing its turns lazily has many: one other click a step.  If the generic scan of
    # those turns answers its clicks, each answer may take long: only a few of its positions and
    # turns, so that the test's time does not depend on the hash seed.  A game answering its clicks
    # itself, down the clicks made (Alheimur's notation/alheimur/clicks.py), is walked everywhere.
    listed_lazily = getattr(rules, "iter_turns", None) is not None
    lazy = listed_lazily and type(notation).click_options is Notation.click_options
    others = 1 if listed_lazily else 3
    for state, _ in positions(name)[::3][:4] if lazy else positions(name)[::3]:
        if rules.is_over(state):
            continue
        drawn = diagram_regions.regions(notation.diagram(state))["regions"]
        files, ranks = notation.click_grid(state)
        turns = some_turns(rules, state, 200)
        for turn in rng.sample(turns, min(len(turns), 2 if lazy else 4)):
            clicks = notation.turn_clicks(state, turn)
            text = notation.format_turn(state, turn)
            assert clicks and all(isinstance(c, str) and c.strip() and len(c) <= 100 for c in clicks), clicks
            for click in clicks:
                if re.fullmatch(r"[a-z][1-9][0-9]?", click) and files:
                    assert click in drawn, f"{text}: {click} is not a square of the board"
            for step in range(len(clicks) + 1):
                answer = notation.click_options(state, clicks[:step])
                assert text.startswith(answer.text) or step == len(clicks), (text, answer.text)
                if step < len(clicks):
                    assert clicks[step] in answer.next, f"{text}: after {clicks[:step]} {clicks[step]!r} is not offered"
                    for other in answer.next[:others]:
                        further = notation.click_options(state, (*clicks[:step], other))
                        assert further.next or further.complete, f"{clicks[:step]} then {other!r} leads nowhere"
                else:
                    assert text in answer.complete, f"the clicks {clicks} do not complete {text}"
                    assert len(answer.complete) <= MOST_CHOICES, f"{clicks} fit {len(answer.complete)} turns"
            walked += 1
    assert walked > 0
