"""The mail robot's commands are objects in one table
(``pbem.mailrobot.commands.COMMANDS``), each with its words (parsed by
``mail.commands``), its syntax, its description and its action, and the
help answers are written from that table: a command added to it is in the
help with its syntax and description, and every command the help lists is
there with its own."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from mail import commands as c
from notation import registry
from pbem.mailrobot import commands as robot_commands
from pbem.mailrobot.commands import (
    ANY_TIME,
    BEFORE_START,
    COMMANDS,
    GAME,
    UNLISTED,
    About,
    MailCommand,
    game_help,
    plain_help,
)
from pbem.mailrobot.settings import mail_settings
from pbem.services import bot_seats

SETTINGS = mail_settings({"MAIL_FROM": "pbem@pbem.test", "SECRET_KEY": "not-a-secret"})


def about_game(kind: str) -> SimpleNamespace:
    """What ``game_help`` reads of a game: its kind (no session: not a game of one player)."""
    return SimpleNamespace(kind=kind)


def help_lines(text: str) -> list[str]:
    return [" ".join(line.split()) for line in text.splitlines()]


def listed(text: str, syntax: str, description: str) -> bool:
    """``syntax`` then the first line of ``description`` on one line of the help."""
    return " ".join(f"{syntax} {description.splitlines()[0]}".split()) in help_lines(text)


def ping(ctx, cmd) -> None:  # pragma: no cover - the help never runs an action
    raise AssertionError("not run")


@pytest.mark.parametrize("plain", [False, True])
def test_a_command_added_to_the_table_is_in_the_help_with_its_syntax_and_description(monkeypatch, plain):
    added = MailCommand(c.Word("ping", bare=False, plain=plain), "ping <number>", "answer with pong, e.g. ping 3",
                        ping)
    monkeypatch.setattr(robot_commands, "COMMANDS", {**COMMANDS, "ping": added})
    in_game = game_help(SETTINGS, about_game("logger"))
    assert listed(in_game, "ping <number>", "answer with pong, e.g. ping 3")
    assert ("ping <number>" in plain_help(SETTINGS)) is plain
    if plain:
        assert listed(plain_help(SETTINGS), "ping <number>", "answer with pong, e.g. ping 3")
        assert "puzzle <number>, help, ping <number>." in " ".join(in_game.split())  # the plain address's, in a game's help


def test_a_command_taken_out_of_the_table_is_not_in_the_help(monkeypatch):
    monkeypatch.setattr(robot_commands, "COMMANDS", {name: command for name, command in COMMANDS.items()
                                                     if name != c.RECORD})
    assert not any(line.startswith("record ") for line in help_lines(game_help(SETTINGS, about_game("logger"))))


@pytest.mark.parametrize("kind", ["logger", "alheimur", None])
def test_every_command_a_games_help_lists_is_there_with_its_syntax_and_description(kind):
    text = game_help(SETTINGS, about_game(kind) if kind else None)
    game_kind = registry.get(kind) if kind else None
    about = About(game_kind, values={"example": game_kind.notation.example_turn() if game_kind else "a turn"})
    settings_declared = bool(game_kind and tuple(game_kind.notation.seat_settings))
    for command in COMMANDS.values():
        if command.section == GAME or (command.section == ANY_TIME and settings_declared):
            rows = command.usages(about)
            assert rows, command.name
            for syntax, description in rows:
                assert listed(text, syntax, description), (command.name, syntax, text)
        else:
            assert not any(line.startswith(command.syntax + " ") for line in help_lines(text)), command.name
    if settings_declared:  # Alheimur: each setting with its example
        assert "set fire fire 3 t" in text


def test_every_command_the_plain_address_takes_is_in_its_help_with_its_syntax_and_description():
    text = plain_help(SETTINGS)
    about = About(values={"names": ", ".join(registry.names()), "levels": bot_seats.levels_text()})
    plain = [command for command in COMMANDS.values() if command.plain]
    assert [command.name for command in plain] == [c.GAMES, c.NEW, c.PUZZLES, c.PUZZLE, c.HELP]
    for command in plain:
        for syntax, description in command.usages(about):
            assert listed(text, syntax, description), (syntax, text)
    for command in COMMANDS.values():
        if not command.plain:
            assert f"\n  {command.syntax} " not in text, command.name


def test_one_table_every_word_the_parser_knows_has_its_command():
    assert set(COMMANDS) == set(c.WORDS)
    for name, command in COMMANDS.items():
        assert command.word is c.WORDS[name] and command.name == name and callable(command.action)
        for written in (name, *command.aliases):
            if command.word.bare:
                assert c.parse_command(written).kind == name
    assert c.PLAIN_COMMANDS == {name for name, command in COMMANDS.items() if command.plain}
    # the only command no help lists, as before: vacation
    assert [name for name, command in COMMANDS.items() if command.section == UNLISTED and not command.plain] == \
        [c.VACATION]
    assert BEFORE_START == {c.ACCEPT, c.DECLINE, c.HELP, c.BOARD, c.INVALID}


def test_a_french_help_translates_descriptions_and_placeholders_never_the_command_words():
    from flask import Flask

    from pbem import i18n

    app = Flask("pbem_help_test")
    i18n.init_app(app)
    with app.app_context(), i18n.for_language("fr"):
        text = game_help(SETTINGS, about_game("logger"))
        plain = plain_help(SETTINGS)
    assert "Comment jouer par courriel" in text and "How to play by email" not in text
    assert listed(text, "resign", "abandonner la partie")
    assert listed(text, "preview <tour>", "le plateau après ce tour, sans le jouer")
    assert listed(plain, "new <jeu> vs bot [niveau]", "jouer contre l'ordinateur, par ex. new logger vs bot hard")
    assert "puzzle <numéro>" in plain
