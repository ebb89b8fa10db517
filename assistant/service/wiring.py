"""The one place that connects the service to the modules other branches build.

The rules engine (assistant.rules, assistant.boxes), the countdown device
(assistant.hardware.countdown), camera sources and the tower judge
(vision.tower) are imported here and nowhere else in the service, so wiring a
new version of any of them is an edit to this file only. Anything missing or
failing degrades to an honest fallback that /api/health reports.
"""

from __future__ import annotations

import importlib
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

    def __init__(self, *, defaults: dict | None = None):
        from assistant import boxes, rules

        self._rules = rules
        self._boxes = boxes
        # [match] defaults from the config: used where a new match does not say.
        self._defaults = {k: v for k, v in (defaults or {}).items() if v}
        self.IllegalAction = rules.IllegalAction
        self.MalformedEvent = rules.MalformedEvent
        self.RecordError = rules.RecordError

    def new_match(self, options: dict) -> tuple[dict, Any]:
        unknown = sorted(set(options) - set(NEW_MATCH_OPTIONS))
        if unknown:
            raise InvalidRequest(
                f"new match: unknown option {unknown[0]!r}; allowed: {', '.join(NEW_MATCH_OPTIONS)}"
            )
        kwargs = {**self._defaults, **options}
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
    auto_confirm_fail: bool = False
    match_defaults: dict | None = None
    config_file: Path | None = None
    firmware: Any = None  # firmware_config.Config when that package is present


def load_config(*, data_dir=None, host=None, port=None, simulate=False, config_file=None) -> ServiceConfig:
    """The effective config: embedded defaults, then the TOML file, then the flags.

    firmware_config owns the file format and its validation (its ConfigError names the
    file, key and value); without it the service runs on its own defaults.
    """
    loader = _optional("firmware_config", "load_config")
    if loader is None:
        if config_file is not None:
            raise ServiceError(f"--config {str(config_file)!r}: firmware_config cannot load files in this build")
        return ServiceConfig(data_dir=Path(data_dir or "data"), host=host or "0.0.0.0", port=port or 8080,
                             simulate=simulate)
    overrides = {"store.data_dir": str(data_dir) if data_dir else None, "http.host": host, "http.port": port}
    firmware = loader(config_file, overrides=overrides)
    return ServiceConfig(
        data_dir=Path(firmware.store.data_dir),
        host=firmware.http.host,
        port=firmware.http.port,
        simulate=simulate,
        pin=firmware.referee.pin or None,  # "" = the PIN kept in the data dir
        countdown_seconds=float(firmware.countdown.seconds),
        grace_seconds=float(firmware.referee.auto_confirm_seconds),
        confident_at=float(firmware.vision.tower.auto_confirm_confidence),
        auto_confirm_fail=firmware.referee.auto_confirm_fail,
        match_defaults={"variant": firmware.match.variant, "arena": firmware.match.arena},
        config_file=Path(config_file) if config_file else None,
        firmware=firmware,
    )


def _optional(module_name: str, attribute: str):
    """``module.attribute`` if that module exists in this build, else None."""
    try:
        module = importlib.import_module(module_name)
    except ImportError:
        return None
    return getattr(module, attribute, None)


@dataclass
class Devices:
    countdown: Any = None
    button: Any = None
    board: Any = None
    camera: Any = None
    tower_factory: Any = None
    arena: Any = None


def build_devices(config: ServiceConfig) -> tuple[Devices, Hardware]:
    """GPIO board, tower camera and tower judge for this machine, or honest fallbacks."""
    devices, hardware = Devices(), Hardware(simulated=config.simulate)
    board_class = _optional("assistant.hardware.board", "RefereeBoard")
    if board_class is None or config.firmware is None:
        hardware.notes.append("no GPIO board module: the tablet's countdown keeps time in software")
    else:
        try:
            devices.board = board_class.from_config(config.firmware, simulate=config.simulate)
            devices.countdown, devices.button = devices.board.countdown, devices.board.button
            hardware.countdown = "mock-gpio" if devices.board.is_simulated else "gpio"
            hardware.notes.append(f"GPIO: {devices.board.description}")
        except Exception as error:  # no usable GPIO here: fall back, and say so
            hardware.notes.append(f"GPIO unavailable ({error}); the countdown keeps time in software")
    open_camera = _optional("assistant.hardware.cameras", "open_camera")
    if open_camera is None or config.firmware is None:
        hardware.notes.append("no camera module: no camera")
    else:
        try:
            devices.camera = open_camera(config.firmware.cameras.tower, role="tower", simulate=config.simulate)
        except Exception as error:
            hardware.notes.append(f"tower camera unavailable ({error})")
        if devices.camera is not None:
            hardware.camera = f"{type(devices.camera).__name__}" + (" (demo)" if config.simulate else "")
    session_class = _optional("vision.tower", "TowerSession")
    if session_class is None:
        hardware.notes.append("no tower judge: every verdict is 'uncertain' and the referee decides")
    elif devices.camera is not None:
        settings = _tower_settings(config)
        devices.tower_factory = lambda *, heavy, light: session_class(heavy=heavy, light=light, settings=settings)
        hardware.tower_judge = "vision"
    devices.arena = _build_arena(config, open_camera, hardware)
    hardware.simulated = config.simulate or hardware.countdown != "gpio" or devices.camera is None
    return devices, hardware


def _build_arena(config: ServiceConfig, open_camera, hardware: Hardware):
    """The arena camera and its monitor; in simulation the camera shows a rendered arena."""
    if open_camera is None or config.firmware is None:
        return None
    from assistant.service.arena import ArenaMonitor
    from vision.arena import ArenaSettings

    settings = ArenaSettings.from_mapping(config.firmware.vision.arena.model_dump(mode="json"))
    camera_config = config.firmware.cameras.arena
    demo = None
    if config.simulate and camera_config.source in ("auto", "picamera2", "usb", "synthetic"):
        from vision.synth.arena_demo import ArenaDemoFeed

        demo = ArenaDemoFeed(image_size=tuple(camera_config.resolution))
    try:
        camera = open_camera(camera_config, role="arena", simulate=config.simulate, make_frame=demo)
    except Exception as error:
        hardware.notes.append(f"arena camera unavailable ({error})")
        return None
    if camera is None:
        hardware.notes.append("arena camera switched off (cameras.arena.source = none)")
        return None
    hardware.notes.append("arena camera: " + ("rendered demo arena that follows the tracker" if demo else type(camera).__name__))
    return ArenaMonitor(camera=camera, data_dir=config.data_dir, settings=settings, demo=demo)


def _tower_settings(config: ServiceConfig):
    """vision's TowerSettings from the [vision.tower] table (vision imports nothing of ours)."""
    settings_class = _optional("vision.tower", "TowerSettings")
    if settings_class is None:
        return None
    if config.firmware is None:
        return settings_class()
    return settings_class.from_mapping(config.firmware.vision.tower.model_dump(mode="json"))


def build_service(config: ServiceConfig, *, engine: Any = None) -> RefereeService:
    """The whole service for this machine, resumed from the store in the data dir."""
    devices, hardware = build_devices(config)
    try:
        flow = KnockdownFlow(
            countdown=devices.countdown,
            tower_session_factory=devices.tower_factory,
            countdown_seconds=config.countdown_seconds,
            grace_seconds=config.grace_seconds,
            confident_at=config.confident_at,
            # A wrong "fail" costs a round: unless configured, only a pass confirms itself.
            auto_confirm=("pass", "fail") if config.auto_confirm_fail else ("pass",),
        )
        store = MatchStore.in_dir(config.data_dir)
    except BaseException:
        _close(devices.board, devices.camera, devices.arena)
        raise
    try:
        service = RefereeService(store=store, engine=engine or RulesEngine(defaults=config.match_defaults), flow=flow, countdown=devices.countdown,
                                 button=devices.button, camera=devices.camera, hardware=hardware,
                                 owned=(devices.board,), arena=devices.arena)
    except BaseException:
        store.close()
        _close(devices.board, devices.camera, devices.arena)
        raise
    mode = "SIMULATED hardware" if hardware.simulated else "real hardware"
    log.warning("running on %s: countdown=%s camera=%s tower judge=%s", mode, hardware.countdown,
                hardware.camera, hardware.tower_judge)
    for note in hardware.notes:
        log.warning("%s", note)
    return service


def _close(*devices) -> None:
    for device in devices:
        if device is not None:
            device.close()
