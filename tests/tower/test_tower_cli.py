"""``knockdown tower judge`` and ``knockdown print``."""

import json

import cv2
import pytest

from assistant.cli import main


@pytest.fixture
def frames_dir(tmp_path, tower_scene):
    scene = tower_scene("fork", 0)
    folder = tmp_path / "frames"
    folder.mkdir()
    for i, frame in enumerate(scene.frames):
        cv2.imwrite(str(folder / f"frame_{i:03d}.png"), frame)
    return folder, scene


def _run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_judge_prints_one_json_object_and_exits_0_for_a_fail(capsys, frames_dir, tmp_path):
    folder, scene = frames_dir
    evidence = tmp_path / "evidence.png"
    code, out, _ = _run(capsys, "tower", "judge", str(folder), "--heavy", str(scene.heavy),
                        "--light", str(scene.light), "--json", "--annotate", str(evidence))
    assert code == 0
    result = json.loads(out)
    assert result["verdict"] == "fail"
    assert "cube_neighbours" in result["reasons"]
    assert set(result) == {"verdict", "reasons", "cubes_seen", "ground_contacts", "confidence", "elapsed_ms"}
    image = cv2.imread(str(evidence))
    assert image is not None and image.shape == scene.frames[-1].shape


def test_judge_reads_a_video_file(capsys, tmp_path, tower_scene):
    scene = tower_scene("stand", 1)
    video = tmp_path / "test.avi"
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter_fourcc(*"MJPG"), 10, (640, 480))
    for frame in scene.frames:
        writer.write(frame)
    writer.release()
    code, out, _ = _run(capsys, "tower", "judge", str(video), "--heavy", str(scene.heavy),
                        "--light", str(scene.light), "--json")
    assert code == 0
    assert json.loads(out)["verdict"] == "pass"


def test_judge_reads_the_config_table(capsys, frames_dir, tmp_path):
    folder, scene = frames_dir
    config = tmp_path / "knockdown.toml"
    config.write_text("[vision.tower]\nmarker_ids = [2, 3]\n")
    code, out, _ = _run(capsys, "tower", "judge", str(folder), "--heavy", str(scene.heavy),
                        "--light", str(scene.light), "--json", "--config", str(config))
    assert code == 0
    # The mat in these frames carries markers 0 and 1, so with 2 and 3 configured it is not seen.
    assert json.loads(out)["reasons"] == ["mat_not_visible"]


def test_human_readable_output_without_json(capsys, frames_dir):
    folder, scene = frames_dir
    code, out, _ = _run(capsys, "tower", "judge", str(folder), "--heavy", str(scene.heavy), "--light",
                        str(scene.light))
    assert code == 0
    assert out.startswith("verdict: fail")


@pytest.mark.parametrize(
    ("setup", "extra", "message"),
    [
        ("empty", [], "no image files"),
        ("garbage", [], "cannot read image"),
        ("missing", [], "no such file"),
        ("single", [], "at least one frame"),
        ("ok", ["--heavy", "-1"], "must not be negative"),
        ("ok", ["--config", "nope.toml"], "cannot read config"),
        ("badconfig", [], "'cube_size'"),
        ("ok", ["--annotate", "out.gif"], "--annotate"),
    ],
)
def test_unusable_input_fails_with_a_clear_message(capsys, tmp_path, frames_dir, setup, extra, message):
    folder, scene = frames_dir
    target = folder
    argv = []
    if setup == "empty":
        target = tmp_path / "empty"
        target.mkdir()
    elif setup == "garbage":
        (folder / "frame_999.png").write_bytes(b"not a png")
    elif setup == "missing":
        target = tmp_path / "nothing-here"
    elif setup == "single":
        target = tmp_path / "one"
        target.mkdir()
        cv2.imwrite(str(target / "0.png"), scene.frames[0])
    elif setup == "badconfig":
        config = tmp_path / "bad.toml"
        config.write_text("[vision.tower]\ncube_size = 10\n")
        argv = ["--config", str(config)]
    code, out, err = _run(capsys, "tower", "judge", str(target), "--heavy", "2", "--light", "3", *argv, *extra)
    assert code == 2
    assert out == ""
    assert err.startswith("knockdown: error:")
    assert message in err


def test_print_build_mat_writes_pdf_and_png(capsys, tmp_path):
    code, out, _ = _run(capsys, "print", "build-mat", "--out", str(tmp_path / "mat"), "--dpi", "100")
    assert code == 0
    assert (tmp_path / "mat.png").stat().st_size > 0
    assert (tmp_path / "mat.pdf").read_bytes().startswith(b"%PDF")
    assert "mat.pdf" in out


def test_print_arena_markers_by_id_and_by_file(capsys, tmp_path):
    code, _, _ = _run(capsys, "print", "arena-markers", "--layout", "line-9", "--out", str(tmp_path / "a"),
                      "--dpi", "100")
    assert code == 0 and (tmp_path / "a.pdf").exists()
    layout = tmp_path / "mine.toml"
    layout.write_text('board_mm = [200, 100]\n[[markers]]\nid = 7\nboard_mm = [0, 0]\nsize_mm = 40\n')
    code, _, _ = _run(capsys, "print", "arena-markers", "--layout", str(layout), "--out", str(tmp_path / "b.png"),
                      "--dpi", "100")
    assert code == 0 and (tmp_path / "b.png").exists()


def test_print_unknown_layout_lists_the_known_ones(capsys, tmp_path):
    code, _, err = _run(capsys, "print", "arena-markers", "--layout", "no-such", "--out", str(tmp_path / "x"))
    assert code == 2
    assert "line-9" in err
