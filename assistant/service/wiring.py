"""The one place that connects the service to the modules other branches build.

The rules engine (assistant.rules, assistant.boxes), the countdown device
(assistant.hardware.countdown), camera sources and the tower judge
(vision.tower) are imported here and nowhere else in the service, so wiring a
new version of any of them is an edit to this file only. Anything missing or
failing degrades to an honest fallback that /api/health reports.
"""

from __future__ import annotations

import importlib
import json
import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from assistant.knockdown import KnockdownFlow
from assistant.service.core import Hardware, InvalidRequest, RefereeService, ServiceError
from assistant.store import MatchStore

log = logging.getLogger("knockdown.service")

NEW_MATCH_OPTIONS = ("boxes", "fighters", "players", "variant", "arena", "arena_box", "skills_box", "seed")


class RulesEngine:
    """Adapter from the service's Engine seam to :mod:`assistant.rules` and :mod:`assistant.boxes`."""

    def __init__(self):
        from assistant import boxes, rules

        self._rules = rules
        self._boxes = boxes
        self.IllegalAction = rules.IllegalAction
        self.RecordError = rules.RecordError

    def new_match(self, options: dict) -> tuple[dict, Any]:
        unknown = sorted(set(options) - set(NEW_MATCH_OPTIONS))
        if unknown:
            raise InvalidRequest(
                f"new match: unknown option {unknown[0]!r}; allowed: {', '.join(NEW_MATCH_OPTIONS)}"
            )
        kwargs = dict(options)
        boxes = kwargs.pop("boxes", ["practice"])
        try:
            setup = self._boxes.new_setup(boxes, **kwargs)
        except (self._boxes.BoxError, self._rules.InvalidData) as error:
            raise InvalidRequest(f"new match: {error}") from None
        except TypeError as error:  # e.g. a number where a list of names belongs
            raise InvalidRequest(f"new match: bad options {options!r}: {error}") from None
        return self._rules.Match.header(setup), self._rules.Match(setup)

    def replay(self, header: dict, events: list[dict]) -> Any:
        setup = self._rules.Setup.from_dict(header["setup"], source="store")
        return self._rules.Match.replay(setup, events)

    def from_record(self, text: str) -> tuple[dict, Any]:
        match = self._rules.Match.from_record(text)
        return self._rules.Match.header(match.setup), match


@dataclass
class ServiceConfig:
    data_dir: Path
    host: str = "0.0.0.0"
    port: int = 8080
    simulate: bool = False
    pin: str | None = None
    countdown_seconds: float = 10.0
    grace_seconds: float = 5.0
    confident_at: float = 0.9
    config_file: Path | None = None


def load_config(*, data_dir=None, host=None, port=None, simulate=False, config_file=None) -> ServiceConfig:
    """The effective config: embedded defaults, then firmware_config's file, then flags."""
    config = ServiceConfig(data_dir=Path("data"), simulate=simulate)
    loader = _optional("firmware_config", "load")
    if loader is not None:
        loaded = loader(config_file) if config_file else loader()
        _merge_firmware_config(config, loaded)
    elif config_file is not None:
        raise ServiceError(f"--config {str(config_file)!r}: firmware_config cannot load files in this build")
    if data_dir is not None:
        config.data_dir = Path(data_dir)
    if host is not None:
        config.host = host
    if port is not None:
        config.port = port
    config.config_file = Path(config_file) if config_file else None
    return config


def _merge_firmware_config(config: ServiceConfig, loaded: Any) -> None:
    """Copy the settings the service uses out of firmware_config's object, where present."""
    def pick(*path, default=None):
        value = loaded
        for key in path:
            value = value.get(key) if isinstance(value, dict) else getattr(value, key, None)
            if value is None:
                return default
        return value

    config.data_dir = Path(pick("data_dir", default=config.data_dir))
    config.host = pick("http", "host", default=config.host)
    config.port = int(pick("http", "port", default=config.port))
    config.pin = pick("referee", "pin", default=config.pin)
    config.countdown_seconds = float(pick("countdown", "seconds", default=config.countdown_seconds))


def _optional(module_name: str, attribute: str):
    try:
        module = importlib.import_module(module_name)
    except ImportError:
        return None
    return getattr(module, attribute, None)


def build_hardware(config: ServiceConfig) -> tuple[Any, Any, Any, Hardware]:
    """Countdown device, camera and tower-judge factory for this machine, or fallbacks."""
    hardware = Hardware(simulated=config.simulate)
    countdown = camera = tower_factory = None
    countdown_class = _optional("assistant.hardware.countdown", "Countdown")
    if countdown_class is None:
        hardware.notes.append("no countdown device module: the tablet's countdown keeps time in software")
    else:
        try:
            if config.simulate:
                from gpiozero import Device
                from gpiozero.pins.mock import MockFactory, MockPWMPin

                Device.pin_factory = MockFactory(pin_class=MockPWMPin)
            countdown = countdown_class(seconds=config.countdown_seconds)
            hardware.countdown = "mock-gpio" if config.simulate else "gpio"
        except Exception as error:  # no GPIO here: fall back, and say so
            hardware.notes.append(f"countdown device unavailable ({error}); software countdown")
    session_class = _optional("vision.tower", "TowerSession")
    if session_class is not None:
        tower_factory = session_class
        hardware.tower_judge = "vision"
    else:
        hardware.notes.append("no tower judge: every verdict is 'uncertain' and the referee decides")
    camera_factory = _optional("assistant.hardware.camera", "open_camera")
    if camera_factory is not None:
        try:
            camera = camera_factory(demo=config.simulate)
            hardware.camera = "demo" if config.simulate else "camera"
        except Exception as error:
            hardware.notes.append(f"camera unavailable ({error})")
    else:
        hardware.notes.append("no camera source module: no camera")
    if camera is None:
        tower_factory = None
        hardware.tower_judge = "none"
    hardware.simulated = config.simulate or hardware.countdown != "gpio" or hardware.camera != "camera"
    return countdown, camera, tower_factory, hardware


def build_service(config: ServiceConfig, *, engine: Any = None) -> RefereeService:
    """The whole service for this machine, resumed from the store in the data dir."""
    countdown, camera, tower_factory, hardware = build_hardware(config)
    flow = KnockdownFlow(
        countdown=countdown,
        tower_session_factory=tower_factory,
        countdown_seconds=config.countdown_seconds,
        grace_seconds=config.grace_seconds,
        confident_at=config.confident_at,
    )
    store = MatchStore.in_dir(config.data_dir)
    try:
        service = RefereeService(store=store, engine=engine or RulesEngine(), flow=flow, countdown=countdown,
                                 camera=camera, hardware=hardware)
    except BaseException:
        store.close()
        raise
    mode = "SIMULATED hardware" if hardware.simulated else "real hardware"
    log.warning("running on %s: countdown=%s camera=%s tower judge=%s", mode, hardware.countdown,
                hardware.camera, hardware.tower_judge)
    for note in hardware.notes:
        log.warning("%s", note)
    return service
