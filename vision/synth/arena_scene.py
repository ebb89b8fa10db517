"""Synthetic arena scenes: the board, its markers and miniatures seen by the arena camera.

Rendered from the product spec (not from the reader): a table with the board lying on it, a
pinhole camera in front of and above the board (35-60 cm, 35-80 degrees up, up to 25 degrees
to the side), miniatures as round bases with a figure on top, flat tokens, cards and dice
beside the board, lamp light with shadows, colour casts and sensor noise. Flat things are
painted into a top-down texture of the table; solid things are projected and drawn far to near.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import cv2
import numpy as np

from vision.arena.geometry import BoardGeometry

TEXTURE_PX_PER_MM = 1.5
TABLE_MM = (1000.0, 700.0)  # the table area rendered around the board centre


@dataclass(frozen=True)
class CameraPose:
    distance_mm: float = 450.0
    elevation_deg: float = 55.0
    azimuth_deg: float = 0.0  # positive: camera to the right of the board (towards +x)
    roll_deg: float = 0.0
    target_mm: tuple[float, float] = (0.0, 0.0)
    image_size: tuple[int, int] = (800, 600)
    fill: float = 0.85  # fraction of the image the board spans (picks the focal length)


@dataclass(frozen=True)
class Miniature:
    x_mm: float
    y_mm: float
    base_mm: float = 26.0
    base_height_mm: float = 3.5
    base_bgr: tuple[int, int, int] = (40, 40, 40)
    figure_bgr: tuple[int, int, int] = (120, 120, 130)
    figure_height_mm: float = 38.0
    figure_width_mm: float = 16.0
    lean_mm: tuple[float, float] = (0.0, 0.0)  # the figure's top offset from the base centre


@dataclass(frozen=True)
class Token:
    x_mm: float
    y_mm: float
    diameter_mm: float = 20.0
    thickness_mm: float = 3.0
    bgr: tuple[int, int, int] = (30, 140, 200)
    #: Its underside this high (mm): a token dropped on another lies on that one's top.
    z_mm: float = 0.0


@dataclass(frozen=True)
class Die:
    x_mm: float
    y_mm: float
    size_mm: float = 16.0
    bgr: tuple[int, int, int] = (230, 230, 230)
    angle_deg: float = 20.0


@dataclass(frozen=True)
class Card:
    x_mm: float
    y_mm: float
    size_mm: tuple[float, float] = (63.0, 88.0)
    angle_deg: float = 0.0
    bgr: tuple[int, int, int] = (200, 210, 225)


@dataclass(frozen=True)
class Lighting:
    gain: float = 1.0
    tint_bgr: tuple[float, float, float] = (1.0, 1.0, 1.0)  # colour cast (evening light, warm lamp)
    gradient: float = 0.0  # brightness change across the image, as a fraction
    gradient_angle_deg: float = 0.0
    shadow: float = 0.0  # 0 = no cast shadows; 0.5 = shadows half as bright
    light_dir: tuple[float, float] = (0.3, 0.6)  # ground offset of a shadow per mm of height
    noise: float = 3.0  # sensor noise, grey levels (std)


@dataclass(frozen=True)
class Scene:
    pose: CameraPose = field(default_factory=CameraPose)
    miniatures: tuple[Miniature, ...] = ()
    tokens: tuple[Token, ...] = ()
    dice: tuple[Die, ...] = ()
    cards: tuple[Card, ...] = ()
    lighting: Lighting = field(default_factory=Lighting)
    board_bgr: tuple[int, int, int] = (150, 170, 185)
    space_bgr: tuple[int, int, int] = (120, 140, 160)
    table_bgr: tuple[int, int, int] = (60, 90, 120)
    hidden_markers: tuple[int, ...] = ()  # markers covered by a hand
    seed: int = 0  # noise, hands
    board_seed: int = 0  # the printed board and the table: the same in reference and live scenes


@dataclass(frozen=True)
class Camera:
    K: np.ndarray
    R: np.ndarray
    t: np.ndarray
    size: tuple[int, int]

    def project(self, points: np.ndarray) -> np.ndarray:
        """World mm (N x 3) -> image px (N x 2)."""
        cam = points @ self.R.T + self.t
        uv = cam @ self.K.T
        return uv[:, :2] / uv[:, 2:3]

    def depth(self, points: np.ndarray) -> np.ndarray:
        return (points @ self.R.T + self.t)[:, 2]

    @property
    def centre(self) -> np.ndarray:
        return -self.R.T @ self.t

    def ground_homography(self) -> np.ndarray:
        """Board mm (z = 0) -> image px."""
        return self.K @ np.column_stack([self.R[:, 0], self.R[:, 1], self.t])


def make_camera(pose: CameraPose, geometry: BoardGeometry) -> Camera:
    el, az, roll = (math.radians(a) for a in (pose.elevation_deg, pose.azimuth_deg, pose.roll_deg))
    target = np.array([pose.target_mm[0], pose.target_mm[1], 0.0])
    centre = target + pose.distance_mm * np.array([math.sin(az) * math.cos(el), -math.cos(az) * math.cos(el), math.sin(el)])
    forward = (target - centre) / np.linalg.norm(target - centre)
    right = np.cross(forward, [0.0, 0.0, 1.0])
    right /= np.linalg.norm(right)
    down = np.cross(forward, right)
    c, s = math.cos(roll), math.sin(roll)
    right, down = c * right + s * down, -s * right + c * down
    R = np.vstack([right, down, forward])
    t = -R @ centre
    w, h = pose.image_size
    # Focal length so that the board spans `fill` of the frame.
    bw, bh = geometry.board_mm
    corners = np.array([[-bw / 2, -bh / 2, 0], [bw / 2, -bh / 2, 0], [bw / 2, bh / 2, 0], [-bw / 2, bh / 2, 0]])
    cam = corners @ R.T + t
    normalised = cam[:, :2] / cam[:, 2:3]
    half_extent = np.abs(normalised).max(axis=0)
    f = min(pose.fill * w / 2 / half_extent[0], pose.fill * h / 2 / half_extent[1])
    K = np.array([[f, 0, w / 2], [0, f, h / 2], [0, 0, 1.0]])
    return Camera(K, R, t, (w, h))


def render_scene(scene: Scene, geometry: BoardGeometry) -> np.ndarray:
    """The camera image (BGR uint8) of a scene."""
    rng = np.random.default_rng(scene.seed)
    camera = make_camera(scene.pose, geometry)
    texture, texture_to_mm = _ground_texture(scene, geometry, np.random.default_rng(scene.board_seed))
    ground_to_image = camera.ground_homography() @ texture_to_mm
    w, h = camera.size
    image = cv2.warpPerspective(texture, ground_to_image, (w, h), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)
    image = image.astype(np.float32)
    for draw in sorted(_solids(scene), key=lambda item: -float(camera.depth(np.array([item[0]]))[0])):
        draw[1](image, camera)
    for marker_id in scene.hidden_markers:
        _draw_hand(image, camera, geometry, marker_id, rng)
    return _apply_light_and_noise(image, scene.lighting, rng)


# --- the flat world -------------------------------------------------------


def _ground_texture(scene: Scene, geometry: BoardGeometry, rng: np.random.Generator):
    ppm = TEXTURE_PX_PER_MM
    tw, th = TABLE_MM
    width, height = int(tw * ppm), int(th * ppm)

    def px(x_mm: float, y_mm: float) -> tuple[float, float]:
        return (x_mm + tw / 2) * ppm, (th / 2 - y_mm) * ppm

    texture = np.empty((height, width, 3), np.float32)
    texture[:] = scene.table_bgr
    # Wood-like grain on the table, mottled print on the board: real surfaces are not flat colour.
    grain = cv2.resize(rng.normal(0, 8, (height // 8, 4)).astype(np.float32), (width, height))
    texture += grain[..., None]
    bw, bh = geometry.board_mm
    x0, y0 = px(-bw / 2, bh / 2)
    x1, y1 = px(bw / 2, -bh / 2)
    board = texture[int(y0) : int(y1), int(x0) : int(x1)]
    board[:] = scene.board_bgr
    mottle = cv2.resize(rng.normal(0, 6, (max(1, board.shape[0] // 12), max(1, board.shape[1] // 12))).astype(np.float32),
                        (board.shape[1], board.shape[0]), interpolation=cv2.INTER_CUBIC)
    board += mottle[..., None]
    half = geometry.space_mm / 2
    for space_id, (sx, sy) in geometry.spaces.items():
        a, b = px(sx - half, sy + half)
        c, d = px(sx + half, sy - half)
        cv2.rectangle(texture, (int(a), int(b)), (int(c), int(d)), scene.space_bgr, -1)
        cv2.rectangle(texture, (int(a), int(b)), (int(c), int(d)), tuple(v * 0.6 for v in scene.space_bgr), 2)
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    for marker_id, (mx, my, size) in geometry.markers.items():
        quiet = size / 6  # one cell of white all round
        a, b = px(mx - size / 2 - quiet, my + size / 2 + quiet)
        c, d = px(mx + size / 2 + quiet, my - size / 2 - quiet)
        cv2.rectangle(texture, (round(a), round(b)), (round(c), round(d)), (235, 235, 235), -1)
        side = round(size * ppm)
        marker = cv2.aruco.generateImageMarker(dictionary, marker_id, side).astype(np.float32) * (220 / 255) + 15
        a, b = px(mx - size / 2, my + size / 2)
        texture[round(b) : round(b) + side, round(a) : round(a) + side] = marker[..., None]
    for card in scene.cards:
        outline = _rectangle(card.x_mm, card.y_mm, card.size_mm, card.angle_deg)
        cv2.fillPoly(texture, [np.array([px(*p) for p in outline], np.int32)], card.bgr)
        cv2.polylines(texture, [np.array([px(*p) for p in outline], np.int32)], True, (40, 40, 40), 2)
    if scene.lighting.shadow > 0:
        _cast_shadows(texture, scene, px)
    to_texture = np.array([[ppm, 0, tw / 2 * ppm], [0, -ppm, th / 2 * ppm], [0, 0, 1]])
    return np.clip(texture, 0, 255).astype(np.uint8), np.linalg.inv(to_texture)


def _cast_shadows(texture: np.ndarray, scene: Scene, px) -> None:
    lx, ly = scene.lighting.light_dir
    mask = np.zeros(texture.shape[:2], np.uint8)
    for mini in scene.miniatures:
        r = mini.base_mm / 2
        top = (mini.x_mm + mini.lean_mm[0] + lx * mini.figure_height_mm, mini.y_mm + mini.lean_mm[1] + ly * mini.figure_height_mm)
        points = [(mini.x_mm + r * math.cos(a), mini.y_mm + r * math.sin(a)) for a in np.linspace(0, 2 * math.pi, 24)]
        points += [(top[0] + mini.figure_width_mm / 2 * math.cos(a), top[1] + mini.figure_width_mm / 2 * math.sin(a))
                   for a in np.linspace(0, 2 * math.pi, 16)]
        hull = cv2.convexHull(np.array([px(*p) for p in points], np.float32)).astype(np.int32)
        cv2.fillPoly(mask, [hull], 255)
    soft = cv2.GaussianBlur(mask, (0, 0), 3).astype(np.float32) / 255
    texture *= (1 - scene.lighting.shadow * soft)[..., None]


# --- solid things, drawn far to near ---------------------------------------


def _solids(scene: Scene):
    items = []
    for mini in scene.miniatures:
        items.append(((mini.x_mm, mini.y_mm, 0.0), lambda img, cam, m=mini: _draw_miniature(img, cam, m)))
    for token in scene.tokens:
        # (Placed by its underside: one lying on another is drawn after it, nearer the camera.)
        items.append(((token.x_mm, token.y_mm, token.z_mm),
                      lambda img, cam, t=token: _draw_cylinder(img, cam, (t.x_mm, t.y_mm), t.diameter_mm / 2, t.z_mm,
                                                               t.z_mm + t.thickness_mm, t.bgr)))
    for die in scene.dice:
        items.append(((die.x_mm, die.y_mm, 0.0), lambda img, cam, d=die: _draw_die(img, cam, d)))
    return items


def _shade(bgr, factor: float):
    return tuple(float(min(255, v * factor)) for v in bgr)


def _draw_cylinder(image, camera, centre, radius, z0, z1, bgr, top_centre=None) -> None:
    angles = np.linspace(0, 2 * math.pi, 36, endpoint=False)
    tx, ty = top_centre if top_centre is not None else centre
    bottom = np.column_stack([centre[0] + radius * np.cos(angles), centre[1] + radius * np.sin(angles), np.full_like(angles, z0)])
    top = np.column_stack([tx + radius * np.cos(angles), ty + radius * np.sin(angles), np.full_like(angles, z1)])
    hull = cv2.convexHull(camera.project(np.vstack([bottom, top])).astype(np.float32))
    cv2.fillPoly(image, [np.round(hull).astype(np.int32)], _shade(bgr, 0.75), lineType=cv2.LINE_AA)
    cv2.fillPoly(image, [np.round(camera.project(top)).astype(np.int32)], _shade(bgr, 1.1), lineType=cv2.LINE_AA)


def _draw_miniature(image, camera, mini: Miniature) -> None:
    centre = (mini.x_mm, mini.y_mm)
    _draw_cylinder(image, camera, centre, mini.base_mm / 2, 0.0, mini.base_height_mm, mini.base_bgr)
    # The figure: legs/body as a tapered column (leaning a little), then shoulders and a head.
    z = mini.base_height_mm
    body_h = mini.figure_height_mm * 0.75
    top = (mini.x_mm + mini.lean_mm[0], mini.y_mm + mini.lean_mm[1])
    _draw_cylinder(image, camera, centre, mini.figure_width_mm / 2 * 0.7, z, z + body_h, mini.figure_bgr, top_centre=top)
    _draw_cylinder(image, camera, top, mini.figure_width_mm / 2, z + body_h * 0.7, z + body_h, _shade(mini.figure_bgr, 1.15), top_centre=top)
    head = np.array([[top[0], top[1], z + mini.figure_height_mm - mini.figure_width_mm * 0.3]])
    uv = camera.project(head)[0]
    radius_px = camera.K[0, 0] * mini.figure_width_mm * 0.3 / float(camera.depth(head)[0])
    cv2.circle(image, (int(round(uv[0])), int(round(uv[1]))), max(1, int(round(radius_px))), _shade(mini.figure_bgr, 1.25), -1, cv2.LINE_AA)


def _draw_die(image, camera, die: Die) -> None:
    outline = _rectangle(die.x_mm, die.y_mm, (die.size_mm, die.size_mm), die.angle_deg)
    bottom = np.array([[x, y, 0.0] for x, y in outline])
    top = bottom + [0, 0, die.size_mm]
    hull = cv2.convexHull(camera.project(np.vstack([bottom, top])).astype(np.float32))
    cv2.fillPoly(image, [np.round(hull).astype(np.int32)], _shade(die.bgr, 0.7), lineType=cv2.LINE_AA)
    cv2.fillPoly(image, [np.round(camera.project(top)).astype(np.int32)], die.bgr, lineType=cv2.LINE_AA)
    centre = camera.project(np.array([[die.x_mm, die.y_mm, die.size_mm]]))[0]
    cv2.circle(image, (int(centre[0]), int(centre[1])), 2, (20, 20, 20), -1)


def _draw_hand(image, camera, geometry: BoardGeometry, marker_id: int, rng) -> None:
    """A hand (a skin-coloured blob) over a marker: it covers the marker and its quiet zone."""
    mx, my, size = geometry.markers[marker_id]
    reach_mm = size / 2 + size / 6 + rng.uniform(2, 8)
    outline = camera.project(np.array([[mx + reach_mm * math.cos(a), my + reach_mm * math.sin(a), 0.0]
                                       for a in np.linspace(0, 2 * math.pi, 24, endpoint=False)]))
    centre = outline.mean(axis=0)
    radius = np.linalg.norm(outline - centre, axis=1).max()
    axes = (int(radius * rng.uniform(1.0, 1.2)), int(radius))
    cv2.ellipse(image, (int(centre[0]), int(centre[1])), axes, rng.uniform(0, 180), 0, 360, (120, 150, 205), -1, cv2.LINE_AA)


def _rectangle(x, y, size, angle_deg):
    w, h = size
    a = math.radians(angle_deg)
    c, s = math.cos(a), math.sin(a)
    return [(x + c * dx - s * dy, y + s * dx + c * dy) for dx, dy in ((-w / 2, -h / 2), (w / 2, -h / 2), (w / 2, h / 2), (-w / 2, h / 2))]


def _apply_light_and_noise(image: np.ndarray, light: Lighting, rng: np.random.Generator) -> np.ndarray:
    h, w = image.shape[:2]
    a = math.radians(light.gradient_angle_deg)
    xs = (np.arange(w, dtype=np.float32) / w - 0.5) * math.cos(a)
    ys = (np.arange(h, dtype=np.float32) / h - 0.5) * math.sin(a)
    field_ = light.gain * (1 + light.gradient * (xs[None, :] + ys[:, None]))
    image = image * field_[..., None] * np.array(light.tint_bgr, np.float32)
    image = cv2.GaussianBlur(image, (0, 0), 0.7)
    if light.noise > 0:
        image += rng.normal(0, light.noise, image.shape).astype(np.float32)
    return np.clip(image, 0, 255).astype(np.uint8)


# --- random scenes from the spec --------------------------------------------


def random_pose(rng: np.random.Generator, *, image_size=(800, 600)) -> CameraPose:
    return CameraPose(
        distance_mm=float(rng.uniform(350, 600)),
        elevation_deg=float(rng.uniform(35, 80)),
        azimuth_deg=float(rng.uniform(-25, 25)),
        roll_deg=float(rng.uniform(-4, 4)),
        target_mm=(float(rng.uniform(-15, 15)), float(rng.uniform(-10, 10))),
        image_size=image_size,
        fill=float(rng.uniform(0.75, 0.92)),
    )


def nudged(pose: CameraPose, rng: np.random.Generator) -> CameraPose:
    """The same camera after a small knock: a few degrees and millimetres."""
    return CameraPose(
        distance_mm=pose.distance_mm + float(rng.uniform(-15, 15)),
        elevation_deg=pose.elevation_deg + float(rng.uniform(-3, 3)),
        azimuth_deg=pose.azimuth_deg + float(rng.uniform(-3, 3)),
        roll_deg=pose.roll_deg + float(rng.uniform(-2, 2)),
        target_mm=(pose.target_mm[0] + float(rng.uniform(-8, 8)), pose.target_mm[1] + float(rng.uniform(-8, 8))),
        image_size=pose.image_size,
        fill=pose.fill,
    )


def random_colour(rng: np.random.Generator, *, near=None, spread: float = 25.0) -> tuple[int, int, int]:
    if near is not None:
        return tuple(int(np.clip(v + rng.uniform(-spread, spread), 0, 255)) for v in near)
    return tuple(int(v) for v in rng.integers(20, 235, 3))


def random_miniature(rng: np.random.Generator, x: float, y: float, *, board_bgr=None) -> Miniature:
    near_board = board_bgr is not None and rng.random() < 0.3
    return Miniature(
        x_mm=x, y_mm=y,
        base_mm=float(rng.uniform(25, 28)),
        base_height_mm=float(rng.uniform(2.5, 4.5)),
        base_bgr=random_colour(rng, near=board_bgr if near_board else None, spread=18),
        figure_bgr=random_colour(rng),
        figure_height_mm=float(rng.uniform(28, 50)),
        figure_width_mm=float(rng.uniform(12, 20)),
        lean_mm=(float(rng.uniform(-3, 3)), float(rng.uniform(-3, 3))),
    )


def random_lighting(rng: np.random.Generator, *, changed: bool) -> Lighting:
    if not changed:
        return Lighting(noise=float(rng.uniform(1.5, 4)))
    return Lighting(
        gain=float(rng.uniform(0.6, 1.3)),
        tint_bgr=(float(rng.uniform(0.75, 1.05)), float(rng.uniform(0.9, 1.05)), float(rng.uniform(0.95, 1.2))),
        gradient=float(rng.uniform(-0.35, 0.35)),
        gradient_angle_deg=float(rng.uniform(0, 360)),
        shadow=float(rng.uniform(0.0, 0.35)),
        light_dir=(float(rng.uniform(-0.5, 0.5)), float(rng.uniform(0.2, 0.8))),
        noise=float(rng.uniform(2, 6)),
    )


def _lies_clear_of(tokens, token: Token) -> bool:
    """True if ``token`` lying flat on the board would not pass through any of ``tokens``.

    Two solid discs on the table cannot overlap; a token dropped on another is a stack, which
    ``bench/arena_stacked_tokens.py`` builds on purpose (with ``z_mm``). A token that would
    overlap is left out rather than redrawn, so every other scene of a seed stays as it was.
    """
    return all(math.hypot(token.x_mm - t.x_mm, token.y_mm - t.y_mm) >= (token.diameter_mm + t.diameter_mm) / 2
               for t in tokens)


def random_match_scene(rng: np.random.Generator, geometry: BoardGeometry, *, image_size=(800, 600),
                       touching_tokens: bool = False):
    """A random (reference scene, live scene, true occupied spaces) triple from the spec.

    The live camera may be nudged and the light changed; up to two fighters (sometimes with
    touching bases, sometimes off every space), tokens on or between spaces, cards and dice
    beside the board, and sometimes one hidden marker.

    Tokens keep 1-4.5 mm from every base; the spec lets one touch a base. With
    ``touching_tokens`` (other scenes from the same seed) each token is laid against a base,
    0-1.5 mm from its rim, half the time. Tokens never overlap one another.
    """
    board_bgr = random_colour(rng)
    space_bgr = tuple(int(np.clip(v * rng.uniform(0.7, 1.2), 0, 255)) for v in board_bgr)
    pose = random_pose(rng, image_size=image_size)
    board_seed = int(rng.integers(1 << 30))
    reference = Scene(pose=pose, board_bgr=board_bgr, space_bgr=space_bgr, lighting=random_lighting(rng, changed=False),
                      seed=int(rng.integers(1 << 30)), board_seed=board_seed)
    spaces = list(geometry.spaces.items())
    minis: list[Miniature] = []
    count = int(rng.choice([0, 1, 2, 2, 2]))
    half = geometry.space_mm / 2
    while len(minis) < count:
        mode = rng.random()
        sx, sy = spaces[int(rng.integers(len(spaces)))][1]
        if mode < 0.12:  # off every space: in front of or behind the row
            x, y = sx + rng.uniform(-10, 10), sy + rng.choice([-1, 1]) * rng.uniform(half + 16, half + 24)
        else:
            x, y = sx + rng.uniform(-half + 8, half - 8), sy + rng.uniform(-half + 8, half - 8)
        if any(math.hypot(x - m.x_mm, y - m.y_mm) < (m.base_mm + 27) / 2 for m in minis):
            continue
        minis.append(random_miniature(rng, x, y, board_bgr=board_bgr))
    if len(minis) == 2 and rng.random() < 0.25:  # neighbours with touching bases
        a = minis[0]
        nx = a.x_mm + (40 if a.x_mm < 100 else -40)
        direction = 1 if nx > a.x_mm else -1
        contact = a.base_mm / 2 + 13.5
        b = random_miniature(rng, a.x_mm + direction * contact, a.y_mm, board_bgr=board_bgr)
        b = Miniature(**{**b.__dict__, "base_mm": 27.0})
        if geometry.space_at(b.x_mm, b.y_mm) is not None and geometry.edge_distance(b.x_mm, b.y_mm) > 4:
            minis[1] = b
    tokens = []
    for _ in range(int(rng.integers(0, 3))):
        sx, sy = spaces[int(rng.integers(len(spaces)))][1]
        tx, ty = sx + rng.uniform(-22, 22), sy + rng.uniform(-14, 14)
        if touching_tokens and minis and rng.random() < 0.5:
            against = minis[int(rng.integers(len(minis)))]
            diameter, angle = float(rng.uniform(15, 22)), float(rng.uniform(0, 2 * math.pi))
            reach = (against.base_mm + diameter) / 2 + float(rng.uniform(0, 1.5))
            tx, ty = against.x_mm + reach * math.cos(angle), against.y_mm + reach * math.sin(angle)
            if all(math.hypot(tx - m.x_mm, ty - m.y_mm) >= (m.base_mm + diameter) / 2 for m in minis):
                token = Token(tx, ty, diameter, float(rng.uniform(2, 4)), random_colour(rng))
                if _lies_clear_of(tokens, token):
                    tokens.append(token)
        elif all(math.hypot(tx - m.x_mm, ty - m.y_mm) > m.base_mm / 2 + 12 for m in minis):
            token = Token(tx, ty, float(rng.uniform(15, 22)), float(rng.uniform(2, 4)), random_colour(rng))
            if _lies_clear_of(tokens, token):
                tokens.append(token)
    bw, bh = geometry.board_mm
    dice = tuple(Die(float(rng.uniform(-bw / 2, bw / 2)), float(-bh / 2 - rng.uniform(15, 60)), float(rng.uniform(12, 18)),
                     random_colour(rng), float(rng.uniform(0, 90))) for _ in range(int(rng.integers(0, 3))))
    cards = tuple(Card(float(rng.choice([-1, 1]) * rng.uniform(bw / 2 + 40, bw / 2 + 80)), float(rng.uniform(-60, 60)),
                       angle_deg=float(rng.uniform(-30, 30)), bgr=random_colour(rng)) for _ in range(int(rng.integers(0, 3))))
    hidden = ()
    roll = rng.random()
    if roll < 0.2:
        hidden = (int(rng.choice(sorted(geometry.markers))),)
    live_pose = nudged(pose, rng) if rng.random() < 0.5 else pose
    live = Scene(pose=live_pose, miniatures=tuple(minis), tokens=tuple(tokens), dice=dice, cards=cards,
                 lighting=random_lighting(rng, changed=rng.random() < 0.5), board_bgr=board_bgr, space_bgr=space_bgr,
                 hidden_markers=hidden, seed=int(rng.integers(1 << 30)), board_seed=board_seed)
    truth = tuple(sorted({s for m in minis if (s := geometry.space_at(m.x_mm, m.y_mm)) is not None}))
    return reference, live, truth
