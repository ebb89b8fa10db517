"""The countdown buzzer: an active buzzer (on/off) or a passive one (PWM tones)."""

from __future__ import annotations

import enum
import math
import time
from typing import Callable

from gpiozero import Buzzer, TonalBuzzer
from gpiozero.pins import Factory
from gpiozero.tones import Tone

from assistant.hardware.pins import describe, supports_pwm

BUZZER_KINDS = ("active", "passive")


class Sound(enum.Enum):
    """What the countdown plays: a short beep each second, a distinct tone at zero."""

    BEEP = "beep"
    FINAL = "final"


class BeeperError(ValueError):
    """The buzzer cannot be set up as asked."""


class Beeper:
    """A buzzer that plays the countdown's beep and final tone.

    ``kind="active"`` drives a gpiozero :class:`~gpiozero.Buzzer` (the final tone is
    distinct by its length); ``kind="passive"`` drives a :class:`~gpiozero.TonalBuzzer`
    at ``beep_hz`` / ``final_hz`` and needs a PWM-capable pin factory.

    :meth:`sound` and :meth:`silence` are the edges the countdown schedules itself;
    :meth:`beep` and :meth:`final_tone` are the stand-alone conveniences.
    """

    def __init__(
        self,
        pin: int,
        *,
        kind: str = "active",
        beep_hz: float = 880.0,
        final_hz: float = 440.0,
        beep_seconds: float = 0.08,
        final_tone_seconds: float = 0.6,
        pin_factory: Factory | None = None,
        sleeper: Callable[[float], None] = time.sleep,
    ):
        if kind not in BUZZER_KINDS:
            raise BeeperError(f"buzzer kind {kind!r} is not 'active' or 'passive'")
        self.pin = pin
        self.kind = kind
        self.beep_seconds = beep_seconds
        self.final_tone_seconds = final_tone_seconds
        self._sleeper = sleeper
        self._hz = {Sound.BEEP: float(beep_hz), Sound.FINAL: float(final_hz)}
        self._sounding: Sound | None = None
        if kind == "active":
            self._device: Buzzer | TonalBuzzer = Buzzer(pin, pin_factory=pin_factory)
            return
        if pin_factory is not None and not supports_pwm(pin_factory):
            raise BeeperError(
                f"a passive (tonal) buzzer on GPIO{pin} needs PWM, which {describe(pin_factory)} "
                "pins cannot do: use MockFactory(pin_class=MockPWMPin), a real pin factory, "
                "or an active buzzer"
            )
        mid_tone, octaves = _tone_range(beep_hz, final_hz)
        self._device = TonalBuzzer(pin, mid_tone=mid_tone, octaves=octaves, pin_factory=pin_factory)

    @property
    def is_sounding(self) -> bool:
        return self._sounding is not None

    @property
    def sounding(self) -> Sound | None:
        return self._sounding

    def sound(self, what: Sound = Sound.BEEP) -> None:
        """Start sounding (until :meth:`silence`)."""
        if isinstance(self._device, TonalBuzzer):
            self._device.play(Tone.from_frequency(self._hz[what]))
        else:
            self._device.on()
        self._sounding = what

    def silence(self) -> None:
        if isinstance(self._device, TonalBuzzer):
            self._device.stop()
        else:
            self._device.off()
        self._sounding = None

    def beep(self) -> None:
        """One short beep; blocks for its length."""
        self._play(Sound.BEEP, self.beep_seconds)

    def final_tone(self) -> None:
        """The countdown's final tone; blocks for its length."""
        self._play(Sound.FINAL, self.final_tone_seconds)

    def _play(self, what: Sound, seconds: float) -> None:
        self.sound(what)
        try:
            self._sleeper(seconds)
        finally:
            self.silence()

    @property
    def closed(self) -> bool:
        return self._device.closed

    def close(self) -> None:
        if not self._device.closed:
            self.silence()
        self._device.close()

    def __enter__(self) -> Beeper:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def __repr__(self) -> str:
        state = "closed" if self.closed else (self._sounding.value if self._sounding else "silent")
        return f"<Beeper {self.kind} on GPIO{self.pin}, {state}>"


def _tone_range(*hz: float) -> tuple[Tone, int]:
    """A TonalBuzzer range (mid tone, octaves) that includes every frequency in ``hz``."""
    low, high = min(hz), max(hz)
    # A hair of margin so the edge tones are not lost to float rounding.
    octaves = max(1, math.ceil(math.log2(high / low) / 2 + 0.01))
    return Tone.from_frequency(math.sqrt(low * high)), octaves
