"""Standing fire orders set at any time (the server's seat settings):
by mail, on the web and through the API, a player changes their standing
order while another player is to move, and the battle of that player's
next turn follows it; the stored turn holds it (``standing 2 hold``), so
the turns replay; only its player sees it while the game is on; bad
input, a game over and a change racing with a turn.  Also the turn report
where the page's history stepping fetches it."""

from __future__ import annotations

import html

import pytest
from alheimur_helpers import offered_with_seed, position, world
from sqlmodel import Session, select
from test_email_commands import fresh_mail, outbox_rows, plain_text, reply_address, robot  # noqa: F401  (fixture)
from test_web_pages import csrf, sign_in

from engine.alheimur.pieces import FireOrder
from engine.alheimur.pieces import Turn as PlayTurn
from engine.alheimur.rules import play_out
from engine.errors import MalformedTurnError
from notation.alheimur import NOTATION
from pbem.models import Game, Seat, Turn
from pbem.services import games

SEED = "b2" * 32
HOME = "a4=1:1 b4=1:2 c4=1:1 a3=1:1 b3=1:3"  # stays alive
#: player 1 (alice) to move; player 2 (bob) owns world 2, where both have a fighter: a battle every turn
#: alice plays, in which bob's fighter fires first (step 1, as the owner) unless his standing order holds
BATTLE = position(world("1", on=HOME), world("2", on="d1=2:3", orbit="1F1 2F1"), current=0)
#: alice holds her own fire: any die rolled in her turn is bob's
ALICE_HOLDS = "pass; hold"


@pytest.fixture
def offered(monkeypatch):
    return offered_with_seed(monkeypatch, SEED)


def battle_game(app) -> tuple[int, object, object]:
    """A started game of alice and bob put at ``BATTLE`` after one turn (alice to move);
    its id and the two players."""
    from pbem.db import get_session
    from pbem.services.accounts import player_for_email

    with app.app_context():
        session = get_session()
        alice, bob = (player_for_email(session, f"{n}@example.org") for n in ("alice", "bob"))
        game = games.create_game(session, alice, "alheimur", [alice.email, bob.email])
        games.accept(session, game.id, bob)
        # the test's position, set up by hand as after a first turn (the page reports the turn before)
        text = NOTATION.format_position(BATTLE)
        session.add(Turn(game_id=game.id, ply=1, seat=1, player_id=bob.id, text="pass", canonical="pass",
                         position=text, source="web"))
        game.position, game.ply = text, 1
        session.commit()
        return game.id, alice, bob


def alice_plays(app, game_id: int, text: str = ALICE_HOLDS) -> Turn:
    from pbem.db import get_session
    from pbem.services.accounts import player_for_email
    from pbem.services.turns import submit_turn

    with app.app_context():
        session = get_session()
        row = session.get(Game, game_id)
        done = submit_turn(session, game_id, player_for_email(session, "alice@example.org"), text, row.ply, "web")
        return done.turn


def rows(app, game_id: int) -> tuple[Game, list[Seat], list[Turn]]:
    with Session(app.extensions["pbem_engine"]) as s:
        game = s.get(Game, game_id)
        seats = list(s.exec(select(Seat).where(Seat.game_id == game_id).order_by(Seat.number)))
        turns = list(s.exec(select(Turn).where(Turn.game_id == game_id).order_by(Turn.ply)))
        return game, seats, turns


def replays(before, turn: Turn) -> bool:
    """The stored turn, read again and played from ``before`` with its
    stored dice, gives the stored position: the record holds the change."""
    played = NOTATION.parse_turn(before, turn.canonical)
    after, _ = play_out(NOTATION.game, before, played, [tuple(e["values"]) for e in turn.chance or ()])
    return NOTATION.format_position(after) == turn.position


def assert_bob_held(app, game_id: int, turn: Turn) -> None:
    """Bob's standing order ``hold`` was in force in alice's turn: the
    turn holds it, no die was rolled, the position keeps it, nothing is
    left pending, and the turn replays."""
    game, seats, _ = rows(app, game_id)
    assert turn.canonical == "pass; hold; standing 2 hold"
    assert turn.text == ALICE_HOLDS  # as alice wrote it
    assert not turn.chance  # nobody fired: no die
    assert NOTATION.parse_position(game.position).orders[1] == FireOrder(hold=True)
    assert seats[1].pending_settings is None
    assert replays(BATTLE, turn)


# -- the rules and notation -----------------------------------------------------------------------

def test_another_players_standing_order_in_a_turn_reads_writes_back_and_applies_before_the_battles():
    turn = NOTATION.parse_turn(BATTLE, "pass ; Hold ; standing 2 hold")
    assert turn.standings == ((1, FireOrder(hold=True)),)
    assert NOTATION.format_turn(BATTLE, turn) == "pass; hold; standing 2 hold"
    held, log = play_out(NOTATION.game, BATTLE, turn, [])
    assert not any("fires at" in line for line in log) and held.phase == "play"
    _, log = play_out(NOTATION.game, BATTLE, PlayTurn(fire=FireOrder(hold=True)), [("1",)])
    assert any("2's fighter 1 fires at 1's fighter 1" in line for line in log)  # without it bob's fighter fires


def test_each_player_sees_only_their_own_standing_order_while_the_game_is_on():
    state = NOTATION.game.apply(BATTLE, NOTATION.parse_turn(BATTLE, "pass; hold; standing fire 2 t; standing 2 hold"))
    mine = NOTATION.format_position(NOTATION.game.view(state, 0))
    assert "/f2t/?/" in f"/{mine.split()[12]}/"  # alice's own order, bob's hidden
    assert NOTATION.game.view(state, None).orders[0].hidden
    text = "pass; hold; standing fire 2 t; standing 2 hold"
    assert NOTATION.private_turn_text(text, 0, 0) == "pass; hold; standing fire 2 t"
    assert NOTATION.private_turn_text(text, 0, 1) == "pass; hold; standing 2 hold"
    assert NOTATION.private_turn_text(text, 0, None) == "pass; hold"



def test_standing_then_a_player_number_and_t_is_the_movers_own_order_not_another_players():
    """``standing 2 t`` was read as player 2's order (which only the server
    writes) and refused as no fire order; a player means ``standing fire 2
    t``.  Only ``standing 2`` followed by ``fire`` or ``hold`` is player 2's."""
    three = position(world("1", on=HOME), world("2", on="d1=2:3", orbit="1F1 2F1"), world("3", on="d1=3:3"),
                     players=3, current=0)
    own = FireOrder(False, (1,), True)
    for text in ("pass; standing 2 t", "pass; standing fire 2 t", "pass; STANDING 2, T", "pass\nstanding 2 t"):
        turn = NOTATION.parse_turn(three, text)
        assert turn.standing == own and turn.standings == (), text
        assert NOTATION.format_turn(three, turn) == "pass; standing fire 2 t"
    assert NOTATION.parse_turn(three, "pass; standing 3 2").standing == FireOrder(False, (2, 1), False)
    assert NOTATION.parse_turn(three, "pass; standing t").standing == FireOrder(False, (), True)
    assert NOTATION.parse_turn(three, "pass; at 2 3 t").fire_at == (("2", FireOrder(False, (2,), True)),)
    other = NOTATION.parse_turn(three, "pass; standing 2 hold; standing 3 fire 1 t")
    assert other.standing is None and other.standings == ((1, FireOrder(hold=True)), (2, FireOrder(False, (0,), True)))
    # as written, the mover's order stays the mover's secret
    assert NOTATION.private_turn_text("pass; standing 2 t", 0, 0) == "pass; standing 2 t"
    assert NOTATION.private_turn_text("pass; standing 2 t", 0, 1) == "pass"
    # set outside a turn, by mail or on the page: the same words
    assert NOTATION.read_setting(three, 0, "fire", "2 t") == "fire 2 t"
    assert NOTATION.read_setting(three, 0, "fire", "standing 2 t") == "fire 2 t"
    with pytest.raises(MalformedTurnError, match="starts with 'fire' or is 'hold', not 'x'"):
        NOTATION.parse_turn(three, "pass; standing x")


# -- by mail, on the web, through the API ---------------------------------------------------------

def test_by_mail_a_standing_order_set_in_another_players_turn_decides_their_battle(offered, robot):
    app = robot.app
    game_id, _alice, bob = battle_game(app)
    to = reply_address(app, game_id, bob.id)
    answer = robot.to("bob@example.org", robot.send(fresh_mail("bob@example.org", to, "set fire hold")))
    assert "becomes hold when the next turn is played" in plain_text(answer[-1])
    listed = robot.to("bob@example.org", robot.send(fresh_mail("bob@example.org", to, "settings")))
    assert "fire: fire (becomes hold" in plain_text(listed[-1])
    helped = robot.to("bob@example.org", robot.send(fresh_mail("bob@example.org", to, "help")))
    assert "set fire fire 3 t" in plain_text(helped[-1])
    bad = robot.to("bob@example.org", robot.send(fresh_mail("bob@example.org", to, "set fire now")))
    assert "starts with 'fire' or is 'hold'" in plain_text(bad[-1])
    turn = alice_plays(app, game_id)
    assert_bob_held(app, game_id, turn)
    # the mail after the turn names alice's turn as she wrote it, without bob's order
    mails = {row.to_addr: row for row in outbox_rows(app) if row.kind in ("your_turn", "turn_played")}
    assert "standing" not in mails["bob@example.org"].body
    # as sent, the mail's move list shows bob his own order, and the turn's report
    from pbem.mailrobot import jobs

    jobs.drain_outbox(app)
    to_bob = plain_text(robot.to("bob@example.org", robot.new_mail())[-1])
    assert "2. pass; hold; standing 2 hold" in to_bob and "Fleet battle at world 2" in to_bob
    # alice, asking for the board by mail, sees her turn without bob's order
    to = reply_address(app, game_id, _alice.id)
    to_alice = plain_text(robot.to("alice@example.org", robot.send(fresh_mail("alice@example.org", to, "board")))[-1])
    assert "2. pass; hold" in to_alice and "standing" not in to_alice


def test_on_the_web_a_standing_order_set_in_another_players_turn_decides_their_battle(offered, app, client):
    game_id, _alice, _bob = battle_game(app)
    sign_in(client, app, "bob@example.org")
    page = client.get(f"/games/{game_id}")
    assert 'id="setting-fire"' in page.get_data(as_text=True)
    refused = client.post(f"/games/{game_id}/settings", data={"name": "fire", "value": "fire 9",
                                                              "csrf_token": csrf(page)})
    assert refused.status_code == 400 and "neither a player (1-2) nor 't'" in html.unescape(refused.get_data(as_text=True))
    done = client.post(f"/games/{game_id}/settings", data={"name": "fire", "value": "Hold", "csrf_token": csrf(page)},
                       follow_redirects=True)
    assert "becomes hold when the next turn is played" in done.get_data(as_text=True)
    turn = alice_plays(app, game_id)
    assert_bob_held(app, game_id, turn)
    shown = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert "standing 2 hold" in shown  # bob sees his own order in alice's turn
    # the history stepping fetches the report of the turn stepped to
    assert f'data-report="/games/{game_id}/report/{{ply}}.txt"' in shown
    report = client.get(f"/games/{game_id}/report/2.txt")
    assert report.status_code == 200 and "Fleet battle at world 2" in report.get_data(as_text=True)
    assert "fires at" not in report.get_data(as_text=True)
    assert client.get(f"/games/{game_id}/report/0.txt").get_data(as_text=True) == ""
    assert client.get(f"/games/{game_id}/report/3.txt").status_code == 404
    sign_in(client, app, "alice@example.org")
    seen = client.get(f"/games/{game_id}").get_data(as_text=True)
    assert "standing 2" not in seen  # alice does not see bob's order in her own turn


def test_through_the_api_a_standing_order_set_in_another_players_turn_decides_their_battle(offered, app):
    from pbem.db import get_session
    from pbem.services.accounts import create_api_token, player_for_email

    game_id, _alice, _bob = battle_game(app)
    with app.app_context():
        session = get_session()
        tokens = {n: create_api_token(session, player_for_email(session, f"{n}@example.org"), "tests")[0]
                  for n in ("alice", "bob", "carol")}
    client = app.test_client()

    def call(who, method, url, body=None):
        return client.open(url, method=method, json=body, headers={"Authorization": f"Bearer {tokens[who]}"})

    listed = call("bob", "GET", f"/api/v1/games/{game_id}/settings").get_json()
    assert [(s["name"], s["value"], s["pending"]) for s in listed] == [("fire", "fire", None)]
    bad = call("bob", "PUT", f"/api/v1/games/{game_id}/settings/range", {"value": "hold"})
    assert bad.status_code == 400 and "not a setting" in bad.get_json()["error"]
    empty = call("bob", "PUT", f"/api/v1/games/{game_id}/settings/fire", {})
    assert empty.status_code == 400 and "value" in empty.get_json()["error"]
    stranger = call("carol", "PUT", f"/api/v1/games/{game_id}/settings/fire", {"value": "hold"})
    assert stranger.status_code == 403
    changed = call("bob", "PUT", f"/api/v1/games/{game_id}/settings/fire", {"value": "hold"})
    assert changed.status_code == 200 and changed.get_json()["pending"] == "hold"
    assert call("alice", "GET", f"/api/v1/games/{game_id}").get_json()["settings"][0]["pending"] is None
    answer = call("alice", "POST", f"/api/v1/games/{game_id}/turns", {"turn": ALICE_HOLDS, "ply": 1})
    assert answer.status_code == 201, answer.get_json()
    played = answer.get_json()["turns"][0]
    assert played["canonical"] == "pass; hold"  # alice does not see bob's order
    assert "Fleet battle at world 2" in played["report"] and "fires at" not in played["report"]
    _, _, stored = rows(app, game_id)
    assert_bob_held(app, game_id, stored[-1])
    own = call("bob", "GET", f"/api/v1/games/{game_id}/turns/2").get_json()
    assert own["canonical"] == "pass; hold; standing 2 hold" and own["report"] == played["report"]
    assert call("bob", "GET", f"/api/v1/games/{game_id}").get_json()["settings"][0]["value"] == "hold"
    assert call("bob", "GET", f"/api/v1/games/{game_id}/turns/3").status_code == 404


def test_a_player_may_not_set_another_players_order_in_their_own_turn(offered, app):
    from pbem.services.errors import BadTurn

    game_id, _, _ = battle_game(app)
    with pytest.raises(BadTurn, match="only your own settings, not player 2's"):
        alice_plays(app, game_id, "pass; standing 2 hold")


def test_a_game_over_refuses_a_change_clearly(offered, app):
    from pbem.db import get_session
    from pbem.services import seat_settings
    from pbem.services.errors import GameNotActive

    game_id, alice, bob = battle_game(app)
    with app.app_context():
        session = get_session()
        games.resign(session, game_id, alice)
        with pytest.raises(GameNotActive, match="can no longer change"):
            seat_settings.change(session, game_id, bob, "fire", "hold")


def test_a_change_made_while_a_turn_is_played_waits_for_the_next_turn(offered, app):
    """The turn read bob's pending ``hold``; bob changed it to ``fire 1 t``
    before the turn was stored: the turn carries ``hold`` and clears
    nothing, so ``fire 1 t`` is folded into the next turn."""
    from pbem.db import get_session
    from pbem.services import seat_settings
    from pbem.services.accounts import player_for_email
    from pbem.services.stored import load_seated
    from pbem.services.turns import submit_turn

    game_id, alice, bob = battle_game(app)
    with app.app_context():
        seat_settings.change(get_session(), game_id, bob, "fire", "hold")
    engine = app.extensions["pbem_engine"]
    with app.app_context():
        turn_session = get_session()
        seated = load_seated(turn_session, game_id, alice)  # the turn reads bob's pending "hold"
        turn_session.commit()
        with Session(engine) as other:  # meanwhile bob changes it again, elsewhere
            seat_settings.change(other, game_id, other.get(type(bob), bob.id), "fire", "fire 1 t")
        done = submit_turn(turn_session, game_id, player_for_email(turn_session, alice.email), ALICE_HOLDS, 1,
                           "web", seated=seated)
        assert done.turn.canonical == "pass; hold; standing 2 hold"
    _, seats, _ = rows(app, game_id)
    assert seats[1].pending_settings == '{"fire": "fire 1 t"}'


def test_the_report_and_a_refusal_read_in_french_for_a_french_player():
    from engine.i18n import language

    with language("fr"):
        report = NOTATION.turn_report(BATTLE, PlayTurn(fire=FireOrder(hold=True)), [("5",), ("1",)])
        with pytest.raises(Exception) as refused:
            NOTATION.parse_turn(BATTLE, "pass; fire 9")
        message = str(refused.value)
    assert "Bataille de flottes au monde 2" in report and "tire sur" in report and "détruit" in report
    assert "dans un ordre de tir, '9' n'est ni un joueur (1-2) ni 't'" in message


def test_a_game_played_from_its_deal_replays_from_its_record_with_an_order_set_outside_a_turn(offered, app):
    """A real game (its deal, world building, colonists) through the one
    door: bob sets ``hold`` while alice is to move in play; her turn
    carries it; the game's record replays to the stored position, and
    while the game is on alice's copy of the record leaves bob's order out."""
    import random

    from alheimur_selfplay import random_turn, sensible_colonists

    from notation import record as record_format
    from pbem.db import get_session
    from pbem.services import records as stored_records
    from pbem.services import seat_settings
    from pbem.services import visibility as views
    from pbem.services.accounts import player_for_email
    from pbem.services.turns import submit_turn

    rng = random.Random(3)
    with app.app_context():
        session = get_session()
        alice, bob = (player_for_email(session, f"{n}@example.org") for n in ("alice", "bob"))
        game = games.create_game(session, alice, "alheimur", [alice.email, bob.email])
        games.accept(session, game.id, bob)
        changed = False
        for _ in range(60):
            session.expire_all()
            row = session.get(Game, game.id)
            state = NOTATION.parse_position(row.position)
            mover = NOTATION.game.to_move(state)
            if state.phase == "play" and mover == 0 and not changed:
                seat_settings.change(session, game.id, bob, "fire", "hold")
                changed = True
            if state.phase == "play":
                text = NOTATION.format_turn(state, random_turn(state, rng))
            elif state.phase == "colonists":
                text = NOTATION.format_turn(state, sensible_colonists(state, rng))
            else:
                text = NOTATION.format_turn(state, rng.choice(NOTATION.game.legal_turns(state)))
            done = submit_turn(session, game.id, (alice, bob)[mover], text, row.ply, "web")
            if changed:
                break
        assert changed and done.turn.canonical.endswith("; standing 2 hold")
        record = stored_records.record_of(session, done.game)
        played = record_format.check(record)
        assert NOTATION.format_position(played.final) == done.game.position  # the record replays
        assert played.final.orders[1] == FireOrder(hold=True)
        assert "standing 2 hold" in views.record_text(session, done.game, 1)  # bob's own
        assert "standing 2" not in views.record_text(session, done.game, 0)  # not alice's


def test_a_turn_that_folds_in_a_pending_order_and_clears_it_is_one_transaction(offered, app):
    """On PostgreSQL a turn is usually one statement with no transaction
    around it (``pbem.late_begin``); a turn that clears the orders it
    folded in writes after its claim, so both go in one transaction."""
    from sqlalchemy import event

    from pbem.db import get_session
    from pbem.services.accounts import player_for_email
    from pbem.services.seat_settings import change

    engine = app.extensions["pbem_engine"]
    if engine.dialect.name != "postgresql":
        pytest.skip("transactions are watched on PostgreSQL (set PBEM_TEST_POSTGRES_URL)")
    from psycopg.pq import TransactionStatus

    game_id, _alice, _bob = battle_game(app)
    with app.app_context():
        session = get_session()
        change(session, game_id, player_for_email(session, "bob@example.org"), "fire", "hold")
    claims: list[bool] = []

    def watch(_conn, cursor, statement, *_args):
        if statement.lstrip().startswith("WITH"):
            claims.append(cursor.connection.info.transaction_status != TransactionStatus.IDLE)

    event.listen(engine, "after_cursor_execute", watch)
    try:
        alice_plays(app, game_id)
    finally:
        event.remove(engine, "after_cursor_execute", watch)
    _game, seats, turns = rows(app, game_id)
    assert claims == [True]  # the claim ran inside the transaction that then cleared bob's order
    assert "standing 2 hold" in turns[-1].canonical and seats[1].pending_settings is None
