"""Camera sources: one :class:`FrameSource` interface over picamera2, USB, files and a demo feed.

Every source gives BGR ``numpy`` frames from :meth:`FrameSource.read`, or ``None`` once
the source has ended or the camera vanished (and then :attr:`FrameSource.is_open` is
False). A read never hangs: live cameras are read on a background thread and
:meth:`read` waits at most ``read_timeout`` seconds for a fresh frame.

This module is part of ``vision`` and imports nothing from ``assistant`` or
``firmware_config``; :func:`open_source` takes plain values.
"""

from __future__ import annotations

import abc
import collections
import logging
import math
import threading
import time
from pathlib import Path
from typing import Callable, Iterator

import cv2
import numpy as np

log = logging.getLogger(__name__)

Frame = np.ndarray
MakeFrame = Callable[[int], Frame]
Resolution = tuple[int, int]

SOURCE_KINDS = ("auto", "picamera2", "usb", "folder", "synthetic", "none")
IMAGE_SUFFIXES = frozenset({".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp"})
_FPS_WINDOW = 30


class CameraError(ValueError):
    """A camera source cannot be opened as asked."""


class FrameSource(abc.ABC):
    """A source of BGR frames. Subclasses implement :meth:`_read` and :meth:`_release`."""

    def __init__(self, name: str, *, clock: Callable[[], float] = time.monotonic):
        self.name = name
        self._clock = clock
        self._open = True
        self._close_lock = threading.Lock()
        self._frame_times: collections.deque[float] = collections.deque(maxlen=_FPS_WINDOW)

    @property
    def is_open(self) -> bool:
        return self._open

    @property
    def fps(self) -> float:
        """Frames per second measured over the last frames (0.0 until two have arrived)."""
        times = list(self._frame_times)
        if len(times) < 2 or times[-1] <= times[0]:
            return 0.0
        return (len(times) - 1) / (times[-1] - times[0])

    def read(self) -> Frame | None:
        """The next frame (BGR, ``uint8``, H x W x 3), or ``None`` when there is none any more."""
        if not self._open:
            return None
        frame = self._read()
        if frame is None:
            log.info("camera %s: no more frames", self.name)
            self.close()
        return frame

    def frames(self) -> Iterator[Frame]:
        """Iterate frames until the source ends."""
        while (frame := self.read()) is not None:
            yield frame

    def close(self) -> None:
        """Release the source; safe to call more than once."""
        with self._close_lock:
            was_open, self._open = self._open, False
        if was_open:
            self._release()

    def __enter__(self) -> FrameSource:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def __repr__(self) -> str:
        state = f"{self.fps:.1f} fps" if self._open else "closed"
        return f"<{type(self).__name__} {self.name!r}, {state}>"

    def _note_frame(self) -> None:
        self._frame_times.append(self._clock())

    @abc.abstractmethod
    def _read(self) -> Frame | None:
        """Produce the next frame, or None at the end."""

    @abc.abstractmethod
    def _release(self) -> None:
        """Free the device or files."""


class _Pacer:
    """Hands out frame slots at a fixed rate against absolute deadlines (no drift)."""

    def __init__(self, fps: float | None, clock: Callable[[], float], sleep: Callable[[float], None]):
        self._period = 1.0 / fps if fps else 0.0
        self._clock = clock
        self._sleep = sleep
        self._next: float | None = None

    def wait(self) -> None:
        if not self._period:
            return
        now = self._clock()
        if self._next is None or now - self._next > self._period:
            self._next = now  # first frame, or we fell behind: restart the schedule
        elif self._next > now:
            self._sleep(self._next - now)
        self._next += self._period


class SyntheticSource(FrameSource):
    """Frames from ``make_frame(i)`` (i = 0, 1, 2, ...); by default a moving test pattern.

    ``realtime=True`` paces reads at ``fps`` like a camera; ``frame_count`` ends it.
    """

    def __init__(
        self,
        make_frame: MakeFrame | None = None,
        *,
        resolution: Resolution = (640, 480),
        fps: float = 10.0,
        realtime: bool = False,
        frame_count: int | None = None,
        name: str = "synthetic",
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
    ):
        super().__init__(name, clock=clock)
        _check_resolution(resolution)
        self.resolution = resolution
        self._make_frame = make_frame or TestPattern(resolution)
        self._pacer = _Pacer(fps if realtime else None, clock, sleep)
        self._frame_count = frame_count
        self._index = 0

    def _read(self) -> Frame | None:
        if self._frame_count is not None and self._index >= self._frame_count:
            return None
        self._pacer.wait()
        frame = self._make_frame(self._index)
        self._index += 1
        self._note_frame()
        return frame

    def _release(self) -> None:
        pass


class TestPattern:
    """The default synthetic frame: colour bars, a grey ramp, a moving ball and the frame number."""

    __test__ = False  # not a pytest test class

    _BARS_BGR = [(255, 255, 255), (0, 255, 255), (255, 255, 0), (0, 255, 0),
                 (255, 0, 255), (0, 0, 255), (255, 0, 0), (0, 0, 0)]

    def __init__(self, resolution: Resolution = (640, 480)):
        width, height = resolution
        background = np.zeros((height, width, 3), np.uint8)
        bar_width = math.ceil(width / len(self._BARS_BGR))
        for n, colour in enumerate(self._BARS_BGR):
            background[: height * 2 // 3, n * bar_width : (n + 1) * bar_width] = colour
        ramp = np.linspace(0, 255, width, dtype=np.uint8)
        background[height * 2 // 3 :] = ramp[None, :, None]
        self._background = background
        self._radius = max(4, height // 12)
        self._period = 40  # frames for the ball to cross and come back

    def ball_centre(self, i: int) -> tuple[int, int]:
        width, height = self._background.shape[1], self._background.shape[0]
        phase = (i % self._period) / self._period
        travel = 1 - abs(2 * phase - 1)  # 0 -> 1 -> 0
        x = round(self._radius + travel * (width - 2 * self._radius))
        return x, height * 2 // 3 + (height // 3) // 2

    def __call__(self, i: int) -> Frame:
        frame = self._background.copy()
        cv2.circle(frame, self.ball_centre(i), self._radius, (0, 0, 255), -1, lineType=cv2.LINE_AA)
        cv2.putText(frame, f"demo {i}", (8, 28), cv2.FONT_HERSHEY_SIMPLEX, 0.8, (128, 128, 128), 2)
        return frame


class FolderSource(FrameSource):
    """Images from a folder in name order, or the frames of a video file; ``loop`` repeats."""

    def __init__(
        self,
        path: str | Path,
        *,
        loop: bool = False,
        fps: float = 10.0,
        realtime: bool = False,
        name: str | None = None,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
    ):
        path = Path(path).expanduser()
        super().__init__(name or f"folder:{path}", clock=clock)
        self.path = path
        self.loop = loop
        self._pacer = _Pacer(fps if realtime else None, clock, sleep)
        self._images: list[Path] = []
        self._video: cv2.VideoCapture | None = None
        self._index = 0
        if path.is_dir():
            self._images = sorted(p for p in path.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
            if not self._images:
                raise CameraError(
                    f"folder {str(path)!r} has no images ({', '.join(sorted(IMAGE_SUFFIXES))})"
                )
        elif path.is_file():
            self._video = cv2.VideoCapture(str(path))
            if not self._video.isOpened():
                self._video.release()
                raise CameraError(f"{str(path)!r} is neither an image folder nor a video OpenCV can read")
        else:
            raise CameraError(f"camera path {str(path)!r} does not exist")

    def _read(self) -> Frame | None:
        self._pacer.wait()
        frame = self._next_image() if self._images else self._next_video_frame()
        if frame is not None:
            self._note_frame()
        return frame

    def _next_image(self) -> Frame | None:
        if self._index >= len(self._images):
            if not self.loop:
                return None
            self._index = 0
        image_path = self._images[self._index]
        self._index += 1
        frame = cv2.imread(str(image_path), cv2.IMREAD_COLOR)
        if frame is None:
            log.warning("camera %s: cannot read %s", self.name, image_path)
        return frame

    def _next_video_frame(self) -> Frame | None:
        assert self._video is not None
        ok, frame = self._video.read()
        if not ok and self.loop and self._index > 0:
            self._video.set(cv2.CAP_PROP_POS_FRAMES, 0)
            self._index = 0
            ok, frame = self._video.read()
        if not ok:
            return None
        self._index += 1
        return frame

    def _release(self) -> None:
        if self._video is not None:
            self._video.release()


class _LatestFrameReader:
    """Reads a live camera on a daemon thread, keeping only the newest frame.

    A blocked camera call can then never block the caller: :meth:`next_frame` waits
    at most its timeout. A grab that returns None or raises ends the reader.
    """

    def __init__(self, name: str, grab: Callable[[], Frame | None], on_frame: Callable[[], None]):
        self._grab = grab
        self._on_frame = on_frame
        self._cond = threading.Condition()
        self._frame: Frame | None = None
        self._seq = 0
        self._delivered = 0
        self.failure: str | None = None
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, name=f"camera-{name}", daemon=True)
        self._thread.start()

    def _loop(self) -> None:
        while not self._stop.is_set():
            try:
                frame = self._grab()
                failure = None if frame is not None else "the camera returned no frame"
            except Exception as exc:  # camera libraries raise many types
                frame, failure = None, f"{type(exc).__name__}: {exc}"
            with self._cond:
                if frame is None:
                    self.failure = failure
                    self._cond.notify_all()
                    return
                self._frame, self._seq = frame, self._seq + 1
                self._cond.notify_all()
            self._on_frame()

    def next_frame(self, timeout: float) -> Frame | None:
        """A frame newer than the last one returned; None on timeout or failure."""
        with self._cond:
            arrived = self._cond.wait_for(lambda: self._seq > self._delivered or self.failure, timeout)
            if not arrived or self._seq <= self._delivered:
                if not arrived:
                    self.failure = f"no frame within {timeout:g} s"
                return None
            self._delivered = self._seq
            return self._frame

    def stop(self, timeout: float) -> bool:
        """Ask the thread to end; False if it is stuck in the camera call."""
        self._stop.set()
        if self._thread is not threading.current_thread():
            self._thread.join(timeout)
        return not self._thread.is_alive()


class _LiveSource(FrameSource):
    """A camera read on a background thread (see :class:`_LatestFrameReader`)."""

    def __init__(self, name: str, *, read_timeout: float, clock: Callable[[], float]):
        super().__init__(name, clock=clock)
        self.read_timeout = read_timeout
        self._reader: _LatestFrameReader | None = None
        self._first: Frame | None = None  # the frame that proved the camera works

    def _start_reader(
        self,
        grab: Callable[[], Frame | None],
        *,
        open_timeout: float,
        what: str,
        lock_exposure_after: float | None = None,
    ) -> None:
        """Start reading and insist on a first frame, so a dead camera fails at open.

        With ``lock_exposure_after`` the reader thread itself calls :meth:`_lock_exposure`
        that many seconds later, between two reads (camera objects are not thread-safe),
        once the automatic exposure has settled.
        """
        lock_at = None if lock_exposure_after is None else self._clock() + lock_exposure_after

        def grab_and_lock() -> Frame | None:
            nonlocal lock_at
            if lock_at is not None and self._clock() >= lock_at:
                lock_at = None
                try:
                    self._lock_exposure()
                except Exception as exc:  # a camera without the controls still gives frames
                    log.warning("camera %s: exposure not locked: %s", self.name, exc)
            return grab()

        self._reader = _LatestFrameReader(self.name, grab_and_lock, self._note_frame)
        first = self._reader.next_frame(open_timeout)
        if first is None:
            failure = self._reader.failure
            self.close()
            raise CameraError(f"{what} gave no frame: {failure}")
        self._first = first

    def _read(self) -> Frame | None:
        first, self._first = self._first, None
        if first is not None:
            return first
        assert self._reader is not None
        frame = self._reader.next_frame(self.read_timeout)
        if frame is None:
            log.warning("camera %s stopped: %s", self.name, self._reader.failure)
        return frame

    def _stop_reader(self) -> bool:
        return self._reader.stop(timeout=self.read_timeout) if self._reader else True

    def _lock_exposure(self) -> None:
        """Freeze exposure and white balance at their current values (if the camera can)."""


class VideoCaptureSource(_LiveSource):
    """A USB (V4L2) camera through ``cv2.VideoCapture``, or any stream OpenCV opens.

    Health is judged from frames actually read, not ``isOpened()``: opening fails with
    :class:`CameraError` unless a first frame arrives within ``open_timeout``.
    """

    def __init__(
        self,
        device: int | str = 0,
        *,
        resolution: Resolution | None = (640, 480),
        fps: float | None = 10.0,
        exposure_lock: bool = False,
        settle_seconds: float = 1.0,
        open_timeout: float = 5.0,
        read_timeout: float = 2.0,
        name: str | None = None,
        clock: Callable[[], float] = time.monotonic,
    ):
        label = f"usb:{device}" if isinstance(device, int) else str(device)
        super().__init__(name or label, read_timeout=read_timeout, clock=clock)
        where = f"/dev/video{device}" if isinstance(device, int) else repr(device)
        if isinstance(device, int):
            self._capture = cv2.VideoCapture(device, cv2.CAP_V4L2)
            if resolution:
                _check_resolution(resolution)
                self._capture.set(cv2.CAP_PROP_FRAME_WIDTH, resolution[0])
                self._capture.set(cv2.CAP_PROP_FRAME_HEIGHT, resolution[1])
            if fps:
                self._capture.set(cv2.CAP_PROP_FPS, fps)
        else:
            self._capture = cv2.VideoCapture(device)
        self._start_reader(
            self._grab, open_timeout=open_timeout, what=f"camera {label} ({where})",
            lock_exposure_after=settle_seconds if exposure_lock and isinstance(device, int) else None,
        )

    def _grab(self) -> Frame | None:
        ok, frame = self._capture.read()
        return frame if ok else None

    def _lock_exposure(self) -> None:
        # V4L2: auto exposure 1 = manual (3 = auto); the camera keeps its settled values.
        locked = self._capture.set(cv2.CAP_PROP_AUTO_EXPOSURE, 1)
        locked &= self._capture.set(cv2.CAP_PROP_AUTO_WB, 0)
        if not locked:
            log.warning("camera %s: this camera does not let exposure be locked", self.name)

    def _release(self) -> None:
        if self._stop_reader():
            self._capture.release()
        else:
            # Releasing under a read that is still running could crash OpenCV; leak instead.
            log.warning("camera %s: reader is stuck; the device is left to the process exit", self.name)


class Picamera2Source(_LiveSource):
    """A Raspberry Pi camera through picamera2 (from apt: ``python3-picamera2``).

    The ``RGB888`` format gives BGR arrays, OpenCV's order. With ``exposure_lock`` the
    automatic exposure and white balance run for ``settle_seconds`` and are then frozen
    at the values they reached, so cube colours stay comparable between frames (the
    frames of the first ``settle_seconds`` are taken before the lock).
    """

    def __init__(
        self,
        index: int = 0,
        *,
        resolution: Resolution = (640, 480),
        fps: float = 10.0,
        exposure_lock: bool = True,
        settle_seconds: float = 1.0,
        open_timeout: float = 5.0,
        read_timeout: float = 2.0,
        name: str | None = None,
        clock: Callable[[], float] = time.monotonic,
    ):
        super().__init__(name or f"picamera2:{index}", read_timeout=read_timeout, clock=clock)
        _check_resolution(resolution)
        Picamera2 = _import_picamera2()
        if index >= len(Picamera2.global_camera_info()):
            self._open = False
            raise CameraError(f"there is no Raspberry Pi camera number {index} (found {len(Picamera2.global_camera_info())})")
        self._camera = Picamera2(index)
        try:
            config = self._camera.create_video_configuration(
                main={"size": tuple(resolution), "format": "RGB888"},
                controls={"FrameRate": float(fps)},
            )
            self._camera.configure(config)
            self._camera.start()
        except Exception as exc:
            self._camera.close()
            self._open = False
            raise CameraError(f"Raspberry Pi camera {index} could not start: {exc}") from None
        self._start_reader(
            lambda: self._camera.capture_array("main"), open_timeout=open_timeout,
            what=f"Raspberry Pi camera {index}",
            lock_exposure_after=settle_seconds if exposure_lock else None,
        )

    def _lock_exposure(self) -> None:
        settled = self._camera.capture_metadata()
        controls = {"AeEnable": False, "AwbEnable": False}
        for key in ("ExposureTime", "AnalogueGain", "ColourGains"):
            if key in settled:
                controls[key] = settled[key]
        self._camera.set_controls(controls)

    def _release(self) -> None:
        self._stop_reader()
        try:
            self._camera.stop()
        finally:
            self._camera.close()


def _import_picamera2():
    try:
        from picamera2 import Picamera2
    except ImportError:
        raise CameraError(
            "picamera2 is not installed: on Raspberry Pi OS run `sudo apt install python3-picamera2` "
            "and create the venv with --system-site-packages"
        ) from None
    return Picamera2


def _picamera2_available(index: int) -> bool:
    try:
        return index < len(_import_picamera2().global_camera_info())
    except Exception:  # not installed, or libcamera could not enumerate
        return False


def _check_resolution(resolution: Resolution) -> None:
    if (
        len(resolution) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) and 16 <= v <= 4096 for v in resolution)
    ):
        raise CameraError(f"resolution must be [width, height], each 16-4096 pixels, not {resolution!r}")


def open_source(
    kind: str,
    *,
    index: int = 0,
    path: str | Path = "",
    resolution: Resolution = (640, 480),
    fps: float = 10.0,
    exposure_lock: bool = True,
    make_frame: MakeFrame | None = None,
    loop: bool = True,
    realtime: bool = True,
    open_timeout: float = 5.0,
    read_timeout: float = 2.0,
    name: str | None = None,
) -> FrameSource | None:
    """Open a source of ``kind`` (see :data:`SOURCE_KINDS`); ``"none"`` gives ``None``.

    ``"auto"`` takes the Raspberry Pi camera ``index`` if there is one, else the USB
    camera ``index`` if it gives a frame, else the synthetic demo feed; the chosen
    source's ``name`` says which. Files and the demo feed are paced at ``fps`` like a
    camera unless ``realtime=False``.
    """
    resolution = tuple(resolution)  # type: ignore[assignment]
    if kind not in SOURCE_KINDS:
        raise CameraError(f"camera source {kind!r} is not one of {', '.join(SOURCE_KINDS)}")
    if kind == "none":
        return None
    live = {"resolution": resolution, "fps": fps, "exposure_lock": exposure_lock,
            "open_timeout": open_timeout, "read_timeout": read_timeout, "name": name}
    if kind == "picamera2":
        return Picamera2Source(index, **live)
    if kind == "usb":
        return VideoCaptureSource(index, **live)
    if kind == "folder":
        if not str(path):
            raise CameraError('camera source "folder" needs a path (a folder of images or a video file)')
        return FolderSource(path, loop=loop, fps=fps, realtime=realtime, name=name)
    if kind == "auto":
        if _picamera2_available(index):
            return Picamera2Source(index, **live)
        try:
            return VideoCaptureSource(index, **{**live, "open_timeout": min(open_timeout, 2.0)})
        except CameraError as exc:
            log.info("camera auto: %s; using the synthetic demo feed", exc)
        name = name or "synthetic (auto: no camera found)"
    return SyntheticSource(make_frame, resolution=resolution, fps=fps, realtime=realtime,
                           name=name or "synthetic")
