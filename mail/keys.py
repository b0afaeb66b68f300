"""The deduplication key of a raw message (Message-ID, or a hash of the bytes)."""
from __future__ import annotations

import hashlib
import re

_MESSAGE_ID = re.compile(rb"^message-id:[ \t]*(.*(?:\r?\n[ \t].*)*)", re.IGNORECASE | re.MULTILINE)


def message_key(raw: bytes) -> str:
    """Return the deduplication key of a raw message.

    The Message-ID (angle brackets kept, surrounding space removed) when the
    header holds one; otherwise ``sha256:<hex>`` of the raw bytes with line
    endings normalised, so the same message delivered twice gets one key.
    """
    raw = bytes(raw)
    end = re.search(rb"\r?\n\r?\n", raw)
    head = raw[: end.start()] if end else raw
    match = _MESSAGE_ID.search(head[:256 * 1024])
    if match:
        found = re.search(rb"<[^<>\s]{1,900}>", match.group(1))
        if found:
            return found.group(0).decode("utf-8", "replace")
    normalised = raw.replace(b"\r\n", b"\n")
    return "sha256:" + hashlib.sha256(normalised).hexdigest()
