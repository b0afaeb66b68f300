"""The outbox drain loop: send what is due through a :class:`mail.send.Sender`, record each outcome.

The server writes outgoing mail into its outbox table in the same transaction
as the change that caused it; :func:`drain` then delivers what is due through a
:class:`Sender` and reports each outcome through callbacks, so the outbox can
live anywhere:

* ``fetch_due()`` -> the :class:`Outgoing` items due now, oldest first (it
  may be a generator that reserves each item just before yielding it);
* ``before_body(id)`` (optional) -> True to go on: called just before the
  message's body goes out (after the server said "354"), so the outbox can
  check it still holds the item and note that it is in flight; False
  withdraws the message (nothing sent, nothing recorded);
* ``mark_sent(id)`` -- delivered: never send it again;
* ``mark_failed(id, failure)`` -- not delivered (:class:`Failure`: the error,
  when to try again or ``None`` when it gave up for good, and what kind of
  failure it was).

Failures come in kinds (RFC 5321 §4.5.4):

* ``outage``: the server could not be reached, or said it is not available
  (4xx on connecting, 421), or refused our login.  Nothing about the message:
  it does not use up one of its ``max_attempts``; it is retried with backoff
  until it has been failing for ``lifetime`` (five days by default, an MTA's
  queue lifetime), and the round stops so the rest wait too;
* ``refused``: a 4xx answer to the message; counts as an attempt;
* ``uncertain``: the whole message went out but no answer to its end came
  within ``SmtpConfig.data_timeout`` (ten minutes by default, RFC 5321
  §4.5.3.2.6).  The server may well have accepted it, so it is not sent again
  at once (§6.1) but after ``Backoff.uncertain_delay`` (hours), with the same
  Message-ID; counts as an attempt;
* ``permanent``: a 5xx refusal: given up at once.

While the SMTP server is down nothing is lost (items stay in the outbox with a
later ``retry_at``); once it is back, the next drain delivers every item, and
each one once (an item is marked sent right after the server accepted it).
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser
from typing import TYPE_CHECKING, Any, cast

from mail.errors import SendError, SendWithdrawn

if TYPE_CHECKING:
    from mail.send import CarefulSender, Sender


@dataclass
class Outgoing:
    """One outbox item: its id (opaque to us), the message, how often it
    failed already (``attempts``: refusals and uncertain deliveries, which
    count towards ``max_attempts``; ``outages``: tries that found the server
    unavailable, which do not), and since when it has been failing."""

    id: Any
    message: EmailMessage | bytes
    attempts: int = 0
    outages: int = 0
    failing_since: datetime | None = None


@dataclass
class Backoff:
    """Retry delays: ``base * factor**failures`` seconds, capped at ``cap``.

    Give up after ``max_attempts`` refusals, or once an item has been failing
    for ``lifetime`` seconds (outages included); an uncertain delivery is
    retried after ``uncertain_delay`` seconds.
    """

    base: float = 60.0
    factor: float = 2.0
    cap: float = 6 * 3600.0
    max_attempts: int = 12
    lifetime: float = 5 * 24 * 3600.0
    uncertain_delay: float = 2 * 3600.0

    def delay(self, attempts: int) -> float:
        return min(self.cap, self.base * self.factor ** max(0, attempts))


#: failure kinds (see the module docstring)
OUTAGE, REFUSED, UNCERTAIN, PERMANENT = "outage", "refused", "uncertain", "permanent"


@dataclass
class Failure:
    """How one item failed: the error, when to try again (``None``: given up
    for good), and the kind; ``counts`` says whether it uses up an attempt."""

    error: str
    retry_at: datetime | None
    kind: str

    @property
    def counts(self) -> bool:
        return self.kind != OUTAGE

    @property
    def gave_up(self) -> bool:
        return self.retry_at is None


def failure_of(item: Outgoing, exc: SendError, backoff: Backoff, now: datetime) -> Failure:
    """What a :class:`SendError` means for ``item``: its kind, and when (if
    ever) to try again."""
    if exc.permanent:
        return Failure(str(exc), None, PERMANENT)
    kind = OUTAGE if exc.unreachable else UNCERTAIN if exc.uncertain else REFUSED
    since = item.failing_since or now
    attempts = item.attempts + (kind != OUTAGE)
    if attempts >= backoff.max_attempts:
        return Failure(f"{exc} (given up after {attempts} failed attempts)", None, kind)
    if (now - since).total_seconds() >= backoff.lifetime:
        return Failure(f"{exc} (given up: failing since {since:%Y-%m-%d %H:%M} UTC)", None, kind)
    delay = backoff.uncertain_delay if kind == UNCERTAIN else backoff.delay(item.attempts + item.outages)
    return Failure(str(exc), now + timedelta(seconds=delay), kind)


@dataclass
class DrainResult:
    """What one :func:`drain` call did (ids per outcome)."""

    sent: list[Any] = field(default_factory=list)
    retry: list[Any] = field(default_factory=list)
    gave_up: list[Any] = field(default_factory=list)
    withdrawn: list[Any] = field(default_factory=list)
    stopped: str | None = None


def _as_message(item: EmailMessage | bytes) -> EmailMessage:
    if isinstance(item, EmailMessage):
        return item
    return BytesParser(policy=policy.default).parsebytes(bytes(item))


def _check(before_body: Callable[[Any], bool] | None, item_id: Any) -> Callable[[], None]:
    def check() -> None:
        if before_body is None:
            return
        try:
            go_on = before_body(item_id)
        except Exception as exc:  # noqa: BLE001 - cannot record it: do not send it
            raise SendWithdrawn(f"could not record the send: {exc.__class__.__name__}: {exc}", stop=True) from exc
        if not go_on:
            raise SendWithdrawn("another sender has it")

    return check


def drain(
    fetch_due: Callable[[], Iterable[Outgoing]],
    mark_sent: Callable[[Any], None],
    mark_failed: Callable[[Any, Failure], None],
    sender: Sender,
    *,
    backoff: Backoff | None = None,
    now: Callable[[], datetime] = lambda: datetime.now(timezone.utc),
    limit: int | None = 500,
    before_body: Callable[[Any], bool] | None = None,
) -> DrainResult:
    """Send the due outbox items once each and record the outcomes.

    Items are taken from ``fetch_due()`` one at a time, each sent before the
    next is asked for.  An outage stops the round after marking that one
    item, so the rest wait for the next round instead of each timing out.  A
    permanent refusal, the ``max_attempts``-th refusal or a ``lifetime`` of
    failing gives up (``retry_at=None``).  The sender is closed at the end.
    """
    backoff = backoff or Backoff()
    result = DrainResult()
    try:
        for count, item in enumerate(fetch_due()):
            if limit is not None and count >= limit:
                break
            check = _check(before_body, item.id)
            try:
                message = _as_message(item.message)
                if getattr(sender, "checks_before_body", False):
                    cast("CarefulSender", sender).send(message, before_body=check)
                else:
                    check()
                    sender.send(message)
            except SendWithdrawn as exc:
                result.withdrawn.append(item.id)
                if exc.stop:
                    result.stopped = str(exc)
                    break
                continue
            except SendError as exc:
                failure = failure_of(item, exc, backoff, now())
                mark_failed(item.id, failure)
                (result.gave_up if failure.gave_up else result.retry).append(item.id)
                if exc.unreachable:
                    result.stopped = str(exc)
                    break
                continue
            except Exception as exc:  # noqa: BLE001 - a broken message must not block the outbox
                mark_failed(item.id, Failure(f"cannot send: {exc.__class__.__name__}: {exc}", None, PERMANENT))
                result.gave_up.append(item.id)
                continue
            mark_sent(item.id)
            result.sent.append(item.id)
    finally:
        sender.close()
    return result
