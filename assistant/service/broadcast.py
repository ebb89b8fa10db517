"""Fan-out of state changes to Server-Sent-Event subscribers, with resumption.

Every published message carries the service's ``version``. A recent window of
messages is kept so a tablet that reconnects with ``Last-Event-ID`` gets exactly
what it missed; if it missed more than the window (or the service restarted), it
is told to reset and gets the full current state instead.
"""

from __future__ import annotations

import threading
from collections import deque
from dataclasses import dataclass


@dataclass(frozen=True)
class Message:
    version: int
    event: str  # SSE event name
    data: str  # JSON text, serialised once for every subscriber

    def encode(self) -> str:
        return f"id: {self.version}\nevent: {self.event}\ndata: {self.data}\n\n"


class Broadcaster:
    def __init__(self, *, history: int = 512):
        self._messages: deque[Message] = deque(maxlen=history)
        self._changed = threading.Condition()
        self._closed = False

    @property
    def closed(self) -> bool:
        return self._closed

    def publish(self, message: Message) -> None:
        with self._changed:
            if self._messages and message.version <= self._messages[-1].version:
                raise ValueError(
                    f"versions must grow: got {message.version!r} after {self._messages[-1].version!r}"
                )
            self._messages.append(message)
            self._changed.notify_all()

    def latest(self) -> Message | None:
        with self._changed:
            return self._messages[-1] if self._messages else None

    def since(self, version: int) -> list[Message] | None:
        """Messages after ``version``; None when some of them are no longer kept."""
        with self._changed:
            return self._since(version)

    def wait(self, version: int, timeout: float) -> list[Message] | None:
        """Block until there is something after ``version`` (or timeout: returns [])."""
        with self._changed:
            self._changed.wait_for(lambda: self._closed or self._since(version) != [], timeout=timeout)
            return self._since(version)

    def close(self) -> None:
        with self._changed:
            self._closed = True
            self._changed.notify_all()

    def _since(self, version: int) -> list[Message] | None:
        if not self._messages:
            return []
        last = self._messages[-1].version
        if version == last:
            return []
        if version > last or version + 1 < self._messages[0].version:
            # From before a restart, or older than the window: the client must reset.
            return None
        return [m for m in self._messages if m.version > version]
