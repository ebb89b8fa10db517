"""The referee's GPIO board: pin factory, buzzer, button, optional LED and the countdown.

>>> board = RefereeBoard.from_config(load_config(), simulate=True)
>>> board.description
'simulated (MockFactory)'

The board only builds and owns the devices; what a press means (start, done, cancel)
is wired by the service, which knows whether a Knockdown Test is armed:
``board.button.when_pressed = ...``. Closing the board closes every device.
"""

from __future__ import annotations

import logging

from gpiozero.pins import Factory

from assistant.hardware.button import RefereeButton
from assistant.hardware.buzzer import Beeper
from assistant.hardware.countdown import Countdown
from assistant.hardware.led import StatusLed
from assistant.hardware.pins import describe, is_simulated, make_mock_factory, make_pin_factory
from firmware_config import Config

log = logging.getLogger(__name__)


class RefereeBoard:
    """Every GPIO device of the referee, built from one configuration."""

    def __init__(
        self,
        *,
        pin_factory: Factory,
        beeper: Beeper,
        button: RefereeButton,
        countdown: Countdown,
        led: StatusLed | None = None,
        owns_factory: bool = False,
    ):
        self.pin_factory = pin_factory
        self.beeper = beeper
        self.button = button
        self.countdown = countdown
        self.led = led
        self._owns_factory = owns_factory
        self._closed = False

    @classmethod
    def from_config(
        cls, config: Config, *, simulate: bool = False, pin_factory: Factory | None = None
    ) -> RefereeBoard:
        """Build the board; ``simulate`` forces mock pins, ``pin_factory`` injects one."""
        gpio, countdown = config.gpio, config.countdown
        owns_factory = pin_factory is None
        if pin_factory is None:
            pin_factory = make_mock_factory() if simulate else make_pin_factory(gpio.pin_factory)
        built: list = []
        try:
            beeper = Beeper(
                gpio.buzzer_pin,
                kind=gpio.buzzer_kind,
                beep_hz=countdown.beep_hz,
                final_hz=countdown.final_hz,
                beep_seconds=countdown.beep_ms / 1000,
                final_tone_seconds=countdown.final_tone_ms / 1000,
                pin_factory=pin_factory,
            )
            built.append(beeper)
            button = RefereeButton(
                gpio.button_pin,
                bounce_seconds=gpio.button_bounce_ms / 1000,
                long_press_seconds=gpio.long_press_seconds,
                pin_factory=pin_factory,
            )
            built.append(button)
            led = None
            if gpio.led_pin is not None:
                led = StatusLed(gpio.led_pin, pin_factory=pin_factory)
                built.append(led)
            timer = Countdown(seconds=countdown.seconds, beeper=beeper, led=led)
        except BaseException:
            for device in reversed(built):  # nothing half-built is left holding pins
                device.close()
            if owns_factory:
                pin_factory.close()
            raise
        board = cls(
            pin_factory=pin_factory, beeper=beeper, button=button, countdown=timer, led=led,
            owns_factory=owns_factory,
        )
        log.info("GPIO: %s", board.description)
        return board

    @property
    def is_simulated(self) -> bool:
        return is_simulated(self.pin_factory)

    @property
    def description(self) -> str:
        return describe(self.pin_factory)

    @property
    def closed(self) -> bool:
        return self._closed

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        self.countdown.close()
        for device in (self.led, self.button, self.beeper):
            if device is not None:
                device.close()
        if self._owns_factory:
            self.pin_factory.close()

    def __enter__(self) -> RefereeBoard:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<RefereeBoard {self.description}{', closed' if self._closed else ''}>"
