"""Reading a judge input: a directory of images in name order, or a video file."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp")


class FramesError(ValueError):
    """The frames cannot be read."""


def read_frames(path: str | Path) -> list[np.ndarray]:
    """BGR frames from a directory of images (sorted by name) or a video file."""
    path = Path(path)
    if path.is_dir():
        files = sorted(p for p in path.iterdir() if p.is_file() and p.suffix.lower() in IMAGE_SUFFIXES)
        if not files:
            raise FramesError(f"no image files ({', '.join(IMAGE_SUFFIXES)}) in directory {str(path)!r}")
        frames = []
        for file in files:
            frame = cv2.imread(str(file), cv2.IMREAD_COLOR)
            if frame is None:
                raise FramesError(f"cannot read image {str(file)!r}")
            frames.append(frame)
        return frames
    if not path.exists():
        raise FramesError(f"no such file or directory: {str(path)!r}")
    capture = cv2.VideoCapture(str(path))
    frames = []
    try:
        # read() tells whether frames really come; isOpened() alone does not.
        while True:
            ok, frame = capture.read()
            if not ok:
                break
            frames.append(frame)
    finally:
        capture.release()
    if not frames:
        raise FramesError(f"cannot read any video frames from {str(path)!r}")
    return frames
