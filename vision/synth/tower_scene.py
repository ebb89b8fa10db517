"""Synthetic tower-camera scenes: a printed build mat, rendered wooden cubes, hands and mess.

A scene is rendered from a real pinhole camera in front of the mat (10-30 degrees above the
table, 18-30 cm away), so the judge sees the same geometry as on a real table: perspective,
cubes nearly side-on, shadows, noise, exposure drift and the odd camera nudge.

World frame (millimetres): origin at the build spot on the table, x to the right, y away from
the camera, z up.  Nothing here is shared with the judge, so the judge cannot inherit its bugs.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence

import cv2
import numpy as np

FRAME_SIZE = (640, 480)
SKIN_RGB = (224, 172, 140)
CUBE_MM = 10.0
LIGHT_RGB = (225, 190, 140)
HEAVY_RGB = (110, 30, 25)

# Every structure the generator can build, and what a correct judge must say about it.
EXPECTED = {
    "stand": "pass",
    "lean": "pass",
    "y_fork": "pass",  # the base carries two cubes apart, each carrying a chain: two neighbours at most
    "fork": "fail",  # a cube carrying two side by side while sitting on another
    "two_ground": "fail",
    "two_towers": "fail",
    "aside": "fail",
    "missing": "fail",
    "wrong_colour": "fail",
    "falling": "fail",
    "hand_top": "fail",
    "hand_side": "fail",
}
KINDS = tuple(EXPECTED)


@dataclasses.dataclass(frozen=True)
class Camera:
    distance_mm: float = 240.0
    elevation_deg: float = 20.0
    yaw_deg: float = 0.0
    roll_deg: float = 0.0
    focal_px: float = 560.0
    size: tuple[int, int] = FRAME_SIZE

    def matrices(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Camera matrix K, rotation R (world to camera) and translation t."""
        el, yaw, roll = (math.radians(a) for a in (self.elevation_deg, self.yaw_deg, self.roll_deg))
        target = np.array([0.0, 0.0, 15.0])
        centre = target + self.distance_mm * np.array(
            [math.cos(el) * math.sin(yaw), -math.cos(el) * math.cos(yaw), math.sin(el)]
        )
        forward = (target - centre) / np.linalg.norm(target - centre)
        right = np.cross(forward, [0.0, 0.0, 1.0])
        right /= np.linalg.norm(right)
        down = np.cross(forward, right)
        c, s = math.cos(roll), math.sin(roll)
        right, down = c * right + s * down, -s * right + c * down
        rot = np.stack([right, down, forward])
        w, h = self.size
        k = np.array([[self.focal_px, 0, w / 2], [0, self.focal_px, h / 2], [0, 0, 1.0]])
        return k, rot, -rot @ centre

    def position(self) -> np.ndarray:
        _, rot, t = self.matrices()
        return -rot.T @ t

    def project(self, points: np.ndarray) -> np.ndarray:
        k, rot, t = self.matrices()
        cam = points @ rot.T + t
        pix = cam @ k.T
        return pix[:, :2] / pix[:, 2:3]


@dataclasses.dataclass(frozen=True)
class Cube:
    centre: tuple[float, float, float]
    heavy: bool
    yaw_deg: float = 0.0
    tilt_deg: float = 0.0  # rotation about the y axis (tipping sideways)

    def corners(self, size: float = CUBE_MM) -> np.ndarray:
        half = size / 2
        local = np.array([[x, y, z] for x in (-half, half) for y in (-half, half) for z in (-half, half)])
        yaw, tilt = math.radians(self.yaw_deg), math.radians(self.tilt_deg)
        rz = np.array([[math.cos(yaw), -math.sin(yaw), 0], [math.sin(yaw), math.cos(yaw), 0], [0, 0, 1]])
        ry = np.array([[math.cos(tilt), 0, math.sin(tilt)], [0, 1, 0], [-math.sin(tilt), 0, math.cos(tilt)]])
        return local @ (ry @ rz).T + np.array(self.centre)


@dataclasses.dataclass(frozen=True)
class Hand:
    tip: tuple[float, float, float]  # fingertip, world mm
    direction: tuple[float, float, float]  # from the fingertip towards the wrist


@dataclasses.dataclass(frozen=True)
class Box:
    """A distractor: a game piece, a supply cube or a card lying on the table."""

    centre: tuple[float, float, float]
    size: tuple[float, float, float]
    rgb: tuple[int, int, int]
    yaw_deg: float = 0.0


@dataclasses.dataclass
class TowerScene:
    frames: list[np.ndarray]  # frames[0]: the empty build spot (reference)
    heavy: int
    light: int
    kind: str
    expected: str
    camera: Camera


# Cube box faces as corner indices (corners are ordered x, then y, then z) with outward normals.
_FACES = (
    ((0, 1, 3, 2), (-1, 0, 0)),
    ((4, 6, 7, 5), (1, 0, 0)),
    ((0, 4, 5, 1), (0, -1, 0)),
    ((2, 3, 7, 6), (0, 1, 0)),
    ((0, 2, 6, 4), (0, 0, -1)),
    ((1, 5, 7, 3), (0, 0, 1)),
)


def _box_corners(centre, size, yaw_deg, tilt_deg=0.0) -> np.ndarray:
    sx, sy, sz = (v / 2 for v in size)
    local = np.array([[x, y, z] for x in (-sx, sx) for y in (-sy, sy) for z in (-sz, sz)])
    yaw, tilt = math.radians(yaw_deg), math.radians(tilt_deg)
    rz = np.array([[math.cos(yaw), -math.sin(yaw), 0], [math.sin(yaw), math.cos(yaw), 0], [0, 0, 1]])
    ry = np.array([[math.cos(tilt), 0, math.sin(tilt)], [0, 1, 0], [-math.sin(tilt), 0, math.cos(tilt)]])
    return local @ (ry @ rz).T + np.array(centre)


class _Renderer:
    def __init__(self, camera: Camera, rng: np.random.Generator, *, mat_rgb, table_rgb, light_dir, light_rgb,
                 cube_colours=(LIGHT_RGB, HEAVY_RGB)):
        self.cube_colours = cube_colours
        self.camera = camera
        self.rng = rng
        self.mat_rgb = mat_rgb
        self.table_rgb = table_rgb
        self.light_dir = np.asarray(light_dir, float) / np.linalg.norm(light_dir)
        self.light_rgb = np.asarray(light_rgb, float)
        self.cam_pos = camera.position()
        self.base = self._render_background()

    # -- the static world ------------------------------------------------------------------
    def _plane_warp(self, texture: np.ndarray, x0: float, y1: float, px_per_mm: float, canvas: np.ndarray):
        k, rot, t = self.camera.matrices()
        plane = k @ np.column_stack([rot[:, 0], rot[:, 1], t])
        tex_to_mm = np.array([[1 / px_per_mm, 0, x0], [0, -1 / px_per_mm, y1], [0, 0, 1.0]])
        w, h = self.camera.size
        cv2.warpPerspective(
            texture, plane @ tex_to_mm, (w, h), dst=canvas,
            flags=cv2.INTER_AREA, borderMode=cv2.BORDER_TRANSPARENT,
        )

    def _render_background(self) -> np.ndarray:
        w, h = self.camera.size
        wall = np.linspace(0.5, 0.8, h)[:, None, None] * np.array([170, 175, 180.0])[None, None, ::-1]
        canvas = np.ascontiguousarray(np.broadcast_to(wall, (h, w, 3)).astype(np.uint8))
        # The table: 1 px/mm with a little texture.
        table = np.empty((700, 900, 3), np.uint8)
        table[:] = self.table_rgb[::-1]
        grain = self.rng.normal(0, 6, (700, 1)).astype(np.float32)
        table = np.clip(table + grain[..., None] + self.rng.normal(0, 3, table.shape), 0, 255).astype(np.uint8)
        self._plane_warp(table, -450, 550, 1.0, canvas)
        self._plane_warp(render_mat_texture(4.0, paper_rgb=self.mat_rgb), -110, 75, 4.0, canvas)
        return canvas

    # -- objects ------------------------------------------------------------------------------
    def _shade(self, rgb, normal) -> tuple[float, float, float]:
        lambert = max(0.0, float(np.dot(normal, self.light_dir)))
        value = np.asarray(rgb, float) * (0.45 + 0.65 * lambert) * self.light_rgb / 255.0
        return tuple(float(c) for c in np.clip(value, 0, 255)[::-1])

    def _draw_box(self, img, corners: np.ndarray, rgb, *, edge=True):
        pix = self.camera.project(corners)
        centre = corners.mean(axis=0)
        for idx, _ in _FACES:
            face = corners[list(idx)]
            normal = face.mean(axis=0) - centre
            normal /= np.linalg.norm(normal)
            if np.dot(normal, self.cam_pos - face.mean(axis=0)) <= 0:
                continue
            poly = np.round(pix[list(idx)] * 16).astype(np.int32)
            cv2.fillConvexPoly(img, poly, self._shade(rgb, normal), cv2.LINE_AA, shift=4)
            if edge:
                dark = tuple(c * 0.8 for c in self._shade(rgb, normal))
                cv2.polylines(img, [poly], True, dark, 1, cv2.LINE_AA, shift=4)

    def _shadow(self, shadow: np.ndarray, corners: np.ndarray):
        lift = corners[:, 2:3] / self.light_dir[2]
        on_table = corners - lift * self.light_dir
        on_table[:, 2] = 0
        hull = cv2.convexHull(np.round(self.camera.project(on_table) * 16).astype(np.int32))
        cv2.fillConvexPoly(shadow, hull, 1.0, cv2.LINE_AA, shift=4)

    def _draw_hand(self, img, hand: Hand):
        tip = np.array(hand.tip, float)
        direction = np.array(hand.direction, float)
        direction /= np.linalg.norm(direction)
        # Finger (about 17 mm thick), then the palm and the forearm further out.
        segments = ((0, 45, 17), (40, 110, 70), (100, 400, 65))
        for start, end, width in segments:
            a, b = tip + direction * start, tip + direction * end
            pa, pb = self.camera.project(np.stack([a, b]))
            depth = np.linalg.norm((a + b) / 2 - self.cam_pos)
            px = max(2, int(width * self.camera.focal_px / depth))
            colour = self._shade(SKIN_RGB, -direction * 0.3 + np.array([0, -0.6, 0.7]))
            cv2.line(img, tuple(int(v) for v in np.round(pa)), tuple(int(v) for v in np.round(pb)),
                     colour, px, cv2.LINE_AA)
            cv2.circle(img, tuple(int(v) for v in np.round(pa)), px // 2, colour, -1, cv2.LINE_AA)

    def render(self, cubes: Sequence[Cube], boxes: Sequence[Box], hands: Sequence[Hand]) -> np.ndarray:
        img = self.base.copy()
        shadow = np.zeros(img.shape[:2], np.float32)
        solids = [(_box_corners(b.centre, b.size, b.yaw_deg), b.rgb) for b in boxes]
        light_rgb, heavy_rgb = self.cube_colours
        solids += [(c.corners(), heavy_rgb if c.heavy else light_rgb) for c in cubes]
        for corners, _ in solids:
            self._shadow(shadow, corners)
        shadow = cv2.GaussianBlur(shadow, (0, 0), 2.0)
        img = (img * (1 - 0.35 * shadow[..., None])).astype(np.uint8)
        # Painter's order: far objects first.
        solids.sort(key=lambda s: -np.linalg.norm(s[0].mean(axis=0) - self.cam_pos))
        for corners, rgb in solids:
            self._draw_box(img, corners, rgb)
        for hand in hands:
            self._draw_hand(img, hand)
        return img


def render_mat_texture(px_per_mm: float, *, paper_rgb=(245, 245, 240)) -> np.ndarray:
    """The build mat as the generator's own drawing: 220 x 150 mm, markers 0 and 1 at +-60 mm."""
    w, h = int(220 * px_per_mm), int(150 * px_per_mm)
    tex = np.empty((h, w, 3), np.uint8)
    tex[:] = paper_rgb[::-1]
    aruco = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    side = int(round(30 * px_per_mm))
    for marker_id, cx in ((0, -60), (1, 60)):
        marker = cv2.aruco.generateImageMarker(aruco, marker_id, side)
        u0 = int(round((cx + 110) * px_per_mm - side / 2))
        v0 = int(round(75 * px_per_mm - side / 2))
        tex[v0:v0 + side, u0:u0 + side] = marker[..., None]
    centre = (int(110 * px_per_mm), int(75 * px_per_mm))
    cv2.circle(tex, centre, int(7 * px_per_mm), (150, 150, 150), max(1, int(0.5 * px_per_mm)), cv2.LINE_AA)
    return tex


def _tower_cubes(layout: Sequence[tuple[int, float, bool]], rng, origin, *, lean_mm=0.0) -> list[Cube]:
    """Cubes from (layer, x offset in cube widths, heavy) rows, stacked on the table at origin."""
    cubes = []
    for layer, column, heavy in layout:
        jitter = rng.uniform(-0.8, 0.8, 2)
        x = origin[0] + column * CUBE_MM * 1.02 + layer * lean_mm + jitter[0]
        y = origin[1] + jitter[1]
        cubes.append(Cube((x, y, CUBE_MM / 2 + layer * CUBE_MM), heavy, rng.uniform(-20, 20)))
    return cubes


def _colours(heavy: int, light: int, rng) -> list[bool]:
    order = [True] * heavy + [False] * light
    rng.shuffle(order)
    return order


def _structure(kind: str, heavy: int, light: int, rng, origin) -> tuple[list[Cube], int, int]:
    """The final cubes for a kind, and the (heavy, light) the fighter really has."""
    colours = _colours(heavy, light, rng)
    n = heavy + light
    if kind in ("stand", "hand_top", "hand_side", "falling"):
        return _tower_cubes([(i, 0, c) for i, c in enumerate(colours)], rng, origin), heavy, light
    if kind == "lean":
        lean = rng.choice([-1, 1]) * rng.uniform(1.5, 3.0)
        return _tower_cubes([(i, 0, c) for i, c in enumerate(colours)], rng, origin, lean_mm=lean), heavy, light
    if kind == "fork":
        # ... a cube sitting on another and carrying two cubes side by side: three neighbours.
        rows = [(0, 0, colours[0]), (1, 0, colours[1]), (2, -0.5, colours[2]), (2, 0.5, colours[3])]
        rows += [(3 + i, -0.5, c) for i, c in enumerate(colours[4:])]
        return _tower_cubes(rows, rng, origin), heavy, light
    if kind == "y_fork":
        rows = [(0, 0, colours[0])] + [(1 + i // 2, -0.62 if i % 2 == 0 else 0.62, c) for i, c in enumerate(colours[1:])]
        return _tower_cubes(rows, rng, origin), heavy, light
    if kind == "two_ground":
        rows = [(0, -0.5, colours[0]), (0, 0.5, colours[1])] + [(1 + i, -0.5, c) for i, c in enumerate(colours[2:])]
        return _tower_cubes(rows, rng, origin), heavy, light
    if kind == "two_towers":
        half = n // 2
        left = [(i, -1.6, c) for i, c in enumerate(colours[:half])]
        right = [(i, 1.6, c) for i, c in enumerate(colours[half:])]
        return _tower_cubes(left + right, rng, origin), heavy, light
    if kind == "aside":
        cubes = _tower_cubes([(i, 0, c) for i, c in enumerate(colours[:-1])], rng, origin)
        side = rng.choice([-1, 1]) * rng.uniform(25, 40)
        cubes.append(Cube((origin[0] + side, origin[1] + rng.uniform(-10, 10), CUBE_MM / 2), colours[-1],
                          rng.uniform(-40, 40)))
        return cubes, heavy, light
    if kind == "missing":
        # The fighter has one more wound than the tower holds (a cube never brought).
        extra_heavy = bool(rng.integers(2))
        return (_tower_cubes([(i, 0, c) for i, c in enumerate(colours)], rng, origin),
                heavy + extra_heavy, light + (not extra_heavy))
    if kind == "wrong_colour":
        # A heavy cube stands where a light one should be.
        return _tower_cubes([(i, 0, c) for i, c in enumerate(colours)], rng, origin), heavy - 1, light + 1
    raise ValueError(f"unknown tower scene kind {kind!r} (known: {', '.join(KINDS)})")


def _fall(cubes: list[Cube], fraction: float, direction: int, origin) -> list[Cube]:
    """The tower rigidly tipping about its base edge; fraction 1 lies the cubes on the table."""
    if fraction >= 1:
        out = []
        for i, cube in enumerate(cubes):
            x = origin[0] + direction * (CUBE_MM / 2 + i * CUBE_MM * 1.15)
            out.append(Cube((x, cube.centre[1] + (i % 2) * 3, CUBE_MM / 2), cube.heavy, cube.yaw_deg))
        return out
    angle = fraction * 80.0 * direction
    pivot = np.array([origin[0] + direction * CUBE_MM / 2, 0.0, 0.0])
    a = math.radians(angle)
    rot = np.array([[math.cos(a), 0, math.sin(a)], [0, 1, 0], [-math.sin(a), 0, math.cos(a)]])
    out = []
    for cube in cubes:
        c = np.array(cube.centre)
        moved = rot @ (c - pivot) + pivot
        out.append(Cube(tuple(moved), cube.heavy, cube.yaw_deg, tilt_deg=angle))
    return out


def _distractors(rng, n: int) -> list[Box]:
    boxes = []
    palette = [(200, 40, 40), (40, 90, 200), (30, 140, 60), (230, 200, 40), (60, 60, 60)]
    for _ in range(n):
        x = rng.choice([-1, 1]) * rng.uniform(95, 170)
        y = rng.uniform(-40, 120)
        if rng.random() < 0.5:  # a supply cube
            rgb = HEAVY_RGB if rng.random() < 0.5 else LIGHT_RGB
            boxes.append(Box((x, y, 5), (10, 10, 10), rgb, rng.uniform(0, 90)))
        else:  # a game piece
            s = rng.uniform(12, 25)
            height = rng.uniform(5, 40)
            boxes.append(Box((x, y, height / 2), (s, s, height), palette[rng.integers(len(palette))],
                             rng.uniform(0, 90)))
    return boxes


def _random_set_up(rng, camera: Camera | None, cube_colours) -> tuple[Camera, _Renderer]:
    camera = camera or Camera(
        distance_mm=rng.uniform(180, 300), elevation_deg=rng.uniform(10, 30), yaw_deg=rng.uniform(-8, 8),
        roll_deg=rng.uniform(-3, 3), focal_px=rng.uniform(480, 640),
    )
    renderer = _Renderer(
        camera, rng,
        mat_rgb=tuple(int(v) for v in rng.uniform(225, 252, 3)),
        table_rgb=tuple(int(v) for v in rng.uniform(40, 170, 3)),
        light_dir=(rng.uniform(-0.6, 0.6), rng.uniform(-0.9, -0.2), 1.0),
        light_rgb=tuple(rng.uniform(225, 255, 3)),
        cube_colours=cube_colours,
    )
    return camera, renderer


def make_calibration_shot(
    *,
    seed: int = 0,
    camera: Camera | None = None,
    light_rgb: tuple[int, int, int] = LIGHT_RGB,
    heavy_rgb: tuple[int, int, int] = HEAVY_RGB,
    noise: float = 3.0,
) -> tuple[np.ndarray, Camera]:
    """One light and one heavy cube side by side on the build spot, as calibration asks for."""
    rng = np.random.default_rng(seed)
    camera, renderer = _random_set_up(rng, camera, (light_rgb, heavy_rgb))
    cubes = [Cube((-7.0, 0.0, CUBE_MM / 2), False, rng.uniform(-10, 10)),
             Cube((7.0, 0.0, CUBE_MM / 2), True, rng.uniform(-10, 10))]
    img = renderer.render(cubes, _distractors(rng, 3), []).astype(np.float32)
    img += rng.normal(0, noise, img.shape)
    return np.clip(img, 0, 255).astype(np.uint8), camera


def make_tower_scene(
    kind: str = "stand",
    *,
    heavy: int = 2,
    light: int = 3,
    seed: int = 0,
    frames: int = 4,
    camera: Camera | None = None,
    off_spot_mm: float = 6.0,
    nudge_px: float = 2.0,
    exposure_drift: float = 0.08,
    dim: bool = False,
    noise: float = 3.0,
    distractors: int = 4,
    light_rgb: tuple[int, int, int] = LIGHT_RGB,
    heavy_rgb: tuple[int, int, int] = HEAVY_RGB,
) -> TowerScene:
    """Render one Knockdown Test: the empty reference, then ``frames`` frames of the end."""
    if kind not in EXPECTED:
        raise ValueError(f"unknown tower scene kind {kind!r} (known: {', '.join(KINDS)})")
    if heavy < 0 or light < 0 or heavy + light < (4 if kind in ("fork", "y_fork") else 2):
        raise ValueError(f"heavy/light {heavy!r}/{light!r} too few cubes for a {kind!r} tower")
    if kind == "wrong_colour" and heavy < 1:
        raise ValueError(f"a wrong_colour scene needs a heavy cube, got heavy={heavy!r}")
    rng = np.random.default_rng(seed)
    camera, renderer = _random_set_up(rng, camera, (light_rgb, heavy_rgb))
    origin = tuple(rng.uniform(-off_spot_mm, off_spot_mm, 2)) if off_spot_mm else (0.0, 0.0)
    cubes, true_heavy, true_light = _structure(kind, heavy, light, rng, origin)
    boxes = _distractors(rng, distractors)
    hands: list[Hand] = []
    top = max(c.centre[2] for c in cubes) + CUBE_MM / 2
    if kind == "hand_top":
        hands = [Hand((origin[0], origin[1], top + 1), (rng.uniform(-0.3, 0.3), 0.5, 1.0))]
    elif kind == "hand_side":
        side = rng.choice([-1, 1])
        hands = [Hand((origin[0] + side * (CUBE_MM / 2 + 4), origin[1], top - CUBE_MM / 2),
                      (side, rng.uniform(0, 0.4), rng.uniform(0.0, 0.4)))]

    gain = 0.45 if dim else 1.0
    shift = rng.uniform(-nudge_px, nudge_px, 2)
    drift = 1.0 + rng.uniform(-exposure_drift, exposure_drift)

    def finish(img: np.ndarray, *, end: bool) -> np.ndarray:
        out = img.astype(np.float32) * (gain * (drift if end else 1.0))
        if end and nudge_px:
            m = np.float32([[1, 0, shift[0]], [0, 1, shift[1]]])
            out = cv2.warpAffine(out, m, camera.size, borderMode=cv2.BORDER_REPLICATE)
        out += rng.normal(0, noise * (1.6 if dim else 1.0), out.shape)
        return np.clip(out, 0, 255).astype(np.uint8)

    shots = [finish(renderer.render([], boxes, []), end=False)]
    direction = int(rng.choice([-1, 1]))
    for i in range(frames):
        frame_cubes = cubes
        if kind == "falling":
            # The tower stands, starts to tip in the last frames and lies on the table at the end.
            fractions = np.clip(np.linspace(-0.6, 1.0, frames), 0, 1)
            frame_cubes = _fall(cubes, float(fractions[i]), direction, origin)
        shots.append(finish(renderer.render(frame_cubes, boxes, hands), end=True))
    return TowerScene(shots, true_heavy, true_light, kind, EXPECTED[kind], camera)
