"""The service calibrates the tower camera it owns (the tablet's "Calibrate tower camera"):
measured as ``knockdown calibrate tower`` measures, saved first, then used live; refused while
a Knockdown Test watches the build mat; never half-applied."""

from __future__ import annotations

import numpy as np
import pytest

from assistant.service.core import Busy, InvalidRequest, NotSaved, ServiceError
from assistant.service.wiring import build_service, load_config as service_config
from firmware_config import TOWER_CALIBRATION_FILE, load_config
from tests.e2e.match_script import OPTIONS, events_to_knockdown_test
from tests.tower.tower_judging import tower_camera_config
from vision.tower import calibrate_tower

BLANK = np.full((480, 640, 3), 200, np.uint8)  # no build mat in view


def _service(tmp_path, config, **options):
    return build_service(service_config(data_dir=tmp_path / "data", config_file=config, **options))


def _to_a_knockdown_test(service) -> None:
    service.new_match(dict(OPTIONS))
    for event in events_to_knockdown_test(seed=2):
        service.apply(event)
    assert service.state()["knockdown"]["state"] == "armed"


def test_a_calibration_is_measured_saved_and_used_live(tmp_path):
    config, shot = tower_camera_config(tmp_path)
    expected = calibrate_tower(shot)
    with _service(tmp_path, config) as service:
        before = service.state()
        assert before["tower"]["calibrated"] is False and before["tower"]["measured"] is None
        assert service.flow.view_holds_cubes is None
        state = service.tower_calibrate(who="referee@test")
        measured = state["calibration"]
        assert measured["measured"] == expected.describe()
        assert measured["learned"] == {"light_rgb": list(expected.light_rgb), "heavy_rgb": list(expected.heavy_rgb),
                                       "tallest_tower_cubes": expected.tallest_tower_cubes}
        assert measured["saved_to"] == str(config)
        # Live: the flow warns with the new height, the next test's judge uses the learned colours.
        assert service.flow.view_holds_cubes == expected.tallest_tower_cubes
        assert service.flow._tower_factory(heavy=1, light=1).settings == expected.settings
        assert state["version"] > before["version"]  # published to every tablet
        assert service.state()["tower"] == {k: measured[k] for k in ("calibrated", "learned", "measured")}
        (entry,) = [e for e in service.store.audit_log() if e.kind == "tower_calibrated"]
        assert entry.who == "referee@test" and entry.detail["measured"] == expected.describe()
    written = load_config(config)
    assert written.http.port == 9000 and written.cameras.tower.source == "folder"  # the rest is kept
    assert written.vision.tower.tallest_tower_cubes == expected.tallest_tower_cubes
    assert list(written.vision.tower.light_rgb) == list(expected.light_rgb)
    with _service(tmp_path, config) as restarted:  # what a restart reads is what was used
        assert restarted.flow.view_holds_cubes == expected.tallest_tower_cubes
        assert restarted.state()["tower"]["calibrated"] is True


def test_without_a_config_file_it_is_kept_in_the_data_dir_and_read_at_start(tmp_path, monkeypatch):
    import assistant.service.wiring as wiring
    from vision.camera import open_source

    _, shot = tower_camera_config(tmp_path)
    folder = tmp_path / "tower-camera"

    def cameras(camera, *, role, **_):  # the seam the service opens its cameras with
        return open_source("folder", path=str(folder), fps=120) if role == "tower" else None

    monkeypatch.setattr(wiring, "open_camera", cameras)
    expected = calibrate_tower(shot).tallest_tower_cubes
    with _service(tmp_path, None) as service:
        saved = service.tower_calibrate()["calibration"]["saved_to"]
    assert saved == str(tmp_path / "data" / TOWER_CALIBRATION_FILE)
    assert load_config(saved).vision.tower.tallest_tower_cubes == expected
    assert service_config(data_dir=tmp_path / "data").firmware.vision.tower.tallest_tower_cubes == expected
    with _service(tmp_path, None) as restarted:
        assert restarted.flow.view_holds_cubes == expected


def test_a_failed_calibration_says_why_word_for_word_and_changes_nothing(tmp_path):
    config, _ = tower_camera_config(tmp_path, BLANK)
    text = config.read_bytes()
    with pytest.raises(Exception) as direct:
        calibrate_tower(BLANK)
    with _service(tmp_path, config) as service:
        version = service.version
        with pytest.raises(InvalidRequest) as refused:
            service.tower_calibrate()
        assert str(refused.value) == f"tower calibration failed: {direct.value}"
        assert "Lay the build mat flat with both markers" in str(refused.value)
        assert service.flow.view_holds_cubes is None and service.version == version
        assert [e for e in service.store.audit_log() if e.kind == "tower_calibrated"] == []
    assert config.read_bytes() == text


def test_if_saving_fails_the_live_settings_do_not_change(tmp_path):
    config, _ = tower_camera_config(tmp_path)
    with _service(tmp_path, config) as service:
        settings = service.tower_calibrator.settings
        config.write_text("[http]\nport = 'eighty'\n", encoding="utf-8")  # a bad hand edit while it runs
        with pytest.raises(NotSaved, match=r"was not saved to .*knockdown.toml .*http.port.*; nothing changed"):
            service.tower_calibrate()
        assert service.tower_calibrator.settings is settings and service.flow.view_holds_cubes is None
        assert service.state()["tower"]["calibrated"] is False
        assert [e for e in service.store.audit_log() if e.kind == "tower_calibrated"] == []
    assert config.read_text(encoding="utf-8") == "[http]\nport = 'eighty'\n"
    assert not list(tmp_path.glob("*.tmp"))


def test_it_is_refused_while_a_knockdown_test_is_armed_or_counting(tmp_path):
    config, _ = tower_camera_config(tmp_path)
    text = config.read_bytes()
    with _service(tmp_path, config) as service:
        _to_a_knockdown_test(service)
        with pytest.raises(Busy, match="the Knockdown Test is armed: the tower camera is watching the build mat"):
            service.tower_calibrate()
        service.knockdown_start(who="referee")
        with pytest.raises(Busy, match="the Knockdown Test is counting"):
            service.tower_calibrate()
        assert service.flow.view_holds_cubes is None
    assert config.read_bytes() == text


def test_a_countdown_waits_while_the_camera_is_being_calibrated(tmp_path):
    config, _ = tower_camera_config(tmp_path)
    with _service(tmp_path, config) as service:
        _to_a_knockdown_test(service)
        service._tower_calibrating = True  # as during the calibration's frames
        with pytest.raises(Busy, match="being calibrated"):
            service.knockdown_start(who="referee")
        service._tower_calibrating = False
        service.knockdown_start(who="referee")
        assert service.state()["knockdown"]["state"] == "counting"


def test_the_demo_feed_is_no_tower_camera_to_calibrate(tmp_path):
    with _service(tmp_path, None, simulate=True) as service:
        assert service.state()["tower"]["calibrated"] is False
        with pytest.raises(InvalidRequest, match=r"no tower camera found \(only the synthetic demo feed\)"):
            service.tower_calibrate()


def test_without_a_tower_camera_there_is_nothing_to_calibrate(tmp_path):
    config = tmp_path / "k.toml"
    config.write_text('[cameras.tower]\nsource = "none"\n[cameras.arena]\nsource = "none"\n', encoding="utf-8")
    with _service(tmp_path, config) as service:
        assert service.state()["tower"] is None
        with pytest.raises(ServiceError, match="there is no tower camera judge to calibrate"):
            service.tower_calibrate()
