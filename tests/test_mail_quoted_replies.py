"""Reading what a player wrote around the quoted notification: text below a
quote that ends with the notification's quoted signature (``> -- ``), and
Outlook-style header blocks (``From:/Sent:/To:/Subject:``, also in French,
German, Spanish, Italian and Dutch) after which everything is quoted, even
when nothing is typed above them, so that the turn comes from an attached
turn file."""
from __future__ import annotations

from email.message import EmailMessage

import pytest

from mail.body import reply_text
from mail.compose import compose_notification, game_thread
from mail.inbound import parse_message
from mail.tokens import make_reply_address

SECRET = "quoted-secret"
DOMAIN = "pbem.test"
BOARD = "5 . . . . .\n4 . . . . .\n3 . . s . .\n2 . . . . .\n1 . . . . .\n  a b c d e"
#: a signature as a notification footer carries it, if the server's own has none
FOOTER = "-- \npbem, games by mail: https://pbem.test/\nTo stop all mail from this server: https://pbem.test/refuse/x"


def notification_text(signature: bool = True) -> str:
    """The plain part of a notification as ``mail.compose`` makes it, with a signature block at its end."""
    msg = compose_notification(
        from_addr=f"pbem <pbem@{DOMAIN}>", to_addr="Bob <bob@example.org>", subject="Game 7: your turn",
        text="Everyone has accepted: the game has started.\nIt is your turn (player 2), turn 12.", diagram=BOARD,
        after="Moves: 1. a1  2. e5\n\nReply to this mail with your turn, e.g. \"#12 b2-c2 G P:d3\" "
              "(the number is the turn you answer), or a command: legal, board, record, help.",
        domain=DOMAIN, loop_id=f"pbem@{DOMAIN}", thread=game_thread(7, DOMAIN),
        reply_to=make_reply_address(SECRET, DOMAIN, 7, 2))
    text = msg.get_body(("plain",)).get_content()
    if signature and "\n-- \n" not in text:
        text = text.rstrip("\n") + "\n\n" + FOOTER + "\n"
    return text


def quote(text: str) -> str:
    return "\n".join("> " + line if line else ">" for line in text.splitlines())


TURN = "#12 b2-c2 G P:d3"

# What mail clients put above a bottom-posted reply.
ATTRIBUTIONS = [
    "",
    "pbem wrote:\n",
    "pbem <pbem@pbem.test> wrote:\n",
    "On 01/01/2030 10:00, pbem wrote:\n",
    "On Mon, 1 Jan 2030 at 10:00, pbem <pbem@pbem.test> wrote:\n",
    "* pbem <pbem@pbem.test> [2030-01-01 10:00]:\n",
    "Le lun. 1 janv. 2030 à 10:00, pbem a écrit :\n",
    "Hello,\n\n",
]


@pytest.mark.parametrize("attribution", ATTRIBUTIONS)
@pytest.mark.parametrize("own_signature", ["", "\n-- \nBob Example\nExample Games Club\n"])
def test_a_turn_below_a_quote_ending_with_the_quoted_signature_is_read(attribution, own_signature):
    body = f"{attribution}{quote(notification_text())}\n\n{TURN}\n{own_signature}"
    assert reply_text(body).split("\n")[-1] == TURN


@pytest.mark.parametrize("separator", ["> -- ", "> --", ">-- ", "> > -- "])
def test_every_way_of_quoting_the_signature_line_ends_only_the_quote(separator):
    quoted = quote(notification_text()).replace("> -- ", separator)
    assert reply_text(f"Hello,\n\n{quoted}\n\n{TURN}\n").split() == ["Hello,", *TURN.split()]


def test_text_both_above_and_below_the_quote_is_kept_in_order():
    body = f"Hello,\n\n{quote(notification_text())}\n\n{TURN}\n\nGood luck!\n"
    assert [line for line in reply_text(body).split("\n") if line] == ["Hello,", TURN, "Good luck!"]


def message(body: str, *, attachment: str | None = None, flowed: bool = False) -> bytes:
    msg = EmailMessage()
    msg["From"] = "Bob Example <bob@example.org>"
    msg["To"] = make_reply_address(SECRET, DOMAIN, 7, 2)
    msg["Subject"] = "RE: Game 7: your turn"
    msg["Message-ID"] = "<quoted-1@client.example>"
    msg.set_content(body)
    if flowed:
        msg.set_param("format", "flowed")
    if attachment is not None:
        msg.add_attachment(attachment, subtype="plain", filename="turn.txt")
    return msg.as_bytes()


def test_a_bottom_post_with_the_quoted_signature_gives_its_turn_as_the_command_line():
    raw = message(f"pbem wrote:\n{quote(notification_text())}\n\n{TURN}\n")
    assert parse_message(raw).lines == [TURN]


# --- Outlook: a header block, then the notification without '>' --------------------------------

OUTLOOK_BLOCKS = {
    "en": "From: pbem <pbem@pbem.test>\nSent: Monday, January 1, 2030 10:00\nTo: Bob Example <bob@example.org>\n"
          "Subject: Game 7: your turn\n",
    "en-bold": "*From:* pbem <pbem@pbem.test>\n*Sent:* Monday, January 1, 2030 10:00\n*To:* Bob Example\n"
               "*Subject:* Game 7: your turn\n",
    "en-date-cc": "From: pbem <pbem@pbem.test>\nDate: Monday, January 1, 2030 at 10:00\nTo: Bob Example\n"
                  "Cc: alice@example.org\nSubject: Game 7: your turn\n",
    "fr": "De : pbem <pbem@pbem.test>\nEnvoyé : lundi 1 janvier 2030 10:00\nÀ : Bob Example <bob@example.org>\n"
          "Objet : Game 7: your turn\n",
    "fr-no-space": "De: pbem <pbem@pbem.test>\nEnvoyé: lundi 1 janvier 2030 10:00\nÀ: Bob Example\n"
                   "Objet: Game 7: your turn\n",
    "de": "Von: pbem <pbem@pbem.test>\nGesendet: Montag, 1. Januar 2030 10:00\nAn: Bob Example <bob@example.org>\n"
          "Betreff: Game 7: your turn\n",
    "es": "De: pbem <pbem@pbem.test>\nEnviado: lunes, 1 de enero de 2030 10:00\nPara: Bob Example\n"
          "Asunto: Game 7: your turn\n",
    "it": "Da: pbem <pbem@pbem.test>\nInviato: lunedì 1 gennaio 2030 10:00\nA: Bob Example\n"
          "Oggetto: Game 7: your turn\n",
    "nl": "Van: pbem <pbem@pbem.test>\nVerzonden: maandag 1 januari 2030 10:00\nAan: Bob Example\n"
          "Onderwerp: Game 7: your turn\n",
}
SEPARATORS = ["", "________________________________\n", "-----Original Message-----\n",
              "-----Message d'origine-----\n", "-----Ursprüngliche Nachricht-----\n"]


@pytest.mark.parametrize("language", sorted(OUTLOOK_BLOCKS))
@pytest.mark.parametrize("separator", SEPARATORS)
@pytest.mark.parametrize("marker", [True, False])
def test_nothing_typed_above_an_outlook_header_block_is_nothing(language, separator, marker):
    quoted = notification_text()
    if not marker:
        quoted = quoted.split("\n", 2)[2]  # a client that dropped our first line
    body = f"{separator}{OUTLOOK_BLOCKS[language]}\n{quoted}"
    assert reply_text(body) == ""
    assert reply_text("\n\n" + body) == ""


@pytest.mark.parametrize("language", sorted(OUTLOOK_BLOCKS))
def test_text_above_an_outlook_header_block_is_the_reply(language):
    body = f"{TURN}\n\n{OUTLOOK_BLOCKS[language]}\n{notification_text()}"
    assert reply_text(body) == TURN


def test_header_lines_a_player_types_are_not_a_quote():
    assert reply_text("From: now on I play faster\nb2-c2") == "From: now on I play faster\nb2-c2"
    assert reply_text("To: Alice\nb2-c2\n\nBob") == "To: Alice\nb2-c2\n\nBob"


def test_an_outlook_reply_with_nothing_above_takes_its_turn_from_the_attached_file():
    raw = message(f"{OUTLOOK_BLOCKS['en']}\n{notification_text()}", attachment=f"{TURN}\r\n")
    parsed = parse_message(raw)
    assert parsed.lines == []
    assert parsed.attachment_lines == [TURN]
