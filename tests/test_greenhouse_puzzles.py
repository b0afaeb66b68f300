"""Shared puzzles of Martian Greenhouse: a published seed and options with
the solver's par, started by anyone on the web, through the API or by mail,
the seed shown from the start, the distance from par after the game, the
leaderboard (each player's first solved game, fewest breedings first, games
given up left out, display names only), the daily puzzle made once a day
however many schedulers run, a game from any published seed, and the
capped ``pbem position legal``."""

from __future__ import annotations

import re
from datetime import date, datetime, timezone

import pytest
from click.testing import CliRunner
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, select
from test_email_commands import ROBOT, fresh_mail, plain_text, robot  # noqa: F401 - fixture
from test_greenhouse_server import bearer, solution
from test_web_pages import csrf, play, sign_in

from engine import chance
from engine.base import PuzzlePar
from notation import record as records
from notation import registry
from notation.registry import get
from pbem import models, scheduler
from pbem.config import ConfigError
from pbem.models import Game, OutboxMessage
from pbem.models.puzzles import Puzzle
from pbem.services import puzzles

GREENHOUSE = get("greenhouse")
SEED = f"{31:064x}"  # stashes rb, two orders: solved in a few breedings
HASH = chance.commitment(SEED)
OPTIONS = {"stashes": "rb", "orders": "2"}
TODAY = datetime(2030, 3, 14, 9, 30, tzinfo=timezone.utc)


def engine(app):
    return app.extensions["pbem_engine"]


def make_puzzle(app, seed: str = SEED, options=None, seconds: float | None = None) -> Puzzle:
    from pbem.db import get_session

    with app.app_context():
        puzzle = puzzles.make(get_session(), "greenhouse", options or OPTIONS, seed, seconds)
        return puzzles.load(get_session(), puzzle.id)


def game_row(app, game_id: int) -> Game:
    with Session(engine(app)) as s:
        return s.get(Game, game_id)


def mails_to(app, address: str) -> list[OutboxMessage]:
    with Session(engine(app)) as s:
        return list(s.exec(select(OutboxMessage).where(OutboxMessage.to_addr == address).order_by(OutboxMessage.id)))


def start_from_page(client, puzzle_id: int) -> int:
    page = client.get(f"/puzzles/{puzzle_id}")
    assert page.status_code == 200
    started = client.post(f"/puzzles/{puzzle_id}/games", data={"csrf_token": csrf(page)})
    assert started.status_code == 302, started.get_data(as_text=True)
    return int(started.headers["Location"].rsplit("/", 1)[1])


def play_through(client, game_id: int, breedings: list[str]) -> None:
    for turn in breedings:
        assert play(client, game_id, turn).status_code == 302


def detour(position: str) -> list[str]:
    """A longer solution: the first legal breeding, then the solver's line."""
    state = GREENHOUSE.notation.parse_position(position, OPTIONS)
    first = next(iter(GREENHOUSE.rules.iter_turns(state)))
    after = GREENHOUSE.rules.apply(state, first)
    return [GREENHOUSE.notation.format_turn(state, first)] + solution(GREENHOUSE.notation.format_position(after))


def name_players(app, **names: str) -> None:
    from pbem.db import get_session
    from pbem.services.accounts import player_for_email, set_name

    with app.app_context():
        for who, name in names.items():
            set_name(get_session(), player_for_email(get_session(), f"{who}@example.org"), name)


def distance(puzzle: Puzzle, breedings: int) -> str:
    par = PuzzlePar(puzzle.par, puzzle.lower_bound, puzzle.optimal)
    return GREENHOUSE.rules.distance_from_par(par, breedings)


@pytest.mark.parametrize("name", registry.names())
def test_a_game_that_offers_puzzles_is_a_solitaire_of_chance_with_a_consistent_par(name):
    rules = get(name).rules
    options = rules.puzzle_options()
    if options is None:  # the default: no puzzles, no solver
        assert rules.par(None, 0.1) is None and name not in puzzles.puzzle_kinds()
        return
    assert rules.uses_chance and rules.max_players == 1 and name in puzzles.puzzle_kinds()
    assert rules.normalize_options(options) == options
    par = rules.par(rules.seeded_state(1, options, SEED), 0.1)
    assert isinstance(par, PuzzlePar) and par.lower_bound >= 1
    assert par.found is None or par.found >= par.lower_bound
    assert par.optimal == (par.found == par.lower_bound)


def test_a_puzzle_of_a_game_without_puzzles_is_refused(app):
    from pbem.db import get_session
    from pbem.services.errors import BadInput

    with app.app_context(), pytest.raises(BadInput, match="Logger has no puzzles; the games with puzzles are: greenhouse"):
        puzzles.make(get_session(), "logger")


def test_a_puzzle_is_a_published_deal_with_the_solvers_par_and_a_lower_bound(app):
    puzzle = make_puzzle(app)
    assert puzzle.kind == "greenhouse" and puzzle.options == OPTIONS
    assert puzzle.seed == SEED and puzzle.seed_hash == HASH and puzzle.day is None
    assert puzzle.solver_seconds == 0.2  # PUZZLE_SOLVER_SECONDS of the tests
    assert puzzle.par is not None and puzzle.lower_bound is not None
    shortest = len(solution(GREENHOUSE.notation.format_position(GREENHOUSE.rules.seeded_state(1, OPTIONS, SEED))))
    assert puzzle.lower_bound <= shortest <= puzzle.par
    assert puzzle.optimal == (puzzle.par == puzzle.lower_bound)
    proven = make_puzzle(app, options={"stashes": "rb", "orders": "1"})
    assert proven.optimal and proven.par == proven.lower_bound


def test_a_visitor_reads_the_puzzles_and_is_asked_to_sign_in_to_play_one(app):
    puzzle = make_puzzle(app)
    visitor = app.test_client()
    listed = visitor.get("/puzzles")
    assert listed.status_code == 200 and f"/puzzles/{puzzle.id}" in listed.get_data(as_text=True)
    page = visitor.get(f"/puzzles/{puzzle.id}")
    text = page.get_data(as_text=True)
    assert page.status_code == 200 and f"par {puzzle.par}" in text and SEED in text
    assert "Sign in to play this puzzle" in text and 'id="play-puzzle"' not in text
    assert "Check the deal" in text and "stashes of red, blue" in text, "the options in words, the seed under a disclosure"
    assert "pbem position" not in text and "stashes=" not in text, "no command line, no raw options"
    refused = visitor.post(f"/puzzles/{puzzle.id}/games", data={})
    assert refused.status_code in (302, 400)


def test_a_player_starts_a_puzzle_on_its_page_sees_the_seed_from_the_start_and_hears_the_distance_from_par(app):
    puzzle = make_puzzle(app)
    alice = app.test_client()
    sign_in(alice, app, "alice@example.org")
    page = alice.get(f"/puzzles/{puzzle.id}").get_data(as_text=True)
    assert "Play this puzzle" in page and SEED in page and f"par {puzzle.par}" in page
    assert "Nobody has solved it yet" in page

    game_id = start_from_page(alice, puzzle.id)
    game = game_row(app, game_id)
    assert game.status == "active" and game.seed == SEED and game.seed_hash == HASH
    assert game.position == GREENHOUSE.notation.format_position(GREENHOUSE.rules.seeded_state(1, OPTIONS, SEED))
    shown = alice.get(f"/games/{game_id}").get_data(as_text=True)
    assert SEED in shown and "published" in shown and "revealed when" not in shown
    assert f"/puzzles/{puzzle.id}" in shown and f"par {puzzle.par}" in shown
    data = alice.get(f"/api/v1/games/{game_id}", headers=bearer(app)).get_json()
    assert data["seed"] == SEED and data["seed_public"] is True and data["par_distance"] is None
    assert data["puzzle"]["id"] == puzzle.id and data["puzzle"]["par"] == puzzle.par
    [first] = mails_to(app, "alice@example.org")[-1:]
    words = first.body + "\n" + first.after_board  # the row's words, before and after the board drawn when sent
    assert SEED in words and "published" in words and f"/puzzles/{puzzle.id}" in words
    record = alice.get(f"/games/{game_id}/record.pgn").get_data(as_text=True)
    assert f'[Seed "{SEED}"]' in record
    records.check(records.read(record))  # the published seed checks while the game is on, too

    breedings = solution(game.position)
    play_through(alice, game_id, breedings)
    assert game_row(app, game_id).status == "finished"
    expected = distance(puzzle, len(breedings))
    assert expected.startswith(f"{len(breedings)} breedings") and "par" in expected
    assert expected in alice.get(f"/games/{game_id}").get_data(as_text=True)
    assert alice.get(f"/api/v1/games/{game_id}", headers=bearer(app)).get_json()["par_distance"] == expected
    over = [m for m in mails_to(app, "alice@example.org") if m.kind == "game_over"]
    assert over and f"Your result: {expected}." in over[-1].after_board


def test_the_leaderboard_ranks_first_solved_games_by_breedings_and_leaves_out_given_up_games(app):
    puzzle = make_puzzle(app)
    people = {}
    for name in ("alice", "bob", "carol", "dave"):
        people[name] = app.test_client()
        sign_in(people[name], app, f"{name}@example.org")
    name_players(app, alice="Alice", bob="Bob")  # a player without a name is "player #N" there
    dealt = GREENHOUSE.notation.format_position(GREENHOUSE.rules.seeded_state(1, OPTIONS, SEED))
    long_line, short_line = detour(dealt), solution(dealt)
    assert len(long_line) > len(short_line)

    first = start_from_page(people["alice"], puzzle.id)
    play_through(people["alice"], first, long_line)
    play_through(people["bob"], start_from_page(people["bob"], puzzle.id), short_line)
    gave_up = start_from_page(people["carol"], puzzle.id)
    play_through(people["carol"], gave_up, ["give up"])
    again = start_from_page(people["alice"], puzzle.id)  # a second go: allowed, but only the first counts
    play_through(people["alice"], again, short_line)
    start_from_page(people["dave"], puzzle.id)  # still playing: not ranked

    data = people["dave"].get(f"/api/v1/puzzles/{puzzle.id}", headers=bearer(app, "dave@example.org")).get_json()
    board = data["leaderboard"]
    assert [(e["rank"], e["player"], e["score"]) for e in board] == [
        (1, "Bob", len(short_line)), (2, "Alice", len(long_line))]
    assert board[1]["game"] == first and board[1]["distance"] == distance(puzzle, len(long_line))
    assert data["games_started"] == 5 and "@" not in str(board)
    page = people["dave"].get(f"/puzzles/{puzzle.id}").get_data(as_text=True)
    table = page[page.index('id="leaderboard"'):]
    assert "Bob" in table and "Alice" in table and "carol" not in table
    assert "@example.org" not in table and distance(puzzle, len(long_line)) in table
    mine = people["alice"].get(f"/puzzles/{puzzle.id}").get_data(as_text=True)
    assert f"/games/{first}" in mine and f"/games/{again}" in mine and "Only your first solved game counts" in mine


def test_puzzles_through_the_api(app):
    puzzle = make_puzzle(app)
    alice = app.test_client()
    sign_in(alice, app, "alice@example.org")
    token = bearer(app)
    listed = alice.get("/api/v1/puzzles", headers=token).get_json()
    assert [p["id"] for p in listed] == [puzzle.id]
    assert listed[0]["seed"] == SEED and listed[0]["par"] == puzzle.par and listed[0]["options"] == OPTIONS
    started = alice.post(f"/api/v1/puzzles/{puzzle.id}/games", headers=token)
    assert started.status_code == 201
    game = started.get_json()
    assert game["status"] == "active" and game["seed"] == SEED and game["puzzle"]["id"] == puzzle.id
    detail = alice.get(f"/api/v1/puzzles/{puzzle.id}", headers=token).get_json()
    assert detail["your_games"] == [{"id": game["id"], "status": "active", "score": None, "distance": None}]
    assert detail["position"] == game["position"] and detail["leaderboard"] == []
    for bad, named in (("999", "999"), ("abc", "'abc'")):
        missing = alice.get(f"/api/v1/puzzles/{bad}", headers=token)
        assert missing.status_code == 404 and f"there is no puzzle {named}" in missing.get_json()["error"]
        assert f"numbered up to {puzzle.id}" in missing.get_json()["error"]
        assert alice.post(f"/api/v1/puzzles/{bad}/games", headers=token).status_code == 404
    assert app.test_client().get("/api/v1/puzzles").status_code == 401
    page = alice.get("/puzzles/999")
    assert page.status_code == 404 and "there is no puzzle 999" in page.get_data(as_text=True)
    paths = alice.get("/api/v1/openapi.json").get_json()["paths"]
    assert {"/puzzles", "/puzzles/{puzzle_id}", "/puzzles/{puzzle_id}/games"} <= set(paths)


def test_the_daily_puzzle_is_made_once_a_day_even_by_two_schedulers_and_shown_on_the_home_page(app, monkeypatch):
    monkeypatch.setattr(models, "CLOCK", lambda: TODAY)
    monkeypatch.setattr(puzzles, "NEW_SEED", lambda: SEED)
    assert scheduler.run_once(app, ["puzzles"]) == {"puzzles": 1}
    assert scheduler.run_once(app, ["puzzles"]) == {"puzzles": 0}
    with Session(engine(app)) as s:
        [daily] = s.exec(select(Puzzle)).all()
    assert daily.day == date(2030, 3, 14) and daily.options == GREENHOUSE.rules.puzzle_options()
    assert daily.seed == SEED and daily.par is None or daily.par >= daily.lower_bound

    # another scheduler makes the same day's puzzle between our check and our insert: one puzzle, no error
    built = puzzles.build

    def racing(name, options=None, seed=None, day=None, seconds=None):
        with Session(engine(app)) as other:
            other.add(built(name, options, seed, day, seconds))
            other.commit()
        return built(name, options, seed, day, seconds)

    monkeypatch.setattr(puzzles, "build", racing)
    tomorrow = date(2030, 3, 15)
    with app.app_context():
        assert puzzles.make_daily(engine(app), tomorrow) == 0
    with Session(engine(app)) as s:
        assert len(s.exec(select(Puzzle).where(Puzzle.day == tomorrow)).all()) == 1
        s.add(Puzzle(kind="greenhouse", options={}, seed=SEED, seed_hash=HASH, day=tomorrow))
        with pytest.raises(IntegrityError):
            s.commit()

    alice = app.test_client()
    sign_in(alice, app, "alice@example.org")
    home = alice.get("/").get_data(as_text=True)
    assert "Today's puzzle" in home and "Martian Greenhouse daily puzzle of 2030-03-14" in home
    listing = alice.get("/puzzles").get_data(as_text=True)
    assert f"/puzzles/{daily.id}" in listing and "daily puzzle of 2030-03-15" in listing


def test_a_game_from_any_published_seed_shows_it_and_joins_the_puzzle_with_that_deal(app):
    puzzle = make_puzzle(app)
    alice = app.test_client()
    sign_in(alice, app, "alice@example.org")
    page = alice.get("/games/new")
    assert 'name="option-greenhouse-seed"' in page.get_data(as_text=True)
    assert 'name="option-logger-seed"' not in page.get_data(as_text=True)
    form = {"kind": "greenhouse", "players": "alice@example.org", "hours": "", "csrf_token": csrf(page),
            "option-greenhouse-stashes": "rb", "option-greenhouse-orders": "2", "option-greenhouse-seed": SEED.upper()}
    created = alice.post("/games/new", data=form)
    assert created.status_code == 302, created.get_data(as_text=True)
    game_id = int(created.headers["Location"].rsplit("/", 1)[1])
    assert game_row(app, game_id).seed == SEED
    data = alice.get(f"/api/v1/games/{game_id}", headers=bearer(app)).get_json()
    assert data["seed"] == SEED and data["seed_public"] and data["puzzle"]["id"] == puzzle.id
    assert "seed" not in data["options"]

    other = alice.post("/api/v1/games", headers=bearer(app), json={
        "game": "greenhouse", "players": ["alice@example.org"], "options": {"stashes": "rb", "seed": "0" * 63 + "7"}})
    assert other.status_code == 201
    assert other.get_json()["seed"] == "0" * 63 + "7" and other.get_json()["puzzle"] is None

    bad = alice.post("/api/v1/games", headers=bearer(app), json={
        "game": "greenhouse", "players": ["alice@example.org"], "options": {"seed": "lucky"}})
    assert bad.status_code == 400 and "64 hex digits" in bad.get_json()["error"]
    chanceless = alice.post("/api/v1/games", headers=bearer(app), json={
        "game": "logger", "players": ["alice@example.org", "bob@example.org"], "options": {"seed": SEED}})
    assert chanceless.status_code == 400 and "uses no chance" in chanceless.get_json()["error"]
    form["option-greenhouse-seed"] = "12"
    refused = alice.post("/games/new", data=form)
    assert refused.status_code == 400 and "64 hex digits" in refused.get_data(as_text=True)
    assert 'rows="1"' in refused.get_data(as_text=True)  # the player box fits a game of one player


def test_puzzles_by_mail(robot):
    from pbem.db import get_session
    from pbem.services.accounts import player_for_email

    puzzle = make_puzzle(robot.app)
    with robot.app.app_context():
        player_for_email(get_session(), "alice@example.org")
        get_session().commit()
    [helped] = robot.send(fresh_mail("alice@example.org", ROBOT, "help"))
    assert "puzzle <number>" in plain_text(helped)
    [listed] = robot.send(fresh_mail("alice@example.org", ROBOT, "puzzles"))
    assert f"puzzle {puzzle.id}: Martian Greenhouse puzzle {puzzle.id}, par {puzzle.par}" in plain_text(listed)
    new = robot.send(fresh_mail("alice@example.org", ROBOT, f"puzzle {puzzle.id}"))
    texts = [plain_text(m) for m in new]
    assert any("has started" in t and f"par {puzzle.par}" in t for t in texts), texts
    assert any(SEED in t and "#1" in t for t in texts)  # the board, the seed published
    with Session(engine(robot.app)) as s:
        [game] = s.exec(select(Game)).all()
    assert game.seed == SEED and game.status == "active"
    [missing] = robot.send(fresh_mail("alice@example.org", ROBOT, "puzzle 99"))
    assert "there is no puzzle 99" in plain_text(missing)
    [stranger] = robot.send(fresh_mail("zed@example.org", ROBOT, f"puzzle {puzzle.id}"))
    assert "signed in on the web" in plain_text(stranger)
    assert robot.send(fresh_mail("zed@example.org", ROBOT, "puzzle 99")) == []  # told once a day, not again


def test_the_solver_budget_is_a_setting(monkeypatch, tmp_path):
    from pbem import create_app

    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'budget.sqlite3'}")
    monkeypatch.setenv("PBEM_SECRET_KEY", "x")
    monkeypatch.setenv("PBEM_PUZZLE_SOLVER_SECONDS", "2.5")
    assert create_app().config["PUZZLE_SOLVER_SECONDS"] == 2.5
    monkeypatch.setenv("PBEM_PUZZLE_SOLVER_SECONDS", "soon")
    with pytest.raises(ConfigError, match="PBEM_PUZZLE_SOLVER_SECONDS is a number of seconds"):
        create_app()


#: a greenhouse of pure-ish flowers: 26,017 legal turns, not millions
FEW = ("1:1R1R1R1R1R2R/2:2R2R2R2R3R3R/3:3R3R3R1B1B1B/4:1B1B2B2B2B2B/5:2B3B3B3B3B3B 1R2R3R1B2B3B - 6 0 -")


def test_the_command_line_lists_the_first_legal_turns_unless_asked_for_all():
    from pbem.cli import main

    runner = CliRunner()
    args = ["position", "legal", "greenhouse", FEW, "-o", "stashes=rb", "-o", "orders=1R2R3R1B2B3B"]
    capped = runner.invoke(main, args)
    assert capped.exit_code == 0, capped.output
    assert len(capped.stdout.splitlines()) == 300 and "--all" in capped.stderr
    everything = runner.invoke(main, args + ["--all"])
    assert everything.exit_code == 0 and len(everything.stdout.splitlines()) == 26017
    assert everything.stdout.splitlines()[-1] == "give up" and "--all" not in everything.stderr
    assert re.match(r"#1 x #2 -> ", capped.stdout)
