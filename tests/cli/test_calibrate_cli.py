"""knockdown calibrate arena|tower from an image (the camera path is the same after the first frame)."""

import cv2
import numpy as np
import pytest

from assistant.boxes import load_layout
from assistant.cli import main
from vision.arena import BoardGeometry
from vision.synth.arena_demo import ArenaDemoFeed


@pytest.fixture(scope="module")
def empty_arena(tmp_path_factory):
    path = tmp_path_factory.mktemp("img") / "empty.png"
    cv2.imwrite(str(path), ArenaDemoFeed(BoardGeometry.from_layout(load_layout("line-9").to_dict())).empty_frame())
    return path


def test_calibrate_arena_saves_the_reference_the_service_reads(tmp_path, empty_arena, capsys):
    assert main(["calibrate", "arena", "--image", str(empty_arena), "--data-dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "all 4 markers visible" in out and "reprojection error of the space centres" in out
    saved = cv2.imread(str(tmp_path / "arena" / "line-9.png"))
    assert saved is not None and saved.shape == (480, 640, 3)


def test_calibrate_arena_refuses_a_view_without_markers(tmp_path, capsys):
    blank = tmp_path / "blank.png"
    cv2.imwrite(str(blank), np.full((480, 640, 3), 120, np.uint8))
    assert main(["calibrate", "arena", "--image", str(blank), "--data-dir", str(tmp_path)]) == 2
    assert "calibration needs all 4 markers" in capsys.readouterr().err
    assert not (tmp_path / "arena" / "line-9.png").exists()


def test_calibrate_errors_name_the_bad_input(tmp_path, capsys):
    assert main(["calibrate", "arena", "--image", str(tmp_path / "none.png"), "--data-dir", str(tmp_path)]) == 2
    assert "not a readable image" in capsys.readouterr().err
    assert main(["calibrate", "arena", "--layout", "moon", "--image", "x.png"]) == 2
    assert "unknown arena layout 'moon'" in capsys.readouterr().err


def test_calibrate_tower_learns_the_cube_colours_and_writes_the_config(tmp_path, capsys):
    from vision.synth.tower_scene import make_calibration_shot

    shot, _ = make_calibration_shot(seed=2, light_rgb=(235, 200, 150), heavy_rgb=(90, 35, 30))
    image = tmp_path / "shot.png"
    cv2.imwrite(str(image), shot)
    config = tmp_path / "config.toml"
    config.write_text('[http]\nport = 9000\n')
    assert main(["calibrate", "tower", "--image", str(image), "--config", str(config)]) == 0
    out = capsys.readouterr().out
    assert "markers seen: 0, 1" in out and f"wrote [vision.tower] to {config}" in out
    from firmware_config import load_config

    from vision.tower import calibrate_tower

    written = load_config(config)
    assert written.http.port == 9000  # the rest of the file is kept
    learned = calibrate_tower(shot).to_mapping()
    assert list(written.vision.tower.light_rgb) == list(learned["light_rgb"])
    assert list(written.vision.tower.heavy_rgb) == list(learned["heavy_rgb"])
    assert list(written.vision.tower.light_rgb) != list(load_config().vision.tower.light_rgb)


def test_calibrate_tower_without_the_mat_says_what_to_do(tmp_path, capsys):
    blank = tmp_path / "blank.png"
    cv2.imwrite(str(blank), np.full((480, 640, 3), 200, np.uint8))
    assert main(["calibrate", "tower", "--image", str(blank), "--dry-run"]) == 2
    assert "Lay the build mat flat" in capsys.readouterr().err
