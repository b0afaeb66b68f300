"""Mail's own words (``mail.i18n``): English until a translator is
installed; the server installs the games' catalogue's, so a French
recipient reads mail's words (the refusal link, an error answer, the
generic internal error) in French."""

from __future__ import annotations

import pytest

from engine import i18n as games_i18n
from mail import i18n as mail_i18n
from mail.compose import compose_notification, error_text, safe_reason


@pytest.fixture
def no_translator(monkeypatch):
    monkeypatch.setattr(mail_i18n, "_translator", None)


@pytest.fixture
def games_translator(monkeypatch):
    monkeypatch.setattr(mail_i18n, "_translator", games_i18n.translate)


def notification_text() -> str:
    msg = compose_notification(from_addr="pbem@pbem.test", to_addr="alice@example.org", subject="Game 1",
                               text="Your turn.", domain="pbem.test", loop_id="pbem@pbem.test",
                               refusal_link="http://pbem.test/refuse/abc")
    return msg.get_body(preferencelist=("plain",)).get_content()


def test_mail_words_are_english_without_a_translator(no_translator):
    with games_i18n.language("fr"):
        assert "Nothing was changed" in error_text("zz", "no such square")
        assert safe_reason(ValueError("boom")).startswith("Something went wrong on our side")
        assert "To refuse all mail from this server, with one click" in notification_text()


def test_mail_words_read_in_the_language_of_the_moment_through_the_translator(games_translator):
    with games_i18n.language("fr"):
        text = error_text("zz", "no such square", ["a1", "b2"])
        assert "Rien n'a été changé" in text and "Nothing was changed" not in text
        assert "Je n'ai pas pu utiliser cette ligne" in text
        assert safe_reason(ValueError("boom")).startswith("Quelque chose s'est mal passé de notre côté")
        assert "Pour refuser tout courrier de ce serveur, en un clic" in notification_text()
    assert "Nothing was changed" in error_text("zz", "no such square")  # English again outside the block


def test_the_server_installs_the_games_translator(no_translator):
    from flask import Flask

    from pbem import i18n

    i18n.init_app(Flask("pbem_test"))  # what the app's setup does
    assert mail_i18n.translate("Nothing was changed.  Reply 'help' for the commands.") == \
        "Nothing was changed.  Reply 'help' for the commands."
    with games_i18n.language("fr"):
        assert mail_i18n.translate("Nothing was changed.  Reply 'help' for the commands.") == \
            "Rien n'a été changé.  Répondez 'help' pour les commandes."


def test_the_mail_layer_imports_nothing_of_the_games_or_the_server():
    from test_import_cycles import graph

    crossing = sorted(f"{name} -> {target}" for name, targets in graph().items() if name.split(".")[0] == "mail"
                      for target in targets if target.split(".")[0] in ("engine", "notation", "pbem"))
    assert crossing == []
