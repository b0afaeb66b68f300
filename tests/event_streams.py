"""Reading a Server-Sent Events stream in tests: ``Reader`` opens a stream
with the Flask test client (not buffered) and reads its frames in a thread
of its own, so a test plays turns and then looks at what arrived."""

from __future__ import annotations

import json
import threading
import time


def parse(chunk: str) -> list[dict]:
    """The frames of ``chunk`` (whole frames): ``{"id", "event", "data"}``;
    comments (heartbeats) as ``{"comment": ...}``."""
    frames = []
    for block in chunk.split("\n\n"):
        if not block.strip():
            continue
        frame: dict = {}
        for line in block.split("\n"):
            field, _, value = line.partition(": ") if ": " in line else line.partition(":")
            if field == "":
                frame["comment"] = value
            elif field == "data":
                frame["data"] = json.loads(value)
            elif field == "id":
                frame["id"] = int(value)
            else:
                frame[field] = value
        frames.append(frame)
    return frames


class Reader:
    """An open stream of ``client`` at ``url``, read in the background."""

    def __init__(self, client, url: str, headers: dict | None = None, threads: bool = True):
        # each stream is read in a thread of its own, as a threaded server would answer it
        self.response = client.get(url, headers=headers or {}, buffered=False,
                                   environ_overrides={"wsgi.multithread": threads})
        self.status = self.response.status_code
        self.frames: list[dict] = []
        self.raw: list[str] = []
        self.lock = threading.Lock()
        self.done = False
        if self.status == 200:
            self.thread = threading.Thread(target=self._read, daemon=True)
            self.thread.start()

    def _read(self) -> None:
        try:
            for chunk in self.response.response:
                text = chunk.decode() if isinstance(chunk, bytes) else chunk
                with self.lock:
                    self.raw.append(text)
                    self.frames.extend(parse(text))
        except Exception:  # noqa: BLE001 - the stream was closed under the reader
            pass
        finally:
            self.done = True

    def events(self, kind: str = "game") -> list[dict]:
        with self.lock:
            return [f for f in self.frames if f.get("event") == kind]

    def wait(self, check, seconds: float = 5.0):
        """``check(self)``'s first true answer within ``seconds``, else None."""
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            found = check(self)
            if found:
                return found
            time.sleep(0.02)
        return None

    def wait_for_ply(self, ply: int, seconds: float = 5.0) -> dict | None:
        return self.wait(lambda r: next((e for e in r.events() if e["data"]["ply"] >= ply), None), seconds)

    def close(self) -> None:
        self.response.close()
