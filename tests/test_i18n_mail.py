"""The mail in its recipient's language: a player whose setting is French
gets the invitation, the start, 'your turn', the move list, the mail
robot's answers (a refused turn with the rules' own reason, help) and the
game-over mail in French, while a player without a setting gets them in
English, in the same game; the digest, the reminders and the sign-in link
mail in both languages."""

from __future__ import annotations

import pytest
from test_email_commands import client_reply, plain_text, robot  # noqa: F401 - fixtures
from test_i18n_pages import untranslated

from pbem.db import get_session
from pbem.mailrobot import jobs
from pbem.services import accounts

ENGLISH_IN_MAIL = ("It is your turn", "The game:", "How to play", "Reply to this mail", "invites you",
                   "Players:", "Moves", "How to play by email", "game over", "You resigned")


@pytest.fixture
def french_alice(robot):
    """A Logger game between alice (French by her setting) and bob (no
    setting); returns the robot, the game id and every mail sent so far."""
    from pbem.db import get_session
    from pbem.services import accounts, games

    with robot.app.app_context():
        session = get_session()
        alice = accounts.player_for_email(session, "alice@example.org")
        bob = accounts.player_for_email(session, "bob@example.org")
        accounts.set_language(session, alice, "fr")
        game = games.create_game(session, bob, "logger", ["bob@example.org", "alice@example.org"])
        invitation_id = game.id
        games.accept(session, game.id, alice)
    jobs.drain_outbox(robot.app)
    return robot, invitation_id, robot.new_mail()


def english_left(text: str) -> list[str]:
    text = text.replace("## Reply above this line ##", "")  # the marker the robot cuts replies at: kept as is
    return [p for p in ENGLISH_IN_MAIL if p in text] + untranslated(text)


def test_game_mail_goes_out_in_each_recipients_language(french_alice):
    robot, game_id, sent = french_alice
    to_alice, to_bob = robot.to("alice@example.org", sent), robot.to("bob@example.org", sent)
    assert to_alice and to_bob
    for mail in to_alice:
        text = plain_text(mail)
        assert english_left(str(mail["Subject"]) + "\n" + text) == [], (mail["Subject"], text)
    assert any("vous invite" in str(m["Subject"]) for m in to_alice)
    assert any(f"Partie {game_id} (Logger)" in str(m["Subject"]) for m in to_alice)
    assert any("La partie : http" in plain_text(m) for m in to_alice)
    for mail in to_bob:
        text = plain_text(mail)
        assert "Partie" not in str(mail["Subject"]) and "The game: http" in text
    bobs_turn = [m for m in to_bob if "your turn" in str(m["Subject"])][-1]
    assert "It is your turn" in plain_text(bobs_turn) and "Reply to this mail with your turn" in plain_text(bobs_turn)


def test_the_robot_answers_in_the_senders_language(french_alice):
    robot, game_id, sent = french_alice
    bob_mail = [m for m in robot.to("bob@example.org", sent) if "your turn" in str(m["Subject"])][-1]
    answer = robot.to("bob@example.org", robot.send(client_reply(bob_mail, "a1")))
    assert answer, "bob's setup turn is answered"
    alice_mail = robot.to("alice@example.org", robot.new_mail() or answer) or \
        [m for m in robot.to("alice@example.org", sent)]
    # alice answers her game mail with a bad turn, then asks for help
    refusal = robot.to("alice@example.org", robot.send(client_reply(alice_mail[-1], "zz9")))
    text = plain_text(refusal[-1])
    assert "pendant la mise en place" in text, text  # the rules' own reason, in French
    assert "Rien n'a été changé" in text and "Nothing was changed" not in text
    help_text = plain_text(robot.to("alice@example.org", robot.send(client_reply(alice_mail[-1], "help")))[-1])
    assert "Comment jouer par courriel" in help_text and "How to play by email" not in help_text
    resigned = robot.send(client_reply(alice_mail[-1], "resign"))
    over_alice = [m for m in robot.to("alice@example.org", resigned)]
    over_bob = [m for m in robot.to("bob@example.org", resigned)]
    assert any("partie finie" in str(m["Subject"]) or "Vous avez abandonné" in plain_text(m) for m in over_alice)
    assert any("game over" in str(m["Subject"]) for m in over_bob)
    # the stored reason ("player 2 (alice) resigned") reads in each one's language
    assert any("(alice) a abandonné" in plain_text(m) for m in over_alice), [plain_text(m) for m in over_alice]
    assert any("(alice) resigned" in plain_text(m) for m in over_bob)


def test_the_digest_reminder_and_sign_in_mail_in_both_languages(app, session, make_players, start_game):
    from datetime import timedelta

    from pbem.i18n import for_language
    from pbem.models import utcnow
    from pbem.services import digest
    from pbem.services.sweep_reminders import reminder_mail

    alice, bob = make_players("alice", "bob")
    game = start_game(alice, bob)
    game.deadline = utcnow() + timedelta(hours=30)
    with app.test_request_context():
        words = {}
        for language in ("en", "fr"):
            with for_language(language):
                subject, body = digest._digest_words(session, alice, [game], utcnow())
                reminder = reminder_mail(game, 0, timedelta(hours=5))
            words[language] = subject + "\n" + body + "\n" + reminder[0] + "\n" + "\n".join(reminder[1] + reminder[2])
    assert "Daily digest: 1 game waiting for you" in words["en"] and "about 5 hours" in words["en"]
    assert "Résumé du jour : 1 partie vous attend" in words["fr"] and "environ 5 heures" in words["fr"]
    assert "Rappel : c'est à vous de jouer" in words["fr"]
    assert english_left(words["fr"]) == [], words["fr"]


def test_a_sign_in_link_mail_follows_the_page_that_asked_for_it(app, client):
    from sqlmodel import select
    from test_web_pages import csrf

    from pbem.db import get_session
    from pbem.models import OutboxMessage

    page = client.get("/auth/sign-in", headers={"Accept-Language": "fr"})
    assert "Pas de mot de passe" in page.get_data(as_text=True)
    client.post("/auth/sign-in", data={"email": "carol@example.org", "next": "/", "csrf_token": csrf(page)},
                headers={"Accept-Language": "fr"})
    with app.app_context():
        mail = get_session().exec(select(OutboxMessage).where(OutboxMessage.to_addr == "carol@example.org")).one()
    assert mail.subject == "Votre lien de connexion à pbem" and "Connectez-vous à pbem" in mail.body


@pytest.mark.parametrize("door", ["api", "web"])
def test_a_turn_mails_the_other_player_in_their_own_language_whatever_the_player_reads(french_alice, door):
    """alice reads French (her setting), bob has no setting: his requests
    read as his browser asks.  Each turn's mail to the other player is in
    that player's language, whether the player's request reads the same
    language (bob asking in French) or another, over the API and by the
    web form; the API's answer is in the caller's."""
    import re

    from notation import registry
    from pbem.models import Game
    from pbem.services import web_sessions
    from pbem.services.accounts import create_api_token

    robot, game_id, _ = french_alice
    clients = {who: robot.app.test_client() for who in ("alice", "bob")}
    with robot.app.app_context():
        session = get_session()
        players = {who: accounts.player_for_email(session, f"{who}@example.org") for who in ("alice", "bob")}
        tokens = {who: create_api_token(session, player, "tests")[0] for who, player in players.items()}
        for who, player in players.items():
            with clients[who].session_transaction() as cookie:
                cookie[web_sessions.COOKIE_KEY] = web_sessions.start(session, player)
    notation = registry.get("logger").notation
    checked = set()
    for browser in ["fr", "en", "en", "en", "fr", "fr"]:  # bob plays the 1st, 3rd and 5th turns
        with robot.app.app_context():
            game = get_session().get(Game, game_id)
            state = notation.parse_position(game.position, game.options or {})
            mover = "bob" if state.to_move == 0 else "alice"
            text, ply = notation.legal_texts(state)[0], game.ply
        other, client = "alice" if mover == "bob" else "bob", clients[mover]
        reads = "fr" if mover == "alice" else browser
        if door == "api":
            answer = client.post(f"/api/v1/games/{game_id}/turns", json={"turn": text, "ply": ply},
                                 headers={"Authorization": f"Bearer {tokens[mover]}", "Accept-Language": browser})
            assert answer.status_code == 201, answer.get_json()
            assert ("Joueur" in answer.get_json()["diagram"]) == (reads == "fr"), answer.get_json()["diagram"]
        else:
            page = client.get(f"/games/{game_id}", headers={"Accept-Language": browser}).get_data(as_text=True)
            token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
            answer = client.post(f"/games/{game_id}/turn", headers={"Accept-Language": browser},
                                 data={"csrf_token": token, "turn": text, "ply": str(ply), "action": "play"})
            assert answer.status_code == 302, answer.get_data(as_text=True)[:2000]
        jobs.drain_outbox(robot.app)
        mail = robot.to(f"{other}@example.org", robot.new_mail())
        assert len(mail) == 1
        text_of = str(mail[0]["Subject"]) + "\n" + plain_text(mail[0])
        if other == "alice":
            assert english_left(text_of) == [] and "Partie" in text_of, text_of
        else:
            assert "Partie" not in text_of and "It is your turn" in text_of, text_of
        checked.add((reads, "fr" if other == "alice" else "en"))
    assert {("fr", "fr"), ("en", "fr"), ("fr", "en")} <= checked  # the same language and another, both ways
