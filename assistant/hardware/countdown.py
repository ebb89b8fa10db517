"""The Knockdown Test countdown: a beep each whole second, a distinct final tone at zero.

Every beep edge is scheduled against an absolute deadline on a monotonic clock
(``started_at + k`` seconds), never ``sleep(1)`` in a loop, so lateness never adds
up. A background thread waits on an :class:`threading.Event`, so ``done()`` and
``cancel()`` interrupt it at once. ``clock`` and ``sleeper`` are injectable so tests
drive it deterministically.

The opponent's button press or a tablet tap calls :meth:`Countdown.start`; a press
during the countdown calls :meth:`Countdown.done` ("tower done: judge now"); a long
press calls :meth:`Countdown.cancel`. :meth:`Countdown.press` is the button's
"start, or done if already running".
"""

from __future__ import annotations

import enum
import logging
import math
import os
import threading
import time
from dataclasses import dataclass
from typing import Callable

from assistant.hardware.buzzer import Beeper, Sound
from assistant.hardware.led import StatusLed

log = logging.getLogger(__name__)

# sleeper(event, timeout) -> True if the event was set (interrupted) before the timeout.
Sleeper = Callable[[threading.Event, float], bool]


# Wake this long before a deadline and yield the CPU until it: a thread woken from a
# plain wait is often a millisecond or more late, a yielding loop is not.
SPIN_SECONDS = 0.002


def wait_on_event(event: threading.Event, timeout: float) -> bool:
    """The default sleeper: an Event wait, finished with a short yielding spin."""
    if timeout > SPIN_SECONDS:
        return event.wait(timeout - SPIN_SECONDS)
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if event.is_set():
            return True
        time.sleep(0)  # yield to other threads without the wake-up latency of a timed wait
    return event.is_set()


class FinishReason(enum.StrEnum):
    """Why a countdown ended; compares equal to its string ("zero", "done", "cancelled")."""

    ZERO = "zero"
    DONE = "done"
    CANCELLED = "cancelled"

    def __str__(self) -> str:
        return self.value


class _Edge(enum.Enum):
    BEEP = "beep"
    SILENCE = "silence"
    ZERO = "zero"


@dataclass(frozen=True)
class _Step:
    at: float  # absolute monotonic time
    edge: _Edge
    seconds_left: int = 0


class Countdown:
    """Owns the countdown; ``when_tick(seconds_left)`` and ``when_finished(reason)`` report it.

    ``when_tick`` gets ``seconds``, ``seconds - 1``, ..., 1 on each whole second (with the
    beep); ``when_finished`` gets a :class:`FinishReason`. They run on the countdown
    thread, or on the caller's thread for ``start()`` (the first tick), ``done()`` and
    ``cancel()``. The beeper and LED are
    borrowed: :meth:`close` silences them but does not close them.
    """

    def __init__(
        self,
        *,
        seconds: int = 10,
        beeper: Beeper | None = None,
        led: StatusLed | None = None,
        clock: Callable[[], float] = time.monotonic,
        sleeper: Sleeper = wait_on_event,
        realtime_priority: bool = True,
    ):
        if isinstance(seconds, bool) or not isinstance(seconds, int) or seconds < 1:
            raise ValueError(f"seconds must be a whole number >= 1, not {seconds!r}")
        if beeper is not None and not 0 < beeper.beep_seconds < 1:
            raise ValueError(f"a beep must fit inside its second, not last {beeper.beep_seconds!r} s")
        self.seconds = seconds
        self.when_tick: Callable[[int], object] | None = None
        self.when_finished: Callable[[FinishReason], object] | None = None
        self._beeper = beeper
        self._led = led
        self._clock = clock
        self._sleeper = sleeper
        self._realtime_priority = realtime_priority
        self._lock = threading.RLock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._running = False
        self._closed = False
        self.started_at: float | None = None
        self.deadline: float | None = None
        self.last_reason: FinishReason | None = None

    # -- state -------------------------------------------------------------------------

    @property
    def is_running(self) -> bool:
        return self._running

    @property
    def seconds_left(self) -> float:
        """Seconds to zero while running (0.0 otherwise)."""
        with self._lock:
            if not self._running or self.deadline is None:
                return 0.0
            return min(float(self.seconds), max(0.0, self.deadline - self._clock()))

    @property
    def closed(self) -> bool:
        return self._closed

    # -- actions -----------------------------------------------------------------------

    def start(self) -> bool:
        """Start counting down; False (and nothing changes) if already running."""
        with self._lock:
            self._check_open()
            if self._running:
                return False
            self._stop.set()  # a previous final tone may still be sounding
            self._quiet()
            self._stop = stop = threading.Event()
            self.started_at = self._clock()
            self.deadline = self.started_at + self.seconds
            self.last_reason = None
            self._running = True
            first, *rest = self._schedule(self.started_at)
            # The first beep sounds here, at once, rather than after a thread start-up.
            callback = self._perform(first)
            self._thread = threading.Thread(
                target=self._run, args=(stop, rest), name="knockdown-countdown", daemon=True
            )
            self._thread.start()
        if callback is not None:
            _call(callback)
        return True

    def done(self) -> bool:
        """Stop early, "tower done: judge now". False if no countdown was running."""
        return self._finish_early(FinishReason.DONE)

    def cancel(self) -> bool:
        """Abandon the countdown. False if none was running."""
        return self._finish_early(FinishReason.CANCELLED)

    def press(self) -> bool:
        """The referee button's short press: start, or done when already running."""
        with self._lock:
            running = self._running
        return self.done() if running else self.start()

    def close(self) -> None:
        """Cancel any countdown (without reporting it) and end its thread. Idempotent."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
            self._running = False
            self.when_tick = self.when_finished = None
            self._stop.set()
            self._quiet()
            thread, self._thread = self._thread, None
        if thread is not None and thread is not threading.current_thread():
            thread.join()

    def __enter__(self) -> Countdown:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def __repr__(self) -> str:
        if self._closed:
            return "<Countdown closed>"
        if self._running:
            return f"<Countdown running, {self.seconds_left:.1f} s left>"
        return f"<Countdown {self.seconds} s, idle>"

    # -- internals ---------------------------------------------------------------------

    def _check_open(self) -> None:
        if self._closed:
            raise RuntimeError("the countdown is closed")

    def _schedule(self, t0: float) -> list[_Step]:
        beep = self._beeper.beep_seconds if self._beeper else 0.0
        final = self._beeper.final_tone_seconds if self._beeper else 0.0
        steps: list[_Step] = []
        for k in range(self.seconds):
            steps.append(_Step(t0 + k, _Edge.BEEP, self.seconds - k))
            steps.append(_Step(t0 + k + beep, _Edge.SILENCE))
        steps.append(_Step(t0 + self.seconds, _Edge.ZERO))
        steps.append(_Step(t0 + self.seconds + final, _Edge.SILENCE))
        return steps

    def _run(self, stop: threading.Event, steps: list[_Step]) -> None:
        if self._realtime_priority:
            raise_thread_priority()
        for step in steps:
            if not self._wait_until(step.at, stop):
                return
            with self._lock:
                if stop.is_set():
                    return
                callback = self._perform(step)
            if callback is not None:
                _call(callback)

    def _wait_until(self, deadline: float, stop: threading.Event) -> bool:
        """Sleep until the absolute ``deadline``; False if stopped first."""
        while True:
            remaining = deadline - self._clock()
            if remaining <= 0:
                return not stop.is_set()
            if self._sleeper(stop, remaining):
                return False

    def _perform(self, step: _Step) -> Callable[[], object] | None:
        # The sound comes first: it is the timing-critical part.
        if step.edge is _Edge.BEEP:
            if self._beeper:
                self._beeper.sound(Sound.BEEP)
            if self._led and step.seconds_left == self.seconds:
                self._led.on()
            tick = self.when_tick
            return (lambda: tick(step.seconds_left)) if tick else None
        if step.edge is _Edge.SILENCE:
            if self._beeper:
                self._beeper.silence()
            return None
        if self._beeper:
            self._beeper.sound(Sound.FINAL)
        if self._led:
            self._led.off()
        return self._finished(FinishReason.ZERO)

    def _finish_early(self, reason: FinishReason) -> bool:
        with self._lock:
            if not self._running:
                return False
            # The thread checks its event under the lock before every edge, so from here
            # on it does nothing more; it need not be joined.
            self._stop.set()
            self._quiet()
            callback = self._finished(reason)
        if callback is not None:
            _call(callback)
        return True

    def _finished(self, reason: FinishReason) -> Callable[[], object] | None:
        self._running = False
        self.last_reason = reason
        finished = self.when_finished
        return (lambda: finished(reason)) if finished else None

    def _quiet(self) -> None:
        if self._beeper and not self._beeper.closed:
            self._beeper.silence()
        if self._led and not self._led.closed:
            self._led.off()


# Below the kernel's own real-time threads (50 for IRQ threads), above everything normal.
REALTIME_PRIORITY = 10


def raise_thread_priority() -> str:
    """Best effort: make the calling thread real-time (SCHED_FIFO), else less nice.

    On a Pi busy with OpenCV a normal thread can be scheduled tens of milliseconds late;
    a SCHED_FIFO thread is not. It needs root or CAP_SYS_NICE (systemd:
    ``AmbientCapabilities=CAP_SYS_NICE``); without it the countdown still runs, at
    normal priority. Returns what it got, for the log.
    """
    try:
        os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(REALTIME_PRIORITY))
        return "SCHED_FIFO"
    except (AttributeError, OSError):
        pass
    try:
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), -10)
        return "nice -10"
    except (AttributeError, OSError):
        log.debug("countdown thread stays at normal priority (no CAP_SYS_NICE)")
        return "normal"


def _call(callback: Callable[[], object]) -> None:
    # A failing handler must not kill the countdown thread or the caller's action.
    try:
        callback()
    except Exception:
        log.exception("countdown callback failed")


def whole_seconds_left(countdown: Countdown) -> int:
    """The number a display shows: seconds left rounded up (10, 9, ..., 1, then 0)."""
    return math.ceil(countdown.seconds_left)
