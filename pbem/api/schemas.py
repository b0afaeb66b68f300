"""marshmallow schemas of the JSON API: what requests may hold and what
responses hold.  The OpenAPI document is made from these."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from pbem.services.turns import MAX_TURN


class TurnIn(Schema):
    turn = fields.String(required=True, validate=validate.Length(min=1, max=MAX_TURN),
                         metadata={"description": "the turn in the game's notation", "example": "b1-b3 G P:b4"})
    ply = fields.Integer(required=True, strict=True, validate=validate.Range(min=0),
                         metadata={"description": "the number of turns played when you looked (the game's ply)"})


class TimeControlIn(Schema):
    hours_per_turn = fields.Integer(strict=True, validate=validate.Range(min=1, max=24 * 365),
                                    metadata={"description": "time per turn in hours (or give days_per_turn)"})
    days_per_turn = fields.Integer(strict=True, validate=validate.Range(min=1, max=365),
                                   metadata={"description": "time per turn in days"})
    bank_hours = fields.Integer(strict=True, validate=validate.Range(min=0, max=24 * 365),
                                metadata={"description": "time bank each player starts with, in hours"})
    bank_increment_hours = fields.Integer(strict=True, validate=validate.Range(min=0, max=24 * 365),
                                          metadata={"description": "hours added to the bank after each turn"})
    bank_cap_hours = fields.Integer(strict=True, validate=validate.Range(min=0, max=24 * 365),
                                    metadata={"description": "the bank never exceeds this (0: no cap)"})
    on_timeout = fields.String(validate=validate.OneOf(["claim", "forfeit", "out"]),
                               metadata={"description": "claim: the game waits and the opponents may claim the win; "
                                         "forfeit: the turn is passed; out: the player is out (see docs/schedule.md)"})
    weekends = fields.Boolean(metadata={"description": "do Saturdays and Sundays (UTC) count? default true"})


class TimeControlOut(Schema):
    hours_per_turn = fields.Integer()
    bank_hours = fields.Integer()
    bank_increment_hours = fields.Integer()
    bank_cap_hours = fields.Integer()
    on_timeout = fields.String()
    weekends = fields.Boolean()
    description = fields.String()


class ScheduleIn(Schema):
    reminder_hours = fields.List(fields.Integer(strict=True, validate=validate.Range(min=1, max=720)),
                                 validate=validate.Length(max=5),
                                 metadata={"description": "hours before each deadline to remind you, e.g. [24, 1]"})
    digest = fields.Boolean(metadata={"description": "one mail a day listing your games instead of a mail per move"})


class VacationIn(Schema):
    days = fields.Integer(required=True, strict=True, validate=validate.Range(min=0, max=365),
                          metadata={"description": "vacation days from now; 0 ends your vacation"})


class ScheduleOut(Schema):
    reminder_hours = fields.List(fields.Integer())
    digest = fields.Boolean()
    vacation_days_per_year = fields.Integer()
    vacation_days_used = fields.Integer(metadata={"description": "this calendar year"})
    vacation_days_left = fields.Integer()
    on_vacation_until = fields.DateTime(allow_none=True)
    calendar_url = fields.String(metadata={"description": "private iCalendar feed of your deadlines"})


class GameIn(Schema):
    game = fields.String(required=True, metadata={"description": "game type", "example": "logger"})
    players = fields.List(fields.String(validate=validate.Length(max=320)), required=True, validate=validate.Length(min=1, max=16),
                          metadata={"description": "email addresses in turn order; you are put first if not listed"})
    options = fields.Dict(keys=fields.String(), values=fields.String(), load_default=dict)
    random_order = fields.Boolean(load_default=False, metadata={"description": "shuffle the turn order at the start"})
    hours_per_turn = fields.Integer(strict=True, allow_none=True, load_default=None,
                                    validate=validate.Range(min=1, max=24 * 365))
    time_control = fields.Nested(TimeControlIn, allow_none=True, load_default=None,
                                 metadata={"description": "time per turn, time bank, timeout policy, weekends"})
    open_seats = fields.Integer(strict=True, load_default=0, validate=validate.Range(min=0, max=7), metadata={
        "description": "an open challenge: seats any player may take from the lobby (list only yourself)"})
    bots = fields.List(fields.String(validate=validate.Length(max=20)), load_default=list, validate=validate.Length(max=7),
                       metadata={"description": "computer opponents, by level (beginner, easy, medium, hard, "
                                                "strongest; \"\" for medium), seated after the players"})


class SeatOut(Schema):
    seat = fields.Integer()
    label = fields.String(metadata={"description": "how the notation names this player"})
    name = fields.String()
    email = fields.String()
    status = fields.String(metadata={"description": "invited, accepted or declined"})
    to_move = fields.Boolean()
    offers_draw = fields.Boolean()
    colour = fields.String(metadata={"description": "the player's colour on the boards"})
    result = fields.String(allow_none=True, metadata={"description": "a finished game: won, lost, a draw, 2nd of 3..."})
    place = fields.Integer(allow_none=True, metadata={"description": "a finished game: the place in the standings, from 1"})


class GameOut(Schema):
    id = fields.Integer()
    game = fields.String()
    title = fields.String()
    options = fields.Dict(keys=fields.String(), values=fields.String())
    status = fields.String(metadata={"description": "inviting, active, finished, abandoned or cancelled"})
    ply = fields.Integer(metadata={"description": "turns played so far; send it with your turn"})
    players = fields.List(fields.Nested(SeatOut))
    to_move = fields.Integer(allow_none=True, metadata={"description": "seat to move, from 1"})
    your_seat = fields.Integer(allow_none=True)
    your_turn = fields.Boolean()
    hours_per_turn = fields.Integer(allow_none=True)
    time_control = fields.Nested(TimeControlOut, allow_none=True)
    deadline = fields.DateTime(allow_none=True)
    created_at = fields.DateTime()
    started_at = fields.DateTime(allow_none=True)
    finished_at = fields.DateTime(allow_none=True)
    result = fields.String(metadata={"description": "the record's Result tag: * while unfinished"})
    termination = fields.String(allow_none=True, metadata={
        "description": "why the game ended, as stored (English)"})
    termination_text = fields.String(allow_none=True, metadata={
        "description": "why the game ended, in the caller's language (their setting, else Accept-Language)"})
    draw_offered = fields.Boolean()
    open_seats = fields.Integer(metadata={"description": "seats still open to any player (an open challenge)"})
    standings = fields.List(fields.List(fields.Integer()), metadata={
        "description": "a finished game: groups of seats (from 1), best first, tied within a group"})
    verdict = fields.String(allow_none=True, metadata={"description": "a finished game: who won, in words"})
    your_result = fields.String(allow_none=True, metadata={"description": "your result in words: you won, 2nd of 3..."})
    solitaire = fields.Boolean(metadata={"description": "a game of one player: no draws, claims or time limit"})
    seed_hash = fields.String(allow_none=True, metadata={
        "description": "games that use chance: the SHA-256 of the deal's seed, shown from the start"})
    seed = fields.String(allow_none=True, metadata={
        "description": "games that use chance: the seed, revealed only once the game is over (null before), "
                       "or from the start when it was published (seed_public: a puzzle)"})
    seed_public = fields.Boolean(metadata={
        "description": "the game was dealt from a published seed (a puzzle, or the seed option): it is no secret"})
    puzzle = fields.Nested("PuzzleBriefOut", allow_none=True, metadata={
        "description": "the puzzle the game was started from, with its par (null: none)"})
    par_distance = fields.String(allow_none=True, metadata={
        "description": "a solved puzzle game: how far from par, e.g. '9 breedings: 2 over par (7)'"})


class PuzzleBriefOut(Schema):
    id = fields.Integer()
    name = fields.String(metadata={"example": "Martian Greenhouse daily puzzle of 2026-11-25"})
    day = fields.Date(allow_none=True, metadata={"description": "the UTC day of a daily puzzle"})
    par = fields.Integer(allow_none=True, metadata={"description": "the lowest score the solver found (null: none)"})
    lower_bound = fields.Integer(allow_none=True, metadata={"description": "no solution scores less"})
    optimal = fields.Boolean(metadata={"description": "par is proven the best possible"})
    par_text = fields.String()


class LeaderboardEntryOut(Schema):
    rank = fields.Integer(metadata={"description": "1 for the lowest score; equal scores share a rank"})
    player = fields.String(metadata={"description": "the player's display name (never the address)"})
    score = fields.Integer()
    distance = fields.String(allow_none=True, metadata={"description": "how far from par"})
    finished_at = fields.DateTime()
    game = fields.Integer(metadata={"description": "the game's id"})
    yours = fields.Boolean()


class PuzzleOut(Schema):
    id = fields.Integer()
    game = fields.String(metadata={"description": "game type", "example": "greenhouse"})
    title = fields.String()
    name = fields.String()
    day = fields.Date(allow_none=True, metadata={"description": "the UTC day of a daily puzzle (null: another puzzle)"})
    options = fields.Dict(keys=fields.String(), values=fields.String())
    seed = fields.String(metadata={"description": "the published seed (64 hex digits): it deals the puzzle"})
    seed_hash = fields.String()
    par = fields.Integer(allow_none=True, metadata={"description": "the lowest score the solver found (null: none)"})
    lower_bound = fields.Integer(allow_none=True, metadata={"description": "no solution scores less"})
    optimal = fields.Boolean()
    solver_seconds = fields.Float(metadata={"description": "the solver's budget when the puzzle was made"})
    par_text = fields.String()
    created_at = fields.DateTime()


class PuzzleGameOut(Schema):
    id = fields.Integer()
    status = fields.String()
    score = fields.Integer(allow_none=True)
    distance = fields.String(allow_none=True)


class PuzzleDetailOut(PuzzleOut):
    position = fields.String(metadata={"description": "the dealt position"})
    diagram = fields.String()
    leaderboard = fields.List(fields.Nested(LeaderboardEntryOut), metadata={
        "description": "each player's first solved game, fewest first; games given up are not ranked"})
    games_started = fields.Integer()
    your_games = fields.List(fields.Nested(PuzzleGameOut))


class TurnOut(Schema):
    ply = fields.Integer()
    seat = fields.Integer()
    player = fields.String()
    text = fields.String(metadata={"description": "the turn as written"})
    canonical = fields.String()
    source = fields.String(metadata={"description": "web, api, email or cli"})
    position = fields.String(metadata={"description": "the position after the turn"})
    created_at = fields.DateTime()
    report = fields.String(metadata={
        "description": "what happened in the turn, line by line (every check, die and hit), in games that "
                       "report their turns (absent in others); given by GET /games/{game_id}/turns/{ply} and in "
                       "the answer to a turn played"})


class SettingOut(Schema):
    name = fields.String(metadata={"description": "the setting, as written in 'set <name> <value>'"})
    description = fields.String()
    example = fields.String(metadata={"description": "a value, such as 'fire 3 t' (Alheimur's fire order)"})
    default = fields.String()
    value = fields.String(metadata={"description": "the value in force now"})
    pending = fields.String(allow_none=True, metadata={
        "description": "your change not yet in force: it takes effect in the next turn played (by anyone)"})


class SettingIn(Schema):
    value = fields.String(required=True, validate=validate.Length(min=1, max=200),
                          metadata={"description": "the new value, in the game's notation", "example": "hold"})


class LegalGroupOut(Schema):
    text = fields.String(metadata={"description": "the turns of the group in one line, as a person reads them"})
    count = fields.Integer(metadata={"description": "how many legal turns the line stands for"})


class GameDetailOut(GameOut):
    position = fields.String(allow_none=True)
    diagram = fields.String(allow_none=True, metadata={"description": "the board as text"})
    scores = fields.List(fields.Integer())
    outcome = fields.Dict(allow_none=True, metadata={
        "description": "a game played to its end: the rules' result, {winners (seats), reason, scores}; "
                       "e.g. a solitaire's reason 'every order filled in 7 breedings' and its score"})
    legal_turns = fields.List(fields.String(), metadata={
        "description": "your legal turns when it is your turn, else none, one turn each, for programs (at most "
                       "100, every one with ?legal=all up to 20,000; see legal_turns_cut)"})
    legal_turns_cut = fields.Boolean(metadata={"description": "there are more legal turns than legal_turns lists"})
    legal_groups = fields.List(fields.Nested(LegalGroupOut), metadata={
        "description": "the same turns as a person reads them, grouped (at most 100 groups; see legal_groups_cut): "
                       "one turn a group in most games; Taiga's by tile and place, then what may go with it"})
    legal_groups_cut = fields.Boolean(metadata={"description": "there are more groups than legal_groups lists"})
    turn_examples = fields.List(fields.String())
    turns = fields.List(fields.Nested(TurnOut))
    can_claim = fields.Boolean(metadata={"description": "you may claim the win: the player to move ran out of time"})
    settings = fields.List(fields.Nested(SettingOut), metadata={
        "description": "your settings that you may change at any time, also outside your turn "
                       "(PUT /games/{game_id}/settings/{name}); only you see them; none for most games"})
    report = fields.String(metadata={
        "description": "what happened in the last turn played, in games that report their turns (absent in others)"})


class PreviewOut(Schema):
    turn = fields.String()
    canonical = fields.String()
    position = fields.String(metadata={"description": "the position the turn would lead to"})
    diagram = fields.String()


class OptionOut(Schema):
    name = fields.String()
    choices = fields.List(fields.String())
    default = fields.String()
    help = fields.String()


class KindOut(Schema):
    name = fields.String()
    title = fields.String()
    summary = fields.String()
    min_players = fields.Integer()
    max_players = fields.Integer()
    options = fields.List(fields.Nested(OptionOut))
    turn_examples = fields.List(fields.String())
    bot_levels = fields.List(fields.String(), metadata={"description": "the levels of the game's computer opponent, weakest first"})


class MeOut(Schema):
    id = fields.Integer()
    email = fields.String()
    name = fields.String()


class ErrorOut(Schema):
    error = fields.String(required=True, metadata={"description": "what is wrong and what would be right"})
    fields_ = fields.Dict(data_key="fields", metadata={"description": "per-field messages, for invalid bodies"})


class ChallengePlayerOut(Schema):
    name = fields.String()
    player_id = fields.Integer()


class ChallengeOut(Schema):
    id = fields.Integer()
    game = fields.String()
    title = fields.String()
    options = fields.Dict(keys=fields.String(), values=fields.String())
    players = fields.List(fields.Nested(ChallengePlayerOut), metadata={"description": "who is in so far"})
    open_seats = fields.Integer()
    seats = fields.Integer(metadata={"description": "seats in all"})
    time_control = fields.String(metadata={"description": "the time control in words"})
    created_at = fields.DateTime()
    yours = fields.Boolean(metadata={"description": "you are already seated"})
    can_join = fields.Boolean()
