"""Beep onset error of the countdown against its schedule, in real time.

    python bench/countdown_bench.py                  # 20 countdowns of 10 s (about 4 minutes)
    python bench/countdown_bench.py --seconds 3      # 20 shorter countdowns
    python bench/countdown_bench.py --pin-factory lgpio   # on a Pi, with the real buzzer pin

Each onset (the beep at every whole second and the final tone at zero) is compared with
its scheduled time ``started_at + k``. On mock pins the onset is the time gpiozero's
MockPin stamped on the state change (its ``states`` history); on real pins it is taken
right after the pin write returns. Goals: median <= 1 ms, max <= 5 ms.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from gpiozero.pins.mock import MockFactory  # noqa: E402

from assistant.hardware.buzzer import Beeper, Sound  # noqa: E402
from assistant.hardware.countdown import Countdown  # noqa: E402
from assistant.hardware.pins import describe, make_pin_factory  # noqa: E402

BUZZER_PIN = 18


class StampingBeeper(Beeper):
    """Notes when each sound started (for real pins, which keep no history)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.onsets: list[float] = []

    def sound(self, what: Sound = Sound.BEEP) -> None:
        super().sound(what)
        self.onsets.append(time.monotonic())


def run_one(beeper: StampingBeeper, factory, seconds: int, *, realtime_priority: bool) -> list[float]:
    """One countdown; the onset errors in seconds (late is positive)."""
    mock_pin = factory.pin(BUZZER_PIN) if isinstance(factory, MockFactory) else None
    finished = threading.Event()
    beeper.onsets.clear()
    with Countdown(seconds=seconds, beeper=beeper, realtime_priority=realtime_priority) as countdown:
        countdown.when_finished = lambda reason: finished.set()
        if mock_pin is not None:
            before = time.monotonic()
            mock_pin.clear_states()  # gpiozero stamps each change relative to this moment
            anchor = (before + time.monotonic()) / 2
        countdown.start()
        finished.wait(seconds + 5)
        time.sleep(beeper.final_tone_seconds + 0.05)
        started = countdown.started_at
    if mock_pin is None:
        onsets = beeper.onsets
    else:
        onsets, at = [], anchor
        for state in mock_pin.states[1:]:
            at += state.timestamp
            if state.state:
                onsets.append(at)
    assert len(onsets) == seconds + 1, f"expected {seconds + 1} onsets, got {len(onsets)}"
    return [onset - (started + k) for k, onset in enumerate(onsets)]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--countdowns", type=int, default=20)
    parser.add_argument("--seconds", type=int, default=10, help="length of each countdown")
    parser.add_argument("--pin-factory", default="mock", choices=["mock", "auto", "lgpio", "rpigpio"])
    parser.add_argument("--normal-priority", action="store_true",
                        help="do not ask for real-time scheduling (to see what it buys)")
    args = parser.parse_args()

    factory = make_pin_factory(args.pin_factory)
    errors: list[float] = []
    first_beep: list[float] = []
    with StampingBeeper(BUZZER_PIN, pin_factory=factory) as beeper:
        for n in range(args.countdowns):
            one = run_one(beeper, factory, args.seconds, realtime_priority=not args.normal_priority)
            first_beep.append(one[0])
            errors.extend(one)
            print(f"  countdown {n + 1:2}/{args.countdowns}: max {max(map(abs, one)) * 1e3:.3f} ms", file=sys.stderr)
    factory.close()

    ms = sorted(abs(e) * 1e3 for e in errors)
    median, worst = statistics.median(ms), ms[-1]
    p95 = ms[min(len(ms) - 1, int(0.95 * len(ms)))]
    priority = "normal priority" if args.normal_priority else "real-time priority when allowed"
    print(f"countdown beep onset error ({describe(factory)}, {priority}, {args.countdowns} countdowns x "
          f"{args.seconds} s, {len(ms)} onsets, load average {os.getloadavg()[0]:.1f})")
    print("| metric | value | goal |")
    print("|---|---|---|")
    print(f"| median | {median:.3f} ms | <= 1 ms {'ok' if median <= 1 else 'MISSED'} |")
    print(f"| p95 | {p95:.3f} ms | |")
    print(f"| max | {worst:.3f} ms | <= 5 ms {'ok' if worst <= 5 else 'MISSED'} |")
    print(f"| first beep (at start) median | {statistics.median(abs(e) for e in first_beep) * 1e3:.3f} ms | |")
    print(f"| earliest (negative = early) | {min(errors) * 1e3:.3f} ms | never early |")
    return 0 if median <= 1 and worst <= 5 else 1


if __name__ == "__main__":
    sys.exit(main())
