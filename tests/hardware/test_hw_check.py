"""``knockdown hw-check`` in simulation, and the config-to-camera bridge."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from assistant.cli import main
from assistant.cli.commands import hw_check
from assistant.hardware.cameras import open_camera
from firmware_config import load_config
from vision.camera import CameraError, FolderSource, SyntheticSource


def write_config(tmp_path, text: str):
    path = tmp_path / "knockdown.toml"
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_simulated_hw_check_runs_the_whole_sequence(tmp_path, capsys):
    config = write_config(tmp_path, '[cameras.tower]\nresolution = [64, 48]\nfps = 20\n[cameras.arena]\nsource = "none"\n')
    assert main(["hw-check", "--simulate", "--config", config, "--camera-seconds", "0.3"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("GPIO: simulated (MockFactory): no Raspberry Pi GPIO in use")
    assert lines[1].startswith("ok    buzzer: beep and final tone on GPIO18 (active)")
    assert lines[3] == "ok    button: short press on GPIO17 (simulated)"
    assert lines[4] == "ok    led: blinked 3 times on GPIO27"
    assert lines[5].startswith("ok    camera tower: synthetic, 64x48, ")
    fps = float(lines[5].split(", ")[2].split()[0])
    assert 10 <= fps <= 30  # paced at the configured 20 fps
    assert lines[6] == 'skip  camera arena: source = "none"'
    assert lines[-1] == "hw-check: all ok"


def test_hw_check_reports_each_failure_and_fails(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(hw_check, "SIMULATED_PRESS_AFTER", 5.0)  # the press comes too late
    missing = tmp_path / "no-such-folder"
    config = write_config(
        tmp_path,
        f'[gpio]\nled_pin = false\n[cameras.tower]\nsource = "folder"\npath = "{missing}"\n'
        '[cameras.arena]\nsource = "none"\n',
    )
    assert main(["hw-check", "--simulate", "--config", config, "--press-timeout", "0.2",
                 "--camera-seconds", "0.2"]) == 1
    out = capsys.readouterr().out
    assert "FAIL  button: no press on GPIO17 within 0.2 s" in out
    assert "skip  led: no status LED configured" in out
    assert f"FAIL  camera tower: cameras.tower: camera path '{missing}' does not exist" in out
    assert out.splitlines()[-1] == "hw-check: 2 failed"


def test_hw_check_with_a_bad_config_is_a_user_error(tmp_path, capsys):
    config = write_config(tmp_path, "[gpio]\nbutton_pin = 99\n")
    assert main(["hw-check", "--config", config]) == 2
    assert "gpio.button_pin = 99" in capsys.readouterr().err


def test_open_camera_follows_the_config(tmp_path):
    config = load_config(overrides={"cameras.arena.source": "none", "cameras.tower.resolution": [64, 48]})
    assert open_camera(config.cameras.arena, role="arena") is None
    with open_camera(config.cameras.tower, role="tower", simulate=True, realtime=False) as source:
        assert isinstance(source, SyntheticSource)
        assert source.read().shape == (48, 64, 3)


def test_open_camera_keeps_files_when_simulating_and_names_the_table(tmp_path):
    cv2.imwrite(str(tmp_path / "a.png"), np.zeros((8, 8, 3), np.uint8))
    config = load_config(overrides={"cameras.tower.source": "folder", "cameras.tower.path": str(tmp_path)})
    with open_camera(config.cameras.tower, role="tower", simulate=True) as source:
        assert isinstance(source, FolderSource)
    broken = load_config(overrides={"cameras.arena.source": "folder", "cameras.arena.path": str(tmp_path / "x")})
    with pytest.raises(CameraError, match=r"^cameras\.arena: camera path"):
        open_camera(broken.cameras.arena, role="arena")
