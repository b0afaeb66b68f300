"""The game lifecycle and sign-in links, at the service level and through
the mail a player receives."""

from __future__ import annotations

import re
from collections import Counter

import pytest
from conftest import make_test_app
from sqlmodel import select

from notation import registry
from pbem.db import get_session
from pbem.models import ACTIVE, CANCELLED, FINISHED, INVITING, OutboxMessage, Seat
from pbem.services import accounts, errors, games
from pbem.services.stored import seats_of
from pbem.services.turns import submit_turn


def mail_to(session, player):
    return session.exec(select(OutboxMessage).where(OutboxMessage.to_addr == player.email).order_by(OutboxMessage.id)).all()


def test_invitations_are_mailed_and_the_game_starts_when_all_accept(session, make_players):
    alice, bob, carol = make_players("alice", "bob", "carol")
    game = games.create_game(session, alice, "logger", [bob.email, carol.email], hours_per_turn=24)
    assert [s.number for s in seats_of(session, game)] == [0, 1, 2]  # alice put first
    invitation = mail_to(session, bob)[-1]
    assert "Alice (alice@example.org) invites you" in invitation.body
    assert re.search(r"http://pbem\.test/auth/verify\?token=\S+", invitation.body)
    games.accept(session, game.id, bob)
    assert game.status == INVITING
    games.accept(session, game.id, carol)
    session.refresh(game)
    assert game.status == ACTIVE and game.deadline is not None
    assert mail_to(session, alice)[-1].subject == f"Game {game.id} (Logger): your turn"


def test_the_invitation_link_signs_the_invitee_in_on_the_game_page(app):
    with app.app_context():
        session = get_session()
        alice = accounts.player_for_email(session, "alice@example.org")
        game = games.create_game(session, alice, "logger", ["bob@example.org"])
        body = session.exec(select(OutboxMessage).where(OutboxMessage.to_addr == "bob@example.org")).one().body
    link = re.search(r"http://pbem\.test(\S+)", body.split("here (this link signs you in): ")[1]).group(1)
    client = app.test_client()
    response = confirm(client, link)
    assert response.headers["Location"] == f"/games/{game.id}"
    assert "Accept the invitation" in client.get(f"/games/{game.id}").get_data(as_text=True)


def confirm(client, link: str):
    """Open a sign-in link and press its button."""
    page = client.get(link)
    form = page.get_data(as_text=True)
    data = {name: re.search(rf'name="{name}" value="([^"]+)"', form).group(1) for name in ("token", "csrf_token")}
    return client.post("/auth/verify", data=data)


def new_link(app, next_path: str) -> str:
    with app.app_context():
        session = get_session()
        link = accounts.sign_in_link(session, accounts.player_for_email(session, "alice@example.org"), next_path)
        session.commit()
    return link.replace("http://pbem.test", "")


def test_an_expired_sign_in_link_is_refused(database_config):
    app = make_test_app(database_config, SIGN_IN_MAX_AGE=-1)
    response = app.test_client().get(new_link(app, "/"))
    assert response.status_code == 400
    assert "expired" in response.get_data(as_text=True)


def test_a_sign_in_link_never_leads_off_site(app):
    assert confirm(app.test_client(), new_link(app, "//evil.example/x")).headers["Location"] == "/"


def test_declining_cancels_the_game_and_tells_the_others(session, make_players):
    alice, bob, carol = make_players("alice", "bob", "carol")
    game = games.create_game(session, alice, "logger", [bob.email, carol.email])
    games.decline(session, game.id, carol)
    session.refresh(game)
    assert game.status == CANCELLED
    assert "Carol declined" in mail_to(session, alice)[-1].body
    with pytest.raises(errors.GameNotActive):
        games.accept(session, game.id, bob)


def test_random_order_shuffles_the_seats_at_the_start(app, session, make_players):
    app.config.update(INVITATIONS_PER_DAY=24, INVITATIONS_TO_PLAYER_PER_DAY=24)  # 24 games in a day: over the limits
    alice, bob = make_players("alice", "bob")
    firsts = Counter()
    for _ in range(24):
        game = games.create_game(session, alice, "logger", [bob.email], random_order=True)
        games.accept(session, game.id, bob)
        seats = seats_of(session, game)
        assert sorted(s.number for s in seats) == [0, 1]
        firsts[next(s.player_id for s in seats if s.number == 0)] += 1
    assert set(firsts) == {alice.id, bob.id}  # 1 in 8 million to fail by chance


def test_three_player_resignation_and_draw(session, make_players, start_game):
    alice, bob, carol = make_players("alice", "bob", "carol")
    game = start_game(alice, bob, carol)
    games.resign(session, game.id, bob)
    session.refresh(game)
    assert (game.status, game.result) == (FINISHED, "1=3")
    game = start_game(alice, bob, carol)
    games.offer_draw(session, game.id, alice)
    games.accept_draw(session, game.id, bob)
    session.refresh(game)
    assert game.status == ACTIVE  # carol has not agreed
    games.accept_draw(session, game.id, carol)
    session.refresh(game)
    assert (game.status, game.result, game.termination) == (FINISHED, "1=2=3", "drawn by agreement")


def test_accepting_a_draw_nobody_offered_is_refused(session, make_players, start_game):
    alice, bob = make_players("alice", "bob")
    game = start_game(alice, bob)
    with pytest.raises(errors.Conflict, match="nobody has offered a draw"):
        games.accept_draw(session, game.id, bob)


@pytest.mark.parametrize("name", registry.names())
def test_every_hosted_game_can_be_created_started_and_played(session, make_players, start_game, name):
    kind = registry.get(name)
    players = make_players(*["alice", "bob", "carol", "dave"][: kind.rules.min_players])
    game = start_game(players[0], *players[1:], kind=name)
    state = kind.notation.parse_position(game.position, game.options)
    mover = kind.rules.to_move(state)
    first = kind.notation.legal_texts(state)[0]
    seat = session.exec(select(Seat).where(Seat.game_id == game.id, Seat.number == mover)).one()
    player = next(p for p in players if p.id == seat.player_id)
    done = submit_turn(session, game.id, player, first, 0, "cli")
    assert done.game.ply == 1 and done.turn.canonical == first
