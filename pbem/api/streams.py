"""Server-Sent Events: ``GET /api/v1/games/<id>/events`` (one game) and
``GET /api/v1/me/events`` (every game of the caller), with a bearer token
or the signed-in session (``docs/api.md``, "Event streams").

A stream holds a server thread for as long as it is open, so a process
answers at most ``EVENT_STREAMS`` of them at once and refuses more with a
503 and ``Retry-After``: the other requests always find threads.  A stream
holds no database connection: the process's one dispatcher
(``pbem.services.events``) reads the changes and hands each stream its
frames; a stream only waits on its queue, and says ``: heartbeat`` every
``EVENT_HEARTBEAT_SECONDS`` so proxies keep it open and a closed client is
noticed."""

from __future__ import annotations

import queue
from typing import Any, Iterator

from flask import Response, current_app, request
from flask.typing import ResponseReturnValue

from pbem.api.auth import api_player
from pbem.api.routes import bp
from pbem.db import engine, get_session
from pbem.i18n import gettext
from pbem.json_errors import error_response
from pbem.services import events
from pbem.services.errors import BadInput
from pbem.services.stored import game_for_player

#: what every stream answer carries: no caching, no buffering by a proxy (nginx: X-Accel-Buffering)
HEADERS = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no"}
#: milliseconds a browser waits before reconnecting (the ``retry`` field)
RETRY_MS = 2000


@bp.get("/games/<game_id>/events")
def game_events(game_id: str) -> ResponseReturnValue:
    """The changes of one game of yours, as you may see them."""
    player = api_player()
    game, seat = game_for_player(get_session(), game_id, player)
    assert player.id is not None and game.id is not None
    return _stream(player.id, game.id, seat.number)


@bp.get("/me/events")
def my_events() -> ResponseReturnValue:
    """The changes of every game you have a seat in (new games too)."""
    player = api_player()
    assert player.id is not None
    return _stream(player.id, None, None)


def _last_event_id() -> int | None:
    """``Last-Event-ID`` (the header a browser sends when it reconnects), or
    ``?last_event_id=`` (for a first connection that resumes)."""
    text = request.headers.get("Last-Event-ID", "").strip() or request.args.get("last_event_id", "").strip()
    if not text:
        return None
    if not text.isascii() or not text.isdigit() or len(text) > 18:
        raise BadInput(gettext("Last-Event-ID is the id of an event this stream sent (a whole number), not "
                               "%(value)s", value=repr(text[:60])))
    return int(text)


def _stream(player_id: int, game_id: int | None, seat: int | None) -> ResponseReturnValue:
    after = _last_event_id()
    # the caller is known: give the request's database connection back now, not when the request ends (a
    # stream's first frames read on a session of their own); hundreds of streams opening at once must not
    # hold the pool while the process's dispatcher starts
    get_session().close()
    config = current_app.config
    bound = engine()
    dispatcher, stream = events.open_stream(bound, player_id, game_id, seat, int(config["EVENT_STREAMS"]),
                                            float(config["EVENT_POLL_SECONDS"]), float(config["EVENT_KEEP_HOURS"]))
    if stream is None or not request.environ.get("wsgi.multithread"):
        if stream is not None:  # a server of one thread a process (gunicorn's sync worker): a stream would hold it
            dispatcher.close(stream)
            answer = error_response(gettext("this server cannot hold event streams: it answers one request at a "
                                            "time in each process (run gunicorn with --worker-class gthread)"), 503)
            answer.headers["Retry-After"] = "60"
            return answer
        answer = error_response(gettext("this server has as many event streams open as it can hold (%(count)s); "
                                        "try again in a few seconds", count=config["EVENT_STREAMS"]), 503)
        answer.headers["Retry-After"] = "5"
        return answer
    frames = _Frames(bound, dispatcher, stream, after, float(config["EVENT_HEARTBEAT_SECONDS"]))
    return Response(frames, mimetype="text/event-stream", headers=HEADERS, direct_passthrough=True)


class _Frames:
    """The stream's body: what it missed (``Last-Event-ID``) or the game as
    it is, then each frame from its queue, a heartbeat when quiet.  Its
    ``close`` (called by the server when the client went away, even before
    the first frame) gives the stream's place back."""

    def __init__(self, bound: Any, dispatcher: events.Dispatcher, stream: events.Stream, after: int | None,
                 heartbeat: float):
        self.bound, self.dispatcher, self.stream, self.after, self.heartbeat = (bound, dispatcher, stream, after,
                                                                                heartbeat)

    def __iter__(self) -> Iterator[bytes]:
        try:
            yield f"retry: {RETRY_MS}\n\n".encode()
            if self.after is None:
                first = events.first(self.bound, self.stream)
            else:
                first = list(events.replay(self.bound, self.stream, self.after))
            replayed = {event_id for event_id, _ in first}  # a late change may come both ways
            for _, text in first:
                yield text.encode()
            while True:
                try:
                    item = self.stream.queue.get(timeout=self.heartbeat)
                except queue.Empty:
                    yield b": heartbeat\n\n"
                    continue
                if item is None:
                    return
                event_id, text = item
                if text and event_id not in replayed:
                    yield text.encode()
        finally:
            self.close()

    def close(self) -> None:
        self.dispatcher.close(self.stream)
        self.stream.queue.put(None)  # a body waiting on its queue ends
