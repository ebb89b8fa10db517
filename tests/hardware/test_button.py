"""The referee button on mock pins: debounce, short and long presses, and the countdown."""

from __future__ import annotations

import threading

import pytest

from assistant.hardware.button import RefereeButton
from assistant.hardware.buzzer import Beeper
from assistant.hardware.countdown import Countdown

PIN = 17
BOUNCE, LONG = 0.05, 2.0


@pytest.fixture
def button(mock_factory, scripted_time):
    with RefereeButton(
        PIN,
        bounce_seconds=BOUNCE,
        long_press_seconds=LONG,
        pin_factory=mock_factory,
        clock=scripted_time.clock,
        call_later=scripted_time.call_later,
    ) as device:
        yield device


class Presses:
    def __init__(self, button: RefereeButton):
        self.log: list[str] = []
        button.when_pressed = lambda: self.log.append("short")
        button.when_long_pressed = lambda: self.log.append("long")


def edges(mock_factory, scripted_time, script: list[tuple[float, str]]) -> None:
    """Drive the pin: (seconds after the previous step, "down" or "up"); down = pressed."""
    pin = mock_factory.pin(PIN)
    for delay, level in script:
        scripted_time.advance(delay)
        pin.drive_low() if level == "down" else pin.drive_high()


def bounce(settles_at: str, times: int = 3, gap: float = 0.004) -> list[tuple[float, str]]:
    """Contact chatter after an edge: the other level and back, ``times`` times."""
    other = {"down": "up", "up": "down"}[settles_at]
    return [(gap, level) for _ in range(times) for level in (other, settles_at)]


def test_a_clean_short_press_is_reported_on_release(mock_factory, scripted_time, button):
    presses = Presses(button)
    edges(mock_factory, scripted_time, [(0.5, "down")])
    assert button.is_pressed and presses.log == []
    edges(mock_factory, scripted_time, [(0.2, "up")])
    assert not button.is_pressed and presses.log == ["short"]


def test_chatter_on_press_and_release_is_one_press(mock_factory, scripted_time, button):
    presses = Presses(button)
    edges(mock_factory, scripted_time, [(1.0, "down"), *bounce("down")])
    scripted_time.advance(0.1)
    assert button.is_pressed and presses.log == []
    edges(mock_factory, scripted_time, [(0.3, "up"), *bounce("up")])
    scripted_time.advance(0.1)
    assert presses.log == ["short"]
    assert not button.is_pressed
    # the pin really did chatter: initial state, the pull-up, then 7 edges each way
    assert len(mock_factory.pin(PIN).states) == 2 + 2 * 7


def test_presses_after_the_lockout_are_all_counted(mock_factory, scripted_time, button):
    presses = Presses(button)
    for _ in range(3):
        edges(mock_factory, scripted_time, [(0.1, "down"), (0.1, "up")])
    assert presses.log == ["short"] * 3


def test_a_glitch_shorter_than_the_lockout_is_not_a_press(mock_factory, scripted_time, button):
    presses = Presses(button)
    edges(mock_factory, scripted_time, [(1.0, "down"), (0.02, "up")])
    scripted_time.advance(0.1)  # the lock-out ends: the pin is read again
    assert not button.is_pressed
    assert presses.log == []
    # and the next real press is short, not a long one measured from the glitch
    edges(mock_factory, scripted_time, [(3.0, "down"), (0.15, "up")])
    assert presses.log == ["short"]


def test_a_long_press_is_reported_when_the_hold_reaches_two_seconds(mock_factory, scripted_time, button):
    presses = Presses(button)
    edges(mock_factory, scripted_time, [(0.5, "down")])
    scripted_time.advance(LONG - 0.01)
    assert presses.log == []
    scripted_time.advance(0.02)
    assert presses.log == ["long"]
    edges(mock_factory, scripted_time, [(1.0, "up")])
    assert presses.log == ["long"]  # the release adds nothing


def test_a_hold_just_short_of_long_is_a_short_press(mock_factory, scripted_time, button):
    presses = Presses(button)
    edges(mock_factory, scripted_time, [(0.5, "down"), (LONG - 0.05, "up")])
    scripted_time.advance(1.0)
    assert presses.log == ["short"]


def test_a_failing_handler_is_logged_not_raised(mock_factory, scripted_time, button, caplog):
    button.when_pressed = lambda: 1 / 0
    edges(mock_factory, scripted_time, [(0.5, "down"), (0.2, "up")])
    assert "button callback" in caplog.text


def test_bad_timings_are_refused():
    with pytest.raises(ValueError, match="long_press_seconds must be longer than bounce_seconds"):
        RefereeButton(PIN, bounce_seconds=0.5, long_press_seconds=0.2)
    with pytest.raises(ValueError, match=r"bounce_seconds must be >= 0, not -1"):
        RefereeButton(PIN, bounce_seconds=-1)


def test_close_is_idempotent(mock_factory):
    button = RefereeButton(PIN, pin_factory=mock_factory)
    button.close()
    button.close()
    assert button.closed
    assert "closed" in repr(button)


def test_the_button_drives_the_countdown(mock_factory, scripted_time, button):
    """Press starts, a press during the countdown is "done", a long press cancels."""
    with Beeper(18, pin_factory=mock_factory) as beeper, Countdown(
        seconds=10, beeper=beeper, clock=scripted_time.clock, sleeper=scripted_time.sleeper
    ) as countdown:
        finished: list[str] = []
        ended = threading.Event()
        countdown.when_finished = lambda reason: (finished.append(reason), ended.set())
        button.when_pressed = countdown.press
        button.when_long_pressed = countdown.cancel

        edges(mock_factory, scripted_time, [(0.1, "down"), (0.15, "up")])
        assert countdown.is_running
        start = countdown.started_at
        # While it counts (in the countdown thread's scripted time) the fighter presses "done".
        pin = mock_factory.pin(PIN)
        scripted_time.at(start + 4.0, pin.drive_low)
        scripted_time.at(start + 4.2, pin.drive_high)
        assert ended.wait(5)
        assert finished == ["done"]
        assert scripted_time.now == pytest.approx(start + 4.2)

        ended.clear()
        edges(mock_factory, scripted_time, [(1.0, "down"), (0.1, "up")])
        start = countdown.started_at
        scripted_time.at(start + 3.0, pin.drive_low)  # held 2 s: cancel, while still held
        scripted_time.at(start + 6.0, pin.drive_high)
        assert ended.wait(5)
        assert finished == ["done", "cancelled"]
        assert scripted_time.now == pytest.approx(start + 3.0 + LONG)
        scripted_time.advance(1.5)  # the release after the long press...
        assert not button.is_pressed
        assert finished == ["done", "cancelled"] and not countdown.is_running  # ...starts nothing
