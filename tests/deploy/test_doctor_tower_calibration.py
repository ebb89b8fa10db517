"""knockdown doctor reports the tower calibration: measured or not, and the tallest tower the picture holds."""

from __future__ import annotations

from types import SimpleNamespace

from assistant import doctor
from assistant.doctor import Status
from tests.deploy.test_doctor import by_name, healthy_pi, make_config


def _config(tallest, *, source="picamera2"):
    config = make_config()
    config.vision = SimpleNamespace(tower=SimpleNamespace(tallest_tower_cubes=tallest))
    config.cameras.tower.source = source
    return config


def _check(tallest, **options):
    probes = healthy_pi(load_config=lambda path: _config(tallest, **options))
    return by_name(doctor.run_checks(config_path="/etc/knockdown/config.toml", probes=probes))["tower calibration"]


def test_a_measured_view_passes_with_its_tallest_tower():
    result = _check(12)
    assert result.status is Status.PASS
    assert result.detail == "/etc/knockdown/config.toml: the tower camera's picture holds a tower up to 12 cubes"


def test_never_measured_is_a_warning_with_the_tablet_button_as_the_fix():
    result = _check(None)
    assert result.status is Status.WARN and result.detail.startswith("not measured (/etc/knockdown/config.toml)")
    assert "press Calibrate tower camera on the tablet" in result.fix


def test_a_short_view_is_a_warning_to_move_the_camera_back():
    result = _check(7)
    assert result.status is Status.WARN and "up to 7 cubes (fewer than 10" in result.detail
    assert result.fix.startswith("move the tower camera back")


def test_a_switched_off_tower_camera_is_skipped():
    assert _check(None, source="none").status is Status.SKIP


def test_without_a_config_file_the_data_dir_calibration_is_reported():
    saved = "/srv/k/tower-calibration.toml"
    probes = healthy_pi(path_exists=lambda path: path != doctor.APPLIANCE_CONFIG,
                        load_config=lambda path: _config(11 if path == saved else None))
    result = by_name(doctor.run_checks(data_dir="/srv/k", probes=probes))["tower calibration"]
    assert result.detail == f"{saved}: the tower camera's picture holds a tower up to 11 cubes"
