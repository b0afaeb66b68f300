"""The bots' search (engine.bots): every game's bot plays only legal turns
to the end, takes a win in one, is reproducible from its seed, and in a
game with hidden information decides from its view alone."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import pytest
from hands_game import ANIMALS, HIDDEN, HandsGame

from engine.base import settle_from_seed
from engine.bots import choose, random_turn
from engine.bots.match import interval, match, play_game
from notation import registry

TWO_PLAYER = [name for name in registry.names() if registry.get(name).rules.max_players >= 2]


@pytest.mark.parametrize("name", TWO_PLAYER)
def test_bots_play_legal_turns_to_the_end(name):
    # a beginner (seat 0) against random play: two bots that both keep their pyramids alive play an
    # Alheimur game of a hundred turns and more, minutes of a test
    game = registry.get(name).rules
    seed = "0" * 63 + "7"  # chance settled as the server settles it (a draw before each turn, say)
    start = game.seeded_state(2, game.normalize_options({}), seed) if game.uses_chance else game.initial_state(2)
    state, _ = settle_from_seed(game, start, seed, 0)
    plies = 0
    while not game.is_over(state) and plies < 300:
        seat = game.to_move(state)
        level = "beginner" if seat == 0 else "random"
        turn = choose(game, game.view(state, seat), seat, level, seed=plies, timed=False).turn
        assert game.is_legal(state, turn)
        state, _ = settle_from_seed(game, game.apply(state, turn), seed, plies + 1)
        plies += 1
    assert game.is_over(state), f"{name} did not finish in 300 turns of bots"


def test_greenhouse_bot_solves_a_small_greenhouse():
    game = registry.get("greenhouse").rules
    played = play_game(game, ["beginner"], "small", {"stashes": "rb", "orders": "1"})
    assert game.is_over(played.state)
    assert played.payoffs == (1.0,), game.result(played.state)


def test_greenhouse_beginner_fills_every_order_in_more_breedings_than_easy():
    game = registry.get("greenhouse").rules
    options = {"stashes": "rbpc", "orders": "3"}
    beginner, easy = (play_game(game, [level], ("greenhouse/deal", 2), options) for level in ("beginner", "easy"))
    assert beginner.payoffs == easy.payoffs == (1.0,)
    assert game.scores(beginner.state)[0] > game.scores(easy.state)[0]  # breedings: fewer is better


def last_piece():
    """An Ataxx position where x can take o's only piece (g7), only by
    moving next to it from e5: the game, the position, its turns and the
    winning ones."""
    kind = registry.get("ataxx")
    game = kind.rules
    state = kind.notation.parse_position("6o/7/4x2/7/7/7/x6 x 0 1")
    turns = game.legal_turns(state)
    return game, state, turns, [t for t in turns if game.is_over(game.apply(state, t))]


def test_ataxx_bot_takes_the_last_piece():
    game, state, turns, winning = last_piece()
    assert 0 < len(winning) < len(turns) / 4
    for seed in range(5):
        turn = choose(game, state, 0, "beginner", seed=seed, timed=False).turn
        assert turn in winning


def test_a_seeded_bot_chooses_the_same_turn_again():
    game = registry.get("logger").rules
    state = game.initial_state(3)
    one = choose(game, state, 0, "easy", seed="s", timed=False)
    two = choose(game, state, 0, "easy", seed="s", timed=False)
    assert one == two and one.playouts == 150


def test_match_scores_and_interval():
    game = registry.get("ataxx").rules
    result = match(game, "beginner", "random", 4, seed=1)
    assert result.games == 4 and result.wins + result.draws + result.losses == 4
    assert result.low <= result.share <= result.high
    low, high = interval(50, 100)
    assert 0.40 < low < 0.41 and 0.59 < high < 0.60


# -- hidden information: Hands --------------------------------------------

class SpyHands(HandsGame):
    """Hands that fails if the bot's search ever holds a card the bot may not see."""

    seen: frozenset[str] = frozenset()

    def _check(self, state):
        cards = {c for hand in state.hands for c in hand} | set(state.pile)
        leaked = cards - self.seen - {HIDDEN}
        assert not leaked, f"the bot saw hidden cards {sorted(leaked)}"

    def legal_turns(self, state):
        self._check(state)
        return super().legal_turns(state)

    def apply(self, state, turn):
        self._check(state)
        return super().apply(state, turn)

    def apply_chance(self, state, outcome):
        self._check(state)
        return super().apply_chance(state, outcome)


def _dealt(seed: str, players: int = 2):
    game = HandsGame()
    state, _ = settle_from_seed(game, game.initial_state(players), seed, 0)
    return game, state


def test_a_hands_bot_never_handles_a_card_it_cannot_see():
    game, state = _dealt("ab" * 32, 3)
    spy = SpyHands()
    plies = 0
    while not game.is_over(state):
        seat = game.to_move(state)
        view = game.view(state, seat)
        spy.seen = frozenset(state.hands[seat]) | {c for p in state.played for c in p}
        turn = choose(spy, view, seat, "easy", seed=plies, timed=False).turn
        if getattr(game, "iter_turns", None) is None:
            assert turn in game.legal_turns(state)
        # a game that lists its turns lazily (Alheimur's list in play never ends): apply refuses an illegal one
        plies += 1
        state, _ = settle_from_seed(game, game.apply(state, turn), "ab" * 32, plies)
    assert plies == len(ANIMALS)


def test_a_hands_bot_decides_the_same_whatever_the_hidden_cards_are():
    game, state = _dealt("cd" * 32)
    # swap the opponent's hand with cards from the pile: the bot's view is unchanged
    other = tuple(sorted(state.pile[:2], key=ANIMALS.index))
    changed = replace(state, hands=(state.hands[0], other),
                      pile=tuple(sorted(set(state.pile) - set(other) | set(state.hands[1]), key=ANIMALS.index)))
    assert game.view(changed, 0) == game.view(state, 0) and changed != state
    for seed in range(3):
        one = choose(game, game.view(state, 0), 0, "easy", seed=seed, timed=False)
        two = choose(game, game.view(changed, 0), 0, "easy", seed=seed, timed=False)
        assert one == two


def test_random_level_plays_a_legal_turn():
    game = registry.get("attactics").rules
    state = game.initial_state(4)
    assert random_turn(game, state, 3) in game.legal_turns(state)


def test_a_bot_resigns_only_a_proven_loss():
    kind = registry.get("ataxx")
    game = kind.rules
    # one empty square: whatever x plays fills the board with o far ahead
    lost = kind.notation.parse_position("oooooo1/oooooxo/ooooxoo/ooooooo/ooooooo/ooooooo/xoooooo x 0 1")
    assert len(game.legal_turns(lost)) > 1
    assert choose(game, lost, 0, "beginner", seed=1, timed=False).resign
    # far behind but the board is open: the search may despair, but nothing is proven
    behind = kind.notation.parse_position("ooooooo/ooooooo/ooooooo/7/7/7/x6 x 0 1")
    choice = choose(game, behind, 0, "beginner", seed=1, timed=False)
    assert not choice.resign


@pytest.mark.parametrize("position", [
    "....2/...../...../M..../1MMM. 1 0,0 2,2",  # two players: alpha-beta
    "....2/...../3..../M..../1MMM. 1 0,0,0 1,1,1",  # three: the tree search, turns tried best first
])
def test_logger_bot_chops_the_longest_row_it_can(position):
    # the logger on a1 can chop b1-d1 (3 points) or a2 (1), or plant or protest; a bot with
    # the defaults' 40 random playouts chopped all three in only 2 or 4 seeds of 8
    kind = registry.get("logger")
    game = kind.rules
    state = kind.notation.parse_position(position)
    gains = {turn: game.apply(state, turn).scores[0] for turn in game.legal_turns(state)}
    assert max(gains.values()) == 3 and sum(g == 3 for g in gains.values()) < len(gains) / 2
    for seed in range(4):
        assert gains[choose(game, state, 0, "beginner", seed=seed, timed=False).turn] == 3


#: an Attactics position of a game between bots where most turns capture more than the stash can
#: serve, so the mover states how the captured pieces are replaced (292 turns, 188 with fills)
MANY_CAPTURES = "....2m2s.2s/....2m2s2s2s/.....2m.2m/......2m./1m....1l1l./1s1m....../1s1s1m...../1s1s.1m.... 1 2"


def test_an_attactics_position_of_many_captures_expands_to_the_states_its_turns_lead_to():
    kind = registry.get("attactics")
    state = kind.notation.parse_position(MANY_CAPTURES, {})
    turns = kind.rules.legal_turns(state)
    assert len(turns) == 292 and sum(1 for t in turns if t.fills) == 188
    after = Counter(repr(s) for s in kind.rules.next_states(state))
    assert after == Counter(repr(kind.rules.apply(state, turn)) for turn in turns)
    assert len(after) > 200  # most of the turns end in a position of their own
