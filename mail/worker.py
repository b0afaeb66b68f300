"""Processing stored messages, with a shunt for the ones that fail (Mailman's model).

The listener only stores; a worker later takes each pending message and hands
it to the caller's ``handle`` function (parse, check the token, play the turn,
queue the replies -- in the caller's transaction).  :func:`process_pending`
runs one round over callbacks, so the inbox can live anywhere:

* ``fetch_pending()`` -> the :class:`Pending` items not yet processed, oldest first;
* ``handle(item)`` -- does the work; raising means it failed;
* ``mark_done(id)`` -- processed: never again;
* ``mark_shunted(id, reason, detail)`` -- failed: kept aside with a one-line
  ``reason`` and the traceback in ``detail``, for an administrator to inspect
  and retry; never mailed to anyone.

A worker killed between storing and processing loses nothing: the message is
still pending and the next round handles it.  ``handle`` and ``mark_done``
should commit together (the caller's transaction) so a message is processed
exactly once.
"""
from __future__ import annotations

import logging
import traceback
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

log = logging.getLogger(__name__)


@dataclass
class Pending:
    """One stored message waiting for a worker."""

    id: Any
    raw: bytes
    envelope_from: str | None = None
    envelope_to: list[str] = field(default_factory=list)


@dataclass
class ProcessResult:
    """The ids one round processed and shunted."""

    done: list[Any] = field(default_factory=list)
    shunted: list[Any] = field(default_factory=list)


def process_pending(
    fetch_pending: Callable[[], Iterable[Pending]],
    handle: Callable[[Pending], None],
    mark_done: Callable[[Any], None],
    mark_shunted: Callable[[Any, str, str], None],
    *,
    limit: int = 500,
) -> ProcessResult:
    """Handle each pending message once; shunt the ones whose ``handle`` raises."""
    result = ProcessResult()
    for count, item in enumerate(fetch_pending()):
        if count >= limit:
            break
        try:
            handle(item)
        except Exception as exc:  # noqa: BLE001 - every failure goes to the shunt
            reason = f"{exc.__class__.__name__}: {exc}"[:500]
            log.warning("message %s shunted: %s", item.id, reason)
            mark_shunted(item.id, reason, traceback.format_exc())
            result.shunted.append(item.id)
            continue
        mark_done(item.id)
        result.done.append(item.id)
    return result
