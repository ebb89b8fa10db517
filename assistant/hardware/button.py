"""The referee button: software debounce, short press versus long press.

Debounce is done here, not with gpiozero's ``bounce_time``: mock pins ignore it and
real buttons chatter. The first edge after a quiet spell is taken at once (a press
starts the countdown without delay); edges inside the ``bounce_seconds`` lock-out
after it are chatter, and when the lock-out ends the pin is read again so a level
that settled during it is not missed.

A press is reported when it is over: released before ``long_press_seconds`` it is a
short press (``when_pressed``); held that long it is a long press
(``when_long_pressed``), reported as soon as the hold reaches that length. A press
shorter than the lock-out is a glitch and reports nothing.
"""

from __future__ import annotations

import logging
import threading
import time
from typing import Callable, Protocol

from gpiozero import Button
from gpiozero.pins import Factory

log = logging.getLogger(__name__)

Callback = Callable[[], object]


class TimerHandle(Protocol):
    def cancel(self) -> None: ...


CallLater = Callable[[float, Callable[[], None]], TimerHandle]


def call_later_in_thread(delay: float, fn: Callable[[], None]) -> TimerHandle:
    """Run ``fn`` after ``delay`` seconds on a daemon timer thread."""
    timer = threading.Timer(max(0.0, delay), fn)
    timer.daemon = True
    timer.start()
    return timer


class RefereeButton:
    """A push button to ground (internal pull-up) with debounce and long-press detection.

    ``clock`` (monotonic seconds) and ``call_later(delay, fn)`` are injectable so tests
    can drive chatter and holds on mock pins deterministically.
    """

    def __init__(
        self,
        pin: int,
        *,
        bounce_seconds: float = 0.05,
        long_press_seconds: float = 2.0,
        pull_up: bool = True,
        pin_factory: Factory | None = None,
        clock: Callable[[], float] = time.monotonic,
        call_later: CallLater = call_later_in_thread,
    ):
        if bounce_seconds < 0:
            raise ValueError(f"bounce_seconds must be >= 0, not {bounce_seconds!r}")
        if long_press_seconds <= bounce_seconds:
            raise ValueError(
                f"long_press_seconds must be longer than bounce_seconds ({bounce_seconds!r}), "
                f"not {long_press_seconds!r}"
            )
        self.pin = pin
        self.bounce_seconds = bounce_seconds
        self.long_press_seconds = long_press_seconds
        self.when_pressed: Callback | None = None
        self.when_long_pressed: Callback | None = None
        self._clock = clock
        self._call_later = call_later
        self._lock = threading.RLock()
        self._pressed = False  # the debounced level
        self._changed_at = float("-inf")  # when the debounced level last changed
        self._pressed_at = 0.0
        self._long_reported = False
        self._last_raw_edge_at = float("-inf")
        self._settle_timer: TimerHandle | None = None
        self._hold_timer: TimerHandle | None = None
        self._button = Button(pin, pull_up=pull_up, bounce_time=None, pin_factory=pin_factory)
        self._button.when_pressed = self._on_raw_edge
        self._button.when_released = self._on_raw_edge

    @property
    def is_pressed(self) -> bool:
        """The debounced state."""
        return self._pressed

    @property
    def closed(self) -> bool:
        return self._button.closed

    def _on_raw_edge(self) -> None:
        now = self._clock()
        with self._lock:
            self._last_raw_edge_at = now
            quiet_at = self._changed_at + self.bounce_seconds
            if now < quiet_at:
                # Chatter: look again when the lock-out ends.
                if self._settle_timer is None:
                    self._settle_timer = self._call_later(quiet_at - now, self._settle)
                return
            fire = self._accept(self._raw_pressed(), now)
        _run(fire)

    def _settle(self) -> None:
        with self._lock:
            self._settle_timer = None
            if self.closed:
                return
            # The level that settled began at the last raw edge, not when we looked.
            fire = self._accept(self._raw_pressed(), self._last_raw_edge_at)
        _run(fire)

    def _raw_pressed(self) -> bool:
        return bool(self._button.is_pressed)

    def _accept(self, pressed: bool, at: float) -> Callback | None:
        """Move the debounced level to ``pressed`` at time ``at``; return a callback to fire."""
        if pressed == self._pressed:
            return None
        self._pressed = pressed
        self._changed_at = at
        if pressed:
            self._pressed_at = at
            self._long_reported = False
            hold_for = self._pressed_at + self.long_press_seconds - self._clock()
            self._hold_timer = self._call_later(hold_for, self._check_hold)
            return None
        self._cancel_hold_timer()
        held = at - self._pressed_at
        if self._long_reported or held < self.bounce_seconds:
            return None  # already reported as a long press, or a glitch
        if held >= self.long_press_seconds:
            return self.when_long_pressed  # the hold timer was late; still a long press
        return self.when_pressed

    def _check_hold(self) -> None:
        with self._lock:
            self._hold_timer = None
            if self.closed or not self._pressed or self._long_reported:
                return
            early_by = self._pressed_at + self.long_press_seconds - self._clock()
            if early_by > 0:
                self._hold_timer = self._call_later(early_by, self._check_hold)
                return
            self._long_reported = True
            fire = self.when_long_pressed
        _run(fire)

    def _cancel_hold_timer(self) -> None:
        if self._hold_timer is not None:
            self._hold_timer.cancel()
            self._hold_timer = None

    def close(self) -> None:
        with self._lock:
            self._cancel_hold_timer()
            if self._settle_timer is not None:
                self._settle_timer.cancel()
                self._settle_timer = None
            self.when_pressed = self.when_long_pressed = None
        self._button.close()

    def __enter__(self) -> RefereeButton:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def __repr__(self) -> str:
        state = "closed" if self.closed else ("pressed" if self._pressed else "released")
        return f"<RefereeButton on GPIO{self.pin}, {state}>"


def _run(callback: Callback | None) -> None:
    # A failing handler must not kill the pin's event thread (or the timer).
    if callback is None:
        return
    try:
        callback()
    except Exception:
        log.exception("button callback %r failed", callback)
