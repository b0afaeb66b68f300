"""What a person wrote: the text of a message without quotes and signatures.

Steps, each tolerant of broken input:

1. :func:`decode_part` turns a MIME part's payload (base64, quoted-printable,
   8bit) into ``str`` using the declared charset, repairing the common lies
   (UTF-8 declared as Latin-1 and the reverse, unknown charset names) and
   guessing with ``charset-normalizer`` when nothing fits.
2. :func:`html_to_text` drops quoted blocks that mail clients mark in HTML
   (``<blockquote>``, Gmail's ``gmail_quote``, Outlook's ``divRplyFwdMsg``,
   Thunderbird's ``moz-cite-prefix``, signatures) with ``lxml`` and renders the
   rest with ``inscriptis``.
3. :func:`reply_text` keeps the newest reply with ``mail-parser-reply``
   (headers like "On ... wrote:", "-----Original Message-----", Outlook's
   "From: ... Sent: ...", signatures like "-- " and "Sent from my iPhone")
   and then drops any remaining ``>``-quoted lines, so bottom-posted replies
   work too.  The library sees each quoted line as a bare ``>``: what is
   quoted (a quoted signature ``> -- ``, a quoted "Thanks,") must never cut
   the text typed below the quote.
4. An Outlook-style header block (``From:``/``Sent:``/``To:``/``Subject:`` and
   their French, German, Spanish, Italian, Dutch, Scandinavian, Polish and
   Czech names, :func:`cut_header_block`), with the separator line before it,
   starts the quote: everything from it on is dropped, even when nothing is
   typed above it (the new text is then empty).
"""
from __future__ import annotations

import codecs
import html as html_module
import re
from email.message import Message
from typing import TYPE_CHECKING

from mailparser_reply import EmailReplyParser

if TYPE_CHECKING:
    from lxml.html import HtmlElement

#: Text longer than this is cut before reply parsing (commands come first).
MAX_TEXT = 64 * 1024
#: Languages whose reply headers ("On ... wrote:", "Am ... schrieb:") we know.
LANGUAGES = ["en", "de", "fr", "es", "it", "nl", "sv", "da", "pl", "cs"]
_LATIN1_NAMES = {"iso-8859-1", "latin-1", "latin1", "iso8859-1", "us-ascii", "ascii", "cp1252", "windows-1252"}


def _decode_bytes(data: bytes, declared: str | None) -> str:
    """Decode *data* whose declared charset may be missing, unknown or wrong."""
    if not data:
        return ""
    charset = (declared or "").strip().strip('"').lower() or None
    if charset:
        try:
            codecs.lookup(charset)
        except LookupError:
            charset = None
    if charset in _LATIN1_NAMES or charset is None:
        # Mail declared as Latin-1/ASCII (or not at all) is often really UTF-8.
        try:
            text = data.decode("utf-8")
            return text
        except UnicodeDecodeError:
            pass
    if charset:
        try:
            return data.decode("cp1252" if charset in {"iso-8859-1", "latin-1", "latin1", "iso8859-1", "us-ascii", "ascii"} else charset)
        except (UnicodeDecodeError, LookupError):
            pass
    try:
        from charset_normalizer import from_bytes

        best = from_bytes(data[:MAX_TEXT]).best()
        if best is not None and best.encoding:
            return data.decode(best.encoding, errors="replace")
    except Exception:  # noqa: BLE001 - a guess that fails just falls through
        pass
    return data.decode("cp1252", errors="replace") if not charset else data.decode("latin-1")


def decode_part(part: Message) -> str:
    """Return the decoded text of a non-multipart MIME part ('' if it has none)."""
    try:
        payload = part.get_payload(decode=True)
    except Exception:  # noqa: BLE001 - broken transfer encoding
        payload = None
    if payload is None:
        raw = part.get_payload()
        if isinstance(raw, str):
            payload = raw.encode("utf-8", "surrogateescape")
        else:
            return ""
    if not isinstance(payload, bytes):
        return ""
    try:
        charset = part.get_content_charset()
    except Exception:  # noqa: BLE001 - any failure here is handled the same way
        charset = None
    text = _decode_bytes(payload, charset)
    return text.replace("\r\n", "\n").replace("\r", "\n").replace("\x00", "")


def unflow(text: str, delsp: bool = False) -> str:
    """Undo ``format=flowed`` (RFC 3676): join soft-broken lines (those ending in a space)."""
    out: list[str] = []
    current = ""
    for line in text.split("\n"):
        if line.startswith(" "):
            line = line[1:]  # space-stuffing
        if line.endswith(" ") and line != "-- ":
            current += line[:-1] if delsp else line
            continue
        out.append(current + line)
        current = ""
    if current:
        out.append(current)
    return "\n".join(out)


_QUOTE_XPATH = (
    "//blockquote"
    " | //*[contains(concat(' ', normalize-space(@class), ' '), ' gmail_quote ')]"
    " | //*[contains(concat(' ', normalize-space(@class), ' '), ' gmail_signature ')]"
    " | //*[contains(concat(' ', normalize-space(@class), ' '), ' moz-cite-prefix ')]"
    " | //*[contains(concat(' ', normalize-space(@class), ' '), ' moz-signature ')]"
    " | //*[contains(concat(' ', normalize-space(@class), ' '), ' yahoo_quoted ')]"
    " | //*[@id='appendonsend'] | //script | //style | //head"
)


def _strip_html_quotes(root: HtmlElement) -> None:
    # Outlook: the reply header block and everything after it on its level.
    for marker in root.xpath("//*[@id='divRplyFwdMsg'] | //*[@id='x_divRplyFwdMsg']"):
        parent = marker.getparent()
        if parent is None:
            continue
        previous = marker.getprevious()
        if previous is not None and previous.tag == "hr":
            parent.remove(previous)
        for sibling in list(marker.itersiblings()):
            parent.remove(sibling)
        parent.remove(marker)
    for element in root.xpath(_QUOTE_XPATH):
        parent = element.getparent()
        if parent is not None:
            tail = element.tail
            parent.remove(element)
            if tail and tail.strip():
                # Keep text that followed the removed element (bottom-posting).
                previous = parent[-1] if len(parent) else None
                if previous is not None and previous.tail is None:
                    previous.tail = tail
                elif parent.text is None:
                    parent.text = tail
                else:
                    parent.text += "\n" + tail


def _fallback_html_to_text(html: str) -> str:
    text = re.sub(r"(?is)<(script|style|head)\b.*?</\1\s*>", " ", html)
    text = re.sub(r"(?i)<\s*(br|/p|/div|/li|/tr|/h\d)\b[^>]*>", "\n", text)
    text = re.sub(r"<[^>]*>", "", text)
    return html_module.unescape(text)


def html_to_text(html: str) -> str:
    """Render an HTML body as plain text, without the parts marked as quotes."""
    if not html or not html.strip():
        return ""
    html = html[: MAX_TEXT * 4]
    try:
        import lxml.html
        from inscriptis.html_engine import Inscriptis
        from inscriptis.model.config import ParserConfig

        html = re.sub(r"^\s*<\?xml[^>]*\?>", "", html)
        root = lxml.html.document_fromstring(html)
        _strip_html_quotes(root)
        text: str = Inscriptis(root, ParserConfig(display_links=False, display_images=False)).get_text()
    except Exception:  # noqa: BLE001 - lxml refuses some garbage; fall back
        text = _fallback_html_to_text(html)
    return text.replace("\xa0", " ")


_QUOTED_LINE = re.compile(r"^\s*>")
_SIGNATURE_SEP = re.compile(r"^-- ?$")
_LATE_HEADERS = re.compile(
    r"^\s*(?:-{2,}\s*(?:Original|Forwarded) Message\s*-{2,}|_{10,}|Begin forwarded message:|"
    r"On .{1,200}(?:wrote|writes):?\s*$)",
    re.IGNORECASE,
)


#: Names of the fields of a reply header block ("From: ...", "Sent: ...") that
#: mail clients (Outlook above all) write above an unprefixed quote, by language.
_FROM_FIELDS = ("from", "de", "von", "da", "van", "från", "fra", "od")
_OTHER_FIELDS = (
    "sent", "date", "to", "cc", "bcc", "subject", "reply-to", "importance",  # en
    "envoyé", "à", "a", "objet", "répondre à",  # fr
    "gesendet", "datum", "an", "betreff", "kopie", "antwort an",  # de
    "enviado", "enviado el", "fecha", "para", "asunto",  # es
    "inviato", "data", "oggetto",  # it
    "verzonden", "aan", "onderwerp",  # nl
    "skickat", "till", "ämne", "kopia",  # sv
    "sendt", "til", "emne", "dato",  # da
    "wysłano", "do", "temat", "dw",  # pl
    "odesláno", "komu", "předmět",  # cs
)
_FIELD_LINE = re.compile(r"^[ \t*]*([^\W\d_][\w -]{0,14}?)[ \t\xa0]*\*?[ \t\xa0]*:[ \t\xa0*]*(?:\S.*)?$")
_BLOCK_SEPARATOR = re.compile(r"^\s*(?:_{5,}|-{2,}[^-].*[^-]-{2,}|-{5,}|={5,})\s*$")
#: a header block: the "From" line and at least this many other field lines right after it
_BLOCK_FIELDS = 2


def _field(line: str) -> str | None:
    match = _FIELD_LINE.match(line)
    return " ".join(match.group(1).lower().split()) if match else None


def cut_header_block(text: str) -> str:
    """Return *text* without the first unquoted reply header block and all after it.

    A block is a "From:" line (in any of the languages above) followed at
    once by at least two other header fields ("Sent:", "To:", "Subject:"...;
    one wrapped line between fields is allowed); a separator line right
    above it (``____``, ``-----Original Message-----``) goes with it.  Text
    without such a block is returned unchanged; "From: now on..." typed by a
    player is not a block.
    """
    lines = text.split("\n")
    for index, line in enumerate(lines):
        if _field(line) not in _FROM_FIELDS:
            continue
        fields, wrapped = set(), 0
        for following in lines[index + 1:index + 12]:
            name = _field(following)
            if name in _OTHER_FIELDS:
                fields.add(name)
                wrapped = 0
            elif following.strip() and not _QUOTED_LINE.match(following) and wrapped == 0 and fields:
                wrapped = 1  # a long "To:" line wrapped by the client
            else:
                break
        if len(fields) < _BLOCK_FIELDS:
            continue
        start = index
        above = index - 1
        while above >= 0 and not lines[above].strip():
            above -= 1
        if above >= 0 and _BLOCK_SEPARATOR.match(lines[above]):
            start = above
        return "\n".join(lines[:start])
    return text


def _mask_quotes(text: str) -> str:
    """Each ``>``-quoted line as a bare ``>``: the reply parser must not find
    a signature or a sign-off inside the quote and cut what follows it."""
    return "\n".join(">" if _QUOTED_LINE.match(line) else line for line in text.split("\n"))


#: Must equal :data:`mail.compose.REPLY_MARKER` (kept here to avoid an import cycle).
REPLY_MARKER = "## Reply above this line ##"


def reply_text(text: str) -> str:
    """Return the newest reply in *text*: no quoted history, no signature."""
    if not text:
        return ""
    text = text.replace("\r\n", "\n").replace("\r", "\n")[:MAX_TEXT]
    # Everything after an Outlook-style header block is quoted, even with nothing above it.
    text = cut_header_block(text)
    # Our own marker ends the reply, however the client quoted what follows.
    # (A quoted marker needs no cut: quoted lines go anyway, and a bottom-posted
    # reply follows it.)
    lines = text.split("\n")
    for index, line in enumerate(lines):
        if line.strip().lower().startswith(REPLY_MARKER.lower()):
            head = "\n".join(lines[:index]).rstrip().split("\n")
            if len(head) > 2 and head[-1].strip() and not head[-2].strip() and any(h.strip() for h in head[:-2]):
                head.pop()  # the client's attribution line ("Le ... a écrit :") before the pasted text
            text = "\n".join(head)
            break
    # Cut at a signature separator first: the library only sees "--" after stripping.
    kept: list[str] = []
    for line in text.split("\n"):
        if _SIGNATURE_SEP.match(line.rstrip("\n")) and any(k.strip() for k in kept):
            break
        kept.append(line)
    text = _mask_quotes("\n".join(kept))
    whole_lines = {line.strip() for line in text.split("\n")}
    body = text
    try:
        parsed = EmailReplyParser(languages=list(LANGUAGES)).read(text)
        for reply in parsed.replies:
            candidate = _unquoted(reply.body)
            kept_lines = [line.strip() for line in candidate.split("\n") if line.strip()]
            if not kept_lines:
                continue
            # The library's header patterns sometimes split a line in two
            # (seen with French "a écrit"); such a reply is not to be trusted.
            if all(line in whole_lines for line in kept_lines):
                body = reply.body
            break
    except Exception:  # noqa: BLE001 - a regex library on hostile text; keep the raw text
        body = text
    out: list[str] = []
    for line in _unquoted(_drop_attributions(body)).split("\n"):
        if _LATE_HEADERS.match(line):
            break
        out.append(line)
    return "\n".join(out).strip()


def _drop_attributions(text: str) -> str:
    """Drop "X wrote:" lines: unquoted lines ending in ':' right before a quoted line."""
    lines = text.split("\n")
    kept = []
    for index, line in enumerate(lines):
        following = lines[index + 1] if index + 1 < len(lines) else ""
        if line.rstrip().endswith(":") and not _QUOTED_LINE.match(line) and _QUOTED_LINE.match(following):
            continue
        kept.append(line)
    return "\n".join(kept)


def _unquoted(text: str) -> str:
    return "\n".join(line for line in text.split("\n") if not _QUOTED_LINE.match(line))
