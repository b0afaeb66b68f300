"""The OpenAPI 3 document of the JSON API, its schemas taken from the
marshmallow schemas in ``pbem.api.schemas``."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from apispec import APISpec
from apispec.ext.marshmallow import MarshmallowPlugin

from pbem.api import schemas

_ERRORS = {
    "400": "malformed JSON or an invalid body",
    "401": "no valid API token",
    "403": "not your game; for a new game, an invited address refuses all mail from this server",
    "404": "no such game (or puzzle)",
    "409": "the game has moved on (or has not reached the ply sent), it is not your turn, or the game is not in play",
    "413": "the body is larger than the server's MAX_CONTENT_LENGTH (64 KiB by default); it was not read",
    "422": "the turn is malformed or illegal here",
    "429": "an invitation limit is reached (the message names it and when it resets)",
}


def _responses(ok: str, schema: Any, codes: tuple[str, ...], status: str = "200") -> dict[str, Any]:
    content = {"application/json": {"schema": schema}} if schema else {"text/plain": {"schema": {"type": "string"}}}
    responses = {status: {"description": ok, "content": content}}
    for code in codes + (("413",) if "400" in codes else ()):
        responses[code] = {"description": _ERRORS[code], "content": {"application/json": {"schema": "Error"}}}
    return responses


_GAME_ID = {"name": "game_id", "in": "path", "required": True, "schema": {"type": "integer"}}
_PUZZLE_ID = {"name": "puzzle_id", "in": "path", "required": True, "schema": {"type": "integer"}}


@lru_cache(maxsize=1)
def document() -> dict[str, Any]:
    spec = APISpec(
        title="pbem",
        version="1",
        openapi_version="3.0.3",
        info={"description": "Play board games with Icehouse pyramids by email and on the web."},
        servers=[{"url": "/api/v1"}],
        plugins=[MarshmallowPlugin()],
    )
    spec.components.security_scheme("token", {"type": "http", "scheme": "bearer", "description": "an API token from /tokens"})
    for name, schema in (
        ("TimeControlIn", schemas.TimeControlIn), ("TimeControl", schemas.TimeControlOut),
        ("Error", schemas.ErrorOut), ("TurnIn", schemas.TurnIn), ("GameIn", schemas.GameIn),
        ("PuzzleBrief", schemas.PuzzleBriefOut), ("Seat", schemas.SeatOut), ("Turn", schemas.TurnOut), ("Game", schemas.GameOut),
        ("Setting", schemas.SettingOut),  # before GameDetail, which nests it: else it is described twice
        ("LegalGroup", schemas.LegalGroupOut),  # before GameDetail too
        ("GameDetail", schemas.GameDetailOut), ("Option", schemas.OptionOut), ("Kind", schemas.KindOut),
        ("Preview", schemas.PreviewOut), ("Me", schemas.MeOut),
        ("LeaderboardEntry", schemas.LeaderboardEntryOut),
        ("Puzzle", schemas.PuzzleOut), ("PuzzleGame", schemas.PuzzleGameOut), ("PuzzleDetail", schemas.PuzzleDetailOut),
        ("ChallengePlayer", schemas.ChallengePlayerOut), ("Challenge", schemas.ChallengeOut),
        ("ScheduleIn", schemas.ScheduleIn), ("VacationIn", schemas.VacationIn), ("Schedule", schemas.ScheduleOut),
        ("SettingIn", schemas.SettingIn),
    ):
        spec.components.schema(name, schema=schema)

    def many(name: str) -> dict[str, Any]:
        return {"type": "array", "items": name}

    spec.path("/openapi.json", operations={"get": {"summary": "this document", "security": [],
              "responses": {"200": {"description": "the OpenAPI document"}}}})
    spec.path("/kinds", operations={"get": {"summary": "the game types and their options", "security": [],
              "responses": _responses("game types", many("Kind"), ())}})
    spec.path("/me", operations={"get": {"summary": "who the token belongs to", "responses": _responses("you", "Me", ("401",))}})
    spec.path("/games", operations={
        "get": {"summary": "your games, newest first", "responses": _responses("games", many("Game"), ("401",))},
        "post": {"summary": "create a game and invite its players",
                 "requestBody": {"required": True, "content": {"application/json": {"schema": "GameIn"}}},
                 "responses": _responses("the new game", "GameDetail", ("400", "401", "403", "429"), "201")},
    })
    spec.path("/games/{game_id}", parameters=[_GAME_ID], operations={"get": {
        "summary": "a game with its position, diagram, legal turns and turns played",
        "parameters": [{"name": "legal", "in": "query", "required": False,
                        "schema": {"type": "string", "enum": ["all"]},
                        "description": "all: legal_turns lists every legal turn (up to 20,000), not only the "
                                       "first 100"}],
        "responses": _responses("the game", "GameDetail", ("400", "401", "403", "404"))}})
    spec.path("/games/{game_id}/turns", parameters=[_GAME_ID], operations={
        "get": {"summary": "the turns played", "responses": _responses("turns", many("Turn"), ("401", "403", "404"))},
        "post": {"summary": "play a turn, naming the ply you saw",
                 "requestBody": {"required": True, "content": {"application/json": {"schema": "TurnIn"}}},
                 "responses": _responses("the game after the turn, as GET /games/{game_id} shows it, except "
                                         "that its turns are only those this turn stored (yours, then any "
                                         "forfeited for players out on time); GET /games/{game_id}/turns "
                                         "lists them all", "GameDetail",
                                         ("400", "401", "403", "404", "409", "422"), "201")},
    })
    spec.path("/games/{game_id}/preview", parameters=[_GAME_ID], operations={"get": {
        "summary": "what a turn would do, without playing it",
        "parameters": [{"name": "turn", "in": "query", "required": True, "schema": {"type": "string"}}],
        "responses": _responses("the position after the turn", "Preview", ("400", "401", "403", "404", "409", "422"))}})
    spec.path("/games/{game_id}/clicks", parameters=[_GAME_ID], operations={"get": {
        "summary": "play by clicking, step by step: after the clicks given, what may be clicked next "
                   "(next), the turns those clicks complete (complete), the turn's text so far (text)",
        "parameters": [{"name": "click", "in": "query", "schema": {"type": "array", "items": {"type": "string"}},
                        "style": "form", "explode": True,
                        "description": "the clicks so far, in order: squares (a1), zone items (#3) or words"}],
        "responses": _responses("the next possible clicks and the turns completed", None,
                                ("400", "401", "403", "404"))}})
    spec.path("/games/{game_id}/turns/{ply}", parameters=[_GAME_ID, {
        "name": "ply", "in": "path", "required": True, "schema": {"type": "integer", "minimum": 1}}],
        operations={"get": {"summary": "one turn played (1 for the first), with the game's report of it "
                                       "(every check, die and hit) in games that report one",
                            "responses": _responses("the turn", "Turn", ("401", "403", "404"))}})
    spec.path("/games/{game_id}/settings", parameters=[_GAME_ID], operations={"get": {
        "summary": "your settings in the game that you may change at any time, also outside your turn "
                   "(Alheimur: your standing fire order); only you see them; none for most games",
        "responses": _responses("your settings", many("Setting"), ("401", "403", "404"))}})
    spec.path("/games/{game_id}/settings/{name}", parameters=[_GAME_ID, {
        "name": "name", "in": "path", "required": True, "schema": {"type": "string"}}], operations={"put": {
        "summary": "change one of your settings, whoever's turn it is: it takes effect in the next turn played "
                   "(by anyone), which records it",
        "requestBody": {"required": True, "content": {"application/json": {"schema": "SettingIn"}}},
        "responses": _responses("the setting", "Setting", ("400", "401", "403", "404", "409"))}})
    spec.path("/games/{game_id}/record", parameters=[_GAME_ID], operations={"get": {
        "summary": "the game record, as text (default) or JSON",
        "parameters": [{"name": "format", "in": "query", "schema": {"type": "string", "enum": ["text", "json"]}}],
        "responses": _responses("the record", None, ("400", "401", "403", "404"))}})
    for action, summary in (
        ("accept", "accept your invitation; the game starts when everyone has"),
        ("decline", "decline your invitation (not once you have accepted); the game is cancelled"),
        ("resign", "resign the game, at once: the API asks no confirmation, so confirm with your user first"),
        ("draw", "offer a draw, or agree to the one on offer"),
        ("abandon", "abandon a game before it starts (its creator only): the invitations are cancelled; "
                    "a game in play cannot be abandoned (resign or offer a draw)"),
        ("claim", "claim the win: the player to move ran out of time (policy claim, see docs/schedule.md)"),
        ("join", "take an open seat of an open challenge (see /lobby); the game starts when the last is taken; "
                 "of players racing for the last seat exactly one gets it, the others get 409"),
    ):
        spec.path(f"/games/{{game_id}}/{action}", parameters=[_GAME_ID], operations={"post": {
            "summary": summary, "responses": _responses("the game", "GameDetail", ("401", "403", "404", "409"))}})
    spec.path("/lobby", operations={"get": {
        "summary": "the open challenges: games with seats any player may take (POST /games/{game_id}/join)",
        "responses": _responses("open challenges, oldest first", many("Challenge"), ("401",))}})
    spec.path("/puzzles", operations={"get": {
        "summary": "the puzzles (published deals anyone may play), newest first, with par",
        "responses": _responses("puzzles", many("Puzzle"), ("401",))}})
    spec.path("/puzzles/{puzzle_id}", parameters=[_PUZZLE_ID], operations={"get": {
        "summary": "a puzzle with its deal, par and leaderboard (each player's first solved game, fewest first)",
        "responses": _responses("the puzzle", "PuzzleDetail", ("401", "404"))}})
    spec.path("/puzzles/{puzzle_id}/games", parameters=[_PUZZLE_ID], operations={"post": {
        "summary": "start a game of the puzzle (no body); it starts at once, its seed shown",
        "responses": _responses("the new game", "GameDetail", ("401", "404"), "201")}})
    events = {"name": "Last-Event-ID", "in": "header", "schema": {"type": "integer"},
              "description": "resume after this event: every change since comes first, in order"}
    for path, parameters, summary in (
            ("/games/{game_id}/events", [_GAME_ID], "the game's changes as they happen"),
            ("/me/events", [], "the changes of every game you have a seat in")):
        spec.path(path, parameters=parameters, operations={"get": {
            "summary": summary + " (Server-Sent Events: an event: game frame per change, id to resume with "
                                 "Last-Event-ID or ?last_event_id=, a heartbeat comment every 15 s; docs/api.md)",
            "parameters": [events, {"name": "last_event_id", "in": "query", "schema": {"type": "integer"}}],
            "responses": {"200": {"description": "the stream", "content": {"text/event-stream": {
                "schema": {"type": "string"}}}},
                **{code: {"description": _ERRORS.get(code, "the server holds as many streams as it can; try again "
                                                           "after Retry-After seconds"),
                          "content": {"application/json": {"schema": "Error"}}}
                   for code in ("400", "401", "403", "404", "503")}}}})
    spec.path("/me/schedule", operations={
        "get": {"summary": "your reminders, digest choice, vacation days and calendar feed",
                "responses": _responses("your schedule", "Schedule", ("401",))},
        "put": {"summary": "change your reminder hours and/or digest choice",
                "requestBody": {"required": True, "content": {"application/json": {"schema": "ScheduleIn"}}},
                "responses": _responses("your schedule", "Schedule", ("400", "401"))},
    })
    spec.path("/me/vacation", operations={"post": {
        "summary": "go on vacation for some days from now (0 ends it); your clocks stop",
        "requestBody": {"required": True, "content": {"application/json": {"schema": "VacationIn"}}},
        "responses": _responses("your schedule", "Schedule", ("400", "401", "409"))}})
    data = spec.to_dict()
    data["security"] = [{"token": []}]
    return data
