"""Thousands of random Logger games with Logger's own invariants checked
after every turn, and legal-turn generation checked against a brute-force
reference.  What every game must do (text round trips, legal turns listed
once and re-parsing) is in ``test_game_contract.py``."""

from __future__ import annotations

import random
from itertools import combinations, permutations

import pytest
from logger_helpers import NOTATION, RULES

from engine.logger.board import NEIGHBOURS, SQUARES, ray

GAMES_PER_COUNT = 1000
MAX_PLIES = 2000  # far above any game seen; reaching it fails the test


def check_invariants(before, turn, after, total_protesters):
    players = before.players
    # protesters are conserved: in supplies or on trees
    assert sum(after.supplies) + after.board.count("P") == total_protesters
    # scores never fall, and only the mover scores
    for p in range(players):
        assert after.scores[p] >= before.scores[p]
        if p != before.to_move:
            assert after.scores[p] == before.scores[p]
    # one logger per player once placed, never more
    for p in range(players):
        assert after.board.count(str(p + 1)) <= 1
    if not before.in_setup:
        assert all(after.board.count(str(p + 1)) == 1 for p in range(players))
    # ruling 9: the game ends exactly after the last player's turn once someone has 10
    mover = before.to_move
    ends = not before.in_setup and mover == players - 1 and max(after.scores) >= 10
    dead = not before.in_setup and RULES.is_dead(after.board, after.supplies)  # ruling 11
    assert (after.to_move is None) == (ends or dead)
    if dead:
        for p in range(players):  # nobody could change anything
            moved = type(after)(after.board, p, after.scores, after.supplies)
            assert [RULES.apply(moved, t).board for t in RULES.legal_turns(moved)] == [after.board]
    if after.to_move is not None:
        assert after.to_move == (mover + 1) % players


def random_game(rng: random.Random, players: int):
    state = RULES.initial_state(players)
    total = sum(state.supplies)
    plies = 0
    while not RULES.is_over(state):
        turns = RULES.legal_turns(state)
        assert turns, "a player always has a legal turn"
        turn = rng.choice(turns)
        after = RULES.apply(state, turn)
        check_invariants(state, turn, after, total)
        state = after
        plies += 1
        assert plies < MAX_PLIES
    return state, plies


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_keep_the_invariants(players):
    rng = random.Random(20261123 + players)
    for _ in range(GAMES_PER_COUNT):
        final, plies = random_game(rng, players)
        result = RULES.result(final)
        assert result is not None
        if max(final.scores) >= 10:
            assert plies % players == 0  # equal turns: every player moved as often (setup included)
        else:
            assert RULES.is_dead(final.board, final.supplies)
        best = max(final.scores)
        assert all(final.scores[w] == best for w in result.winners)


# -- a brute-force reference for the whole turn ----------------------------------
def reference_results(state) -> set[str]:
    """Every position reachable in one turn, found by brute force straight
    from the rule text: every path, every spawn order and square, every action."""
    if state.in_setup:
        results = set()
        for corner in (0, 4, 20, 24):
            if state.board[corner] == ".":
                board = list(state.board)
                board[corner] = str(state.to_move + 1)
                results.add(("".join(board), (state.to_move + 1) % state.players, state.scores, state.supplies))
        return {fmt(*r) for r in results}
    me = state.to_move
    start = state.board.index(str(me + 1))
    ends = {start}
    for a in NEIGHBOURS[start]:
        if state.board[a] == ".":
            ends.add(a)
            for b in NEIGHBOURS[a]:
                if state.board[b] == "." or b == start:
                    ends.add(b)
    results = set()
    for end in ends:
        board = list(state.board)
        board[start], board[end] = ".", str(me + 1)
        line = [s for s in SQUARES if s != end and (s // 5 == end // 5 or s % 5 == end % 5)]
        spawners = [s for s in line if board[s] in "MP"]
        for s in line:
            board[s] = {"s": "S", "S": "M"}.get(board[s], board[s])
        grown = set()
        for order in permutations(spawners):
            grown |= spawn_all(board, list(order), state.spawn)
        for g in grown:
            b = list(g)
            for result in actions(b, end, me, state):
                results.add(fmt(*result))
    return results


def spawn_all(board, order, stage) -> set[str]:
    if not order:
        return {"".join(board)}
    tree, rest = order[0], order[1:]
    free = [n for n in NEIGHBOURS[tree] if board[n] == "."]
    if not free:
        return spawn_all(board, rest, stage)
    out = set()
    for square in free:
        b = list(board)
        b[square] = stage
        out |= spawn_all(b, rest, stage)
    return out


def actions(board, logger, me, state):
    scores, supplies = list(state.scores), list(state.supplies)
    found = []

    def done(b, sc, su):
        # ruling 9, and ruling 11 (checked by brute force in check_invariants)
        over = (me == state.players - 1 and max(sc) >= 10) or RULES.is_dead(b, su)
        found.append(("".join(b), None if over else (me + 1) % state.players, tuple(sc), tuple(su)))

    for n in NEIGHBOURS[logger]:
        if board[n] == ".":
            b = list(board)
            b[n] = "s"
            done(b, scores, supplies)
        if board[n] == "M":
            b, sc, su = list(board), list(scores), list(supplies)
            for s in ray(logger, n):
                if b[s] not in "MP":
                    break
                su[me] += b[s] == "P"
                b[s] = "."
                sc[me] += 1
            done(b, sc, su)
    mature = [s for s in SQUARES if board[s] == "M"]
    for k in range(1, supplies[me] + 1):
        for chosen in combinations(mature, k):
            b, su = list(board), list(supplies)
            for s in chosen:
                b[s] = "P"
            su[me] -= k
            done(b, scores, su)
    if not found:
        done(board, scores, supplies)
    return found


def fmt(board, to_move, scores, supplies) -> str:
    from engine.logger.state import LoggerState

    return NOTATION.format_position(LoggerState(board, to_move, tuple(scores), tuple(supplies)))


def sample_positions(count: int, seed: int):
    rng = random.Random(seed)
    positions = []
    while len(positions) < count:
        state = RULES.initial_state(rng.choice([2, 3, 4]))
        while not RULES.is_over(state):
            if rng.random() < 0.15:
                positions.append(state)
            state = RULES.apply(state, rng.choice(RULES.legal_turns(state)))
    return positions[:count]


def test_legal_turns_reach_exactly_what_the_rules_allow():
    for state in sample_positions(400, 7):
        ours = {NOTATION.format_position(RULES.apply(state, t)) for t in RULES.legal_turns(state)}
        assert ours == reference_results(state), NOTATION.format_position(state)


def test_a_turn_read_then_played_gives_the_position_a_fresh_reading_gives():
    """Reading a turn remembers the position it leads to, so that playing
    it next is not worked out again: whatever was read before, playing a
    turn gives what the rules work out from nothing."""
    from engine.logger.rules import LoggerGame

    rng = random.Random(7)
    for _ in range(40):
        state = RULES.initial_state(rng.choice((2, 3, 4)))
        while RULES.to_move(state) is not None:
            texts = NOTATION.legal_texts(state)
            read = [NOTATION.parse_turn(state, text) for text in rng.sample(texts, min(3, len(texts)))]
            turn = rng.choice(read)  # not always the last one read
            after = RULES.apply(state, turn)
            assert after == LoggerGame().apply(state, turn)
            other = RULES.initial_state(state.players)  # another position, the same turn
            try:
                assert RULES.apply(other, turn) == LoggerGame().apply(other, turn)
            except Exception as error:
                with pytest.raises(type(error)):
                    LoggerGame().apply(other, turn)
            state = after
