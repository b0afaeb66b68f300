"""The refusal link's ``List-Unsubscribe`` header as it goes over the wire:
mail clients and providers read it raw (RFC 2369: a field that does not
begin with ``<`` is ignored; RFC 8058 one-click needs the URI as it is), so
it must be ``<http://...>`` in plain ASCII, never an RFC 2047 encoded-word,
whether sent by SMTP or kept as an ``.eml`` file."""

from __future__ import annotations

import re

from test_email_commands import mail_app
from test_mail_refusal import server  # noqa: F401  (fixture)

from mail.send import EmlFolderSink
from pbem.mailrobot import jobs

RAW_HEADER = re.compile(rb"^List-Unsubscribe:[ \t]*(.*?)\r?\n(?![ \t])", re.MULTILINE | re.DOTALL)


def unfolded_header(raw: bytes) -> str:
    head = raw.split(b"\r\n\r\n", 1)[0] if b"\r\n\r\n" in raw else raw.split(b"\n\n", 1)[0]
    match = RAW_HEADER.search(head + b"\n")
    assert match, "no List-Unsubscribe header"
    return re.sub(r"\r?\n[ \t]+", " ", match.group(1).decode("ascii")).strip()


def test_the_header_goes_over_smtp_as_a_plain_angle_bracketed_link(server):
    server.new_game("alice@example.org", "bob@example.org")
    server.send()
    raw = [data for _, tos, data in server.handler.messages if tos == ["bob@example.org"]][0]
    value = unfolded_header(raw)
    assert "=?" not in value
    assert re.fullmatch(r"<http://pbem\.test/mail/refuse/[A-Za-z0-9_.\-]+>", value), value
    assert b"\nList-Unsubscribe-Post: List-Unsubscribe=One-Click\r\n" in raw


def test_the_header_is_kept_plain_in_eml_files_too(database_config, tmp_path):
    app = mail_app(database_config, MAIL_EML_FOLDER=str(tmp_path / "sent"))
    try:
        from pbem.db import get_session
        from pbem.services import accounts

        with app.app_context():
            accounts.send_sign_in_link(get_session(), "carol@a-rather-long-domain-name.example.org")
        jobs.drain_outbox(app)
        [(name, _)] = EmlFolderSink(tmp_path / "sent").messages()
        value = unfolded_header((tmp_path / "sent" / name).read_bytes())
        assert re.fullmatch(r"<http://pbem\.test/mail/refuse/[A-Za-z0-9_.\-]+>", value), value
    finally:
        app.extensions["pbem_engine"].dispose()
