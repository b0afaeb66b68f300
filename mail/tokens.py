"""Signed per-player, per-game reply addresses: ``play+<token>@<domain>``.

A notification to a player carries a Reply-To address whose token names the
game and the player and is signed with the server's secret, so a reply proves
which game and which seat it is for (the server also checks that the From
address matches the player).

The token must survive mail clients and servers that lower-case the local part,
so it uses lower-case base32 without padding (``a-z`` and ``2-7``).  Its
content is two unsigned integers (game id, player id) packed as LEB128 varints,
followed by the first :data:`MAC_BYTES` bytes of an HMAC-SHA256 computed with a
key derived by :mod:`itsdangerous` from the secret and a fixed salt.  For small
ids the token is about 24 characters long.

The secret may be a list of secrets (newest first) for key rotation: the first
signs, every one verifies.
"""
from __future__ import annotations

import base64
import hmac
from collections.abc import Sequence
from email.utils import parseaddr

from itsdangerous import Signer

#: Bytes of HMAC kept in a token (80 bits).
MAC_BYTES = 10
#: The local-part prefix before the ``+``.
DEFAULT_PREFIX = "play"
_SALT = "pbem.mail.reply-address"

Secret = str | bytes | Sequence[str | bytes]


def _secrets(secret: Secret) -> list[bytes]:
    if isinstance(secret, (str, bytes)):
        items: list[str | bytes] = [secret]
    else:
        items = list(secret)
    if not items:
        raise ValueError("no secret given")
    return [s.encode() if isinstance(s, str) else bytes(s) for s in items]


def _key(secret: bytes) -> bytes:
    return Signer(secret, salt=_SALT, key_derivation="hmac", digest_method="sha256").derive_key()


def _mac(secret: bytes, payload: bytes) -> bytes:
    return hmac.new(_key(secret), payload, "sha256").digest()[:MAC_BYTES]


def _varint(n: int) -> bytes:
    out = bytearray()
    while True:
        byte = n & 0x7F
        n >>= 7
        if n:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def _read_varints(data: bytes, count: int) -> tuple[list[int], int] | None:
    values: list[int] = []
    pos = 0
    for _ in range(count):
        value = shift = 0
        while True:
            if pos >= len(data) or shift > 63:
                return None
            byte = data[pos]
            pos += 1
            value |= (byte & 0x7F) << shift
            shift += 7
            if not byte & 0x80:
                break
        values.append(value)
    return values, pos


def _b32(data: bytes) -> str:
    return base64.b32encode(data).decode("ascii").rstrip("=").lower()


def _unb32(text: str) -> bytes | None:
    text = text.strip().upper()
    if not text or any(c not in "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567" for c in text):
        return None
    try:
        return base64.b32decode(text + "=" * (-len(text) % 8))
    except (ValueError, TypeError):
        return None


def make_token(secret: Secret, game_id: int, player_id: int) -> str:
    """Return the signed token for ``(game_id, player_id)``; ids are ints >= 0."""
    for value in (game_id, player_id):
        if not isinstance(value, int) or isinstance(value, bool) or value < 0 or value >= 2**63:
            raise ValueError(f"ids must be integers in [0, 2**63): {value!r}")
    payload = _varint(game_id) + _varint(player_id)
    return _b32(payload + _mac(_secrets(secret)[0], payload))


def read_token(secret: Secret, token: str) -> tuple[int, int] | None:
    """Return ``(game_id, player_id)`` if *token* is genuine, else None."""
    data = _unb32(token) if isinstance(token, str) and len(token) <= 64 else None
    if data is None:
        return None
    parsed = _read_varints(data, 2)
    if parsed is None:
        return None
    (game_id, player_id), end = parsed
    payload, mac = data[:end], data[end:]
    if len(mac) != MAC_BYTES:
        return None
    for key in _secrets(secret):
        if hmac.compare_digest(mac, _mac(key, payload)):
            return game_id, player_id
    return None


def make_reply_address(
    secret: Secret, domain: str, game_id: int, player_id: int, *, prefix: str = DEFAULT_PREFIX
) -> str:
    """Return ``<prefix>+<token>@<domain>`` for this player in this game."""
    return f"{prefix}+{make_token(secret, game_id, player_id)}@{domain}"


def split_reply_address(address: str, *, prefix: str = DEFAULT_PREFIX) -> tuple[str, str] | None:
    """Return ``(token, domain)`` from ``prefix+token@domain`` (any case, display name allowed)."""
    if not isinstance(address, str):
        return None
    _, addr = parseaddr(address)
    addr = (addr or address).strip().strip("<>")
    local, at, domain = addr.rpartition("@")
    if not at:
        return None
    head, plus, token = local.partition("+")
    if not plus or head.lower() != prefix.lower() or not token:
        return None
    return token.lower(), domain.lower()


def read_reply_address(
    secret: Secret, address: str, *, prefix: str = DEFAULT_PREFIX, domain: str | None = None
) -> tuple[int, int] | None:
    """Return ``(game_id, player_id)`` for a genuine reply address, else None.

    The address may carry a display name and any letter case.  When *domain* is
    given, an address at another domain is refused.
    """
    parts = split_reply_address(address, prefix=prefix)
    if parts is None:
        return None
    token, found_domain = parts
    if domain is not None and found_domain != domain.lower():
        return None
    return read_token(secret, token)
