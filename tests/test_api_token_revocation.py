"""Revoking an API token on the /tokens page: a token number that is not
one of the player's, however large, is answered 404 naming it, and no
token is touched."""

from __future__ import annotations

import pytest
from test_web_pages import csrf, sign_in

from pbem.db import get_session
from pbem.services.accounts import create_api_token, player_for_email, tokens_of


@pytest.mark.parametrize("token_id", ["0", "99999", "2147483648", "99999999999999999999", "9" * 400])
def test_revoking_a_token_that_is_not_yours_is_a_404_and_changes_nothing(app, client, token_id):
    sign_in(client, app, "alice@example.org")
    with app.app_context():
        session = get_session()
        create_api_token(session, player_for_email(session, "alice@example.org"), "laptop")
    page = client.get("/tokens")
    response = client.post(f"/tokens/{token_id}/revoke", data={"csrf_token": csrf(page)})
    assert response.status_code == 404
    assert "you have no API token" in response.get_data(as_text=True)
    with app.app_context():
        session = get_session()
        assert [t.label for t in tokens_of(session, player_for_email(session, "alice@example.org"))] == ["laptop"]
