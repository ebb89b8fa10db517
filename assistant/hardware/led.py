"""The optional status LED."""

from __future__ import annotations

from gpiozero import LED
from gpiozero.pins import Factory


class StatusLed:
    """A status LED on one GPIO pin: lit while a countdown runs, blinks for hw-check."""

    def __init__(self, pin: int, *, pin_factory: Factory | None = None):
        self.pin = pin
        self._led = LED(pin, pin_factory=pin_factory)

    def on(self) -> None:
        self._led.on()

    def off(self) -> None:
        self._led.off()

    def blink(self, *, on_seconds: float = 0.2, off_seconds: float = 0.2, times: int | None = None, wait: bool = False) -> None:
        """Blink ``times`` times (forever when None); ``wait`` blocks until done."""
        self._led.blink(on_time=on_seconds, off_time=off_seconds, n=times, background=not wait)

    @property
    def is_lit(self) -> bool:
        return bool(self._led.is_lit)

    @property
    def closed(self) -> bool:
        return self._led.closed

    def close(self) -> None:
        self._led.close()  # gpiozero's close is idempotent

    def __enter__(self) -> StatusLed:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def __repr__(self) -> str:
        state = "closed" if self.closed else ("lit" if self.is_lit else "off")
        return f"<StatusLed on GPIO{self.pin}, {state}>"
