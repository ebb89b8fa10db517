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
    # Shapes built so they stand in physics (each level's load centred over its support):
    "stagger": "pass",  # each cube a few mm off the one below (zigzag or leaning), still balanced
    "ring": "pass",  # a turned base carrying two columns apart, one cap cube bridging both
    "top_pair": "pass",  # a turned base carrying two touching cubes side by side, nothing on them
    "stack_pair": "fail",  # a turned cube sitting on another, carrying two side by side: three neighbours
    # A ring whose columns touch: it stands too, and its arms touch three.  From most views the camera
    # cannot tell it from a ring (the gap is a millimetre or two): "uncertain" is the honest answer.
    "touching_ring": "fail",
}
KINDS = tuple(EXPECTED)
# The kinds whose structures stand on a real table (see `stands`): the accuracy bench's default mix.
# `lean`, `fork` and `y_fork` often or always overhang more than a real stack could hold.
STANDING_KINDS = ("stand", "stagger", "ring", "top_pair", "stack_pair", "touching_ring", "two_ground", "two_towers",
                  "aside", "missing", "wrong_colour", "falling", "hand_top", "hand_side")
# Cube counts (heavy + light) a kind can be built from: a ring is a base, two equal columns and a
# cap; a top pair is a base and the pair (a third cube on either would touch three).
_MIN_CUBES = {"fork": 4, "y_fork": 4, "ring": 4, "touching_ring": 4, "stack_pair": 4, "top_pair": 3}


@dataclasses.dataclass(frozen=True)
class Camera:
    distance_mm: float = 240.0
    elevation_deg: float = 20.0
    yaw_deg: float = 0.0
    roll_deg: float = 0.0
    focal_px: float = 560.0
    size: tuple[int, int] = FRAME_SIZE
    # Real lenses are not centred exactly on the sensor: the judge assumes the image centre.
    principal_offset: tuple[float, float] = (0.0, 0.0)

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
        cx, cy = w / 2 + self.principal_offset[0], h / 2 + self.principal_offset[1]
        k = np.array([[self.focal_px, 0, cx], [0, self.focal_px, cy], [0, 0, 1.0]])
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
    pitch_deg: float = 0.0  # rotation about the x axis (tipping towards the camera)
    rgb: tuple[int, int, int] | None = None  # this cube's own wood colour (None: the box colour)

    def corners(self, size: float = CUBE_MM) -> np.ndarray:
        half = size / 2
        local = np.array([[x, y, z] for x in (-half, half) for y in (-half, half) for z in (-half, half)])
        yaw, tilt, pitch = (math.radians(a) for a in (self.yaw_deg, self.tilt_deg, self.pitch_deg))
        rz = np.array([[math.cos(yaw), -math.sin(yaw), 0], [math.sin(yaw), math.cos(yaw), 0], [0, 0, 1]])
        ry = np.array([[math.cos(tilt), 0, math.sin(tilt)], [0, 1, 0], [-math.sin(tilt), 0, math.cos(tilt)]])
        rx = np.array([[1, 0, 0], [0, math.cos(pitch), -math.sin(pitch)], [0, math.sin(pitch), math.cos(pitch)]])
        return local @ (rx @ ry @ rz).T + np.array(self.centre)


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
    look: Look | None = None  # how the table looked (mat print, light, ...)
    standing: bool = True  # whether the structure (before any fall) would stand on a real table
    hunt: str = ""  # the hunt look and clutter drawn (``make_tower_scene(hunt=...)``), "" for none


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


@dataclasses.dataclass(frozen=True)
class Look:
    """How one table looks: the mat print, the table, the room light and the box of cubes."""

    mat_rgb: tuple[int, int, int] = (245, 245, 240)
    table_rgb: tuple[int, int, int] = (120, 90, 60)
    light_dir: tuple[float, float, float] = (0.3, -0.5, 1.0)
    light_rgb: tuple[float, float, float] = (255.0, 255.0, 255.0)  # the colour cast of the room light
    mat_style: str = "plain"  # "plain", "product" (the mat `knockdown print build-mat` prints) or "busy"
    mat_size_mm: tuple[float, float] = (220.0, 150.0)
    ink: int = 0  # how black the printer's black is
    spot_rgb: tuple[int, int, int] = (150, 150, 150)
    shadow: float = 0.35
    uneven: tuple[float, float, float] = (0.0, 0.0, 0.0)  # light falling off: gradient, its direction, vignette
    blur: float = 0.0
    wood_sd: float = 0.0  # cube-to-cube spread of the wood colour (fraction per channel)
    # The hunt's looks (``hunt_look``; off by default):
    gloss: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)  # a highlight on the mat: x, y, radius mm, level
    second_light: tuple[float, float, float] | None = None  # a second lamp's direction (two shadows)
    gain: float = 1.0  # a dim room the camera's gain brings back up (noise and steps grow with it)
    hunt: str = ""  # which hunt look this is ("" for the generator's own)


class _Renderer:
    def __init__(self, camera: Camera, rng: np.random.Generator, look: Look,
                 cube_colours=(LIGHT_RGB, HEAVY_RGB)):
        self.cube_colours = cube_colours
        self.camera = camera
        self.rng = rng
        self.look = look
        self.light_dir = np.asarray(look.light_dir, float) / np.linalg.norm(look.light_dir)
        self.lamps = [self.light_dir]
        if look.second_light is not None:
            self.lamps.append(np.asarray(look.second_light, float) / np.linalg.norm(look.second_light))
        self.cam_pos = camera.position()
        self.light_field = self._light_field()
        self.base = self._render_background()

    def _light_field(self) -> np.ndarray:
        """Per-pixel illuminant: the room light's colour, falling off across the view."""
        w, h = self.camera.size
        gradient, angle, vignette = self.look.uneven
        ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
        u = ((xs - w / 2) * math.cos(angle) + (ys - h / 2) * math.sin(angle)) / w
        r2 = ((xs - w / 2) ** 2 + (ys - h / 2) ** 2) / (w * w / 4)
        field = (1.0 - gradient * (u + 0.5) - vignette * r2).clip(0.2, 1.0) / self.look.gain
        return field[..., None] * (np.asarray(self.look.light_rgb, np.float32)[::-1] / 255.0)

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
        table[:] = self.look.table_rgb[::-1]
        grain = self.rng.normal(0, 6, (700, 1)).astype(np.float32)
        table = np.clip(table + grain[..., None] + self.rng.normal(0, 3, table.shape), 0, 255).astype(np.uint8)
        self._plane_warp(table, -450, 550, 1.0, canvas)
        mat = render_mat_texture(4.0, look=self.look, rng=self.rng)
        mw, mh = self.look.mat_size_mm
        if self.look.gloss[3] > 0:
            mat = _glossy(mat, self.look, 4.0)
        self._plane_warp(mat, -mw / 2, mh / 2, 4.0, canvas)
        return canvas

    # -- objects ------------------------------------------------------------------------------
    def _shade(self, rgb, normal) -> tuple[float, float, float]:
        lambert = sum(max(0.0, float(np.dot(normal, lamp))) for lamp in self.lamps) / len(self.lamps)
        value = np.asarray(rgb, float) * (0.45 + 0.65 * lambert)
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

    def _shadow(self, shadow: np.ndarray, corners: np.ndarray, lamp: np.ndarray | None = None):
        lamp = self.light_dir if lamp is None else lamp
        lift = corners[:, 2:3] / lamp[2]
        on_table = corners - lift * lamp
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
        solids += [(c.corners(), c.rgb or (heavy_rgb if c.heavy else light_rgb)) for c in cubes]
        for corners, _ in solids:
            self._shadow(shadow, corners)
        shadow = cv2.GaussianBlur(shadow, (0, 0), 2.0)
        if len(self.lamps) > 1:
            # Two lamps: each shadow lets the other lamp's light in (half as dark), and they cross.
            second = np.zeros_like(shadow)
            for corners, _ in solids:
                self._shadow(second, corners, self.lamps[1])
            shadow = 1 - (1 - 0.5 * shadow) * (1 - 0.5 * cv2.GaussianBlur(second, (0, 0), 2.0))
        img = (img * (1 - self.look.shadow * shadow[..., None])).astype(np.uint8)
        # Painter's order: far objects first.
        solids.sort(key=lambda s: -np.linalg.norm(s[0].mean(axis=0) - self.cam_pos))
        for corners, rgb in solids:
            self._draw_box(img, corners, rgb)
        for hand in hands:
            self._draw_hand(img, hand)
        lit = img * self.light_field
        if self.look.blur > 0:
            lit = cv2.GaussianBlur(lit, (0, 0), self.look.blur)
        return np.clip(lit, 0, 255).astype(np.uint8)


def render_mat_texture(px_per_mm: float, *, look: Look = Look(), rng: np.random.Generator | None = None) -> np.ndarray:
    """The build mat, ``look.mat_size_mm`` with the build spot in the middle and markers 0 and 1 at +-60 mm.

    Styles: "plain" (the markers and a ring), "product" (the sheet ``knockdown print build-mat``
    prints: ring, ticks, title, ruler, captions) and "busy" (a coloured border, a grid and text
    blocks, as a home-made or decorated mat might have).
    """
    rng = rng or np.random.default_rng(0)
    mw, mh = look.mat_size_mm
    w, h = int(mw * px_per_mm), int(mh * px_per_mm)

    def px(x_mm: float, y_mm: float) -> tuple[int, int]:
        return int(round((x_mm + mw / 2) * px_per_mm)), int(round((mh / 2 - y_mm) * px_per_mm))

    if look.mat_style == "product":
        from vision.sheets import A4_LANDSCAPE_MM, render_build_mat

        sheet = np.asarray(render_build_mat(dpi=int(round(px_per_mm * 25.4))), np.uint8)
        # Cut the A4 sheet, centred on the spot, to this mat's size at exactly px_per_mm.
        sheet = cv2.resize(sheet, (int(A4_LANDSCAPE_MM[0] * px_per_mm), int(A4_LANDSCAPE_MM[1] * px_per_mm)),
                           interpolation=cv2.INTER_AREA)
        canvas = np.full((h, w), 255, np.uint8)
        sy, sx = (sheet.shape[0] - h) // 2, (sheet.shape[1] - w) // 2
        canvas[max(-sy, 0): max(-sy, 0) + min(h, sheet.shape[0]), max(-sx, 0): max(-sx, 0) + min(w, sheet.shape[1])] = \
            sheet[max(sy, 0): max(sy, 0) + h, max(sx, 0): max(sx, 0) + w]
        ink = canvas.astype(np.float32)[..., None] / 255.0
    else:
        tex = np.full((h, w, 3), 255, np.uint8)
        if look.mat_style == "busy":
            border = tuple(int(v) for v in rng.uniform(40, 230, 3))
            cv2.rectangle(tex, (0, 0), (w - 1, h - 1), border, int(rng.uniform(4, 12) * px_per_mm))
            step = rng.uniform(8, 25)
            grid = int(rng.uniform(170, 225))
            for x in np.arange(-mw / 2, mw / 2, step):
                cv2.line(tex, px(x, -mh / 2), px(x, mh / 2), (grid,) * 3, 1, cv2.LINE_AA)
            for y in np.arange(-mh / 2, mh / 2, step):
                cv2.line(tex, px(-mw / 2, y), px(mw / 2, y), (grid,) * 3, 1, cv2.LINE_AA)
            for _ in range(int(rng.integers(1, 4))):
                org = px(rng.uniform(-mw / 2 + 10, mw / 4), rng.choice([-1, 1]) * rng.uniform(30, mh / 2 - 8))
                cv2.putText(tex, "KNOCKDOWN build here", org, cv2.FONT_HERSHEY_SIMPLEX, 0.35 * px_per_mm,
                            (60, 60, 60), max(1, int(px_per_mm / 2)), cv2.LINE_AA)
        ring = int(rng.uniform(5, 9) * px_per_mm)
        if rng.random() < 0.3:  # a filled spot instead of a ring
            cv2.circle(tex, px(0, 0), ring, tuple(int(c) for c in look.spot_rgb[::-1]), -1, cv2.LINE_AA)
        else:
            cv2.circle(tex, px(0, 0), ring, tuple(int(c) for c in look.spot_rgb[::-1]),
                       max(1, int(0.5 * px_per_mm)), cv2.LINE_AA)
        ink = tex.astype(np.float32) / 255.0
    aruco = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    side = int(round(30 * px_per_mm))
    for marker_id, cx in ((0, -60), (1, 60)):
        marker = cv2.aruco.generateImageMarker(aruco, marker_id, side).astype(np.float32) / 255.0
        u0, v0 = px(cx, 0)
        u0, v0 = u0 - side // 2, v0 - side // 2
        # The white quiet zone stays clear whatever the style.
        q = int(8 * px_per_mm)
        ink[v0 - q:v0 + side + q, u0 - q:u0 + side + q] = 1.0
        ink[v0:v0 + side, u0:u0 + side] = marker[..., None]
    # Printer black is not black, and the paper has its own tint.
    black = look.ink / 255.0
    paper = np.asarray(look.mat_rgb[::-1], np.float32)
    return np.clip((black + (1 - black) * ink) * paper, 0, 255).astype(np.uint8)


def _tower_cubes(layout: Sequence[tuple[int, float, bool]], rng, origin, *, lean_mm=0.0) -> list[Cube]:
    """Cubes from (layer, x offset in cube widths, heavy) rows, stacked on the table at origin.

    Hands stack quickly: each cube sits up to ~1 mm off the one below and turned up to 20 degrees.
    """
    cubes = []
    for layer, column, heavy in layout:
        jitter = rng.uniform(-1.0, 1.0, 2)
        x = origin[0] + column * CUBE_MM * 1.02 + layer * lean_mm + jitter[0]
        y = origin[1] + jitter[1]
        cubes.append(Cube((x, y, CUBE_MM / 2 + layer * CUBE_MM), heavy, rng.uniform(-20, 20)))
    return cubes


def _footprint(cube: Cube) -> np.ndarray:
    """The cube's square on the plane it rests on (x, y mm), turned by its yaw."""
    half = CUBE_MM / 2
    a = math.radians(cube.yaw_deg)
    turn = np.array([[math.cos(a), math.sin(a)], [-math.sin(a), math.cos(a)]])
    square = np.array([[-half, -half], [half, -half], [half, half], [-half, half]])
    return (square @ turn + np.asarray(cube.centre[:2])).astype(np.float32)


def stands(cubes: Sequence[Cube], *, margin_mm: float = 0.5) -> bool:
    """Whether the structure would stand: every cube above the table rests on cubes one layer
    down, and its load (itself plus its share of all it carries, shared evenly between the cubes
    it rests on) is centred at least ``margin_mm`` inside its support (the hull of its contact
    patches).  A static check per level, enough to keep impossible overhangs out of the data."""
    prints = [_footprint(c) for c in cubes]
    supports: list[list[tuple[int, np.ndarray]] | None] = []
    for i, upper in enumerate(cubes):
        if upper.centre[2] < 0.75 * CUBE_MM:
            supports.append(None)  # on the table
            continue
        patches = []
        for j, lower in enumerate(cubes):
            if abs(upper.centre[2] - lower.centre[2] - CUBE_MM) < 0.3 * CUBE_MM:
                area, patch = cv2.intersectConvexConvex(prints[i], prints[j])
                if area > 1.0:
                    patches.append((j, patch.reshape(-1, 2)))
        if not patches:
            return False  # floating
        supports.append(patches)
    mass = np.ones(len(cubes))
    moment = np.array([c.centre[:2] for c in cubes], float)
    # From the top down, so each cube's load is complete before it is passed on.
    for i in sorted(range(len(cubes)), key=lambda k: -cubes[k].centre[2]):
        patches = supports[i]
        if patches is None:
            continue
        x, y = moment[i] / mass[i]
        hull = cv2.convexHull(np.concatenate([p for _, p in patches]).astype(np.float32))
        if cv2.pointPolygonTest(hull, (float(x), float(y)), True) < margin_mm:
            return False
        for j, _ in patches:
            mass[j] += mass[i] / len(patches)
            moment[j] += moment[i] / len(patches)
    return True


def _balanced(build, rng, kind: str) -> list[Cube]:
    """Draw ``build(rng)`` until the structure stands (a hand that builds it sees it fall and rebuilds)."""
    for _ in range(200):
        cubes = build(rng)
        if stands(cubes):
            return cubes
    raise RuntimeError(f"no standing {kind!r} structure found in 200 draws")


def _cube(origin, x: float, y: float, layer: int, heavy: bool, yaw: float) -> Cube:
    return Cube((origin[0] + x, origin[1] + y, CUBE_MM / 2 + layer * CUBE_MM), heavy, yaw)


def _stagger(colours: list[bool], rng, origin) -> list[Cube]:
    """Each cube a few mm off the one below: a zigzag, a lean, or both."""
    lean = rng.choice([-1, 1]) * rng.uniform(0.0, 8.0 / len(colours))
    x = y = 0.0
    cubes = []
    for layer, heavy in enumerate(colours):
        if layer:
            x += lean + rng.uniform(-2.5, 2.5)
            y += rng.uniform(-1.5, 1.5)
        cubes.append(_cube(origin, x, y, layer, heavy, rng.uniform(-20, 20)))
    return cubes


def _turned_base(rng) -> float:
    """A cube turned far enough on its base to hold two cubes side by side (its corners reach out)."""
    return float(rng.choice([-1, 1]) * rng.uniform(25, 45))


def _ring(colours: list[bool], rng, origin, *, touching: bool = False, solid: bool = False,
          arm_turn: float = 12.0) -> list[Cube]:
    """A turned base carrying two columns 1-4 mm apart (``touching``: up to 0.3 mm), one cap cube
    bridging their tops, each arm turned up to ``arm_turn`` degrees.  Arms turned against each other
    may overlap a little (the cubes are drawn as boxes); with ``solid`` a touching ring's arms meet
    as solid cubes do (``_meeting``)."""
    column = (len(colours) - 2) // 2
    half_gap = rng.uniform(0.0, 0.15) if touching else rng.uniform(0.5, 2.0)
    cubes = [_cube(origin, rng.uniform(-0.5, 0.5), 0.0, 0, colours[0], _turned_base(rng))]
    for i, heavy in enumerate(colours[1:-1]):
        side = -1 if i % 2 == 0 else 1
        cubes.append(_cube(origin, side * (CUBE_MM / 2 + half_gap) + rng.uniform(-0.5, 0.5), rng.uniform(-1, 1),
                           1 + i // 2, heavy, rng.uniform(-arm_turn, arm_turn)))
    cubes.append(_cube(origin, rng.uniform(-1, 1), rng.uniform(-1, 1), column + 1, colours[-1], rng.uniform(-15, 15)))
    return _meeting(cubes) if touching and solid else cubes


def _meeting(cubes: list[Cube]) -> list[Cube]:
    """A ring's cubes with each pair of arms whose footprints overlap pushed apart along x, evenly,
    until they just touch (their turns and depths kept): a real table's touching ring, whose arms
    can meet at a corner and show up to both their turned widths side by side."""
    out = list(cubes)

    def moved(cube: Cube, dx: float) -> Cube:
        return dataclasses.replace(cube, centre=(cube.centre[0] + dx, *cube.centre[1:]))

    def overlap(a: Cube, b: Cube, apart: float) -> bool:
        area, _ = cv2.intersectConvexConvex(_footprint(moved(a, -apart / 2)), _footprint(moved(b, apart / 2)))
        return area > 1e-3

    for i in range(1, len(out) - 2, 2):
        left, right = sorted((i, i + 1), key=lambda k: out[k].centre[0])
        if not overlap(out[left], out[right], 0.0):
            continue
        lo, hi = 0.0, CUBE_MM / 2
        for _ in range(30):
            mid = (lo + hi) / 2
            lo, hi = (mid, hi) if overlap(out[left], out[right], mid) else (lo, mid)
        out[left], out[right] = moved(out[left], -hi / 2), moved(out[right], hi / 2)
    return out


def _pair_on_top(colours: list[bool], rng, origin) -> list[Cube]:
    """A chain whose top cube is turned and carries two cubes side by side, touching (up to 0.5 mm apart)."""
    chain = _tower_cubes([(i, 0, c) for i, c in enumerate(colours[:-2])], rng, origin)
    top = chain[-1]
    chain[-1] = dataclasses.replace(top, yaw_deg=_turned_base(rng))
    layer = len(chain)
    half = CUBE_MM / 2 + rng.uniform(0.0, 0.25)
    centre = top.centre[0] - origin[0] + rng.uniform(-0.7, 0.7)
    y = top.centre[1] - origin[1] + rng.uniform(-1, 1)
    return chain + [_cube(origin, centre - half, y, layer, colours[-2], rng.uniform(-4, 4)),
                    _cube(origin, centre + half, y + rng.uniform(-0.5, 0.5), layer, colours[-1], rng.uniform(-4, 4))]


def _real_wood(cubes: list[Cube], rng, colours, spread: float) -> list[Cube]:
    """Each cube its own shade of its box's wood (and a hair off flat: cubes are not machined)."""
    out = []
    for c in cubes:
        base = np.asarray(colours[1] if c.heavy else colours[0], float)
        # Wood varies mostly in shade, a little in hue.
        rgb = tuple(int(v) for v in np.clip(base * (1 + rng.normal(0, spread / 3, 3) + rng.normal(0, spread)), 0, 255))
        out.append(dataclasses.replace(c, rgb=rgb, tilt_deg=c.tilt_deg + rng.uniform(-1.5, 1.5),
                                       pitch_deg=rng.uniform(-1.5, 1.5)))
    return out


def _colours(heavy: int, light: int, rng) -> list[bool]:
    order = [True] * heavy + [False] * light
    rng.shuffle(order)
    return order


def _structure(kind: str, heavy: int, light: int, rng, origin, *,
               solid_touch: bool = False, arm_turn: float = 12.0) -> tuple[list[Cube], int, int]:
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
    if kind == "stagger":
        return _balanced(lambda r: _stagger(colours, r, origin), rng, kind), heavy, light
    if kind in ("ring", "touching_ring"):
        touching = kind == "touching_ring"
        return _balanced(lambda r: _ring(colours, r, origin, touching=touching, solid=solid_touch, arm_turn=arm_turn),
                         rng, kind), heavy, light
    if kind in ("top_pair", "stack_pair"):
        return _balanced(lambda r: _pair_on_top(colours, r, origin), rng, kind), heavy, light
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


def _distractors(rng, n: int, *, near: float = 0.0) -> list[Box]:
    """Supply cubes and game pieces on the table; a share ``near`` of them right beside the mat's
    markers or behind the build spot (in the judge's view), clear of the markers' quiet zones."""
    boxes = []
    palette = [(200, 40, 40), (40, 90, 200), (30, 140, 60), (230, 200, 40), (60, 60, 60), (150, 90, 50)]
    for _ in range(n):
        x = rng.choice([-1, 1]) * rng.uniform(95, 170)
        y = rng.uniform(-40, 120)
        if rng.random() < near:
            if rng.random() < 0.5:
                x, y = rng.choice([-1, 1]) * rng.uniform(88, 110), rng.uniform(-45, 60)
            else:
                x, y = rng.uniform(-45, 45), rng.uniform(45, 110)
        if rng.random() < 0.5:  # a supply cube
            rgb = HEAVY_RGB if rng.random() < 0.5 else LIGHT_RGB
            boxes.append(Box((x, y, 5), (10, 10, 10), rgb, rng.uniform(0, 90)))
        else:  # a game piece
            s = rng.uniform(12, 25)
            height = rng.uniform(5, 40)
            boxes.append(Box((x, y, height / 2), (s, s, height), palette[rng.integers(len(palette))],
                             rng.uniform(0, 90)))
    return boxes


def random_look(rng: np.random.Generator, *, set_up_light: bool = False) -> Look:
    """A random table within the spec: any printed mat, table, room light (colour, direction,
    fall-off), printer and camera softness.  ``set_up_light``: the near-white light from above
    and in front that calibration asks for."""
    style = str(rng.choice(["plain", "product", "busy"]))
    # Room light from warm (tungsten) to cool (daylight, LED).
    warmth = rng.uniform(-1, 1) * (0.3 if set_up_light else 1.0)
    light_rgb = (255 - 45 * max(-warmth, 0), 255 - 20 * abs(warmth), 255 - 75 * max(warmth, 0))
    return Look(
        mat_rgb=tuple(int(v) for v in rng.uniform(225, 252, 3)),
        table_rgb=tuple(int(v) for v in rng.uniform(40, 170, 3)),
        light_dir=(rng.uniform(-0.6, 0.6), rng.uniform(-0.9, -0.2), 1.0) if set_up_light
        else (rng.uniform(-1.0, 1.0), rng.uniform(-1.0, 0.5), rng.uniform(0.5, 1.5)),
        light_rgb=tuple(float(c) * rng.uniform(0.85, 1.0) for c in light_rgb),
        mat_style=style,
        mat_size_mm=(297.0, 210.0) if style == "product" else (float(rng.uniform(200, 297)), float(rng.uniform(140, 210))),
        ink=int(rng.uniform(0, 60)),
        spot_rgb=tuple(int(v) for v in rng.uniform(60, 200, 3)),
        shadow=float(rng.uniform(0.2, 0.55)),
        uneven=(float(rng.uniform(0, 0.3)), float(rng.uniform(0, 2 * math.pi)), float(rng.uniform(0, 0.2))),
        blur=float(rng.uniform(0, 0.9)),
        wood_sd=float(rng.uniform(0.02, 0.06)),
    )


def _glossy(mat: np.ndarray, look: Look, px_per_mm: float) -> np.ndarray:
    """The mat with a lamp's highlight on its glossy or laminated surface (it washes ink and paper alike)."""
    x, y, radius, level = look.gloss
    mh, mw = mat.shape[:2]
    vs, us = np.mgrid[0:mh, 0:mw].astype(np.float32) / px_per_mm
    d2 = (us - (x + look.mat_size_mm[0] / 2)) ** 2 + (vs - (look.mat_size_mm[1] / 2 - y)) ** 2
    glow = level * np.exp(-d2 / (2 * radius * radius))
    return np.clip(mat + glow[..., None], 0, 255).astype(np.uint8)


# The hunt (``hunt_look``, ``_hunt_clutter``): tables past the generator's own looks, within the spec.
# "all": a mat, a light and clutter of the others at once.  "paper" is past the spec: a strongly
# coloured sheet leaves the markers no white quiet zone.
HUNTS = ("mats", "light", "clutter", "all", "paper")
# Paper a mat may be printed on, beside the near-white the generator draws (RGB, before the room light).
_PAPERS = {
    "cream": ((240, 252), (228, 242), (190, 215)),
    "grey": ((185, 215),) * 3,  # recycled: drawn as one level, a hair off per channel
    "yellow": ((245, 252), (232, 245), (160, 190)),
    "pink": ((240, 252), (200, 218), (205, 225)),
    "blue": ((190, 212), (215, 232), (238, 252)),
    "green": ((200, 222), (235, 250), (195, 215)),
}
# Strongly coloured sheets (the "paper" hunt, past the spec's white quiet zone): canary and kraft are
# near the light wood's own hue.
_STRONG_PAPERS = {
    "canary": ((245, 255), (228, 242), (120, 150)),
    "kraft": ((190, 210), (150, 175), (110, 135)),
    "sky": ((150, 175), (195, 215), (232, 250)),
    "rose": ((238, 252), (160, 185), (185, 205)),
    "mid_grey": ((140, 165),) * 3,
}


def hunt_look(look: Look, rng: np.random.Generator, family: str) -> Look:
    """``look`` changed the way a real table can differ from the generator's (``HUNTS``), from ``rng``.

    "mats": the paper (cream, recycled grey, a coloured sheet), a glossy sheet's highlight, a
    laminated sheet's broad sheen, or dark-grey printer black.  "light": one hard lamp low to the
    side (long shadows across the spot), two lamps (two shadows), or a dim room the camera's gain
    brings back up.  "clutter" keeps the look (the clutter is ``_hunt_clutter``); "all" draws a mat and
    a light (and ``make_tower_scene`` the clutter); "paper" a strongly coloured sheet, past the spec's
    white quiet zone (canary, kraft, sky, rose, mid grey).  The mat style and
    size stay the seed's, so the rest of the scene is the seed's own.
    """
    if family == "clutter":
        return dataclasses.replace(look, hunt="clutter")
    if family == "paper":
        paper = str(rng.choice(list(_STRONG_PAPERS)))
        spans = _STRONG_PAPERS[paper]
        level = rng.uniform(*spans[0])
        rgb = tuple(int(level if paper == "mid_grey" else rng.uniform(*span)) for span in spans)
        return dataclasses.replace(look, mat_rgb=rgb, hunt=f"paper:{paper}")
    if family == "all":
        mat = hunt_look(look, rng, "mats")
        lit = hunt_look(mat, rng, "light")  # the light's changes leave the mat's
        return dataclasses.replace(lit, hunt=f"{mat.hunt}+{lit.hunt}")
    if family == "mats":
        kind = str(rng.choice(["cream", "grey", "coloured", "glossy", "laminated", "dark_ink"]))
        if kind in ("cream", "grey", "coloured"):
            paper = kind if kind != "coloured" else str(rng.choice(["yellow", "pink", "blue", "green"]))
            if paper == "grey":
                level = rng.uniform(185, 215)
                rgb = tuple(int(level + rng.uniform(-4, 4)) for _ in range(3))
            else:
                rgb = tuple(int(rng.uniform(*span)) for span in _PAPERS[paper])
            return dataclasses.replace(look, mat_rgb=rgb, hunt=f"mats:{paper}")
        if kind == "glossy":  # a lamp's highlight, anywhere on the sheet (also over the spot or a marker)
            gloss = (rng.uniform(-90, 90), rng.uniform(-50, 70), rng.uniform(15, 45), rng.uniform(60, 170))
            return dataclasses.replace(look, gloss=tuple(float(v) for v in gloss), hunt="mats:glossy")
        if kind == "laminated":  # a broad sheen over much of the sheet
            gloss = (rng.uniform(-60, 60), rng.uniform(-20, 60), rng.uniform(60, 140), rng.uniform(25, 70))
            return dataclasses.replace(look, gloss=tuple(float(v) for v in gloss), hunt="mats:laminated")
        return dataclasses.replace(look, ink=int(rng.uniform(70, 120)), hunt="mats:dark_ink")
    if family == "light":
        kind = str(rng.choice(["low_lamp", "two_lamps", "dim_gain"]))
        if kind == "low_lamp":  # 10-25 degrees up, mostly from one side
            side = rng.choice([-1, 1]) * rng.uniform(math.radians(40), math.radians(140))
            up = math.tan(math.radians(rng.uniform(10, 25)))
            # The light falls off away from the lamp (in the picture: x as the world's, y the other way).
            away = math.atan2(-math.cos(side), -math.sin(side))
            return dataclasses.replace(
                look, light_dir=(float(math.sin(side)), float(-math.cos(side)), up),
                shadow=float(rng.uniform(0.45, 0.7)),
                uneven=(float(rng.uniform(0.2, 0.45)), float(away), look.uneven[2]), hunt="light:low_lamp")
        if kind == "two_lamps":  # one each side, 30-60 degrees up
            lamps = []
            for sign in (-1, 1):
                side = sign * rng.uniform(math.radians(30), math.radians(150))
                up = math.tan(math.radians(rng.uniform(30, 60)))
                lamps.append((float(math.sin(side)), float(-math.cos(side)), up))
            return dataclasses.replace(look, light_dir=lamps[0], second_light=lamps[1],
                                       shadow=float(rng.uniform(0.4, 0.7)), hunt="light:two_lamps")
        return dataclasses.replace(look, gain=float(rng.uniform(1.8, 3.5)), hunt="light:dim_gain")
    raise ValueError(f"unknown hunt {family!r} (known: {', '.join(HUNTS)})")


def _hunt_clutter(rng: np.random.Generator, origin, box_colours, kind: str) -> tuple[list[Box], str]:
    """Things left close to the tower on a real table (there from the start, so no part of the
    test): supply wound cubes (the box's wood), a card, a die, a miniature behind the tower.  Each
    clear of the room the kind's cubes take (``hunt_clear``) and of the markers' quiet zones; some
    right behind the tower, in the judge's view, some beside it or in front."""

    def place(size: tuple[float, float], spots: str) -> tuple[float, float, float] | None:
        """A centre and a turn for a footprint of ``size`` (mm) in one of ``spots``: behind, beside, in front."""
        for _ in range(60):
            where = str(rng.choice(list(spots)))
            if where == "b":  # behind the tower
                x, y = rng.uniform(-40, 40), rng.uniform(15, 75)
            elif where == "s" and rng.random() < 0.6:  # beside, between the tower and a marker's quiet zone
                x, y = rng.choice([-1, 1]) * rng.uniform(18, 32), rng.uniform(-15, 15)
            elif where == "s":  # behind a marker
                x, y = rng.choice([-1, 1]) * rng.uniform(40, 80), rng.uniform(30, 60)
            else:  # in front, between the camera and the tower
                x, y = rng.uniform(-30, 30), -rng.uniform(35, 55)
            yaw = float(rng.uniform(0, 90))
            if hunt_clear((x, y), size, yaw, origin, kind):
                return float(x), float(y), yaw
        return None

    boxes, what = [], []
    for _ in range(int(rng.integers(1, 5))):  # supply cubes, each its own shade of the box's wood
        heavy = bool(rng.random() < 0.5)
        rgb = tuple(int(v) for v in np.clip(np.asarray(box_colours[heavy], float) * rng.normal(1, 0.04, 3), 0, 255))
        spot = place((CUBE_MM, CUBE_MM), "bbssf")
        if spot:
            boxes.append(Box((spot[0], spot[1], CUBE_MM / 2), (CUBE_MM,) * 3, rgb, spot[2]))
            what.append("heavy" if heavy else "light")
    if rng.random() < 0.5:  # a playing card, face up (a printed colour)
        size = (63.0, 88.0) if rng.random() < 0.6 else (44.0, 68.0)
        spot = place(size, "bs")
        if spot:
            rgb = tuple(int(v) for v in rng.uniform(60, 240, 3))
            boxes.append(Box((spot[0], spot[1], 0.3), (*size, 0.6), rgb, spot[2]))
            what.append("card")
    if rng.random() < 0.5:  # a die: white, red or black
        rgb = [(235, 232, 225), (190, 35, 35), (35, 35, 35)][int(rng.integers(3))]
        spot = place((16.0, 16.0), "bbsf")
        if spot:
            boxes.append(Box((spot[0], spot[1], 8.0), (16.0, 16.0, 16.0), rgb, spot[2]))
            what.append("die")
    if rng.random() < 0.6:  # a miniature on its base behind the tower, painted any colour (also wood-like)
        spot = place((25.0, 25.0), "b")
        if spot:
            x, y, yaw = spot
            tall = rng.uniform(25, 45)
            paint = tuple(int(v) for v in rng.uniform(30, 230, 3))
            boxes.append(Box((x, y, 1.5), (25.0, 25.0, 3.0), (40, 40, 40), yaw))
            boxes.append(Box((x, y, 3 + tall / 2), (14.0, 10.0, tall), paint, yaw))
            what.append("mini")
    return boxes, "clutter:" + "+".join(what)


# The room round the tower each kind's cubes take (x, y mm either way): two towers, a cube aside
# and a fallen tower reach further than one column.
_TOWER_ROOM = {"two_towers": (25, 9), "two_ground": (25, 9), "aside": (45, 16), "falling": (110, 9)}


def hunt_clear(centre, size, yaw_deg: float, origin, kind: str) -> bool:
    """Whether a footprint (``size`` mm turned by ``yaw_deg`` at ``centre``) lies clear of the
    tower's room and of both markers' quiet zones (the printed 30 mm squares and 8 mm round them)."""
    a = math.radians(yaw_deg)
    u, v = np.meshgrid(np.linspace(-0.5, 0.5, 9) * size[0], np.linspace(-0.5, 0.5, 9) * size[1])
    x = centre[0] + u * math.cos(a) - v * math.sin(a)
    y = centre[1] + u * math.sin(a) + v * math.cos(a)
    room = _TOWER_ROOM.get(kind, (15, 9))
    on_tower = (np.abs(x - origin[0]) < room[0]) & (np.abs(y - origin[1]) < room[1])
    on_zone = (np.abs(np.abs(x) - 60) < 23) & (np.abs(y) < 23)
    return not (on_tower | on_zone).any()


def _random_set_up(rng, camera: Camera | None, cube_colours, *, set_up_light: bool = False,
                   hunt: str | None = None, hunt_rng: np.random.Generator | None = None) -> tuple[Camera, _Renderer]:
    camera = camera or Camera(
        distance_mm=rng.uniform(180, 300), elevation_deg=rng.uniform(10, 30), yaw_deg=rng.uniform(-8, 8),
        roll_deg=rng.uniform(-3, 3), focal_px=rng.uniform(450, 700),
        principal_offset=(float(rng.uniform(-12, 12)), float(rng.uniform(-12, 12))),
    )
    # The box's wood is "about" the spec colour: each box a little off it.
    box_colours = tuple(tuple(int(v) for v in np.clip(np.asarray(c) * rng.normal(1, 0.03, 3), 0, 255))
                        for c in cube_colours)
    look = random_look(rng, set_up_light=set_up_light)
    if hunt:
        look = hunt_look(look, hunt_rng, hunt)
    return camera, _Renderer(camera, rng, look, box_colours)


def make_calibration_shot(
    *,
    seed: int = 0,
    camera: Camera | None = None,
    light_rgb: tuple[int, int, int] = LIGHT_RGB,
    heavy_rgb: tuple[int, int, int] = HEAVY_RGB,
    noise: float = 3.0,
) -> tuple[np.ndarray, Camera]:
    """One light and one heavy cube side by side on the build spot, as calibration asks for
    (in the room's usual light from above, not from behind the mat)."""
    rng = np.random.default_rng(seed)
    camera, renderer = _random_set_up(rng, camera, (light_rgb, heavy_rgb), set_up_light=True)
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
    near: float = 0.3,
    pile: bool = False,
    light_rgb: tuple[int, int, int] = LIGHT_RGB,
    heavy_rgb: tuple[int, int, int] = HEAVY_RGB,
    solid_touch: bool = False,
    arm_turn: float = 12.0,
    hunt: str | None = None,
) -> TowerScene:
    """Render one Knockdown Test: the empty reference, then ``frames`` frames of the end.

    ``near`` is the share of the ``distractors`` lying right beside the markers or behind the
    build spot; with ``pile`` the fighter's wound cubes lie beside the mat in the reference
    (they are the tower at the end).  With ``solid_touch`` a touching ring's arms meet as solid
    cubes do instead of overlapping (``_meeting``; off by default, so every seed keeps its scene).
    ``hunt`` (one of ``HUNTS``) changes the table past the generator's own looks (``hunt_look``) or adds
    clutter close to the tower (``_hunt_clutter``), from a generator of its own: the rest of the scene is
    the seed's.
    """
    if kind not in EXPECTED:
        raise ValueError(f"unknown tower scene kind {kind!r} (known: {', '.join(KINDS)})")
    if heavy < 0 or light < 0 or heavy + light < _MIN_CUBES.get(kind, 2):
        raise ValueError(f"heavy/light {heavy!r}/{light!r} too few cubes for a {kind!r} tower")
    if kind in ("ring", "touching_ring") and (heavy + light) % 2:
        raise ValueError(f"heavy/light {heavy!r}/{light!r}: a {kind!r} needs an even number of cubes "
                         "(a base, two equal columns and a cap)")
    if kind == "top_pair" and heavy + light != 3:
        raise ValueError(f"heavy/light {heavy!r}/{light!r}: a {kind!r} is exactly three cubes "
                         "(a cube on either of the pair would touch three)")
    if kind == "wrong_colour" and heavy < 1:
        raise ValueError(f"a wrong_colour scene needs a heavy cube, got heavy={heavy!r}")
    rng = np.random.default_rng(seed)
    hunt_rng = np.random.default_rng([seed, HUNTS.index(hunt)]) if hunt else None
    camera, renderer = _random_set_up(rng, camera, (light_rgb, heavy_rgb), hunt=hunt, hunt_rng=hunt_rng)
    origin = tuple(rng.uniform(-off_spot_mm, off_spot_mm, 2)) if off_spot_mm else (0.0, 0.0)
    cubes, true_heavy, true_light = _structure(kind, heavy, light, rng, origin, solid_touch=solid_touch,
                                                  arm_turn=arm_turn)
    cubes = _real_wood(cubes, rng, renderer.cube_colours, renderer.look.wood_sd)
    boxes = _distractors(rng, distractors, near=near)
    label = renderer.look.hunt
    if hunt in ("clutter", "all"):
        close, clutter = _hunt_clutter(hunt_rng, origin, renderer.cube_colours, kind)
        boxes += close
        label = clutter if hunt == "clutter" else f"{label}+{clutter}"

    before: list[Cube] = []
    if pile:
        side = rng.choice([-1, 1])
        before = _real_wood([Cube((side * rng.uniform(90, 120) + rng.uniform(-8, 8), rng.uniform(-40, 50) + rng.uniform(-8, 8),
                                   CUBE_MM / 2), c.heavy, rng.uniform(0, 90)) for c in cubes],
                            rng, renderer.cube_colours, renderer.look.wood_sd)
    hands: list[Hand] = []
    top = max(c.centre[2] for c in cubes) + CUBE_MM / 2
    if kind == "hand_top":
        hands = [Hand((origin[0], origin[1], top + 1), (rng.uniform(-0.3, 0.3), 0.5, 1.0))]
    elif kind == "hand_side":
        side = rng.choice([-1, 1])
        hands = [Hand((origin[0] + side * (CUBE_MM / 2 + 4), origin[1], top - CUBE_MM / 2),
                      (side, rng.uniform(0, 0.4), rng.uniform(0.0, 0.4)))]

    gain = rng.uniform(0.3, 0.6) if dim else 1.0
    shift = rng.uniform(-nudge_px, nudge_px, 2)
    drift = 1.0 + rng.uniform(-exposure_drift, exposure_drift)

    def finish(img: np.ndarray, *, end: bool) -> np.ndarray:
        out = img.astype(np.float32) * (gain * (drift if end else 1.0)) * renderer.look.gain
        if end and nudge_px:
            m = np.float32([[1, 0, shift[0]], [0, 1, shift[1]]])
            out = cv2.warpAffine(out, m, camera.size, borderMode=cv2.BORDER_REPLICATE)
        out += rng.normal(0, noise * (1.6 if dim else 1.0) * renderer.look.gain, out.shape)
        return np.clip(out, 0, 255).astype(np.uint8)

    shots = [finish(renderer.render(before, boxes, []), end=False)]
    direction = int(rng.choice([-1, 1]))
    for i in range(frames):
        frame_cubes = cubes
        if kind == "falling":
            # The tower stands, starts to tip in the last frames and lies on the table at the end.
            fractions = np.clip(np.linspace(-0.6, 1.0, frames), 0, 1)
            frame_cubes = _fall(cubes, float(fractions[i]), direction, origin)
        shots.append(finish(renderer.render(frame_cubes, boxes, hands), end=True))
    return TowerScene(shots, true_heavy, true_light, kind, EXPECTED[kind], camera, renderer.look, stands(cubes),
                      label)
