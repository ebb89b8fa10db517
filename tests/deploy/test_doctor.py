"""knockdown doctor: every check's PASS and FAIL paths, on a faked Pi."""

from __future__ import annotations

import dataclasses
import json
from types import SimpleNamespace

import pytest

from assistant import doctor
from assistant.cli import main
from assistant.doctor import CheckResult, Probes, Status

GIB = 1024**3


class FakeClock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


class FakeFrame:
    shape = (480, 640, 3)


class FakeCamera:
    """Returns frames and advances the fake clock by one frame interval per read."""

    def __init__(self, clock: FakeClock, *, fps: float = 30.0, frames: int | None = None) -> None:
        self.clock, self.interval, self.frames_left = clock, 1.0 / fps, frames
        self.closed = False

    def read(self):
        self.clock.now += self.interval
        if self.frames_left is not None:
            if self.frames_left == 0:
                return None
            self.frames_left -= 1
        return FakeFrame()

    def close(self) -> None:
        self.closed = True


class LgpioFactory:
    def __init__(self) -> None:
        self.closed = False

    def close(self) -> None:
        self.closed = True


class MockFactory(LgpioFactory):
    pass


def make_config(**http):
    return SimpleNamespace(
        gpio=SimpleNamespace(pin_factory="lgpio", button_pin=17, buzzer_pin=18, led_pin=27),
        cameras=SimpleNamespace(
            tower=SimpleNamespace(source="picamera2", index=0),
            arena=SimpleNamespace(source="usb", index=1),
        ),
        store=SimpleNamespace(data_dir="/var/lib/knockdown"),
        http=SimpleNamespace(host=http.get("host", "0.0.0.0"), port=http.get("port", 8080)),
        vision=SimpleNamespace(tower=SimpleNamespace(tallest_tower_cubes=12)),  # a calibrated tower camera
    )


SYSTEMCTL_OK = "LoadState=loaded\nActiveState=active\nSubState=running\nUnitFileState=enabled\n"


def healthy_pi(**overrides) -> Probes:
    """A Raspberry Pi 5 where everything works; each keyword replaces one probe."""
    clock = FakeClock()
    probes = Probes(
        read_text=lambda path: "Raspberry Pi 5 Model B Rev 1.0\0",
        path_exists=lambda path: True,
        load_config=lambda path: make_config(),
        make_pin_factory=lambda kind: LgpioFactory(),
        open_camera=lambda source, *, index: FakeCamera(clock),
        run=lambda command: (0, SYSTEMCTL_OK),
        try_write=lambda directory: None,
        disk_free=lambda path: 20 * GIB,
        addresses=lambda: ["192.168.1.23"],
        hostname=lambda: "referee",
        http_get=lambda url: 200,
        clock=clock,
    )
    return dataclasses.replace(probes, **overrides)


def raiser(error: BaseException):
    def probe(*args, **kwargs):
        raise error

    return probe


def by_name(report: doctor.Report) -> dict[str, CheckResult]:
    return {result.name: result for result in report.results}


# ---------------------------------------------------------------- the whole run


def test_a_healthy_pi_passes_every_check():
    report = doctor.run_checks(config_path="/etc/knockdown/config.toml", probes=healthy_pi())
    assert [r.status for r in report.results] == [Status.PASS] * 10
    assert report.ok
    assert set(by_name(report)) == {
        "Pi model", "config", "pin factory", "tower camera", "arena camera", "tower calibration",
        "store", "free disk", "service", "network",
    }  # fmt: skip
    assert doctor.format_report(report).splitlines()[-1] == "doctor: ready (10 PASS)"


def test_a_failure_makes_the_report_not_ok_and_prints_its_fix():
    report = doctor.run_checks(probes=healthy_pi(addresses=lambda: []))
    assert not report.ok
    text = doctor.format_report(report)
    fail_line = next(line for line in text.splitlines() if line.startswith("FAIL"))
    assert "network" in fail_line
    assert "fix: connect Wi-Fi or Ethernet" in text
    assert text.splitlines()[-1] == "doctor: NOT ready (9 PASS, 1 FAIL)"


def test_a_failed_check_must_carry_a_fix():
    with pytest.raises(doctor.DoctorError, match="'store'"):
        CheckResult("store", Status.FAIL, "not writable")


# ---------------------------------------------------------------- Pi model


@pytest.mark.parametrize(
    "model", ["Raspberry Pi 5 Model B Rev 1.0\0", "Raspberry Pi 4 Model B Rev 1.5", "Raspberry Pi 400 Rev 1.0"]
)
def test_pi_4_and_5_pass(model):
    result = doctor.check_pi_model(healthy_pi(read_text=lambda path: model))
    assert result.status is Status.PASS
    assert result.detail == model.rstrip("\0")


def test_an_older_pi_is_a_warning():
    result = doctor.check_pi_model(healthy_pi(read_text=lambda path: "Raspberry Pi 3 Model B Rev 1.2\0"))
    assert result.status is Status.WARN
    assert "Raspberry Pi 3 Model B" in result.detail


def test_a_laptop_is_a_warning_not_a_failure():
    result = doctor.check_pi_model(healthy_pi(read_text=raiser(FileNotFoundError(2, "No such file"))))
    assert result.status is Status.WARN
    assert "not a Raspberry Pi" in result.detail


# ---------------------------------------------------------------- config


def test_config_defaults_to_the_appliance_file_when_it_exists():
    seen = []
    probes = healthy_pi(load_config=lambda path: seen.append(path) or make_config())
    result, config = doctor.check_config(probes, doctor.resolve_config_path(None, probes))
    assert seen == ["/etc/knockdown/config.toml"]
    assert result.status is Status.PASS and config is not None


def test_config_falls_back_to_the_built_in_defaults():
    seen = []
    probes = healthy_pi(path_exists=lambda path: False, load_config=lambda path: seen.append(path) or make_config())
    result, _ = doctor.check_config(probes, doctor.resolve_config_path(None, probes))
    assert seen == [None]
    assert result.detail == "valid: built-in defaults (no config file)"


def test_an_invalid_config_fails_quoting_the_error_and_skips_what_depends_on_it():
    error = ValueError("gpio.button_pin: 99 is not a GPIO pin (0-27)")
    report = doctor.run_checks(config_path="/tmp/bad.toml", probes=healthy_pi(load_config=raiser(error)))
    results = by_name(report)
    assert results["config"].status is Status.FAIL
    assert "gpio.button_pin: 99" in results["config"].detail
    assert "/tmp/bad.toml" in results["config"].fix
    for name in ("pin factory", "tower camera", "arena camera", "store", "free disk"):
        assert results[name].status is Status.SKIP
    assert not report.ok


def test_a_missing_config_file_fails_with_how_to_create_it():
    result, config = doctor.check_config(healthy_pi(load_config=raiser(FileNotFoundError(2, "nope"))), "/x.toml")
    assert (result.status, config) == (Status.FAIL, None)
    assert "install.sh" in result.fix


def test_a_broken_install_without_firmware_config_fails():
    result, _ = doctor.check_config(healthy_pi(load_config=raiser(ImportError("No module named 'firmware_config'"))), None)
    assert result.status is Status.FAIL
    assert "firmware_config" in result.detail and "install.sh" in result.fix


# ---------------------------------------------------------------- pin factory


def test_the_real_pin_factory_passes_names_the_pins_and_is_closed():
    factory = LgpioFactory()
    result = doctor.check_pin_factory(healthy_pi(make_pin_factory=lambda kind: factory), make_config())
    assert result.status is Status.PASS
    assert result.detail == "lgpio (LgpioFactory); button GPIO17, buzzer GPIO18, LED GPIO27"
    assert factory.closed


def test_simulated_pins_are_a_warning():
    config = make_config()
    config.gpio.pin_factory, config.gpio.led_pin = "mock", None
    result = doctor.check_pin_factory(healthy_pi(make_pin_factory=lambda kind: MockFactory()), config)
    assert result.status is Status.WARN
    assert "simulated" in result.detail and "LED none" in result.detail


def test_a_pin_factory_that_cannot_start_fails_with_the_lgpio_fix():
    error = PermissionError(13, "Permission denied: '/dev/gpiochip0'")
    result = doctor.check_pin_factory(healthy_pi(make_pin_factory=raiser(error)), make_config())
    assert result.status is Status.FAIL
    assert "'lgpio'" in result.detail and "/dev/gpiochip0" in result.detail
    assert "python3-lgpio" in result.fix and "gpio group" in result.fix


# ---------------------------------------------------------------- cameras


def test_a_working_camera_passes_with_its_fps_and_size_and_is_closed():
    clock = FakeClock()
    camera = FakeCamera(clock, fps=30)
    probes = healthy_pi(open_camera=lambda source, *, index: camera, clock=clock)
    result = doctor.check_camera(probes, make_config(), "tower", service_active=False)
    assert result.status is Status.PASS
    assert result.detail == "picamera2 #0: 640x480, 30.0 fps"
    assert camera.closed


def test_a_camera_that_does_not_open_fails_with_a_fix():
    probes = healthy_pi(open_camera=raiser(RuntimeError("no cameras available")))
    result = doctor.check_camera(probes, make_config(), "arena", service_active=False)
    assert result.status is Status.FAIL
    assert "usb #1" in result.detail and "no cameras available" in result.detail
    assert "rpicam-hello --list-cameras" in result.fix and "cameras.arena" in result.fix


def test_a_camera_held_by_the_running_service_is_only_a_warning():
    probes = healthy_pi(open_camera=raiser(RuntimeError("Device or resource busy")))
    result = doctor.check_camera(probes, make_config(), "tower", service_active=True)
    assert result.status is Status.WARN
    assert "systemctl stop knockdown" in result.fix


def test_a_camera_that_returns_no_frame_fails_and_is_still_closed():
    clock = FakeClock()
    camera = FakeCamera(clock, frames=3)
    probes = healthy_pi(open_camera=lambda source, *, index: camera, clock=clock)
    result = doctor.check_camera(probes, make_config(), "tower", service_active=False)
    assert result.status is Status.FAIL
    assert "stopped returning frames" in result.detail
    assert camera.closed


@pytest.mark.parametrize("ok", [True, False])
def test_a_camera_with_opencvs_ok_frame_pairs_is_understood(ok):
    clock = FakeClock()
    camera = FakeCamera(clock)
    plain_read = camera.read
    camera.read = lambda: (ok, plain_read() if ok else None)
    probes = healthy_pi(open_camera=lambda source, *, index: camera, clock=clock)
    result = doctor.check_camera(probes, make_config(), "tower", service_active=False)
    assert result.status is (Status.PASS if ok else Status.FAIL)
    assert ("640x480, 30.0 fps" in result.detail) is ok


def test_a_slow_camera_is_a_warning():
    clock = FakeClock()
    probes = healthy_pi(open_camera=lambda source, *, index: FakeCamera(clock, fps=2), clock=clock)
    result = doctor.check_camera(probes, make_config(), "tower", service_active=False)
    assert result.status is Status.WARN
    assert "2.0 fps" in result.detail


def test_auto_falling_back_to_the_demo_feed_is_a_warning_not_a_pass():
    from vision.camera import SyntheticSource

    clock = FakeClock()
    config = make_config()
    config.cameras.tower.source = "auto"
    probes = healthy_pi(open_camera=lambda source, *, index: SyntheticSource(fps=30), clock=clock)
    result = doctor.check_camera(probes, config, "tower", service_active=False)
    assert result.status is Status.WARN
    assert "no camera found, using the synthetic demo feed" in result.detail
    assert "cameras.tower.source" in result.fix


def test_a_switched_off_camera_is_skipped_without_opening_it():
    config = make_config()
    config.cameras.arena.source = "none"
    probes = healthy_pi(open_camera=raiser(AssertionError("must not open")))
    result = doctor.check_camera(probes, config, "arena", service_active=False)
    assert result.status is Status.SKIP


# ---------------------------------------------------------------- store and disk


def test_a_writable_store_passes_and_data_dir_overrides_the_config():
    written = []
    probes = healthy_pi(try_write=written.append)
    report = doctor.run_checks(data_dir="/srv/referee", probes=probes)
    assert by_name(report)["store"].detail == "/srv/referee is writable"
    assert written == ["/srv/referee"]


def test_a_store_that_does_not_exist_yet_passes_when_its_parent_is_writable():
    written = []
    probes = healthy_pi(path_exists=lambda path: path in ("/var/lib", "/var", "/"), try_write=written.append)
    result = doctor.check_store(probes, "/var/lib/knockdown/data")
    assert result.status is Status.PASS
    assert written == ["/var/lib"]
    assert "will be created" in result.detail


def test_a_store_that_is_not_writable_fails_with_chown():
    probes = healthy_pi(try_write=raiser(PermissionError(13, "Permission denied")))
    result = doctor.check_store(probes, "/var/lib/knockdown")
    assert result.status is Status.FAIL
    assert "sudo chown -R knockdown:knockdown /var/lib/knockdown" in result.fix


@pytest.mark.parametrize(
    ("free", "status"),
    [(20 * GIB, Status.PASS), (500 * 1024**2, Status.WARN), (100 * 1024**2, Status.FAIL)],
)
def test_free_disk_thresholds(free, status):
    result = doctor.check_disk(healthy_pi(disk_free=lambda path: free), "/var/lib/knockdown")
    assert result.status is status
    if status is Status.FAIL:
        assert "apt clean" in result.fix


# ---------------------------------------------------------------- service


def test_an_active_enabled_healthy_service_passes():
    urls = []
    probes = healthy_pi(http_get=lambda url: urls.append(url) or 200)
    result, active = doctor.check_service(probes, make_config(port=9000))
    assert (result.status, active) == (Status.PASS, True)
    assert urls == ["http://127.0.0.1:9000/api/health"]


def test_no_systemd_is_a_warning():
    result, active = doctor.check_service(healthy_pi(run=raiser(FileNotFoundError(2, "systemctl"))), make_config())
    assert (result.status, active) == (Status.WARN, False)


def test_systemd_without_pid_1_is_a_warning():
    probes = healthy_pi(run=lambda command: (1, "System has not been booted with systemd"))
    result, _ = doctor.check_service(probes, make_config())
    assert result.status is Status.WARN


def test_a_service_that_is_not_installed_is_a_warning():
    probes = healthy_pi(run=lambda command: (0, "LoadState=not-found\nActiveState=inactive\nSubState=dead\n"))
    result, _ = doctor.check_service(probes, make_config())
    assert result.status is Status.WARN
    assert "install.sh" in result.fix


def test_a_failed_service_fails_with_journalctl():
    state = "LoadState=loaded\nActiveState=failed\nSubState=failed\nUnitFileState=enabled\n"
    result, active = doctor.check_service(healthy_pi(run=lambda command: (0, state)), make_config())
    assert (result.status, active) == (Status.FAIL, False)
    assert "failed (failed)" in result.detail
    assert "journalctl -u knockdown" in result.fix


def test_a_service_not_enabled_at_boot_fails():
    state = SYSTEMCTL_OK.replace("UnitFileState=enabled", "UnitFileState=disabled")
    result, active = doctor.check_service(healthy_pi(run=lambda command: (0, state)), make_config())
    assert (result.status, active) == (Status.FAIL, True)
    assert "power cut" in result.detail
    assert result.fix == "sudo systemctl enable knockdown"


@pytest.mark.parametrize("answer", [lambda url: 503, raiser(ConnectionRefusedError(111, "Connection refused"))])
def test_a_running_service_whose_health_endpoint_fails_fails(answer):
    result, _ = doctor.check_service(healthy_pi(http_get=answer), make_config())
    assert result.status is Status.FAIL
    assert "/api/health" in result.detail


# ---------------------------------------------------------------- network


def test_the_network_check_prints_the_dashboard_urls():
    probes = healthy_pi(addresses=lambda: ["192.168.1.23", "fd00::5"])
    result = doctor.check_network(probes, make_config(port=8080))
    assert result.status is Status.PASS
    assert result.detail == (
        "dashboard: http://192.168.1.23:8080/  http://[fd00::5]:8080/  http://referee.local:8080/"
    )


def test_no_network_address_fails():
    result = doctor.check_network(healthy_pi(addresses=lambda: []), make_config())
    assert result.status is Status.FAIL
    assert "nmtui" in result.fix


def test_a_dashboard_bound_to_loopback_is_a_warning():
    result = doctor.check_network(healthy_pi(), make_config(host="127.0.0.1"))
    assert result.status is Status.WARN
    assert '0.0.0.0' in result.fix


# ---------------------------------------------------------------- parsers and default probes


def test_parse_ip_addresses():
    out = (
        "2: eth0    inet 192.168.1.23/24 brd 192.168.1.255 scope global dynamic eth0\n"
        "3: wlan0    inet 10.0.0.7/8 scope global wlan0\n"
        "3: wlan0    inet6 fd00::5/64 scope global\n"
    )
    assert doctor.parse_ip_addresses(out) == ["192.168.1.23", "10.0.0.7", "fd00::5"]


def test_parse_systemctl_show_keeps_values_with_equals_signs():
    assert doctor.parse_systemctl_show("A=b\nC=d=e\nnoise\n") == {"A": "b", "C": "d=e"}


def test_default_try_write_and_read_text(tmp_path):
    doctor.Probes().try_write(str(tmp_path))
    assert list(tmp_path.iterdir()) == []
    with pytest.raises(OSError):
        doctor.Probes().try_write(str(tmp_path / "missing"))
    (tmp_path / "model").write_bytes(b"Raspberry Pi 5 Model B Rev 1.0\0")
    assert doctor.Probes().read_text(str(tmp_path / "model")) == "Raspberry Pi 5 Model B Rev 1.0\0"


def test_default_run_reports_the_exit_code_and_output():
    assert doctor.Probes().run(["sh", "-c", "echo LoadState=loaded; exit 3"]) == (3, "LoadState=loaded\n")


def test_default_http_get_returns_the_status(health_server):
    assert doctor.Probes().http_get(f"{health_server}/api/health") == 200
    assert doctor.Probes().http_get(f"{health_server}/other") == 503


# ---------------------------------------------------------------- the CLI


def test_cli_prints_one_line_per_check_and_exits_0_when_ready(monkeypatch, capsys):
    monkeypatch.setattr(doctor, "default_probes", healthy_pi)
    assert main(["doctor"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in lines[:-1]] == ["PASS"] * 10
    assert lines[-1] == "doctor: ready (10 PASS)"


def test_cli_json_and_exit_1_on_a_failure(monkeypatch, capsys):
    monkeypatch.setattr(doctor, "default_probes", lambda: healthy_pi(disk_free=lambda path: 0))
    assert main(["doctor", "--json", "--config", "/etc/knockdown/config.toml", "--data-dir", "/srv/k"]) == 1
    payload = json.loads(capsys.readouterr().out)
    assert payload["ok"] is False
    disk = next(check for check in payload["checks"] if check["name"] == "free disk")
    assert disk["status"] == "FAIL" and disk["detail"] == "only 0.0 GiB free for /srv/k" and disk["fix"]
