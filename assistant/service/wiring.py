"""The one place that builds the service from the config: engine, store, devices, cameras.

The rules engine (assistant.rules, assistant.boxes), the GPIO board, the cameras, the
tower judge and the arena monitor are put together here and nowhere else in the service.
Hardware that is missing or failing at run time degrades to an honest fallback that the
log and /api/health report; in simulation the cameras show rendered demo scenes.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import firmware_config
from assistant import boxes, rules
from assistant.hardware.board import RefereeBoard
from assistant.hardware.cameras import open_camera
from assistant.knockdown import KnockdownFlow
from assistant.service.arena import ArenaMonitor
from assistant.service.core import Hardware, InvalidRequest, RefereeService
from assistant.service.tower import TowerCalibrator
from assistant.store import MatchStore
from firmware_config import Config
from vision.arena import ArenaSettings
from vision.synth.arena_demo import ArenaDemoFeed
from vision.synth.tower_demo import TowerDemoFeed
from vision.tower import TowerSettings

log = logging.getLogger("knockdown.service")

NEW_MATCH_OPTIONS = ("boxes", "fighters", "players", "variant", "arena", "arena_box", "skills_box", "seed")


class RulesEngine:
    """Adapter from the service's Engine seam to :mod:`assistant.rules` and :mod:`assistant.boxes`."""

    def __init__(self, *, defaults: dict | None = None):
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
    firmware: Config  # the validated firmware_config.Config everything else comes from
    host: str = "0.0.0.0"
    port: int = 8080
    simulate: bool = False
    pin: str | None = None
    config_file: Path | None = None
    # Where a tower calibration from the tablet is saved: the config file, or one in the data dir.
    tower_calibration_file: Path | None = None

    @property
    def match_defaults(self) -> dict:
        return {"variant": self.firmware.match.variant, "arena": self.firmware.match.arena}


def load_config(*, data_dir=None, host=None, port=None, simulate=False, config_file=None) -> ServiceConfig:
    """The effective config: embedded defaults, then the TOML file, then the flags.

    firmware_config owns the file format and its validation (its ConfigError names the
    file, key and value). Without a config file, the tower calibration the tablet saved in
    the data dir (a config file of its own) is read instead.
    """
    overrides = {"store.data_dir": str(data_dir) if data_dir else None, "http.host": host, "http.port": port}
    firmware = firmware_config.load_config(config_file, overrides=overrides)
    if config_file:
        calibration_file = Path(config_file)
    else:
        calibration_file = Path(firmware.store.data_dir) / firmware_config.TOWER_CALIBRATION_FILE
        if calibration_file.is_file():
            firmware = firmware_config.load_config(calibration_file, overrides=overrides)
    return ServiceConfig(
        data_dir=Path(firmware.store.data_dir),
        firmware=firmware,
        host=firmware.http.host,
        port=firmware.http.port,
        simulate=simulate,
        pin=firmware.referee.pin or None,  # "" = the PIN kept in the data dir
        config_file=Path(config_file) if config_file else None,
        tower_calibration_file=calibration_file,
    )


# Camera sources that simulation replaces with a rendered demo feed.
LIVE_SOURCES = ("auto", "picamera2", "usb", "synthetic")


@dataclass
class Devices:
    countdown: Any = None
    button: Any = None
    board: Any = None
    camera: Any = None
    tower_factory: Any = None
    tower_calibrator: Any = None
    tower_demo: Any = None
    arena: Any = None

    def close(self) -> None:
        for device in (self.board, self.camera, self.arena):
            if device is not None:
                device.close()


def build_devices(config: ServiceConfig) -> tuple[Devices, Hardware]:
    """GPIO board, cameras, tower judge and arena monitor for this machine, or honest fallbacks."""
    devices, hardware = Devices(), Hardware(simulated=config.simulate)
    firmware = config.firmware
    try:
        devices.board = RefereeBoard.from_config(firmware, simulate=config.simulate)
        devices.countdown, devices.button = devices.board.countdown, devices.board.button
        hardware.countdown = "mock-gpio" if devices.board.is_simulated else "gpio"
        hardware.notes.append(f"GPIO: {devices.board.description}")
    except Exception as error:  # no usable GPIO here: fall back, and say so
        hardware.notes.append(f"GPIO unavailable ({error}); the countdown keeps time in software")

    tower_config = firmware.cameras.tower
    if config.simulate and tower_config.source in LIVE_SOURCES:
        devices.tower_demo = TowerDemoFeed()
        hardware.notes.append("tower camera: rendered demo build mat (a standing tower from mid-countdown)")
    try:
        devices.camera = open_camera(tower_config, role="tower", simulate=config.simulate,
                                     make_frame=devices.tower_demo)
    except Exception as error:
        hardware.notes.append(f"tower camera unavailable ({error})")
    if devices.camera is None:
        hardware.notes.append("no tower camera: every verdict is 'uncertain' and the referee decides")
    else:
        hardware.camera = type(devices.camera).__name__ + (" (demo)" if config.simulate else "")
        settings = TowerSettings.from_mapping(firmware.vision.tower.model_dump(mode="json"))
        save_to = config.tower_calibration_file or config.data_dir / firmware_config.TOWER_CALIBRATION_FILE
        devices.tower_calibrator = TowerCalibrator(settings=settings, save_to=save_to)
        devices.tower_factory = devices.tower_calibrator.session  # reads the live settings at each test
        hardware.tower_judge = "vision"
    devices.arena = _build_arena(config, hardware)
    hardware.simulated = config.simulate or hardware.countdown != "gpio" or devices.camera is None
    return devices, hardware


def _build_arena(config: ServiceConfig, hardware: Hardware) -> ArenaMonitor | None:
    """The arena camera and its monitor; in simulation the camera shows a rendered arena."""
    settings = ArenaSettings.from_mapping(config.firmware.vision.arena.model_dump(mode="json"))
    camera_config = config.firmware.cameras.arena
    demo = None
    if config.simulate and camera_config.source in LIVE_SOURCES:
        demo = ArenaDemoFeed(image_size=tuple(camera_config.resolution))
    try:
        camera = open_camera(camera_config, role="arena", simulate=config.simulate, make_frame=demo)
    except Exception as error:
        hardware.notes.append(f"arena camera unavailable ({error})")
        return None
    if camera is None:
        hardware.notes.append("arena camera switched off (cameras.arena.source = none)")
        return None
    hardware.notes.append("arena camera: " + ("rendered demo arena that follows the tracker" if demo
                                              else type(camera).__name__))
    return ArenaMonitor(camera=camera, data_dir=config.data_dir, settings=settings, demo=demo)


def build_service(config: ServiceConfig, *, engine: Any = None) -> RefereeService:
    """The whole service for this machine, resumed from the store in the data dir."""
    devices, hardware = build_devices(config)
    try:
        flow = KnockdownFlow(
            countdown=devices.countdown,
            tower_session_factory=devices.tower_factory,
            countdown_seconds=float(config.firmware.countdown.seconds),
            grace_seconds=float(config.firmware.referee.auto_confirm_seconds),
            confident_at=float(config.firmware.vision.tower.auto_confirm_confidence),
            view_holds_cubes=config.firmware.vision.tower.tallest_tower_cubes,  # None until calibrated
            # A wrong "fail" costs a round: unless configured, only a pass confirms itself.
            auto_confirm=("pass", "fail") if config.firmware.referee.auto_confirm_fail else ("pass",),
        )
        store = MatchStore.in_dir(config.data_dir)
    except BaseException:
        devices.close()
        raise
    try:
        service = RefereeService(store=store, engine=engine or RulesEngine(defaults=config.match_defaults), flow=flow,
                                 countdown=devices.countdown, button=devices.button, camera=devices.camera,
                                 hardware=hardware, owned=(devices.board,), arena=devices.arena,
                                 tower_demo=devices.tower_demo, tower_calibrator=devices.tower_calibrator)
    except BaseException:
        store.close()
        devices.close()
        raise
    mode = "SIMULATED hardware" if hardware.simulated else "real hardware"
    log.warning("running on %s: countdown=%s camera=%s tower judge=%s", mode, hardware.countdown,
                hardware.camera, hardware.tower_judge)
    for note in hardware.notes:
        log.warning("%s", note)
    return service
