"""Pin factories: the one place that decides between real GPIO and gpiozero's mock pins.

Nothing in the product imports RPi.GPIO or lgpio directly; the real factories are
imported here, inside :func:`make_pin_factory`, so a laptop without them still runs
(simulated) and says so plainly.
"""

from __future__ import annotations

import logging
from pathlib import Path

from gpiozero.pins import Factory
from gpiozero.pins.mock import MockFactory, MockPWMPin

log = logging.getLogger(__name__)

PIN_FACTORY_KINDS = ("auto", "lgpio", "rpigpio", "mock")
_DEVICE_TREE_MODEL = Path("/proc/device-tree/model")
# The pip extra / apt package that brings each real library.
_INSTALL_HINT = {
    "lgpio": "pip install 'knockdown-referee[pi]' (or apt install python3-lgpio)",
    "rpigpio": "apt install python3-rpi.gpio (or pip install RPi.GPIO)",
}


class PinFactoryError(ValueError):
    """The requested pin factory cannot be used here."""


def is_raspberry_pi(model_file: Path = _DEVICE_TREE_MODEL) -> bool:
    """True when the device tree says this board is a Raspberry Pi."""
    try:
        return "Raspberry Pi" in model_file.read_text(encoding="ascii", errors="replace")
    except OSError:
        return False


def make_mock_factory() -> MockFactory:
    """Simulated pins; PWM-capable so a passive (tonal) buzzer works too."""
    return MockFactory(pin_class=MockPWMPin)


def make_pin_factory(kind: str = "auto", *, on_pi: bool | None = None) -> Factory:
    """A gpiozero pin factory for ``kind`` ("auto", "lgpio", "rpigpio" or "mock").

    "auto" picks lgpio, then RPi.GPIO, on a Raspberry Pi, and mock pins anywhere else
    (or when neither library loads); :func:`describe` says which it got.
    """
    if kind not in PIN_FACTORY_KINDS:
        raise PinFactoryError(f"pin factory {kind!r} is not one of {', '.join(PIN_FACTORY_KINDS)}")
    if kind == "mock":
        return make_mock_factory()
    if kind != "auto":
        return _real_factory(kind)
    if not (is_raspberry_pi() if on_pi is None else on_pi):
        log.info("GPIO: not a Raspberry Pi, using simulated pins")
        return make_mock_factory()
    for real in ("lgpio", "rpigpio"):
        try:
            return _real_factory(real)
        except PinFactoryError as exc:
            log.warning("GPIO: %s", exc)
    log.warning("GPIO: no GPIO library works on this Pi, using simulated pins")
    return make_mock_factory()


def _real_factory(kind: str) -> Factory:
    try:
        if kind == "lgpio":
            from gpiozero.pins.lgpio import LGPIOFactory as factory_class
        else:
            from gpiozero.pins.rpigpio import RPiGPIOFactory as factory_class
    except ImportError as exc:
        raise PinFactoryError(
            f"pin factory {kind!r} needs a library that is not installed ({exc.name or exc}): "
            f"{_INSTALL_HINT[kind]}"
        ) from None
    try:
        return factory_class()
    except Exception as exc:  # the libraries raise their own types (lgpio.error, RuntimeError)
        raise PinFactoryError(f"pin factory {kind!r} could not open the GPIO chip: {exc}") from None


def is_simulated(factory: Factory) -> bool:
    return isinstance(factory, MockFactory)


def describe(factory: Factory) -> str:
    """E.g. "simulated (MockFactory)" or "lgpio (LGPIOFactory)", for logs and /api/health."""
    name = type(factory).__name__
    if is_simulated(factory):
        return f"simulated ({name})"
    real = {"LGPIOFactory": "lgpio", "RPiGPIOFactory": "RPi.GPIO"}.get(name, name)
    return f"{real} ({name})"


def supports_pwm(factory: Factory) -> bool:
    """Whether the factory's pins can do PWM (mock pins only with ``pin_class=MockPWMPin``)."""
    if isinstance(factory, MockFactory):
        return issubclass(factory.pin_class, MockPWMPin)
    return True  # lgpio and RPi.GPIO drive PWM on any pin (config insists on a hardware-PWM pin)
