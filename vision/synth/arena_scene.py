"""Synthetic arena scenes: the board, its markers and miniatures seen by the arena camera.

Rendered from the product spec (not from the reader): a table with the board lying on it, a
pinhole camera in front of and above the board (35-60 cm, 35-80 degrees up, up to 25 degrees
to the side), miniatures as round bases with a figure on top, flat tokens, cards and dice
beside the board, lamp light with shadows, colour casts and sensor noise. Flat things are
painted into a top-down texture of the table; solid things are projected and drawn far to near.
"""

from __future__ import annotations

import dataclasses
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
class Paint:
    """A painted miniature (the ``figures`` hunt): a figure of several colours and a finished base."""
    shoulders_bgr: tuple[int, int, int]
    head_bgr: tuple[int, int, int]
    rim_bgr: tuple[int, int, int] | None = None  # a dark-painted base rim (its side and a band round its top)
    flock: tuple[tuple[int, int, int], int] | None = None  # a flocked or textured base top: its colour, its grain's seed
    weapon: tuple[float, float, float] | None = None  # a spear or sword's tip: x, y offset from the figure (mm), height
    cloak: tuple[float, float, tuple[int, int, int]] | None = None  # a cloak's hem: x, y offset from the base, colour


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
    paint: Paint | None = None  # a painted miniature (the ``figures`` hunt); None: the generator's one-colour figure


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
    look: Look | None = None  # the hunt's looks (``hunt_looks``); None: the generator's own


@dataclass(frozen=True)
class Look:
    """How a hunt scene differs from the generator's own looks (``hunt_looks``), within the spec."""
    label: str = ""
    # Printed board art (the same in the reference and the live scene):
    art_seed: int = 0
    space_shades: tuple[tuple[int, int, int], ...] = ()  # a colour per space (layout order)
    painted: float = 0.0  # a painted texture over the board and its spaces (grey levels)
    border: tuple[tuple[int, int, int], float] | None = None  # a printed border round each space: colour, mm
    numbers: tuple[int, int, int] | None = None  # each space's number printed on it, in this colour
    icons: tuple[int, int, int] | None = None  # an icon (ring, star, cross) printed on some spaces
    gloss: tuple[float, float, float, float] | None = None  # a glossy board's specular patch: x, y, radius mm, level
    # The room and the camera:
    vignette: float = 0.0  # the corners this much darker
    shade: tuple[float, float, float, float] | None = None  # a soft shadow from out of view: angle, reach, blur px, depth
    gain: float = 1.0  # a dim room the camera's gain brings back up (its noise with it)
    defocus: float = 0.0  # px
    jpeg: int = 0  # JPEG quality; 0: none


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
    if scene.look is not None and scene.look.gloss is not None:
        _draw_gloss(image, camera, scene.look.gloss)
    for draw in sorted(_solids(scene), key=lambda item: -float(camera.depth(np.array([item[0]]))[0])):
        draw[1](image, camera)
    for marker_id in scene.hidden_markers:
        _draw_hand(image, camera, geometry, marker_id, rng)
    if scene.look is None:
        return _apply_light_and_noise(image, scene.lighting, rng)
    return _hunt_camera(_apply_light_and_noise(image, scene.lighting, rng, scene.look), scene.look)


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
    if scene.look is not None:
        _print_board_art(texture, scene, geometry, px)
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
    if mini.paint is not None:
        return _draw_painted_miniature(image, camera, mini)
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


def _apply_light_and_noise(image: np.ndarray, light: Lighting, rng: np.random.Generator,
                           look: Look | None = None) -> np.ndarray:
    h, w = image.shape[:2]
    a = math.radians(light.gradient_angle_deg)
    xs = (np.arange(w, dtype=np.float32) / w - 0.5) * math.cos(a)
    ys = (np.arange(h, dtype=np.float32) / h - 0.5) * math.sin(a)
    field_ = light.gain * (1 + light.gradient * (xs[None, :] + ys[:, None]))
    if look is not None:
        field_ = field_ * _hunt_light_field(look, w, h)
    image = image * field_[..., None] * np.array(light.tint_bgr, np.float32)
    image = cv2.GaussianBlur(image, (0, 0), 0.7)
    if look is not None and look.defocus > 0:
        image = cv2.GaussianBlur(image, (0, 0), look.defocus)
    if look is not None and look.gain > 1:  # a dim room: the sensor's few levels, then the gain (noise and all)
        image = np.round(image / look.gain)
    if light.noise > 0:
        image += rng.normal(0, light.noise, image.shape).astype(np.float32)
    if look is not None and look.gain > 1:
        image *= look.gain
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
                       touching_tokens: bool = False, hunt: str | None = None):
    """A random (reference scene, live scene, true occupied spaces) triple from the spec.

    The live camera may be nudged and the light changed; up to two fighters (sometimes with
    touching bases, sometimes off every space), tokens on or between spaces, cards and dice
    beside the board, and sometimes one hidden marker.

    Tokens keep 1-4.5 mm from every base; the spec lets one touch a base. With
    ``touching_tokens`` (other scenes from the same seed) each token is laid against a base,
    0-1.5 mm from its rim, half the time. Tokens never overlap one another.

    ``hunt`` (one of ``HUNTS``) shows the same scene past the generator's own looks (``hunt_looks``),
    drawn from a generator of its own after every draw of the seed's: the scene is the seed's on
    another table, and without ``hunt`` every seed's scene is as it was.
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
    if hunt:
        hunt_rng = np.random.default_rng([int(rng.integers(1 << 62)), HUNTS.index(hunt)])
        reference, live = hunt_looks(reference, live, geometry, hunt_rng, hunt)
    return reference, live, truth


# --- the hunt: tables past the generator's own looks, within the spec ----------------------------------

#: The hunt's families (``hunt_looks``); "all" is one look of each of the others at once.
HUNTS = ("board", "light", "figures", "camera", "all")


def hunt_looks(reference: Scene, live: Scene, geometry: BoardGeometry, rng: np.random.Generator,
               family: str) -> tuple[Scene, Scene]:
    """The reference and live scenes as a real table can differ from the generator's, from ``rng``.

    "board": printed board art -- the spaces in several shades, a painted texture, a printed border
    round each space, printed numbers or icons, or a glossy board's soft specular patch (moved in the
    live scene when the camera or the light did). "light": a warm lamp's cast in the live scene only
    (evening), a soft shadow across part of the board from something out of view, vignetting, or a dim
    room the camera's gain brings up (its noise with it). "figures": painted miniatures -- a figure of
    several colours, and a dark-painted base rim, a flocked top, a weapon or a cloak reaching past the
    base. "camera": JPEG compression, a little defocus, or a 640 x 480 or 1280 x 720 frame. "all": one
    of each. The label (``Look.label``) names the kinds drawn.
    """
    if family == "all":
        for part in HUNTS[:-1]:  # (each adds its kind to the label)
            reference, live = hunt_looks(reference, live, geometry, rng, part)
        return reference, live
    ref_look, live_look = reference.look or Look(), live.look or Look()
    if family == "board":
        kind = str(rng.choice(["shades", "painted", "borders", "numbers", "icons", "glossy"]))
        art: dict = {"art_seed": int(rng.integers(1 << 30))}
        if kind == "shades":  # each space printed its own shade of the board's art (lighter, darker, another hue)
            art["space_shades"] = tuple(random_colour(rng, near=reference.space_bgr, spread=45) for _ in geometry.spaces)
        elif kind == "painted":
            art["painted"] = float(rng.uniform(10, 28))
        elif kind == "borders":
            art["border"] = (random_colour(rng), float(rng.uniform(1.5, 4)))
        elif kind == "numbers":
            art["numbers"] = random_colour(rng)
        elif kind == "icons":
            art["icons"] = random_colour(rng)
        else:
            x, y = float(rng.uniform(-180, 180)), float(rng.uniform(-60, 60))
            radius, level = float(rng.uniform(20, 60)), float(rng.uniform(40, 120))
            art["gloss"] = (x, y, radius, level)
        ref_look = dataclasses.replace(ref_look, **art)
        lamp = dataclasses.replace(live.lighting, noise=reference.lighting.noise)  # (the noise draw is no lamp)
        moved = live.pose != reference.pose or lamp != reference.lighting
        if kind == "glossy" and moved:  # the highlight follows the camera and the lamp
            x, y, radius, level = art["gloss"]
            art["gloss"] = (x + float(rng.uniform(-40, 40)), y + float(rng.uniform(-20, 20)), radius, level)
        live_look = dataclasses.replace(live_look, **art)
        return _labelled(reference, ref_look, live, live_look, f"board:{kind}")
    if family == "light":
        kind = str(rng.choice(["warm_lamp", "shadow", "vignette", "dim_gain"]))
        if kind == "warm_lamp":  # calibrated by day, read under a tungsten lamp: blue well down, red up
            tint = (float(rng.uniform(0.5, 0.72)), float(rng.uniform(0.8, 0.95)), float(rng.uniform(1.1, 1.3)))
            live = dataclasses.replace(live, lighting=dataclasses.replace(live.lighting, tint_bgr=tint))
        elif kind == "shadow":  # a soft edge across part of the board: a person or a lamp shade out of view
            live_look = dataclasses.replace(live_look, shade=(float(rng.uniform(0, 360)), float(rng.uniform(-0.25, 0.25)),
                                                              float(rng.uniform(8, 40)), float(rng.uniform(0.25, 0.5))))
        elif kind == "vignette":  # the lens's: the same in both
            vignette = float(rng.uniform(0.2, 0.5))
            ref_look = dataclasses.replace(ref_look, vignette=vignette)
            live_look = dataclasses.replace(live_look, vignette=vignette)
        else:
            live_look = dataclasses.replace(live_look, gain=float(rng.uniform(1.8, 3.5)))
        return _labelled(reference, ref_look, live, live_look, f"light:{kind}")
    if family == "figures":
        kind = str(rng.choice(["painted", "rim", "flock", "weapon", "cloak"]))
        live = dataclasses.replace(live, miniatures=tuple(_painted(m, rng, kind) for m in live.miniatures))
        return _labelled(reference, ref_look, live, live_look, f"figures:{kind}")
    if family == "camera":
        kind = str(rng.choice(["jpeg", "defocus", "640x480", "1280x720"]))
        if kind in ("jpeg", "defocus"):
            change = {"jpeg": int(rng.uniform(30, 75))} if kind == "jpeg" else {"defocus": float(rng.uniform(0.8, 1.8))}
            ref_look, live_look = dataclasses.replace(ref_look, **change), dataclasses.replace(live_look, **change)
        else:
            size = (640, 480) if kind == "640x480" else (1280, 720)
            reference = dataclasses.replace(reference, pose=dataclasses.replace(reference.pose, image_size=size))
            live = dataclasses.replace(live, pose=dataclasses.replace(live.pose, image_size=size))
        return _labelled(reference, ref_look, live, live_look, f"camera:{kind}")
    raise ValueError(f"unknown hunt {family!r} (known: {', '.join(HUNTS)})")


def _labelled(reference: Scene, ref_look: Look, live: Scene, live_look: Look, kind: str) -> tuple[Scene, Scene]:
    def label(look: Look) -> Look:
        return dataclasses.replace(look, label=f"{look.label}+{kind}" if look.label else kind)

    return dataclasses.replace(reference, look=label(ref_look)), dataclasses.replace(live, look=label(live_look))


def _painted(mini: Miniature, rng: np.random.Generator, kind: str) -> Miniature:
    """``mini`` painted: shoulders and head their own colours, and (``kind``) its base or what it holds."""
    skin = random_colour(rng, near=(120, 150, 200), spread=30)
    paint = Paint(shoulders_bgr=random_colour(rng), head_bgr=skin)
    if kind == "rim":
        paint = dataclasses.replace(paint, rim_bgr=random_colour(rng, near=(30, 30, 30), spread=15))
    elif kind == "flock":  # grass, sand or rock
        top = [(60, 130, 80), (110, 160, 190), (120, 120, 120)][int(rng.integers(3))]
        paint = dataclasses.replace(paint, flock=(random_colour(rng, near=top, spread=20), int(rng.integers(1 << 30))))
    elif kind == "weapon":  # held out sideways over the next space, or forward
        angle = float(rng.uniform(0, 2 * math.pi))
        reach = float(rng.uniform(18, 34))
        paint = dataclasses.replace(paint, weapon=(reach * math.cos(angle), reach * math.sin(angle),
                                                   float(rng.uniform(0.3, 0.8)) * mini.figure_height_mm))
    elif kind == "cloak":  # spread past the base's edge
        angle = float(rng.uniform(0, 2 * math.pi))
        reach = mini.base_mm / 2 + float(rng.uniform(2, 9)) - mini.figure_width_mm * 0.35
        paint = dataclasses.replace(paint, cloak=(reach * math.cos(angle), reach * math.sin(angle), random_colour(rng)))
    return dataclasses.replace(mini, paint=paint)


def _draw_painted_miniature(image, camera, mini: Miniature) -> None:
    """``_draw_miniature`` with ``mini.paint``: a finished base, the figure in its colours, what it holds."""
    paint = mini.paint
    centre, r = (mini.x_mm, mini.y_mm), mini.base_mm / 2
    _draw_cylinder(image, camera, centre, r, 0.0, mini.base_height_mm, paint.rim_bgr or mini.base_bgr)
    top_ring = camera.project(_circle(centre, r, mini.base_height_mm))
    if paint.rim_bgr is not None:  # the top's band painted with the rim, the middle the base's colour
        cv2.fillPoly(image, [np.round(top_ring).astype(np.int32)], _shade(paint.rim_bgr, 1.1), lineType=cv2.LINE_AA)
        inner = camera.project(_circle(centre, r - 1.5, mini.base_height_mm))
        cv2.fillPoly(image, [np.round(inner).astype(np.int32)], _shade(mini.base_bgr, 1.1), lineType=cv2.LINE_AA)
    if paint.flock is not None:  # grains of the flock's colour, lighter and darker, over the whole top
        colour, seed = paint.flock
        grain = np.random.default_rng(seed)
        cv2.fillPoly(image, [np.round(top_ring).astype(np.int32)], colour, lineType=cv2.LINE_AA)
        for _ in range(160):
            a, d = grain.uniform(0, 2 * math.pi), r * math.sqrt(grain.uniform(0, 1))
            uv = camera.project(np.array([[centre[0] + d * math.cos(a), centre[1] + d * math.sin(a), mini.base_height_mm]]))[0]
            cv2.circle(image, (int(uv[0]), int(uv[1])), 1, _shade(colour, float(grain.uniform(0.55, 1.45))), -1)
    z = mini.base_height_mm
    body_h = mini.figure_height_mm * 0.75
    top = (mini.x_mm + mini.lean_mm[0], mini.y_mm + mini.lean_mm[1])
    behind = paint.cloak is not None and paint.cloak[1] > 0  # (the camera looks from -y)
    if behind:
        _draw_cloak(image, camera, mini, top, z, body_h)
    _draw_cylinder(image, camera, centre, mini.figure_width_mm / 2 * 0.7, z, z + body_h, mini.figure_bgr, top_centre=top)
    if paint.cloak is not None and not behind:
        _draw_cloak(image, camera, mini, top, z, body_h)
    _draw_cylinder(image, camera, top, mini.figure_width_mm / 2, z + body_h * 0.7, z + body_h, paint.shoulders_bgr, top_centre=top)
    head = np.array([[top[0], top[1], z + mini.figure_height_mm - mini.figure_width_mm * 0.3]])
    uv = camera.project(head)[0]
    radius_px = camera.K[0, 0] * mini.figure_width_mm * 0.3 / float(camera.depth(head)[0])
    cv2.circle(image, (int(round(uv[0])), int(round(uv[1]))), max(1, int(round(radius_px))), paint.head_bgr, -1, cv2.LINE_AA)
    if paint.weapon is not None:
        dx, dy, tip_z = paint.weapon
        hand = np.array([[top[0], top[1], z + body_h * 0.6], [top[0] + dx, top[1] + dy, tip_z]])
        ends = camera.project(hand)
        width = max(1, int(round(camera.K[0, 0] * 2.5 / float(camera.depth(hand).mean()))))
        cv2.line(image, tuple(int(v) for v in ends[0]), tuple(int(v) for v in ends[1]), (175, 180, 185), width, cv2.LINE_AA)


def _draw_cloak(image, camera, mini: Miniature, top, z: float, body_h: float) -> None:
    dx, dy, colour = mini.paint.cloak
    hem = (mini.x_mm + dx, mini.y_mm + dy)
    _draw_cylinder(image, camera, hem, mini.figure_width_mm * 0.35, z + 1.0, z + body_h * 0.85, colour, top_centre=top)


def _circle(centre, radius: float, z: float) -> np.ndarray:
    angles = np.linspace(0, 2 * math.pi, 36, endpoint=False)
    return np.column_stack([centre[0] + radius * np.cos(angles), centre[1] + radius * np.sin(angles), np.full_like(angles, z)])


def _print_board_art(texture: np.ndarray, scene: Scene, geometry: BoardGeometry, px) -> None:
    """The board's printed art (``Look``): over the board and its spaces, under the markers."""
    look, rng = scene.look, np.random.default_rng(scene.look.art_seed)
    half = geometry.space_mm / 2
    if look.painted > 0:  # brush strokes and stone: blotches of two sizes over the board
        bw, bh = geometry.board_mm
        x0, y0 = (int(v) for v in px(-bw / 2, bh / 2))
        x1, y1 = (int(v) for v in px(bw / 2, -bh / 2))
        board = texture[y0:y1, x0:x1]
        for cell, weight in ((30, 1.0), (6, 0.5)):
            shape = (max(1, board.shape[0] // cell), max(1, board.shape[1] // cell))
            blotch = cv2.resize(rng.normal(0, look.painted * weight, shape).astype(np.float32), (board.shape[1], board.shape[0]),
                                interpolation=cv2.INTER_CUBIC)
            board += blotch[..., None]
    for i, (space_id, (sx, sy)) in enumerate(geometry.spaces.items()):
        a, b = (int(v) for v in px(sx - half, sy + half))
        c, d = (int(v) for v in px(sx + half, sy - half))
        if look.space_shades:
            cv2.rectangle(texture, (a, b), (c, d), look.space_shades[i], -1)
        if look.border is not None:
            colour, width_mm = look.border
            inset = int(round(width_mm * TEXTURE_PX_PER_MM / 2))
            cv2.rectangle(texture, (a + inset, b + inset), (c - inset, d - inset), colour, max(1, 2 * inset))
        if look.numbers is not None:  # a number 10-18 mm tall, in a corner or the middle
            label = space_id.lstrip("S") or space_id
            scale = rng.uniform(10, 18) * TEXTURE_PX_PER_MM / 22
            (tw, th), _ = cv2.getTextSize(label, cv2.FONT_HERSHEY_SIMPLEX, scale, 3)
            corner = rng.integers(3)
            ox = a + 4 if corner == 0 else (c - tw - 4 if corner == 1 else (a + c - tw) // 2)
            oy = d - 4 if corner < 2 else (b + d + th) // 2
            ink = np.zeros(texture.shape[:2], np.uint8)  # (putText draws on 8-bit images only)
            cv2.putText(ink, label, (int(ox), int(oy)), cv2.FONT_HERSHEY_SIMPLEX, scale, 255, 3, cv2.LINE_AA)
            alpha = ink[b:d, a:c, None].astype(np.float32) / 255
            texture[b:d, a:c] = texture[b:d, a:c] * (1 - alpha) + np.array(look.numbers, np.float32) * alpha
        if look.icons is not None and rng.random() < 0.5:  # a ring, a star or a cross, 14-26 mm across
            cx, cy = (a + c) // 2, (b + d) // 2
            r = int(rng.uniform(7, 13) * TEXTURE_PX_PER_MM)
            icon = rng.integers(3)
            if icon == 0:
                cv2.circle(texture, (cx, cy), r, look.icons, 3, cv2.LINE_AA)
            elif icon == 1:
                points = [(cx + (r if k % 2 == 0 else r // 2) * math.cos(k * math.pi / 5 - math.pi / 2),
                           cy + (r if k % 2 == 0 else r // 2) * math.sin(k * math.pi / 5 - math.pi / 2)) for k in range(10)]
                cv2.fillPoly(texture, [np.array(points, np.int32)], look.icons, cv2.LINE_AA)
            else:
                cv2.line(texture, (cx - r, cy - r), (cx + r, cy + r), look.icons, 4, cv2.LINE_AA)
                cv2.line(texture, (cx - r, cy + r), (cx + r, cy - r), look.icons, 4, cv2.LINE_AA)


def _draw_gloss(image: np.ndarray, camera: Camera, gloss) -> None:
    """A glossy board's soft highlight (a lamp's reflection): brighter towards white, under the solids."""
    x, y, radius, level = gloss
    h, w = image.shape[:2]
    to_board = np.linalg.inv(camera.ground_homography())
    us, vs = np.meshgrid(np.arange(w, dtype=np.float64), np.arange(h, dtype=np.float64))
    p = to_board @ np.stack([us.ravel(), vs.ravel(), np.ones(us.size)])
    bx, by = (p[0] / p[2]).reshape(h, w), (p[1] / p[2]).reshape(h, w)
    glow = (level * np.exp(-((bx - x) ** 2 + (by - y) ** 2) / (2 * radius * radius))).astype(np.float32)
    image += glow[..., None] * (1 - image / 255)


def _hunt_light_field(look: Look, w: int, h: int) -> np.ndarray:
    """The hunt's light over the picture (a factor per pixel): vignetting and a soft shadow from out of view."""
    ys, xs = np.mgrid[0:h, 0:w].astype(np.float32)
    u, v = xs / w - 0.5, ys / h - 0.5
    field_ = np.ones((h, w), np.float32)
    if look.vignette > 0:
        field_ *= 1 - look.vignette * (u * u + v * v) / 0.5
    if look.shade is not None:
        angle, reach, blur, depth = look.shade
        a = math.radians(angle)
        inside = ((u * math.cos(a) + v * math.sin(a)) > reach).astype(np.float32)
        field_ *= 1 - depth * cv2.GaussianBlur(inside, (0, 0), blur)
    return field_


def _hunt_camera(image: np.ndarray, look: Look) -> np.ndarray:
    if look.jpeg:
        _, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, look.jpeg])
        image = cv2.imdecode(data, cv2.IMREAD_COLOR)
    return image
