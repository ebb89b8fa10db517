"""Camera sources from the configuration (the bridge between firmware_config and vision)."""

from __future__ import annotations

from firmware_config import CameraConfig, Config
from vision.camera import CameraError, Frame, FrameSource, MakeFrame, SyntheticSource, open_source

CAMERA_ROLES = ("tower", "arena")
# Reads before a calibration frame is kept: exposure settles, and a camera's first frames may be empty.
SETTLE_READS = 20


def open_camera(
    camera: CameraConfig,
    *,
    role: str,
    simulate: bool = False,
    make_frame: MakeFrame | None = None,
    realtime: bool = True,
) -> FrameSource | None:
    """Open the camera a ``[cameras.<role>]`` table describes (None for ``source = "none"``).

    ``role`` ("tower" or "arena") names the table in errors. ``simulate`` replaces a
    live camera ("auto", "picamera2", "usb") with the synthetic demo feed; files and
    "none" stay as configured. ``make_frame`` is the scene generator for that feed.
    """
    if role not in CAMERA_ROLES:
        raise ValueError(f"camera role {role!r} is not one of {', '.join(CAMERA_ROLES)}")
    kind = camera.source
    if simulate and kind in ("auto", "picamera2", "usb"):
        kind = "synthetic"
    try:
        return open_source(
            kind,
            index=camera.index,
            path=camera.path,
            resolution=camera.resolution,
            fps=camera.fps,
            exposure_lock=camera.exposure_lock,
            make_frame=make_frame,
            realtime=realtime,
        )
    except CameraError as exc:
        raise CameraError(f"cameras.{role}: {exc}") from None


def configured_cameras(config: Config) -> dict[str, CameraConfig]:
    """The camera tables by role, in a stable order."""
    return {role: getattr(config.cameras, role) for role in CAMERA_ROLES}


def settled_frame(camera) -> Frame | None:
    """The frame a calibration measures: the last of SETTLE_READS reads (None if the camera gave none)."""
    frame = None
    for _ in range(SETTLE_READS):
        frame = camera.read()
    return frame


def is_demo_feed(camera) -> bool:
    """Whether ``camera`` is the synthetic demo feed (no real camera to calibrate)."""
    return isinstance(camera, SyntheticSource)
