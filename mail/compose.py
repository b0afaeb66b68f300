"""Build outgoing mail as ``email.message.EmailMessage``.

* :func:`compose_notification` -- your turn, a turn was played, game over,
  invitations, sign-in links: a ``text/plain`` part (the text diagram
  included) and an HTML part with the PNG diagram inline (``cid:``).
* :func:`compose_reply` -- a confirmation or answer to a player's mail.
* :func:`compose_error_reply` -- quotes the line we could not use, says why
  and lists what would be legal.

Every message gets our ``X-Loop`` header and ``Auto-Submitted``
(``auto-generated`` for notifications, ``auto-replied`` for replies, RFC 3834),
a fresh Message-ID, and threading headers: each game has a stable root
Message-ID (:func:`game_root_id`) that every message about the game refers to
in ``In-Reply-To``/``References``, so the game is one conversation in the
player's mail client.  All text given is escaped for HTML; exceptions and
tracebacks are never put in mail (see :func:`safe_reason`).
"""
from __future__ import annotations

import binascii
import html
import re
import secrets
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timezone
from email.message import EmailMessage
from email.policy import EmailPolicy, Policy
from email.utils import format_datetime, make_msgid, parseaddr
from typing import Any

from mail.i18n import N_, _

#: Generic text used instead of anything that looks like a program error.
INTERNAL_ERROR = N_("Something went wrong on our side; your mail changed nothing. Please try again later.")
#: The first line of every notification; :func:`mail.body.reply_text` cuts a
#: reply at this line, quoted or not, whatever the mail client's quoting style.
REPLY_MARKER = "## Reply above this line ##"
#: The words before the refusal link at the foot of a notification.
REFUSAL_TEXT = _("To refuse all mail from this server, with one click")
#: At most this many legal turns are listed in an error reply.
MAX_LEGAL_LISTED = 40
_TRACEBACK = re.compile(r"Traceback \(most recent call last\)|^\s*File \".*\", line \d+", re.MULTILINE)


class _KeptHeaders(EmailPolicy):
    """``email.policy.default``, but a header value met before is not
    parsed again: the parsed header (an immutable string, whatever message
    it is in) is kept by name and value.  Most of a notification's headers
    repeat from mail to mail (From, X-Loop, Auto-Submitted, the parts'
    Content-Type...), and parsing them was a fifth of a mail's cost.  The
    messages come out byte for byte as with ``policy.default``."""

    #: at most this many headers are kept; then the store starts again
    KEPT = 4096

    def header_store_parse(self, name: str, value: Any) -> tuple[str, Any]:
        if not isinstance(value, str) or hasattr(value, "name"):  # a parsed header, or not text: as the default does
            return super().header_store_parse(name, value)
        key = (name, value)
        found = _kept_headers.get(key)
        if found is None:
            found = super().header_store_parse(name, value)
            # its folded lines, kept with it (``fold_binary``); a parsed header
            # keeps its attributes in a ``__dict__`` (it is a str subclass)
            found[1]._kept_folds = {}
            if len(_kept_headers) >= self.KEPT:
                _kept_headers.clear()
            _kept_headers[key] = found
        return (name, found[1])

    def header_max_count(self, name: str) -> int | None:
        """``policy.default``'s, kept by name: it looked the header's class
        up by making a new class at every header set (a tenth of a mail)."""
        key = name.lower()
        try:
            return _max_counts[key]
        except KeyError:
            found: int | None = super().header_max_count(name)
            _max_counts[key] = found
            return found

    def fold_binary(self, name: str, value: Any) -> bytes:
        """``policy.default``'s, kept for a header parsed by this policy
        (``header_store_parse``: the same header object in every message
        that sets that value) and the policy's line settings: most headers
        repeat from mail to mail, and folding them anew was a tenth of a
        mail.  Any other value is folded as the default does."""
        folds = getattr(value, "_kept_folds", None)
        if folds is None:
            return super().fold_binary(name, value)
        key = (self.linesep, self.max_line_length, self.utf8, self.cte_type, self.refold_source)
        found: bytes | None = folds.get(key)
        if found is None:
            found = folds[key] = super().fold_binary(name, value)
        return found


_kept_headers: dict[tuple[str, str], tuple[str, Any]] = {}
#: ``header_max_count`` by lower-case header name
_max_counts: dict[str, int | None] = {}
#: the policy of every message built here (``policy.default``, its headers kept)
POLICY = _KeptHeaders()


@dataclass(frozen=True)
class Thread:
    """Where a message belongs: the game's root Message-ID and, for a reply, the mail answered."""

    root_id: str | None = None
    in_reply_to: str | None = None
    references: tuple[str, ...] = ()


def game_root_id(game_id: int | str, domain: str) -> str:
    """The stable Message-ID that every mail about game *game_id* threads under."""
    safe = re.sub(r"[^A-Za-z0-9.\-]", "-", str(game_id))
    return f"<game-{safe}@{domain}>"


def game_thread(game_id: int | str, domain: str) -> Thread:
    """A :class:`Thread` for a notification about the game (no mail answered)."""
    return Thread(root_id=game_root_id(game_id, domain))


def safe_reason(reason: object) -> str:
    """Return *reason* fit for a player's eyes: never an exception or traceback."""
    if isinstance(reason, BaseException) or not isinstance(reason, str):
        return str(_(INTERNAL_ERROR))
    if _TRACEBACK.search(reason):
        return str(_(INTERNAL_ERROR))
    reason = reason.strip()
    if not reason:
        return str(_(INTERNAL_ERROR))
    return reason if len(reason) <= 1000 else reason[:1000] + "..."


def _references(thread: Thread | None) -> tuple[str | None, list[str]]:
    if thread is None:
        return None, []
    refs: list[str] = []
    for ref in ((thread.root_id,) if thread.root_id else ()) + tuple(thread.references) + (
        (thread.in_reply_to,) if thread.in_reply_to else ()
    ):
        if ref and ref not in refs:
            refs.append(ref)
    parent = thread.in_reply_to or thread.root_id
    return parent, refs[-20:]


class _LinkHeader(str):
    """A header whose value is an angle-bracketed link (``List-Unsubscribe``),
    written as it is: mail clients read it raw (RFC 2369: a value that does
    not begin with ``<`` is ignored), so it must never become an RFC 2047
    encoded-word, which is what the email package makes of a long token
    with nothing to fold at.  It is written on one line (RFC 5322 allows
    998 characters), whatever policy serialises it (``fold``)."""

    name: str

    def __new__(cls, name: str, value: str) -> "_LinkHeader":
        header = super().__new__(cls, value)
        header.name = name
        return header

    def fold(self, *, policy: Policy[Any]) -> str:
        return f"{self.name}: {self}{policy.linesep}"


def _base(
    *,
    from_addr: str,
    to_addr: str,
    subject: str,
    domain: str,
    loop_id: str,
    auto_submitted: str,
    reply_to: str | None,
    thread: Thread | None,
    message_id: str | None,
    date: datetime | None,
) -> EmailMessage:
    msg = EmailMessage(policy=POLICY)
    msg["From"] = from_addr
    msg["To"] = to_addr
    if reply_to:
        msg["Reply-To"] = reply_to
    msg["Subject"] = " ".join(subject.split())
    msg["Date"] = format_datetime(date or datetime.now(timezone.utc))
    msg["Message-ID"] = message_id or make_msgid(domain=domain)
    parent, refs = _references(thread)
    if parent and parent != msg["Message-ID"]:
        msg["In-Reply-To"] = parent
        refs = [r for r in refs if r != msg["Message-ID"]]
        if refs:
            msg["References"] = " ".join(refs)
    msg["Auto-Submitted"] = auto_submitted
    msg["X-Loop"] = loop_id
    msg["X-Auto-Response-Suppress"] = "All"
    return msg


def _html_paragraphs(text: str) -> str:
    blocks = [b for b in re.split(r"\n\s*\n", text.strip()) if b.strip()]
    return "\n".join("<p>" + html.escape(b).replace("\n", "<br>\n") + "</p>" for b in blocks)


def compose_notification(
    *,
    from_addr: str,
    to_addr: str,
    subject: str,
    text: str,
    domain: str,
    loop_id: str,
    diagram: str = "",
    after: str = "",
    png: bytes | None = None,
    png_alt: str = "The board",
    reply_to: str | None = None,
    thread: Thread | None = None,
    auto_submitted: str = "auto-generated",
    message_id: str | None = None,
    date: datetime | None = None,
    reply_marker: bool = True,
    refusal_link: str | None = None,
) -> EmailMessage:
    """Build a notification.

    The plain part is *text*, then the text *diagram* (monospace), then
    *after* (the move list, the deadline).  The HTML part shows the same text
    escaped, with the *png* diagram inline in place of the text diagram when
    given.  *message_id* may be the game's root id for the first mail of a
    game; otherwise a fresh one is made.  Both parts start with
    :data:`REPLY_MARKER` unless *reply_marker* is false.  With a
    *refusal_link* (a link that refuses all mail to the recipient), both
    parts end with it and the ``List-Unsubscribe`` and
    ``List-Unsubscribe-Post`` headers offer it for a one-click POST (RFC 8058).
    """
    msg = _base(from_addr=from_addr, to_addr=to_addr, subject=subject, domain=domain, loop_id=loop_id,
                auto_submitted=auto_submitted, reply_to=reply_to, thread=thread, message_id=message_id,
                date=date)
    parts = [REPLY_MARKER] if reply_marker else []
    parts += [part.strip("\n") for part in (text, diagram, after) if part and part.strip()]
    if refusal_link and len(refusal_link) <= 900:  # one header line stays within RFC 5322's 998
        msg["List-Unsubscribe"] = _LinkHeader("List-Unsubscribe", f"<{refusal_link}>")
        msg["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    if refusal_link:
        parts.append(f"-- \n{REFUSAL_TEXT}: {refusal_link}")
    msg.set_content("\n\n".join(parts) + "\n")
    html_parts = [f'<p style="color:#888;font-size:small">{html.escape(REPLY_MARKER)}</p>'] if reply_marker else []
    html_parts.append(_html_paragraphs(text))
    cid = None
    if png:
        cid = make_msgid(domain=domain)
        html_parts.append(f'<p><img src="cid:{cid[1:-1]}" alt="{html.escape(png_alt)}"></p>')
    elif diagram.strip():
        html_parts.append("<pre>" + html.escape(diagram.strip("\n")) + "</pre>")
    if after.strip():
        html_parts.append("<pre>" + html.escape(after.strip("\n")) + "</pre>")
    if refusal_link:
        link = html.escape(refusal_link)
        html_parts.append(f'<hr>\n<p>{html.escape(str(REFUSAL_TEXT))}: <a href="{link}">{link}</a></p>')
    body = "\n".join(p for p in html_parts if p)
    msg.add_alternative(
        f"<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"></head><body>\n{body}\n</body></html>\n",
        subtype="html",
    )
    if png and cid:
        html_part = list(msg.iter_parts())[1]  # the HTML alternative
        # the image's headers as the email package makes them, its base64
        # lines (the same) made once per picture (``base64_lines``)
        html_part.add_related(b"", maintype="image", subtype="png", cid=cid, filename="board.png",
                              disposition="inline")
        image = list(html_part.iter_parts())[-1]
        image.set_payload(base64_lines(png, image.policy.max_line_length))
    _kept_boundaries(msg)
    return msg


#: the MIME boundaries this process gives its notifications, one per depth
#: of nesting (alternative, related), in the email package's format:
#: ``_kept_boundaries``
BOUNDARIES = tuple(("=" * 15) + f"{secrets.randbelow(sys.maxsize):019d}" + "==" for _ in range(2))


def _kept_boundaries(msg: EmailMessage) -> None:
    """Give the message's multiparts this process's ``BOUNDARIES`` when no
    part's encoded text holds one of them (else, as before, the generator
    draws a boundary the text does not hold).  A boundary drawn anew for
    every mail was a new Content-Type header to parse and fold each time
    (a twentieth of a mail); a kept one is parsed once (``POLICY``)."""
    multiparts = [part for part in msg.walk() if part.is_multipart()]
    if not multiparts or len(multiparts) > len(BOUNDARIES):
        return
    for part in msg.walk():
        if part.is_multipart():
            continue
        payload = part.get_payload()
        if not isinstance(payload, str) or any("--" + boundary in payload for boundary in BOUNDARIES):
            return
    for part, boundary in zip(multiparts, BOUNDARIES):
        part.set_boundary(boundary)


#: pictures whose base64 lines are kept (``base64_lines``): a board sent to
#: several recipients who see the same view is one ``bytes`` object
BASE64_KEPT = 64
_base64_kept: dict[tuple[bytes, int], str] = {}


def base64_lines(data: bytes, max_line_length: int | None = 78) -> str:
    """``data`` in base64 as ``email.contentmanager`` writes a part of
    bytes (lines of ``max_line_length // 4 * 4`` characters, each ended by
    a newline): the same text, encoded at once rather than line by line,
    and kept for the last ``BASE64_KEPT`` pictures."""
    width = (max_line_length or 78) // 4 * 4
    key = (data, width)
    found = _base64_kept.get(key)
    if found is None:
        flat = binascii.b2a_base64(data, newline=False).decode("ascii")
        found = "".join([flat[start:start + width] + "\n" for start in range(0, len(flat), width)])
        if len(_base64_kept) >= BASE64_KEPT:
            _base64_kept.pop(next(iter(_base64_kept)))
        _base64_kept[key] = found
    return found


def reply_subject(subject: str) -> str:
    """``Re: <subject>``, without piling up ``Re:``s."""
    subject = " ".join((subject or "").split())
    if re.match(r"^(re|aw|sv|antw)\s*:", subject, re.IGNORECASE):
        return subject
    return f"Re: {subject}" if subject else "Re: your mail"


def answer_thread(message_id: str | None, references: Sequence[str] = (), root_id: str | None = None) -> Thread:
    """A :class:`Thread` answering the mail with *message_id* and *references*."""
    return Thread(root_id=root_id, in_reply_to=message_id, references=tuple(references))


def compose_reply(
    *,
    from_addr: str,
    to_addr: str,
    subject: str,
    text: str,
    domain: str,
    loop_id: str,
    thread: Thread | None = None,
    diagram: str = "",
    after: str = "",
    png: bytes | None = None,
    reply_to: str | None = None,
    date: datetime | None = None,
) -> EmailMessage:
    """A reply to a player's mail (``Auto-Submitted: auto-replied``, ``Re:`` subject)."""
    return compose_notification(
        from_addr=from_addr, to_addr=to_addr, subject=reply_subject(subject), text=text, domain=domain,
        loop_id=loop_id, diagram=diagram, after=after, png=png, reply_to=reply_to, thread=thread,
        auto_submitted="auto-replied", date=date,
    )


def error_text(line: str, reason: object, legal: Sequence[str] = (), *, legal_hint: str = "") -> str:
    """The body of an error reply: the line quoted, why, and what would be legal."""
    parts = [
        str(_("I could not use this line of your mail:")),
        "> " + " ".join(str(line).split())[:500],
        str(_("Why: {reason}", reason=safe_reason(reason))),
    ]
    legal = [str(t) for t in legal]
    if legal:
        listed = legal[:MAX_LEGAL_LISTED]
        more = len(legal) - len(listed)
        block = str(_("What you could send instead:")) + "\n" + "\n".join("  " + t for t in listed)
        if more > 0:
            block += "\n  " + str(_("... and {more} more; reply 'legal' for the full list.", more=more))
        parts.append(block)
    if legal_hint:
        parts.append(legal_hint)
    parts.append(str(_("Nothing was changed.  Reply 'help' for the commands.")))
    return "\n\n".join(parts)


def compose_error_reply(
    *,
    from_addr: str,
    to_addr: str,
    subject: str,
    line: str,
    reason: object,
    domain: str,
    loop_id: str,
    legal: Sequence[str] = (),
    legal_hint: str = "",
    thread: Thread | None = None,
    reply_to: str | None = None,
    date: datetime | None = None,
) -> EmailMessage:
    """An error reply: quotes *line*, says why (*reason*, made safe) and lists *legal* turns."""
    return compose_reply(
        from_addr=from_addr, to_addr=to_addr, subject=subject,
        text=error_text(line, reason, legal, legal_hint=legal_hint), domain=domain, loop_id=loop_id,
        thread=thread, reply_to=reply_to, date=date,
    )


def address_of(header_value: str) -> str:
    """The bare address in a header value like ``Name <a@b>`` (lower-cased)."""
    return parseaddr(header_value or "")[1].lower()
