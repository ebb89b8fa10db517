"""Camera sources: folder of PNGs, a video file, the synthetic feed, USB and picamera2 errors."""

from __future__ import annotations

import sys
import threading
import time
import types

import cv2
import numpy as np
import pytest

from vision.camera import (
    CameraError,
    FolderSource,
    FrameSource,
    Picamera2Source,
    SyntheticSource,
    TestPattern,
    VideoCaptureSource,
    open_source,
)

SIZE = (64, 48)  # small frames keep the tests fast


def solid(value: int) -> np.ndarray:
    return np.full((SIZE[1], SIZE[0], 3), value, np.uint8)


@pytest.fixture
def png_folder(tmp_path):
    folder = tmp_path / "frames"
    folder.mkdir()
    # Written out of order, with a non-image file: name order decides, others are skipped.
    for name, value in [("frame_002.png", 20), ("frame_000.png", 0), ("frame_001.png", 10)]:
        assert cv2.imwrite(str(folder / name), solid(value))
    (folder / "notes.txt").write_text("not a frame", encoding="utf-8")
    return folder


@pytest.fixture
def avi_file(tmp_path):
    path = tmp_path / "clip.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"MJPG"), 10.0, SIZE)
    assert writer.isOpened()
    for value in range(0, 120, 20):  # six frames, each a flat grey
        writer.write(solid(value))
    writer.release()
    return path


def test_folder_source_reads_images_in_name_order_then_ends(png_folder):
    with FolderSource(png_folder) as source:
        values = [int(frame[0, 0, 0]) for frame in source.frames()]
        assert values == [0, 10, 20]
        assert source.read() is None and not source.is_open
        assert source.fps > 0


def test_folder_source_loops(png_folder):
    with FolderSource(png_folder, loop=True) as source:
        values = [int(source.read()[0, 0, 0]) for _ in range(7)]
    assert values == [0, 10, 20, 0, 10, 20, 0]
    assert not source.is_open
    source.close()  # idempotent


def test_folder_source_reads_a_video_file(avi_file):
    with FolderSource(avi_file) as source:
        frames = list(source.frames())
    assert len(frames) == 6
    assert frames[0].shape == (SIZE[1], SIZE[0], 3) and frames[0].dtype == np.uint8
    # MJPG is lossy: the greys come back close, in order
    assert [round(float(f.mean()) / 20) for f in frames] == [0, 1, 2, 3, 4, 5]


def test_folder_source_loops_a_video(avi_file):
    with FolderSource(avi_file, loop=True) as source:
        means = [round(float(source.read().mean()) / 20) for _ in range(8)]
    assert means == [0, 1, 2, 3, 4, 5, 0, 1]


@pytest.mark.parametrize(
    ("make_path", "message"),
    [
        (lambda tmp: tmp / "missing", "does not exist"),
        (lambda tmp: tmp, "has no images"),
        (lambda tmp: (tmp / "x.avi").write_bytes(b"not a video") and tmp / "x.avi", "neither an image folder nor a video"),
    ],
)
def test_folder_source_errors_name_the_path(tmp_path, make_path, message):
    path = make_path(tmp_path)
    with pytest.raises(CameraError, match=message) as info:
        FolderSource(path)
    assert str(path) in str(info.value)


def test_synthetic_default_is_a_moving_test_pattern():
    with SyntheticSource(resolution=SIZE, frame_count=5) as source:
        frames = list(source.frames())
    assert len(frames) == 5
    assert frames[0].shape == (SIZE[1], SIZE[0], 3) and frames[0].dtype == np.uint8
    assert not np.array_equal(frames[0], frames[3])  # the ball moved
    pattern = TestPattern(SIZE)
    x0, _ = pattern.ball_centre(0)
    x3, _ = pattern.ball_centre(3)
    assert x3 > x0


def test_synthetic_plugs_in_a_scene_generator():
    with SyntheticSource(lambda i: solid(i), resolution=SIZE, frame_count=3) as source:
        assert [int(f[0, 0, 0]) for f in source.frames()] == [0, 1, 2]


def test_realtime_synthetic_is_paced_at_its_fps():
    fake = {"now": 0.0}
    slept = []

    def sleep(seconds):
        slept.append(round(seconds, 6))
        fake["now"] += seconds

    source = SyntheticSource(resolution=SIZE, fps=20, realtime=True, clock=lambda: fake["now"], sleep=sleep)
    with source:
        for _ in range(5):
            source.read()
            fake["now"] += 0.01  # the caller spends 10 ms on each frame
        assert slept == [0.04] * 4  # 50 ms slots on absolute deadlines
        assert source.fps == pytest.approx(20)


def test_usb_camera_on_a_missing_index_is_a_clear_error():
    with pytest.raises(CameraError, match=r"camera usb:63 \(/dev/video63\) gave no frame"):
        VideoCaptureSource(63, open_timeout=1.0)


def test_video_capture_source_reads_on_a_thread_and_notices_the_end(avi_file):
    with VideoCaptureSource(str(avi_file), read_timeout=1.0) as source:
        assert isinstance(source, FrameSource)
        frames = list(source.frames())
        assert 1 <= len(frames) <= 6  # only the newest frame is kept: a live camera drops stale ones
        assert source.read() is None and not source.is_open


def test_open_source_kinds(png_folder):
    assert open_source("none") is None
    with open_source("folder", path=png_folder, realtime=False, loop=False) as source:
        assert isinstance(source, FolderSource) and len(list(source.frames())) == 3
    with open_source("synthetic", resolution=SIZE, realtime=False) as source:
        assert source.read().shape == (SIZE[1], SIZE[0], 3)
    with pytest.raises(CameraError, match='"folder" needs a path'):
        open_source("folder")
    with pytest.raises(CameraError, match=r"camera source 'webcam' is not one of auto, picamera2"):
        open_source("webcam")
    with pytest.raises(CameraError, match=r"resolution must be \[width, height\]"):
        open_source("synthetic", resolution=(8, 8))


def test_auto_without_cameras_falls_back_to_the_demo_feed(monkeypatch):
    monkeypatch.setitem(sys.modules, "picamera2", None)  # not installed
    with open_source("auto", index=63, resolution=SIZE, realtime=False, open_timeout=0.5) as source:
        assert isinstance(source, SyntheticSource)
        assert source.name == "synthetic (auto: no camera found)"


def test_picamera2_missing_says_how_to_install(monkeypatch):
    monkeypatch.setitem(sys.modules, "picamera2", None)
    with pytest.raises(CameraError, match="apt install python3-picamera2"):
        Picamera2Source(0)


class FakePicamera2:
    """Just enough of picamera2's Picamera2 to check how the source drives it."""

    cameras = [{"Model": "imx708"}]
    last: FakePicamera2 | None = None
    vanish_after: int | None = None  # frames before the cable is pulled
    hang_after: int | None = None  # frames before capture_array blocks
    unblock = None

    def __init__(self, camera_num=0):
        self.calls: list = [("open", camera_num)]
        self.frames = 0
        FakePicamera2.last = self

    @staticmethod
    def global_camera_info():
        return FakePicamera2.cameras

    def create_video_configuration(self, main, controls):
        self.calls.append(("config", main, controls))
        return {"main": main, "controls": controls}

    def configure(self, config):
        self.calls.append(("configure",))

    def start(self):
        self.calls.append(("start",))

    def capture_array(self, name="main"):
        if self.vanish_after is not None and self.frames >= self.vanish_after:
            raise RuntimeError("Camera frontend has timed out!")
        if self.hang_after is not None and self.frames >= self.hang_after:
            FakePicamera2.unblock.wait(10)
            raise RuntimeError("released")
        time.sleep(0.005)  # a camera paces its frames; a spinning fake would hog the CPU
        self.frames += 1
        size = FakePicamera2.last.calls[1][1]["size"]
        return np.full((size[1], size[0], 3), self.frames % 256, np.uint8)

    def capture_metadata(self):
        return {"ExposureTime": 12000, "AnalogueGain": 2.0, "ColourGains": (1.8, 1.5), "Lux": 300}

    def set_controls(self, controls):
        self.calls.append(("set_controls", controls))

    def stop(self):
        self.calls.append(("stop",))

    def close(self):
        self.calls.append(("close",))


@pytest.fixture
def fake_picamera2(monkeypatch):
    monkeypatch.setattr(FakePicamera2, "vanish_after", None)
    monkeypatch.setattr(FakePicamera2, "hang_after", None)
    monkeypatch.setattr(FakePicamera2, "unblock", threading.Event())
    module = types.ModuleType("picamera2")
    module.Picamera2 = FakePicamera2
    monkeypatch.setitem(sys.modules, "picamera2", module)
    return FakePicamera2


def test_picamera2_source_asks_for_bgr_and_locks_exposure(fake_picamera2):
    with Picamera2Source(0, resolution=SIZE, fps=15, settle_seconds=0.05) as source:
        frame = source.read()
        assert frame.shape == (SIZE[1], SIZE[0], 3)
        assert source.read() is not None
        deadline = time.monotonic() + 2
        while not any(c[0] == "set_controls" for c in fake_picamera2.last.calls) and time.monotonic() < deadline:
            source.read()
    calls = fake_picamera2.last.calls
    assert calls[1] == ("config", {"size": SIZE, "format": "RGB888"}, {"FrameRate": 15.0})
    assert ("set_controls", {"AeEnable": False, "AwbEnable": False, "ExposureTime": 12000,
                             "AnalogueGain": 2.0, "ColourGains": (1.8, 1.5)}) in calls
    assert calls[-2:] == [("stop",), ("close",)]


def test_picamera2_source_on_a_missing_camera_number(fake_picamera2):
    with pytest.raises(CameraError, match="no Raspberry Pi camera number 1 \\(found 1\\)"):
        Picamera2Source(1)


def test_auto_prefers_the_pi_camera(fake_picamera2):
    with open_source("auto", index=0, resolution=SIZE, exposure_lock=False) as source:
        assert isinstance(source, Picamera2Source) and source.name == "picamera2:0"


def test_a_camera_that_vanishes_reads_none_and_closes(fake_picamera2):
    fake_picamera2.vanish_after = 3
    with Picamera2Source(0, resolution=SIZE, exposure_lock=False) as source:
        frames = list(source.frames())
        assert 1 <= len(frames) <= 3
        assert not source.is_open and source.read() is None


def test_a_hung_camera_read_times_out_instead_of_hanging(fake_picamera2):
    fake_picamera2.hang_after = 1
    source = Picamera2Source(0, resolution=SIZE, exposure_lock=False, read_timeout=0.2)
    try:
        assert source.read() is not None  # the frame that proved the camera works
        started = time.monotonic()
        assert source.read() is None
        assert time.monotonic() - started < 1.0
        assert not source.is_open
    finally:
        fake_picamera2.unblock.set()  # let the stuck reader thread end
        source.close()
