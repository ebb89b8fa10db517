"""``knockdown doctor``: is this Raspberry Pi ready to referee a match?

Each check is a small function that returns a :class:`CheckResult` (PASS, WARN, FAIL or
SKIP, a detail line, and for every failure the fix). Everything a check touches outside
Python -- files, the pin factory, the cameras, ``systemctl``, the disk, the network -- goes
through :class:`Probes`, so the tests can fake a Pi, a broken Pi or a laptop.

The product's own modules (``firmware_config``, ``assistant.hardware.pins``,
``vision.camera``) are imported lazily inside the default probes: the doctor must still
run, and say what is wrong, when one of them is broken.
"""

from __future__ import annotations

import enum
import os
import re
import shutil
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

SERVICE_NAME = "knockdown"
SERVICE_USER = "knockdown"
APPLIANCE_CONFIG = "/etc/knockdown/config.toml"
MODEL_FILE = "/proc/device-tree/model"
DEFAULT_PORT = 8080
CAMERA_ROLES = ("tower", "arena")
# A camera source with one of these names is switched off, not broken.
DISABLED_CAMERA_SOURCES = frozenset({"", "none", "off", "disabled"})
# Frames timed per camera after one warm-up frame: enough for a stable figure, quick to run.
FPS_SAMPLE_FRAMES = 10
# Below this the countdown still works, but the tower judge and arena reader lag visibly.
MIN_CAMERA_FPS = 5.0
MIN_FREE_BYTES = 200 * 1024**2
LOW_FREE_BYTES = 1024**3
SUPPORTED_MODEL = re.compile(r"Raspberry Pi (4|5|400|500|Compute Module [45])\b")


class Status(enum.Enum):
    PASS = "PASS"
    WARN = "WARN"
    FAIL = "FAIL"
    # Not checked because an earlier check failed (e.g. no valid config to read pins from).
    SKIP = "SKIP"


class DoctorError(ValueError):
    """A check result that breaks the doctor's own rules (e.g. a failure without a fix)."""


@dataclass(frozen=True)
class CheckResult:
    name: str
    status: Status
    detail: str
    fix: str | None = None

    def __post_init__(self) -> None:
        if self.status is Status.FAIL and not self.fix:
            raise DoctorError(f"check {self.name!r} failed without a fix: {self.detail!r}")

    def to_dict(self) -> dict[str, str | None]:
        return {"name": self.name, "status": self.status.value, "detail": self.detail, "fix": self.fix}


@dataclass(frozen=True)
class Report:
    results: tuple[CheckResult, ...]

    @property
    def ok(self) -> bool:
        """True when nothing failed: warnings and skips do not fail the doctor."""
        return not any(r.status is Status.FAIL for r in self.results)

    def count(self, status: Status) -> int:
        return sum(1 for r in self.results if r.status is status)

    def to_dict(self) -> dict[str, Any]:
        return {"ok": self.ok, "checks": [r.to_dict() for r in self.results]}


# ---------------------------------------------------------------- default probes


def _read_text(path: str) -> str:
    with open(path, encoding="utf-8", errors="replace") as handle:
        return handle.read()


def _load_config(path: str | None) -> Any:
    import firmware_config

    return firmware_config.load_config(path)


def _make_pin_factory(kind: str) -> Any:
    from assistant.hardware.pins import make_pin_factory

    return make_pin_factory(kind)


def _open_camera(source: str, *, index: int) -> Any:
    from vision.camera import open_source

    return open_source(source, index=index)


def _run(command: Sequence[str]) -> tuple[int, str]:
    """Runs a command; FileNotFoundError when it is not installed."""
    proc = subprocess.run(list(command), capture_output=True, text=True, timeout=10, check=False)
    return proc.returncode, proc.stdout


def _try_write(directory: str) -> None:
    """Creates and deletes a file in ``directory``; raises OSError when that is not allowed."""
    with tempfile.NamedTemporaryFile(dir=directory, prefix=".doctor-"):
        pass


def parse_ip_addresses(ip_output: str) -> list[str]:
    """The addresses in ``ip -o addr show scope global`` output, in order."""
    return re.findall(r"\binet6? ([0-9A-Fa-f.:]+)/\d+", ip_output)


def _addresses() -> list[str]:
    try:
        code, out = _run(["ip", "-o", "-4", "addr", "show", "scope", "global"])
    except (OSError, subprocess.SubprocessError):
        return []
    return parse_ip_addresses(out) if code == 0 else []


def _http_get(url: str) -> int:
    """The HTTP status of a GET; raises OSError when nothing answers."""
    try:
        with urllib.request.urlopen(url, timeout=3) as response:
            return int(response.status)
    except urllib.error.HTTPError as error:
        error.close()
        return int(error.code)


@dataclass
class Probes:
    """The doctor's window on the machine; tests replace any field with a fake."""

    read_text: Callable[[str], str] = _read_text
    path_exists: Callable[[str], bool] = os.path.exists
    load_config: Callable[[str | None], Any] = _load_config
    make_pin_factory: Callable[[str], Any] = _make_pin_factory
    open_camera: Callable[..., Any] = _open_camera
    run: Callable[[Sequence[str]], tuple[int, str]] = _run
    try_write: Callable[[str], None] = _try_write
    disk_free: Callable[[str], int] = field(default=lambda path: shutil.disk_usage(path).free)
    addresses: Callable[[], list[str]] = _addresses
    hostname: Callable[[], str] = socket.gethostname
    http_get: Callable[[str], int] = _http_get
    clock: Callable[[], float] = time.monotonic


def default_probes() -> Probes:
    return Probes()


# ---------------------------------------------------------------- the checks


def check_pi_model(probes: Probes) -> CheckResult:
    name = "Pi model"
    try:
        model = probes.read_text(MODEL_FILE).replace("\0", "").strip()
    except OSError:
        return CheckResult(
            name,
            Status.WARN,
            f"not a Raspberry Pi (no {MODEL_FILE}): fine for development with serve --simulate",
        )
    if SUPPORTED_MODEL.search(model):
        return CheckResult(name, Status.PASS, model)
    return CheckResult(
        name, Status.WARN, f"{model}: untested; the referee is built for a Raspberry Pi 4 or 5"
    )


def resolve_config_path(given: str | None, probes: Probes) -> str | None:
    """The config the service would use: --config, else the appliance's file, else the defaults."""
    if given is not None:
        return given
    return APPLIANCE_CONFIG if probes.path_exists(APPLIANCE_CONFIG) else None


def check_config(probes: Probes, path: str | None) -> tuple[CheckResult, Any]:
    """Loads the config; returns the result and the config (None when it did not load)."""
    name = "config"
    where = path or "built-in defaults (no config file)"
    try:
        config = probes.load_config(path)
    except (ImportError, AttributeError) as error:
        # firmware_config missing or not the version this doctor was written for.
        return CheckResult(
            name,
            Status.FAIL,
            f"cannot load any config: {type(error).__name__}: {error}",
            "the installation is incomplete: re-run sudo deploy/install.sh",
        ), None
    except FileNotFoundError:
        return CheckResult(
            name,
            Status.FAIL,
            f"{path}: no such file",
            "pass the right --config, or run sudo deploy/install.sh to write the defaults "
            f"to {APPLIANCE_CONFIG}",
        ), None
    except Exception as error:  # noqa: BLE001 -- ConfigError (a ValueError) or anything a bad file provokes
        if path is None:
            fix = "the built-in defaults should always load: reinstall (sudo deploy/install.sh) and report this"
        else:
            fix = (
                f"correct the field named above in {path}, or move the file aside and re-run "
                "sudo deploy/install.sh to write the defaults"
            )
        return CheckResult(name, Status.FAIL, f"{where}: {error}", fix), None
    return CheckResult(name, Status.PASS, f"valid: {where}"), config


def _skipped(name: str) -> CheckResult:
    return CheckResult(name, Status.SKIP, "not checked: the config did not load")


def check_pin_factory(probes: Probes, config: Any) -> CheckResult:
    name = "pin factory"
    if config is None:
        return _skipped(name)
    gpio = config.gpio
    led = f"GPIO{gpio.led_pin}" if gpio.led_pin is not None else "none"
    pins = f"button GPIO{gpio.button_pin}, buzzer GPIO{gpio.buzzer_pin}, LED {led}"
    try:
        factory = probes.make_pin_factory(gpio.pin_factory)
    except Exception as error:  # noqa: BLE001 -- any failure here is the answer, reported with its text
        return CheckResult(
            name,
            Status.FAIL,
            f"{gpio.pin_factory!r} did not start: {type(error).__name__}: {error}",
            "on a Pi: sudo apt install python3-lgpio, keep the venv's --system-site-packages "
            "(deploy/install.sh makes it so), put the user in the gpio group, and run from a "
            "writable directory (sudo knockdown-doctor checks exactly as the service runs); "
            "on a laptop: use the simulated pins (knockdown serve --simulate)",
        )
    try:
        kind = type(factory).__name__
        # gpiozero's MockFactory: the countdown works on screen, the real button does nothing.
        if kind.startswith("Mock"):
            return CheckResult(
                name,
                Status.WARN,
                f"{gpio.pin_factory} ({kind}): simulated pins, the button and buzzer are not used; {pins}",
            )
        return CheckResult(name, Status.PASS, f"{gpio.pin_factory} ({kind}); {pins}")
    finally:
        close = getattr(factory, "close", None)
        if callable(close):
            close()


def _read_frame(camera: Any) -> Any:
    """One frame, or None; also accepts OpenCV's ``(ok, frame)`` convention."""
    result = camera.read()
    if isinstance(result, tuple) and len(result) == 2:
        ok, frame = result
        return frame if ok else None
    return result


def _measure_fps(camera: Any, probes: Probes) -> tuple[float, str]:
    """Frames per second over FPS_SAMPLE_FRAMES reads after a warm-up read, and the frame size."""
    frame = _read_frame(camera)
    if frame is None:
        raise OSError("the camera opened but returned no frame")
    started = probes.clock()
    for _ in range(FPS_SAMPLE_FRAMES):
        frame = _read_frame(camera)
        if frame is None:
            raise OSError("the camera stopped returning frames")
    elapsed = probes.clock() - started
    shape = getattr(frame, "shape", None)
    size = f"{shape[1]}x{shape[0]}" if shape is not None and len(shape) >= 2 else "unknown size"
    return (FPS_SAMPLE_FRAMES / elapsed if elapsed > 0 else float("inf")), size


def check_camera(probes: Probes, config: Any, role: str, *, service_active: bool) -> CheckResult:
    name = f"{role} camera"
    if config is None:
        return _skipped(name)
    camera_config = getattr(config.cameras, role)
    source, index = camera_config.source, camera_config.index
    if str(source or "").lower() in DISABLED_CAMERA_SOURCES:
        return CheckResult(name, Status.SKIP, f"switched off (cameras.{role}.source = {source!r})")
    label = f"{source} #{index}"
    camera = None
    try:
        camera = probes.open_camera(source, index=index)
        fps, size = _measure_fps(camera, probes)
    except Exception as error:  # noqa: BLE001 -- the camera's own error text is the useful detail
        if service_active:
            # libcamera lets one process own a camera: the running referee holds it.
            return CheckResult(
                name,
                Status.WARN,
                f"{label} is busy ({error}); the running service probably owns it",
                "to test the camera itself: sudo systemctl stop knockdown, run the doctor, "
                "then sudo systemctl start knockdown",
            )
        return CheckResult(
            name,
            Status.FAIL,
            f"{label}: {type(error).__name__}: {error}",
            "power off and reseat the ribbon cable (or the USB plug); "
            "list cameras with rpicam-hello --list-cameras (or v4l2-ctl --list-devices); the user "
            f"needs the video group; and cameras.{role}.source/index must match",
        )
    finally:
        if camera is not None:
            camera.close()
    if type(camera).__name__ == "SyntheticSource" and str(source).lower() != "synthetic":
        # "auto" found no camera and fell back to the demo feed: fine for development, not a camera.
        return CheckResult(
            name,
            Status.WARN,
            f"{label}: no camera found, using the synthetic demo feed ({fps:.1f} fps)",
            f"connect the {role} camera (ribbon or USB), or set cameras.{role}.source explicitly",
        )
    if fps < MIN_CAMERA_FPS:
        return CheckResult(
            name,
            Status.WARN,
            f"{label}: {size}, only {fps:.1f} fps (want {MIN_CAMERA_FPS:.0f}+)",
            "more light (dim scenes lengthen the exposure) or a smaller resolution",
        )
    return CheckResult(name, Status.PASS, f"{label}: {size}, {fps:.1f} fps")


def check_tower_calibration(probes: Probes, config: Any, config_path: str | None, data_dir: str | None) -> CheckResult:
    """Whether the tower camera's picture was measured, and the tallest tower it holds."""
    import firmware_config
    from vision.tower.calibration import ADVISED_TOWER_CUBES

    name = "tower calibration"
    if config is None:
        return _skipped(name)
    if str(config.cameras.tower.source or "").lower() in DISABLED_CAMERA_SOURCES:
        return CheckResult(name, Status.SKIP, "the tower camera is switched off")
    where = config_path or "built-in defaults"
    saved = Path(data_dir).expanduser() / firmware_config.TOWER_CALIBRATION_FILE if data_dir else None
    if config_path is None and saved is not None and probes.path_exists(str(saved)):
        # Without a config file the service reads the tablet's calibration from its data dir.
        config, where = probes.load_config(str(saved)), str(saved)
    tallest = config.vision.tower.tallest_tower_cubes
    how = ("press Calibrate tower camera on the tablet (the build mat with both markers, one light and one "
           "heavy cube on the build spot)")
    if tallest is None:
        return CheckResult(name, Status.WARN, f"not measured ({where}): no warning of a tower taller than the "
                           "tower camera's picture", how)
    detail = f"{where}: the tower camera's picture holds a tower up to {tallest} cubes"
    if tallest < ADVISED_TOWER_CUBES:
        return CheckResult(name, Status.WARN, f"{detail} (fewer than {ADVISED_TOWER_CUBES}: taller towers are "
                           "left to the referee)", "move the tower camera back, then " + how)
    return CheckResult(name, Status.PASS, detail)


def _existing_ancestor(path: Path, probes: Probes) -> Path:
    while not probes.path_exists(str(path)) and path != path.parent:
        path = path.parent
    return path


def resolve_data_dir(given: str | None, config: Any) -> str | None:
    if given is not None:
        return given
    return None if config is None else str(config.store.data_dir)


def check_store(probes: Probes, data_dir: str | None) -> CheckResult:
    name = "store"
    if data_dir is None:
        return _skipped(name)
    path = Path(data_dir).expanduser()
    target = _existing_ancestor(path, probes)
    try:
        probes.try_write(str(target))
    except OSError as error:
        return CheckResult(
            name,
            Status.FAIL,
            f"{target} is not writable: {error}",
            f"sudo chown -R {SERVICE_USER}:{SERVICE_USER} {target} (the service user must own it), "
            "or choose another store.data_dir",
        )
    if target != path:
        return CheckResult(name, Status.PASS, f"{path} will be created (in writable {target})")
    return CheckResult(name, Status.PASS, f"{path} is writable")


def check_disk(probes: Probes, data_dir: str | None) -> CheckResult:
    name = "free disk"
    if data_dir is None:
        return _skipped(name)
    target = _existing_ancestor(Path(data_dir).expanduser(), probes)
    free = probes.disk_free(str(target))
    text = f"{free / 1024**3:.1f} GiB free for {target}"
    fix = "free space (sudo apt clean, old match snapshots in the store) or use a larger SD card"
    if free < MIN_FREE_BYTES:
        return CheckResult(name, Status.FAIL, f"only {text}", fix)
    if free < LOW_FREE_BYTES:
        return CheckResult(name, Status.WARN, f"low: {text}", fix)
    return CheckResult(name, Status.PASS, text)


def parse_systemctl_show(output: str) -> dict[str, str]:
    return dict(line.split("=", 1) for line in output.splitlines() if "=" in line)


def _http_port_and_host(config: Any) -> tuple[str, int]:
    if config is None:
        return "0.0.0.0", DEFAULT_PORT
    return str(config.http.host), int(config.http.port)


def check_service(probes: Probes, config: Any) -> tuple[CheckResult, bool]:
    """The systemd service and its health endpoint; also returns whether it is running."""
    name = "service"
    command = [
        "systemctl", "show", f"{SERVICE_NAME}.service",
        "--property=LoadState,ActiveState,SubState,UnitFileState",
    ]  # fmt: skip
    try:
        code, out = probes.run(command)
    except (OSError, subprocess.SubprocessError) as error:
        code, out = -1, str(error)
    state = parse_systemctl_show(out) if code == 0 else {}
    if "LoadState" not in state:
        return CheckResult(
            name, Status.WARN, "systemd is not available here: not an installed appliance"
        ), False
    if state["LoadState"] == "not-found":
        return CheckResult(
            name,
            Status.WARN,
            f"{SERVICE_NAME}.service is not installed: fine for development",
            "on the appliance: sudo deploy/install.sh",
        ), False
    active = state.get("ActiveState") == "active"
    if not active:
        return CheckResult(
            name,
            Status.FAIL,
            f"installed but {state.get('ActiveState', '?')} ({state.get('SubState', '?')})",
            f"see why: journalctl -u {SERVICE_NAME} -n 50; then sudo systemctl restart {SERVICE_NAME}",
        ), False
    if state.get("UnitFileState") != "enabled":
        return CheckResult(
            name,
            Status.FAIL,
            f"running but {state.get('UnitFileState', '?')}: it will not come back after a power cut",
            f"sudo systemctl enable {SERVICE_NAME}",
        ), True
    host, port = _http_port_and_host(config)
    local_host = "127.0.0.1" if host in ("0.0.0.0", "", "::") else host
    url = f"http://{local_host}:{port}/api/health"
    try:
        status = probes.http_get(url)
    except OSError as error:
        status, reason = None, str(error)
    else:
        reason = f"HTTP {status}"
    if status != 200:
        return CheckResult(
            name,
            Status.FAIL,
            f"running and enabled, but {url} answered: {reason}",
            f"see why: journalctl -u {SERVICE_NAME} -n 50 (is http.port {port} the port it serves?)",
        ), True
    return CheckResult(name, Status.PASS, f"active, enabled at boot, {url} answered 200"), True


def check_network(probes: Probes, config: Any) -> CheckResult:
    name = "network"
    host, port = _http_port_and_host(config)
    addresses = probes.addresses()
    if not addresses:
        return CheckResult(
            name,
            Status.FAIL,
            "no network address: tablets cannot reach the dashboard",
            "connect Wi-Fi or Ethernet (Bookworm: sudo nmtui), then run the doctor again",
        )
    urls = [f"http://{a}:{port}/" if ":" not in a else f"http://[{a}]:{port}/" for a in addresses]
    urls.append(f"http://{probes.hostname()}.local:{port}/")
    if host.startswith("127.") or host in ("localhost", "::1"):
        return CheckResult(
            name,
            Status.WARN,
            f"the dashboard listens on {host} only, so tablets cannot reach {urls[0]}",
            'set http.host = "0.0.0.0" in the config',
        )
    return CheckResult(name, Status.PASS, "dashboard: " + "  ".join(urls))


def run_checks(
    *, config_path: str | None = None, data_dir: str | None = None, probes: Probes | None = None
) -> Report:
    probes = probes or default_probes()
    results = [check_pi_model(probes)]
    config_path = resolve_config_path(config_path, probes)
    config_result, config = check_config(probes, config_path)
    results.append(config_result)
    results.append(check_pin_factory(probes, config))
    service_result, service_active = check_service(probes, config)
    results.extend(check_camera(probes, config, role, service_active=service_active) for role in CAMERA_ROLES)
    store_dir = resolve_data_dir(data_dir, config)
    results.append(check_tower_calibration(probes, config, config_path, store_dir))
    results.append(check_store(probes, store_dir))
    results.append(check_disk(probes, store_dir))
    results.append(service_result)
    results.append(check_network(probes, config))
    return Report(tuple(results))


def format_report(report: Report) -> str:
    width = max(len(r.name) for r in report.results)
    lines = []
    for result in report.results:
        lines.append(f"{result.status.value}  {result.name:<{width}}  {result.detail}")
        if result.fix and result.status is not Status.PASS:
            lines.append(f"{'':6}{'':<{width}}  fix: {result.fix}")
    counts = ", ".join(f"{report.count(s)} {s.value}" for s in Status if report.count(s))
    verdict = "ready" if report.ok else "NOT ready"
    lines.append(f"doctor: {verdict} ({counts})")
    return "\n".join(lines)
