"""Fixtures for the GPIO tests: mock pins and a scripted clock.

gpiozero style: the fixtures save and restore the global ``Device.pin_factory``.
"""

from __future__ import annotations

import heapq
import itertools
import threading
from typing import Callable

import gpiozero.pins.mock
import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory, MockPWMPin


@pytest.fixture
def mock_factory():
    saved = Device.pin_factory
    factory = MockFactory(pin_class=MockPWMPin)
    Device.pin_factory = factory
    try:
        yield factory
    finally:
        factory.reset()
        factory.close()
        Device.pin_factory = saved


class ScriptedTime:
    """A fake monotonic clock with a scheduler.

    The countdown's ``sleeper`` and the button's ``call_later`` both run on it: when the
    countdown thread sleeps, time jumps to its deadline, running any scripted action
    (a button edge, a timer) that falls due on the way, at its exact time.
    ``late_by(k)`` makes every sleep overshoot, like a busy machine.
    """

    def __init__(self, start: float = 1000.0):
        self.now = start
        self._queue: list[tuple[float, int, list]] = []
        self._order = itertools.count()
        self._lock = threading.RLock()
        self.lateness: Callable[[int], float] = lambda n: 0.0
        self._sleeps = 0

    def clock(self) -> float:
        return self.now

    def at(self, when: float, action: Callable[[], object]) -> list:
        entry = [action]
        heapq.heappush(self._queue, (when, next(self._order), entry))
        return entry

    def call_later(self, delay: float, action: Callable[[], None]):
        entry = self.at(self.now + delay, action)

        class Handle:
            def cancel(self_inner) -> None:
                entry[0] = None

        return Handle()

    def run_until(self, when: float, event: threading.Event | None = None) -> bool:
        """Advance to ``when`` running due actions; True if ``event`` got set on the way."""
        with self._lock:
            while self._queue and self._queue[0][0] <= when:
                due, _, entry = heapq.heappop(self._queue)
                self.now = max(self.now, due)
                if entry[0] is not None:
                    entry[0]()
                if event is not None and event.is_set():
                    return True
            self.now = max(self.now, when)
            return event is not None and event.is_set()

    def advance(self, seconds: float) -> None:
        self.run_until(self.now + seconds)

    def sleeper(self, event: threading.Event, timeout: float) -> bool:
        if event.is_set():
            return True
        self._sleeps += 1
        return self.run_until(self.now + timeout + self.lateness(self._sleeps), event)


@pytest.fixture
def scripted_time(monkeypatch):
    """Fake time; gpiozero's mock pins stamp their state changes with it too."""
    fake = ScriptedTime()
    monkeypatch.setattr(gpiozero.pins.mock, "monotonic", fake.clock)
    return fake
