"""Martian Greenhouse on the server: a solitaire that starts at once, a
seed whose SHA-256 is shown from the start and which is revealed only when
the game is over, no draws, claims or time limits, capped legal-turn lists,
and whole games played on the web and by mail (the turns found by the
solver from a seed fixed by the test)."""

from __future__ import annotations

import pytest
from sqlmodel import Session, select
from test_email_commands import client_reply, mail_app, plain_text
from test_email_game import deliver, served, sink  # noqa: F401 - fixtures
from test_web_pages import csrf, play, sign_in

from engine import chance
from engine.greenhouse import solver
from notation import record as records
from notation.registry import get
from pbem.mailrobot import jobs
from pbem.models import Game, OutboxMessage
from pbem.services import games

GREENHOUSE = get("greenhouse")
SEED = f"{31:064x}"  # with stashes rb and two orders: par 2 breedings
HASH = chance.commitment(SEED)
OPTIONS = {"stashes": "rb", "orders": "2"}


@pytest.fixture(autouse=True)
def fixed_seed(monkeypatch):
    monkeypatch.setattr(games, "NEW_SEED", lambda: SEED)


def row(app, game_id: int) -> Game:
    with Session(app.extensions["pbem_engine"]) as s:
        return s.get(Game, game_id)


def solution(position: str, options=None) -> list[str]:
    """The solver's shortest breedings from ``position``, as turn texts."""
    state = GREENHOUSE.notation.parse_position(position, options or OPTIONS)
    par = solver.solve(state, max_depth=4, max_nodes=50_000)
    assert par.found is not None, "the test deal has a short solution"
    texts = []
    for turn in par.line:
        texts.append(GREENHOUSE.notation.format_turn(state, turn))
        state = GREENHOUSE.rules.apply(state, turn)
    return texts


def new_solitaire(client, **options) -> int:
    page = client.get("/games/new")
    form = {f"option-greenhouse-{k}": v for k, v in {**OPTIONS, **options}.items()}
    response = client.post("/games/new", data={"kind": "greenhouse", "players": "alice@example.org", "hours": "",
                                                "csrf_token": csrf(page), **form})
    assert response.status_code == 302, response.get_data(as_text=True)
    return int(response.headers["Location"].rsplit("/", 1)[1])


def bearer(app, email: str = "alice@example.org") -> dict[str, str]:
    from pbem.db import get_session
    from pbem.services.accounts import create_api_token, player_for_email

    with app.app_context():
        session = get_session()
        token, _ = create_api_token(session, player_for_email(session, email), "tests")
    return {"Authorization": f"Bearer {token}"}


def mails(app) -> list[OutboxMessage]:
    with Session(app.extensions["pbem_engine"]) as s:
        return list(s.exec(select(OutboxMessage).order_by(OutboxMessage.id)))


def sent(app, row: OutboxMessage) -> str:
    """The plain text of the mail ``row`` becomes when it is sent."""
    from pbem.mailrobot import outgoing
    from pbem.mailrobot.settings import mail_settings

    with app.app_context(), Session(app.extensions["pbem_engine"]) as s:
        return plain_text(outgoing.compose(s, mail_settings(app.config), s.get(OutboxMessage, row.id)))


def everything_shown(app, client, game_id: int) -> dict[str, str]:
    """Every page, API answer, record, board and mail a player can see."""
    shown = {
        "page": client.get(f"/games/{game_id}").get_data(as_text=True),
        "api": client.get(f"/api/v1/games/{game_id}").get_data(as_text=True),
        "record": client.get(f"/games/{game_id}/record.pgn").get_data(as_text=True),
        "record json": client.get(f"/games/{game_id}/record.json").get_data(as_text=True),
        "board": client.get(f"/games/{game_id}/board/0.txt").get_data(as_text=True),
        "svg": client.get(f"/games/{game_id}/board/0.svg").get_data(as_text=True),
    }
    for number, mail in enumerate(mails(app)):
        shown[f"mail {number} {mail.subject}"] = mail.subject + "\n" + sent(app, mail)
    return shown


def test_greenhouse_is_offered_and_a_solitaire_starts_at_once_with_the_seed_hash_shown(app):
    alice = app.test_client()
    sign_in(alice, app, "alice@example.org")
    assert "Martian Greenhouse" in alice.get("/games/new").get_data(as_text=True)
    game_id = new_solitaire(alice)
    game = row(app, game_id)
    assert game.status == "active" and game.ply == 0
    assert game.seed == SEED and game.seed_hash == HASH
    dealt = GREENHOUSE.rules.seeded_state(1, OPTIONS, SEED)
    assert game.position == GREENHOUSE.notation.format_position(dealt)
    page = alice.get(f"/games/{game_id}").get_data(as_text=True)
    assert "Offer a draw" not in page and "Give up" in page and "Accept the invitation" not in page
    assert '<details class="seed" id="check-the-deal"><summary>Check the deal</summary>' in page
    assert "stashes of" in page and "stashes=" not in page, "the options in words, never name=value"
    [started] = [m for m in mails(app) if "started" in m.body]
    assert started.to_addr == "alice@example.org" and HASH in sent(app, started) and "#1" in sent(app, started)


def test_the_seed_never_shows_while_the_game_is_on_and_is_revealed_and_checks_at_the_end(app):
    alice = app.test_client()
    sign_in(alice, app, "alice@example.org")
    game_id = new_solitaire(alice)
    first = solution(row(app, game_id).position)[0]
    assert play(alice, game_id, first).status_code == 302
    preview = alice.get(f"/api/v1/games/{game_id}/preview?turn=give+up")
    assert preview.status_code == 200 and SEED not in preview.get_data(as_text=True)
    for where, text in everything_shown(app, alice, game_id).items():
        assert SEED not in text, f"the seed leaked in the {where} while the game is on"
        if where in ("page", "api", "record", "record json") or "has started" in text:
            assert HASH in text, f"the {where} does not show the seed's hash"
    assert alice.get(f"/api/v1/games/{game_id}").get_json()["seed"] is None

    assert play(alice, game_id, "give up").status_code == 302
    game = row(app, game_id)
    assert game.status == "finished" and "gave up after 1 breeding" in game.termination
    page = alice.get(f"/games/{game_id}").get_data(as_text=True)
    assert SEED in page and HASH in page
    assert alice.get(f"/api/v1/games/{game_id}").get_json()["seed"] == SEED
    text = alice.get(f"/games/{game_id}/record.pgn").get_data(as_text=True)
    assert f'[Seed "{SEED}"]' in text and f'[SeedHash "{HASH}"]' in text
    record = records.read(text)
    records.verify_seed(record)
    records.check(record)


def test_a_solitaire_has_no_draws_claims_or_time_limits(app):
    alice = app.test_client()
    sign_in(alice, app, "alice@example.org")
    game_id = new_solitaire(alice)
    draw = alice.post(f"/api/v1/games/{game_id}/draw", headers=bearer(app))
    assert draw.status_code == 409 and "one player" in draw.get_json()["error"]
    claim = alice.post(f"/api/v1/games/{game_id}/claim", headers=bearer(app))
    assert claim.status_code == 409 and "one player" in claim.get_json()["error"]
    assert row(app, game_id).status == "active"
    page = alice.get("/games/new")
    timed = alice.post("/games/new", data={"kind": "greenhouse", "players": "alice@example.org", "hours": "3",
                                           "unit": "days", "csrf_token": csrf(page)})
    assert timed.status_code == 400 and "no time limit" in timed.get_data(as_text=True)
    created = alice.post("/api/v1/games", headers=bearer(app), json={
        "game": "greenhouse", "players": ["alice@example.org"], "options": OPTIONS})
    data = created.get_json()
    assert created.status_code == 201 and data["status"] == "active" and data["solitaire"] is True
    assert data["seed_hash"] == HASH and data["seed"] is None and SEED not in created.get_data(as_text=True)
    timed = alice.post("/api/v1/games", headers=bearer(app), json={
        "game": "greenhouse", "players": ["alice@example.org"], "hours_per_turn": 24})
    assert timed.status_code == 400 and "no time limit" in timed.get_json()["error"]


def test_the_legal_turns_are_capped_on_the_page_and_in_the_api(app):
    alice = app.test_client()
    sign_in(alice, app, "alice@example.org")
    game_id = new_solitaire(alice, stashes="rbpc", orders="3")
    data = alice.get(f"/api/v1/games/{game_id}").get_json()
    assert len(data["legal_turns"]) == 100 and data["legal_turns_cut"] is True
    page = alice.get(f"/games/{game_id}").get_data(as_text=True)
    assert "the first 100 of more" in page and 'id="legal-cut"' in page


def test_a_whole_greenhouse_game_on_the_web(app):
    alice = app.test_client()
    sign_in(alice, app, "alice@example.org")
    game_id = new_solitaire(alice)
    breedings = solution(row(app, game_id).position)
    previewed = play(alice, game_id, breedings[0], action="preview")
    assert previewed.status_code == 200 and "After" in previewed.get_data(as_text=True)
    for turn in breedings:
        assert play(alice, game_id, turn).status_code == 302
    game = row(app, game_id)
    assert game.status == "finished" and game.result == "1" and game.ply == len(breedings)
    assert f"in {len(breedings)} breedings" in game.termination
    outcome = alice.get(f"/api/v1/games/{game_id}").get_json()["outcome"]
    assert outcome == {"winners": [1], "reason": f"every order filled in {len(breedings)} breedings",
                       "scores": [len(breedings)]}
    assert row(app, game_id).seed == SEED
    record = records.read(alice.get(f"/games/{game_id}/record.pgn").get_data(as_text=True))
    records.verify_seed(record)
    assert records.check(record).texts == breedings
    for fmt in ("svg", "png", "txt"):
        assert alice.get(f"/games/{game_id}/board/{game.ply}.{fmt}").status_code == 200


def test_a_whole_greenhouse_game_by_mail(served):
    app, sink, listen_port = served
    from pbem.db import get_session
    from pbem.services.accounts import player_for_email

    with app.app_context():
        session = get_session()
        alice = player_for_email(session, "alice@example.org")
        game_id = games.create_game(session, alice, "greenhouse", ["alice@example.org"], options=OPTIONS).id
    jobs.drain_outbox(app)
    from test_email_commands import parse

    [started] = [parse(raw) for _, _, raw in sink.messages]
    assert "your turn" in str(started["Subject"]) and HASH in plain_text(started)
    assert SEED not in plain_text(started)
    deliver(listen_port, client_reply(started, "legal"), "alice@example.org")
    jobs.process_inbox(app)
    jobs.drain_outbox(app)
    listing = plain_text(parse(sink.messages[-1][2]))
    assert "only the first 300 are listed" in listing and "give up" not in listing
    deliver(listen_port, client_reply(started, "draw"), "alice@example.org")
    jobs.process_inbox(app)
    jobs.drain_outbox(app)
    refused = plain_text(parse(sink.messages[-1][2]))
    assert "one player" in refused and "Nothing was changed" in refused
    assert row(app, game_id).status == "active"

    notification = started
    for turn in solution(row(app, game_id).position):
        read = len(sink.messages)
        deliver(listen_port, client_reply(notification, turn), "alice@example.org")
        assert jobs.process_inbox(app) == 1
        jobs.drain_outbox(app)
        new = [parse(raw) for _, _, raw in sink.messages[read:]]
        assert any("You played" in plain_text(m) for m in new), plain_text(new[0])[:1500]
        notification = new[-1]
        for m in new:
            if row(app, game_id).status == "active":
                assert SEED not in plain_text(m)
    game = row(app, game_id)
    assert game.status == "finished" and game.result == "1"
    over = [parse(raw) for _, _, raw in sink.messages if "game over" in str(parse(raw)["Subject"])]
    assert over and "every order filled" in plain_text(over[-1])
    deliver(listen_port, client_reply(notification, "record"), "alice@example.org")
    jobs.process_inbox(app)
    jobs.drain_outbox(app)
    text = plain_text(parse(sink.messages[-1][2]))
    assert f'[Seed "{SEED}"]' in text


def test_the_position_command_deals_a_greenhouse_from_a_seed_and_shows_it():
    from click.testing import CliRunner

    from pbem.cli import main

    runner = CliRunner()
    dealt = runner.invoke(main, ["position", "start", "greenhouse", "1", "--seed", SEED,
                                 "-o", "stashes=rb", "-o", "orders=2"])
    assert dealt.exit_code == 0, dealt.output
    position = dealt.output.strip()
    assert position == GREENHOUSE.notation.format_position(GREENHOUSE.rules.seeded_state(1, OPTIONS, SEED))
    unseeded = runner.invoke(main, ["position", "start", "greenhouse", "1"])
    assert unseeded.exit_code == 1 and "--seed" in unseeded.output
    shown = runner.invoke(main, ["position", "show", "greenhouse", position, "-o", "stashes=rb", "-o", "orders=2"])
    assert shown.exit_code == 0 and "#1" in shown.output
    turn = solution(position)[0]
    applied = runner.invoke(main, ["position", "apply", "greenhouse", position, turn, "-o", "stashes=rb",
                                   "-o", "orders=2"])
    assert applied.exit_code == 0, applied.output


def test_a_solitaire_is_started_by_mail_and_its_help_fits_the_game(database_config, tmp_path):
    from test_email_commands import ROBOT, Robot, fresh_mail

    app = mail_app(database_config, MAIL_EML_FOLDER=str(tmp_path / "sent"))
    robot = Robot(app, tmp_path / "sent")
    try:
        from pbem.db import get_session
        from pbem.services.accounts import player_for_email

        with app.app_context():
            player_for_email(get_session(), "alice@example.org")
            get_session().commit()
        answers = robot.send(fresh_mail("alice@example.org", ROBOT, "new greenhouse"))
        texts = {str(m["Subject"]): plain_text(m) for m in answers}
        assert any("has started" in t for t in texts.values()), texts
        [board] = [m for m in answers if "your turn" in str(m["Subject"])]
        assert HASH in plain_text(board) and SEED not in plain_text(board)
        [helped] = robot.send(client_reply(board, "help"))
        help_text = plain_text(helped)
        assert "#3 x #7 -> 1P 1B 2P 2B 3P 3R / 2B 2C 1C 1R 3R 1B" in help_text
        assert "b2-c2" not in help_text and "offer a draw" not in help_text and "give up" in help_text
        ended = [plain_text(m) for m in robot.send(client_reply(board, "give up"))]
        assert any("gave up after 0 breedings" in t and SEED in t for t in ended), ended
    finally:
        app.extensions["pbem_engine"].dispose()


def test_giving_up_a_solitaire_on_the_web_ends_it_without_a_winner(app):
    alice = app.test_client()
    sign_in(alice, app, "alice@example.org")
    game_id = new_solitaire(alice)
    confirm = alice.get(f"/games/{game_id}/resign")
    assert "Give up game" in confirm.get_data(as_text=True) and "you lose" not in confirm.get_data(as_text=True)
    done = alice.post(f"/games/{game_id}/resign", data={"csrf_token": csrf(confirm), "confirm": "yes"})
    assert done.status_code == 302
    game = row(app, game_id)
    assert game.status == "finished" and game.result == "=" and "gave up" in game.termination
    assert SEED in alice.get(f"/games/{game_id}").get_data(as_text=True)


def test_a_refused_breeding_by_mail_lists_some_legal_turns_and_says_there_are_more(database_config, tmp_path):
    from test_email_commands import ROBOT, Robot, fresh_mail

    app = mail_app(database_config, MAIL_EML_FOLDER=str(tmp_path / "sent"))
    robot = Robot(app, tmp_path / "sent")
    try:
        from pbem.db import get_session
        from pbem.services.accounts import player_for_email

        with app.app_context():
            player_for_email(get_session(), "alice@example.org")
            get_session().commit()
        answers = robot.send(fresh_mail("alice@example.org", ROBOT, "new greenhouse"))
        [board] = [m for m in answers if "your turn" in str(m["Subject"])]
        [refused] = robot.send(client_reply(board, "#1 x #99 -> 1R 1R 1R 1R 1R 1R / 1B 1B 1B 1B 1B 1B"))
        text = plain_text(refused)
        assert "there is no #99" in text and "What you could send instead" in text
        assert "There are more legal turns than these" in text and "full list" not in text
    finally:
        app.extensions["pbem_engine"].dispose()


def test_a_greenhouse_with_two_players_is_refused_with_the_count(app):
    alice = app.test_client()
    sign_in(alice, app, "alice@example.org")
    page = alice.get("/games/new")
    refused = alice.post("/games/new", data={"kind": "greenhouse", "players": "alice@example.org\nbob@example.org",
                                             "hours": "", "csrf_token": csrf(page)})
    assert refused.status_code == 400
    assert "Martian Greenhouse is for 1 player, not 2" in refused.get_data(as_text=True)

