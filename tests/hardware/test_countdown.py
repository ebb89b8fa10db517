"""The countdown on mock pins: beep times, done, cancel, no drift."""

from __future__ import annotations

import logging
import os
import threading
import time

import pytest

from assistant.hardware.buzzer import Beeper
from assistant.hardware.countdown import Countdown, FinishReason, raise_thread_priority, whole_seconds_left
from assistant.hardware.led import StatusLed

BUZZER, LED = 18, 27
BEEP, FINAL = 0.08, 0.6


def wait_for(condition, timeout: float = 5.0) -> bool:
    end = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > end:
            return False
        time.sleep(0.001)
    return True


def beep_timeline(seconds: int) -> list[tuple[float, float]]:
    """gpiozero's (seconds since the previous change, state) for a full countdown."""
    states = [(0.0, 0.0), (0.0, 1.0), (BEEP, 0.0)]
    for _ in range(seconds - 1):
        states += [(1 - BEEP, 1.0), (BEEP, 0.0)]
    return states + [(1 - BEEP, 1.0), (FINAL, 0.0)]


class Recorder:
    def __init__(self, countdown: Countdown):
        self.ticks: list[int] = []
        self.finished: list[FinishReason] = []
        self.ended = threading.Event()
        countdown.when_tick = self.ticks.append
        countdown.when_finished = self._finish

    def _finish(self, reason: FinishReason) -> None:
        self.finished.append(reason)
        self.ended.set()


@pytest.fixture
def beeper(mock_factory):
    with Beeper(BUZZER, beep_seconds=BEEP, final_tone_seconds=FINAL, pin_factory=mock_factory) as device:
        yield device


def scripted_countdown(scripted_time, beeper, seconds=10, **kwargs) -> Countdown:
    return Countdown(seconds=seconds, beeper=beeper, clock=scripted_time.clock, sleeper=scripted_time.sleeper, **kwargs)


def test_full_countdown_beeps_each_second_and_sounds_the_final_tone(mock_factory, scripted_time, beeper):
    pin = mock_factory.pin(BUZZER)
    pin.clear_states()
    countdown = scripted_countdown(scripted_time, beeper)
    record = Recorder(countdown)
    assert countdown.start() is True
    assert record.ended.wait(5)
    countdown.close()  # joins the thread, after the final tone's end
    assert record.ticks == [10, 9, 8, 7, 6, 5, 4, 3, 2, 1]
    assert record.finished == ["zero"]
    expected = beep_timeline(10)
    assert len(pin.states) == len(expected)  # gpiozero's assertion zips: check the count too
    pin.assert_states_and_times(expected)
    assert countdown.deadline == countdown.started_at + 10
    assert not countdown.is_running and not beeper.is_sounding


def test_onsets_do_not_drift_when_every_wake_up_is_late(mock_factory, scripted_time, beeper):
    # Each sleep overshoots by 3 ms; a sleep(1) loop would be 30+ ms late by zero.
    scripted_time.lateness = lambda n: 0.003
    pin = mock_factory.pin(BUZZER)
    pin.clear_states()
    countdown = scripted_countdown(scripted_time, beeper)
    record = Recorder(countdown)
    countdown.start()
    assert record.ended.wait(5)
    countdown.close()
    onsets, elapsed = [], 0.0
    for state in pin.states[1:]:
        elapsed += state.timestamp
        if state.state:
            onsets.append(elapsed)
    assert len(onsets) == 11
    for k, onset in enumerate(onsets):
        assert k <= onset <= k + 0.0031, f"beep {k} at {onset:.4f} s"


def test_a_press_during_the_countdown_means_done(mock_factory, scripted_time, beeper):
    pin = mock_factory.pin(BUZZER)
    pin.clear_states()
    countdown = scripted_countdown(scripted_time, beeper)
    record = Recorder(countdown)
    t0 = scripted_time.now
    scripted_time.at(t0 + 3.5, countdown.done)
    countdown.start()
    assert record.ended.wait(5)
    assert record.finished == [FinishReason.DONE]
    assert record.ticks == [10, 9, 8, 7]
    assert scripted_time.now == pytest.approx(t0 + 3.5)
    countdown.close()
    expected = beep_timeline(10)[: 1 + 2 * 4]  # four beeps, then silence
    assert len(pin.states) == len(expected)
    pin.assert_states_and_times(expected)
    assert countdown.done() is False  # nothing left to finish
    assert countdown.last_reason is FinishReason.DONE


def test_done_in_the_middle_of_a_beep_silences_it(mock_factory, scripted_time, beeper):
    countdown = scripted_countdown(scripted_time, beeper)
    record = Recorder(countdown)
    sounding = []
    scripted_time.at(scripted_time.now + 2.04, lambda: (sounding.append(beeper.is_sounding), countdown.cancel()))
    countdown.start()
    assert record.ended.wait(5)
    countdown.close()
    assert sounding == [True]
    assert record.finished == ["cancelled"]
    assert not beeper.is_sounding
    assert mock_factory.pin(BUZZER).state == 0


def test_start_while_running_changes_nothing_and_seconds_left(mock_factory, scripted_time, beeper):
    countdown = scripted_countdown(scripted_time, beeper, seconds=5)
    record = Recorder(countdown)
    seen = []

    def probe():
        seen.append((countdown.start(), countdown.seconds_left, whole_seconds_left(countdown)))

    scripted_time.at(scripted_time.now + 1.25, probe)
    countdown.start()
    first_start = countdown.started_at
    assert record.ended.wait(5)
    countdown.close()
    assert seen == [(False, 3.75, 4)]
    assert countdown.started_at == first_start
    assert record.ticks == [5, 4, 3, 2, 1]
    assert countdown.seconds_left == 0.0


def test_restart_during_the_final_tone_starts_a_fresh_countdown(mock_factory, scripted_time, beeper):
    countdown = scripted_countdown(scripted_time, beeper, seconds=2)
    record = Recorder(countdown)
    t0 = scripted_time.now
    # 0.3 s into the 0.6 s final tone the opponent presses again; half a second later
    # the referee cancels the new countdown.
    scripted_time.at(t0 + 2.3, countdown.press)
    scripted_time.at(t0 + 2.8, countdown.cancel)
    countdown.start()
    assert wait_for(lambda: len(record.finished) == 2)
    countdown.close()
    assert record.finished == ["zero", "cancelled"]
    assert record.ticks == [2, 1, 2]
    assert countdown.started_at == pytest.approx(t0 + 2.3)
    assert not beeper.is_sounding


def test_the_led_is_lit_while_counting(mock_factory, scripted_time, beeper):
    with StatusLed(LED, pin_factory=mock_factory) as led:
        countdown = scripted_countdown(scripted_time, beeper, seconds=3, led=led)
        record = Recorder(countdown)
        lit = []
        countdown.when_tick = lambda s: lit.append(led.is_lit)
        countdown.start()
        scripted_time_done = record.ended.wait(5)
        countdown.close()
        assert scripted_time_done and lit == [True, True, True]
        assert not led.is_lit


def test_a_failing_callback_is_logged_and_the_countdown_goes_on(mock_factory, scripted_time, beeper, caplog):
    countdown = scripted_countdown(scripted_time, beeper, seconds=3)
    record = Recorder(countdown)

    def broken(seconds_left):
        raise RuntimeError(f"display gone at {seconds_left}")

    countdown.when_tick = broken
    with caplog.at_level(logging.ERROR, logger="assistant.hardware.countdown"):
        countdown.start()
        assert record.ended.wait(5)
        countdown.close()
    assert record.finished == ["zero"]
    assert sum("countdown callback failed" in r.message for r in caplog.records) == 3


def test_a_countdown_without_a_buzzer_still_ticks(scripted_time):
    countdown = Countdown(seconds=2, clock=scripted_time.clock, sleeper=scripted_time.sleeper)
    record = Recorder(countdown)
    countdown.start()
    assert record.ended.wait(5)
    countdown.close()
    assert (record.ticks, record.finished) == ([2, 1], ["zero"])


def test_close_is_idempotent_and_final(scripted_time):
    countdown = Countdown(seconds=2, clock=scripted_time.clock, sleeper=scripted_time.sleeper)
    countdown.close()
    countdown.close()
    assert countdown.closed
    with pytest.raises(RuntimeError, match="closed"):
        countdown.start()
    assert countdown.cancel() is False


@pytest.mark.parametrize("seconds", [0, -3, 2.5, True])
def test_bad_length_is_refused_naming_it(seconds):
    with pytest.raises(ValueError, match=rf"seconds must be a whole number >= 1, not {seconds!r}"):
        Countdown(seconds=seconds)


def test_real_time_countdown_on_mock_pins(mock_factory, beeper):
    """The default clock and sleeper, checked with gpiozero's own timing assertion."""
    pin = mock_factory.pin(BUZZER)
    with Countdown(seconds=2, beeper=beeper) as countdown:
        record = Recorder(countdown)
        pin.clear_states()
        countdown.start()
        assert record.ended.wait(5)
        time.sleep(FINAL + 0.1)
    expected = beep_timeline(2)
    assert len(pin.states) == len(expected)
    pin.assert_states_and_times(expected)
    assert record.ticks == [2, 1]


def test_thread_priority_falls_back_without_the_capability(monkeypatch):
    def refused(*args):
        raise PermissionError("Operation not permitted")

    niced = []
    monkeypatch.setattr(os, "sched_setscheduler", refused)
    monkeypatch.setattr(os, "setpriority", lambda which, who, value: niced.append(value))
    assert raise_thread_priority() == "nice -10"
    assert niced == [-10]
    monkeypatch.setattr(os, "setpriority", refused)
    assert raise_thread_priority() == "normal"
