"""Pin factories, the buzzer, the LED and the board built from a config."""

from __future__ import annotations

import pytest
from gpiozero.exc import GPIOPinInUse
from gpiozero.pins.mock import MockFactory, MockPin, MockPWMPin

from assistant.hardware.board import RefereeBoard
from assistant.hardware.buzzer import Beeper, BeeperError, Sound
from assistant.hardware.led import StatusLed
from assistant.hardware.pins import (
    PinFactoryError,
    describe,
    is_raspberry_pi,
    is_simulated,
    make_pin_factory,
)
from firmware_config import load_config


def test_mock_factory_has_pwm_pins_and_says_it_is_simulated():
    factory = make_pin_factory("mock")
    try:
        assert isinstance(factory, MockFactory) and factory.pin_class is MockPWMPin
        assert is_simulated(factory)
        assert describe(factory) == "simulated (MockFactory)"
    finally:
        factory.close()


def test_auto_off_a_pi_is_simulated():
    factory = make_pin_factory("auto", on_pi=False)
    try:
        assert is_simulated(factory)
    finally:
        factory.close()


def test_a_real_factory_that_cannot_load_is_a_clear_error():
    # This machine has no lgpio (and is no Pi): either way the error says what to do.
    with pytest.raises(PinFactoryError, match=r"pin factory 'lgpio' (needs a library|could not open)"):
        make_pin_factory("lgpio")


def test_auto_on_a_pi_without_libraries_falls_back_to_mock(caplog):
    factory = make_pin_factory("auto", on_pi=True)
    try:
        assert is_simulated(factory)
        assert "using simulated pins" in caplog.text
    finally:
        factory.close()


def test_unknown_factory_kind_is_refused():
    with pytest.raises(PinFactoryError, match=r"pin factory 'pigpio' is not one of auto, lgpio, rpigpio, mock"):
        make_pin_factory("pigpio")


def test_raspberry_pi_is_read_from_the_device_tree(tmp_path):
    model = tmp_path / "model"
    model.write_bytes(b"Raspberry Pi 5 Model B Rev 1.0\x00")
    assert is_raspberry_pi(model)
    model.write_bytes(b"QEMU Virtual Machine\x00")
    assert not is_raspberry_pi(model)
    assert not is_raspberry_pi(tmp_path / "absent")


def test_active_beeper_beeps_for_its_length(mock_factory):
    slept = []
    with Beeper(18, beep_seconds=0.08, final_tone_seconds=0.6, pin_factory=mock_factory, sleeper=slept.append) as beeper:
        pin = mock_factory.pin(18)
        beeper.sound()
        assert pin.state == 1 and beeper.sounding is Sound.BEEP
        beeper.silence()
        beeper.beep()
        beeper.final_tone()
        assert slept == [0.08, 0.6]
        assert [s.state for s in pin.states] == [0, 1, 0, 1, 0, 1, 0]
    assert beeper.closed
    beeper.close()  # idempotent


def test_passive_beeper_plays_its_two_tones(mock_factory):
    heard = []
    with Beeper(18, kind="passive", beep_hz=880, final_hz=440, pin_factory=mock_factory,
                sleeper=lambda s: heard.append(mock_factory.pin(18).frequency)) as beeper:
        beeper.beep()
        beeper.final_tone()
        assert heard == [pytest.approx(880), pytest.approx(440)]
        assert mock_factory.pin(18).frequency is None  # silent again


@pytest.mark.parametrize(("beep_hz", "final_hz"), [(100, 5000), (5000, 5000), (220, 880), (3000, 2000)])
def test_passive_beeper_covers_any_configured_tones(mock_factory, beep_hz, final_hz):
    with Beeper(18, kind="passive", beep_hz=beep_hz, final_hz=final_hz, pin_factory=mock_factory) as beeper:
        beeper.sound(Sound.BEEP)
        assert mock_factory.pin(18).frequency == pytest.approx(beep_hz)
        beeper.sound(Sound.FINAL)
        assert mock_factory.pin(18).frequency == pytest.approx(final_hz)


def test_passive_beeper_refuses_pins_without_pwm():
    factory = MockFactory(pin_class=MockPin)
    try:
        with pytest.raises(BeeperError, match=r"passive \(tonal\) buzzer on GPIO18 needs PWM.*MockPWMPin"):
            Beeper(18, kind="passive", pin_factory=factory)
    finally:
        factory.close()


def test_unknown_buzzer_kind_is_refused(mock_factory):
    with pytest.raises(BeeperError, match=r"buzzer kind 'piezo' is not 'active' or 'passive'"):
        Beeper(18, kind="piezo", pin_factory=mock_factory)


def test_led_on_off_blink(mock_factory):
    with StatusLed(27, pin_factory=mock_factory) as led:
        led.on()
        assert led.is_lit and "lit" in repr(led)
        led.off()
        led.blink(on_seconds=0.01, off_seconds=0.01, times=2, wait=True)
        assert [s.state for s in mock_factory.pin(27).states] == [0, 1, 0, 1, 0, 1, 0]
    led.close()


def test_board_from_config_builds_every_device(mock_factory):
    config = load_config(overrides={"countdown.seconds": 5, "gpio.buzzer_kind": "passive"})
    with RefereeBoard.from_config(config, pin_factory=mock_factory) as board:
        assert board.is_simulated and board.description == "simulated (MockFactory)"
        assert board.countdown.seconds == 5
        assert board.beeper.kind == "passive" and board.beeper.final_tone_seconds == 0.6
        assert board.button.long_press_seconds == 2.0 and board.button.bounce_seconds == 0.05
        assert board.led is not None and board.led.pin == 27
    assert board.closed and board.beeper.closed and board.button.closed and board.led.closed
    board.close()


def test_board_without_led_and_simulated(caplog):
    config = load_config(overrides={"gpio.led_pin": False, "gpio.pin_factory": "lgpio"})
    with caplog.at_level("INFO", logger="assistant.hardware.board"):
        board = RefereeBoard.from_config(config, simulate=True)
    with board:
        assert board.led is None and board.is_simulated
        assert "GPIO: simulated (MockFactory)" in caplog.text


def test_a_failed_board_releases_the_pins_it_took(mock_factory):
    mock_factory.pin(17)  # the button pin exists...
    config = load_config()
    blocker = StatusLed(17, pin_factory=mock_factory)  # ...and is taken
    try:
        with pytest.raises(GPIOPinInUse):
            RefereeBoard.from_config(config, pin_factory=mock_factory)
        # the buzzer pin was released: it can be used again
        Beeper(18, pin_factory=mock_factory).close()
    finally:
        blocker.close()
