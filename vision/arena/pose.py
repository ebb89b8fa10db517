"""Where the camera is, recovered from the board homography alone.

With square pixels and the principal point at the image centre, a plane's homography fixes
the focal length (the board's axes must come out perpendicular and equally scaled), and then
the camera's position in the board frame. The reader needs it to know which way a standing
figure leans in the top-down view: straight away from the camera.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class CameraPosition:
    centre_mm: tuple[float, float, float]  # camera centre in the board frame (z up, above the board)
    focal_px: float

    def lean(self, x_mm: float, y_mm: float, height_mm: float) -> tuple[float, float]:
        """Board-plane offset at which a point ``height_mm`` above (x, y) shows in the top-down view."""
        cx, cy, cz = self.centre_mm
        scale = height_mm / max(cz - height_mm, 1e-6)
        return (x_mm - cx) * scale, (y_mm - cy) * scale

    def away(self, x_mm: float, y_mm: float) -> tuple[float, float]:
        """Unit vector on the board pointing away from the camera at (x, y)."""
        dx, dy = x_mm - self.centre_mm[0], y_mm - self.centre_mm[1]
        norm = float(np.hypot(dx, dy))
        if norm < 1e-6:
            return 0.0, 1.0  # straight overhead: nothing leans; any direction will do
        return dx / norm, dy / norm


def camera_position(board_to_image: np.ndarray, image_size: tuple[int, int]) -> CameraPosition:
    """Estimate the camera centre from board mm -> image px (``image_size`` is (width, height))."""
    w, h = image_size
    cx, cy = w / 2.0, h / 2.0
    H = np.asarray(board_to_image, np.float64)
    a = H[0] - cx * H[2]
    b = H[1] - cy * H[2]
    c = H[2]
    # Unknown w = 1/f^2: r1.r2 = 0 and |r1| = |r2| are linear in w.
    A = np.array([a[0] * a[1] + b[0] * b[1], a[0] ** 2 + b[0] ** 2 - a[1] ** 2 - b[1] ** 2])
    B = np.array([c[0] * c[1], c[0] ** 2 - c[1] ** 2])
    denominator = float(A @ A)
    inv_f2 = -float(A @ B) / denominator if denominator > 0 else -1.0
    f = 1.0 / np.sqrt(inv_f2) if inv_f2 > 0 else float(max(w, h))
    # A nearly overhead camera leaves f undetermined; keep it to plausible lenses.
    f = float(np.clip(f, 0.3 * max(w, h), 5.0 * max(w, h)))
    K_inv = np.array([[1 / f, 0, -cx / f], [0, 1 / f, -cy / f], [0, 0, 1]])
    M = K_inv @ H
    scale = 2.0 / (np.linalg.norm(M[:, 0]) + np.linalg.norm(M[:, 1]))
    M = M * scale
    if M[2, 2] < 0:  # the board must lie in front of the camera
        M = -M
    r1, r2, t = M[:, 0], M[:, 1], M[:, 2]
    R = np.column_stack([r1, r2, np.cross(r1, r2)])
    u, _, vt = np.linalg.svd(R)
    R = u @ vt
    centre = -R.T @ t
    if centre[2] < 0:  # a mirror solution: the camera is above the board
        centre = centre * np.array([1, 1, -1])
    return CameraPosition((float(centre[0]), float(centre[1]), float(centre[2])), f)
