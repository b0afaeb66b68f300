"""Chance anyone can check: seeds, their commitments, and the stream of
random numbers every chance game draws from its seed.

A game that uses chance gets a *seed* when it starts: 32 random bytes,
written as 64 lowercase hex digits.  Its *commitment*, the SHA-256 of the
seed's bytes (hex), is shown from the start; the seed itself is revealed
once the game is over, and then anyone can recompute every shuffle and roll.

The stream is called ``pbem-sha256-v1`` and never changes (a new algorithm
gets a new name):

- block ``i`` (``i`` = 0, 1, 2, ...) is
  ``SHA-256(seed bytes || purpose label as UTF-8 || i as 8-byte big-endian)``;
- each block gives four 64-bit words, big-endian, in order;
- a whole number below ``n`` is the next word ``w`` with
  ``w < 2**64 - (2**64 % n)`` (larger words are skipped), taken ``w % n``;
- a shuffle of a list runs Fisher–Yates from the last index down: for
  ``i`` from ``len - 1`` down to 1, swap items ``i`` and ``below(i + 1)``.

Each purpose ("deal", "orders", ...) has its own stream, so one game's
draws never depend on the order in which other draws were made.

Chance during play (``engine.base.ChanceEvent``: a draw, a roll) is decided
by ``decide``: the ``k``-th chance event (counting from 0) that follows turn
``ply`` (0: the events before the first turn) with purpose ``P`` reads the
stream of purpose ``"P #ply.k"`` (for example ``"draw #7.0"``: the first
event after turn 7).  A draw of ``count`` items from the ``n`` left takes item
``below(n)`` of the remaining list (in the order the event lists them),
removes it, and repeats; a roll of ``count`` dice of ``sides`` faces is
``1 + below(sides)`` for each die in turn.
``notation/greenhouse/guide.md`` gives the same in a dozen lines of
Python that a player can run themselves.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from typing import Any, Iterator, Sequence, TypeVar

from engine.errors import OptionError, shown

#: the name of the stream below; records name it in their ``Chance`` tag
ALGORITHM = "pbem-sha256-v1"
#: bytes in a seed
SEED_BYTES = 32
_HEX_SEED = re.compile(r"^[0-9a-f]{64}$")
_WORD = 2**64

X = TypeVar("X")


class SeedError(OptionError):
    """A seed or commitment that is not 64 hex digits, or a seed that does
    not match its commitment."""


def new_seed() -> str:
    """A fresh seed from the operating system's random source, as hex."""
    return secrets.token_hex(SEED_BYTES)


def read_seed(text: str) -> bytes:
    """The seed's bytes; ``SeedError`` unless ``text`` is 64 hex digits."""
    cleaned = text.strip().lower() if isinstance(text, str) else ""
    if not _HEX_SEED.match(cleaned):
        raise SeedError(f"a seed is 64 hex digits (32 bytes), such as {'0' * 63}1; not {shown(text)}")
    return bytes.fromhex(cleaned)


def commitment(seed: str) -> str:
    """The SHA-256 of the seed's bytes, as 64 hex digits: shown while the
    seed is still secret."""
    return hashlib.sha256(read_seed(seed)).hexdigest()


def check_commitment(seed: str, expected: str) -> None:
    """``SeedError`` unless ``seed`` hashes to ``expected``."""
    actual = commitment(seed)
    if actual != str(expected).strip().lower():
        raise SeedError(f"the seed does not match its hash: SHA-256 of the seed is {actual}, "
                        f"but the hash shown was {shown(expected)}")


class Stream:
    """The ``pbem-sha256-v1`` numbers of one seed for one purpose."""

    def __init__(self, seed: str, purpose: str) -> None:
        self._seed = read_seed(seed)
        self._label = purpose.encode("utf-8")
        self._words = self._generate()

    def _generate(self) -> Iterator[int]:
        block = 0
        while True:
            digest = hashlib.sha256(self._seed + self._label + block.to_bytes(8, "big")).digest()
            for start in range(0, 32, 8):
                yield int.from_bytes(digest[start:start + 8], "big")
            block += 1

    def below(self, n: int) -> int:
        """A whole number from 0 to ``n - 1``, every one equally likely."""
        if n < 1:
            raise ValueError("below(n) needs n >= 1")
        limit = _WORD - _WORD % n
        while True:
            word = next(self._words)
            if word < limit:
                return word % n

    def shuffle(self, items: Sequence[X]) -> list[X]:
        """A shuffled copy of ``items`` (Fisher–Yates, last index down)."""
        result = list(items)
        for i in range(len(result) - 1, 0, -1):
            j = self.below(i + 1)
            result[i], result[j] = result[j], result[i]
        return result


def decide(seed: str, event: Any, ply: int, k: int) -> tuple[str, ...]:
    """The outcome of the ``k``-th chance event (an ``engine.base.ChanceEvent``)
    after turn ``ply`` from the game's seed, as the module doc says."""
    stream = Stream(seed, f"{event.purpose} #{ply}.{k}")
    if event.kind == "roll":
        return tuple(str(1 + stream.below(event.sides)) for _ in range(event.count))
    left = list(event.items)
    return tuple(left.pop(stream.below(len(left))) for _ in range(event.count))


def shuffled(seed: str, purpose: str, items: Sequence[X]) -> list[X]:
    """``items`` shuffled by the stream of ``seed`` for ``purpose``."""
    return Stream(seed, purpose).shuffle(items)
