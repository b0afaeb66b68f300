"""Read a raw incoming message into what the robot needs.

:func:`parse_message` takes the raw bytes as stored by the listener and returns
an :class:`InboundMessage`: the sender, every recipient address (To, Cc,
Delivered-To, X-Original-To and the envelope), the reply tokens found among
them, the threading headers, the command lines (see :mod:`mail.body` for how
quotes and signatures are removed), the lines of any ``text/plain`` attachment
(a turn file), and, if the message must not be answered, why
(:func:`should_not_reply`).

It never raises anything but :class:`mail.errors.ParseError`, whatever the bytes.
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from email import message_from_bytes, policy
from email.header import decode_header, make_header
from email.message import Message
from email.utils import getaddresses, parseaddr

from mail.body import decode_part, html_to_text, reply_text, unflow
from mail.errors import ParseError
from mail.keys import message_key
from mail.tokens import DEFAULT_PREFIX, split_reply_address

#: At most this many command lines are read from a body (and from a turn file).
MAX_COMMAND_LINES = 20
#: Attachments larger than this are not read as turn files.
MAX_TURN_FILE = 64 * 1024
#: Senders that are never people.
_ROBOT_LOCALPARTS = re.compile(
    r"^(mailer-daemon|postmaster|no-?reply|do-?not-?reply|bounces?|listserv|majordomo|mailman)([+\-.].*)?$",
    re.IGNORECASE,
)
_AUTO_SUBJECT = re.compile(
    r"^\s*(auto(matic)?[ -]?(reply|response)|auto:|out of (the )?office|autoreply|away from (my|the) (office|desk)"
    r"|undeliver(ed|able)|delivery status notification|returned mail|mail delivery (failed|failure|system))",
    re.IGNORECASE,
)


@dataclass
class InboundMessage:
    """What :func:`parse_message` found in one message."""

    key: str
    message_id: str | None
    sender: str | None
    sender_name: str
    subject: str
    recipients: list[str] = field(default_factory=list)
    tokens: list[str] = field(default_factory=list)
    in_reply_to: str | None = None
    references: list[str] = field(default_factory=list)
    text: str = ""
    lines: list[str] = field(default_factory=list)
    attachment_lines: list[str] = field(default_factory=list)
    ignore_reason: str | None = None

    @property
    def token(self) -> str | None:
        """The first reply token among the recipients, if any."""
        return self.tokens[0] if self.tokens else None


def _header(msg: Message, name: str) -> str:
    """Return a header as text, decoding RFC 2047 words; '' if absent or broken."""
    try:
        values = msg.get_all(name) or []
    except Exception:  # noqa: BLE001 - any failure here is handled the same way
        return ""
    if not values:
        return ""
    value = values[0]
    try:
        text = str(make_header(decode_header(str(value))))
    except Exception:  # noqa: BLE001 - broken encoded words: keep them raw
        text = str(value)
    return " ".join(text.split())


def _headers(msg: Message, name: str) -> list[str]:
    try:
        return [" ".join(str(v).split()) for v in (msg.get_all(name) or [])]
    except Exception:  # noqa: BLE001 - any failure here is handled the same way
        return []


def _addresses(values: Iterable[str]) -> list[str]:
    out: list[str] = []
    try:
        pairs = getaddresses([v for v in values if v])
    except Exception:  # noqa: BLE001 - any failure here is handled the same way
        pairs = []
    for _, addr in pairs:
        addr = addr.strip().strip("<>").lower()
        if "@" in addr and addr not in out:
            out.append(addr)
    return out


def _msg_ids(value: str) -> list[str]:
    return re.findall(r"<[^<>\s]+>", value or "")


def _is_attachment(part: Message) -> bool:
    try:
        disposition = (part.get_content_disposition() or "").lower()
        filename = part.get_filename()
    except Exception:  # noqa: BLE001 - any failure here is handled the same way
        return False
    return disposition == "attachment" or (disposition == "inline" and bool(filename))


def _walk(msg: Message) -> list[Message]:
    """Return the leaf parts, not descending into attached messages."""
    leaves: list[Message] = []
    stack = [msg]
    while stack and len(leaves) < 200:
        part = stack.pop(0)
        if part.is_multipart():
            payload = part.get_payload()
            if isinstance(payload, list) and part.get_content_maintype() == "multipart":
                stack = list(payload) + stack
            continue
        leaves.append(part)
    return leaves


def _body_texts(msg: Message) -> tuple[str, list[str]]:
    """Return (body text, [turn file texts])."""
    plain: str | None = None
    html: str | None = None
    turn_files: list[str] = []
    for part in _walk(msg):
        ctype = part.get_content_type()
        if _is_attachment(part):
            if ctype == "text/plain":
                text = decode_part(part)
                if len(text) <= MAX_TURN_FILE:
                    turn_files.append(text)
            continue
        if ctype == "text/plain" and plain is None:
            plain = decode_part(part)
            if str(part.get_param("format") or "").lower() == "flowed":
                plain = unflow(plain, delsp=str(part.get_param("delsp") or "").lower() == "yes")
        elif ctype == "text/html" and html is None:
            html = decode_part(part)
    if plain is not None and plain.strip():
        return plain, turn_files
    if html is not None:
        return html_to_text(html), turn_files
    return plain or "", turn_files


def _lines(text: str, limit: int = MAX_COMMAND_LINES) -> list[str]:
    out: list[str] = []
    for line in text.split("\n"):
        line = " ".join(line.split())
        if line:
            out.append(line)
            if len(out) >= limit:
                break
    return out


def _turn_file_lines(text: str) -> list[str]:
    lines = []
    for line in text.replace("\r\n", "\n").split("\n"):
        line = " ".join(line.split())
        if line and not line.startswith(("#!", "//")):
            lines.append(line)
            if len(lines) >= MAX_COMMAND_LINES:
                break
    return lines


def load(raw: bytes) -> Message:
    """Parse raw bytes into an ``email.message.EmailMessage`` (never raises on content)."""
    if not isinstance(raw, (bytes, bytearray, memoryview)):
        raise ParseError(f"expected bytes, got {type(raw).__name__}")
    try:
        return message_from_bytes(bytes(raw), policy=policy.compat32)
    except Exception as exc:  # noqa: BLE001 - any failure here is handled the same way
        raise ParseError(f"unreadable message: {exc.__class__.__name__}") from exc


def is_own_address(
    address: str, our_addresses: Sequence[str] = (), our_domain: str | None = None, prefix: str = DEFAULT_PREFIX
) -> bool:
    """True if *address* is one of the server's: one of *our_addresses* or a
    ``+detail`` of one (``pbem+bounces@...``), or ``<prefix>`` or
    ``<prefix>+<anything>`` at *our_domain* (a reply address, genuine or not).
    Any letter case; a display name is allowed."""
    _, bare = parseaddr(address or "")
    bare = (bare or address or "").strip().strip("<>").lower()
    local, at, domain = bare.rpartition("@")
    if not at or not local:
        return False
    base = local.partition("+")[0]
    ours = {a.strip().lower() for a in our_addresses if a}
    if bare in ours or f"{base}@{domain}" in ours:
        return True
    return bool(our_domain and domain == our_domain.strip().lower() and base == prefix.lower())


def should_not_reply(
    msg: Message,
    *,
    loop_id: str | None = None,
    our_addresses: Sequence[str] = (),
    envelope_from: str | None = None,
    our_domain: str | None = None,
    prefix: str = DEFAULT_PREFIX,
) -> str | None:
    """Return why *msg* must not be answered automatically, or None if we may reply.

    *loop_id* is the value we put in our ``X-Loop`` header; *our_addresses*
    are the addresses we send from; *envelope_from* is the SMTP ``MAIL FROM``
    when known (``""`` is the null sender of bounces).  Without an envelope
    sender, the ``Return-Path`` header is used when present.  Mail whose
    From, Sender, Reply-To, Return-Path or envelope sender is one of the
    server's own addresses (:func:`is_own_address`: *our_addresses*, and the
    ``<prefix>[+...]`` addresses at *our_domain*) is never answered.
    """
    try:
        return _should_not_reply(msg, loop_id, our_addresses, envelope_from, our_domain, prefix)
    except Exception:  # noqa: BLE001 - when in doubt, stay silent
        return "unreadable headers"


def _own_sender(
    msg: Message, our_addresses: Sequence[str], envelope_from: str | None, our_domain: str | None, prefix: str
) -> str | None:
    """The first of the message's sender addresses that is the server's own, as "Header address"."""
    found = [(name, address) for name in ("From", "Sender", "Reply-To", "Return-Path")
             for address in _addresses(_headers(msg, name))]
    if envelope_from:
        found.append(("envelope sender", envelope_from.strip().strip("<>").lower()))
    for name, address in found:
        if is_own_address(address, our_addresses, our_domain, prefix):
            return f"{name} {address}"
    return None


def _should_not_reply(
    msg: Message, loop_id: str | None, our_addresses: Sequence[str], envelope_from: str | None,
    our_domain: str | None, prefix: str,
) -> str | None:
    auto = _header(msg, "Auto-Submitted").lower()
    if auto and auto.split(";")[0].strip() != "no":
        return f"auto-submitted: {auto.split(';')[0].strip()}"
    for name in ("X-Autoreply", "X-Autorespond", "X-Auto-Reply"):
        if _header(msg, name):
            return f"auto-reply header {name}"
    precedence = _header(msg, "Precedence").lower()
    if precedence in {"bulk", "junk", "list", "auto_reply"}:
        return f"precedence: {precedence}"
    for name in msg.keys():
        if str(name).lower().startswith("list-"):
            return f"mailing list ({name})"
    if msg.get_content_type() == "multipart/report" or msg.get_content_type() == "message/delivery-status":
        return "bounce (delivery report)"
    if envelope_from is not None:
        if envelope_from.strip().strip("<>") == "":
            return "null envelope sender (bounce)"
    else:
        return_path = _headers(msg, "Return-Path")
        if return_path and return_path[0].strip().strip("<>").strip() == "":
            return "empty Return-Path (bounce)"
    if loop_id:
        loops = [v.strip().lower() for v in _headers(msg, "X-Loop")]
        if loop_id.lower() in loops:
            return "X-Loop names us"
    own = _own_sender(msg, our_addresses, envelope_from, our_domain, prefix)
    if own:
        return f"from the server's own address ({own})"
    _, sender = parseaddr(_header(msg, "From"))
    sender = sender.lower()
    if not sender or "@" not in sender:
        return "no sender address"
    if _ROBOT_LOCALPARTS.match(sender.split("@")[0]):
        return f"robot sender {sender.split('@')[0]}"
    if _AUTO_SUBJECT.match(_header(msg, "Subject")):
        return "auto-reply subject"
    return None


def parse_message(
    raw: bytes,
    *,
    envelope_from: str | None = None,
    envelope_to: Sequence[str] = (),
    loop_id: str | None = None,
    our_addresses: Sequence[str] = (),
    prefix: str = DEFAULT_PREFIX,
    our_domain: str | None = None,
) -> InboundMessage:
    """Parse *raw* into an :class:`InboundMessage`.

    *our_domain* is the domain of the server's ``<prefix>+<token>@`` reply
    addresses: mail from any of them is never answered (see :func:`should_not_reply`).

    Raises :class:`ParseError` only when *raw* is not bytes; any byte string
    gives a result (possibly with no sender and no lines).
    """
    msg = load(raw)
    try:
        return _parse(bytes(raw), msg, envelope_from, envelope_to, loop_id, our_addresses, prefix, our_domain)
    except ParseError:
        raise
    except Exception as exc:  # noqa: BLE001 - the contract: only our own error type
        raise ParseError(f"unreadable message: {exc.__class__.__name__}: {exc}") from exc


def _parse(
    raw: bytes,
    msg: Message,
    envelope_from: str | None,
    envelope_to: Sequence[str],
    loop_id: str | None,
    our_addresses: Sequence[str],
    prefix: str,
    our_domain: str | None = None,
) -> InboundMessage:
    name, from_addr = parseaddr(_header(msg, "From"))
    sender: str | None = from_addr.strip().lower() or None
    if sender is not None and "@" not in sender:
        sender = None
    recipients = _addresses(list(envelope_to or ()))
    for header in ("Delivered-To", "X-Original-To", "To", "Cc", "Envelope-To"):
        for address in _addresses(_headers(msg, header)):
            if address not in recipients:
                recipients.append(address)
    tokens: list[str] = []
    for address in recipients:
        parts = split_reply_address(address, prefix=prefix)
        if parts and parts[0] not in tokens:
            tokens.append(parts[0])
    message_ids = _msg_ids(_header(msg, "Message-ID"))
    in_reply_to = _msg_ids(_header(msg, "In-Reply-To"))
    body, turn_files = _body_texts(msg)
    text = reply_text(body)
    attachment_lines: list[str] = []
    for turn_file in turn_files:
        attachment_lines.extend(_turn_file_lines(turn_file))
    return InboundMessage(
        key=message_key(raw),
        message_id=message_ids[0] if message_ids else None,
        sender=sender,
        sender_name=name,
        subject=_header(msg, "Subject"),
        recipients=recipients,
        tokens=tokens,
        in_reply_to=in_reply_to[0] if in_reply_to else None,
        references=_msg_ids(" ".join(_headers(msg, "References"))),
        text=text,
        lines=_lines(text),
        attachment_lines=attachment_lines[:MAX_COMMAND_LINES],
        ignore_reason=should_not_reply(
            msg, loop_id=loop_id, our_addresses=our_addresses, envelope_from=envelope_from,
            our_domain=our_domain, prefix=prefix,
        ),
    )
