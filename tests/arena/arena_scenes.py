"""Helpers for the arena tests: the default layout and synthetic scenes from the spec."""

from __future__ import annotations

import dataclasses
import functools
import importlib.util
import math
from pathlib import Path

import cv2
import numpy as np

from vision.arena import ArenaSettings, BoardGeometry, load_geometry, read_arena, reader
from vision.synth.arena_scene import CameraPose, Lighting, Miniature, Scene, Token, random_match_scene, render_scene

LAYOUTS = Path(__file__).resolve().parents[2] / "assistant" / "boxes" / "data" / "arenas"
BOARD = (150, 170, 185)
SPACE = (120, 140, 160)

#: Camera poses across the spec: 35-60 cm, 35-80 degrees up, up to 25 degrees to the side.
POSES = (
    CameraPose(distance_mm=450, elevation_deg=55, azimuth_deg=0),
    CameraPose(distance_mm=380, elevation_deg=40, azimuth_deg=-20),
    CameraPose(distance_mm=580, elevation_deg=75, azimuth_deg=15),
    CameraPose(distance_mm=500, elevation_deg=62, azimuth_deg=24),
)


def line_9() -> BoardGeometry:
    return load_geometry(LAYOUTS / "line-9.toml")


def mini(x: float, y: float = 0.0, *, base=(40, 40, 160), figure=(90, 160, 90), base_mm=26.5, height=40.0) -> Miniature:
    return Miniature(x, y, base_mm=base_mm, base_bgr=base, figure_bgr=figure, figure_height_mm=height)


def token(x: float, y: float = 0.0, diameter: float = 20.0, bgr=(30, 150, 220)) -> Token:
    return Token(x, y, diameter, 3.0, bgr)


def stacked_pair(x: float, angle_deg: float) -> tuple[Token, Token]:
    """Two vivid tokens, 22 mm and 21 mm, the upper dropped 4 mm off the lower's centre (towards angle_deg)."""
    dx, dy = 4 * math.cos(math.radians(angle_deg)), 4 * math.sin(math.radians(angle_deg))
    return Token(x, 0.0, 22.0, 3.0, (30, 150, 220)), Token(x + dx, dy, 21.0, 3.0, (200, 40, 180), z_mm=3.0)


def scene(pose: CameraPose = POSES[0], *, minis=(), tokens=(), hidden=(), lighting=Lighting(noise=2.0), seed=1, **extra) -> Scene:
    return Scene(pose=pose, miniatures=tuple(minis), tokens=tuple(tokens), hidden_markers=tuple(hidden),
                 lighting=lighting, board_bgr=BOARD, space_bgr=SPACE, seed=seed, board_seed=7, **extra)


_RENDERED: dict[tuple[Scene, int], np.ndarray] = {}


def render(scene_: Scene, geometry: BoardGeometry) -> np.ndarray:
    """Rendered (and cached: scenes are frozen) image; callers get their own copy."""
    key = (scene_, id(geometry))
    if key not in _RENDERED:
        _RENDERED[key] = render_scene(scene_, geometry)
    return _RENDERED[key].copy()


def empty(geometry: BoardGeometry, pose: CameraPose = POSES[0]) -> np.ndarray:
    return render(scene(pose, seed=99), geometry)


def spec_scene(seed: int, geometry: BoardGeometry, *, touching_tokens: bool = False):
    """A random spec scene (the accuracy bench's, same seed and options): (live image, reference image, truth, fighter count)."""
    reference, live, truth = random_match_scene(np.random.default_rng(seed), geometry, touching_tokens=touching_tokens)
    return render_scene(live, geometry), render_scene(reference, geometry), truth, len(live.miniatures)


def read_both_ways(live, reference, geometry: BoardGeometry, count: int, settings: ArenaSettings = ArenaSettings()):
    """Read ``live`` without the fighter count (as the offline reader does) and with ``count`` (as the live
    service does): yields ``(fighters, reading)``, ``fighters`` None the first time."""
    for fighters in (None, count):
        yield fighters, read_arena(live, reference, geometry, settings, annotate=False, fighters=fighters)


def discs_select_bases_saw(read, monkeypatch):
    """Run ``read()`` with a spy on ``reader.select_bases``: the discs it was given, and what ``read()`` returned."""
    seen = {}
    rule = reader.select_bases

    def spying(blobs, *args, **kwargs):
        seen["blobs"] = blobs
        return rule(blobs, *args, **kwargs)

    monkeypatch.setattr(reader, "select_bases", spying)
    answer = read()
    return seen["blobs"], answer


def assert_read_right_with_the_count(seed: int, geometry: BoardGeometry) -> None:
    """The spec scene ``seed`` reads ``ok`` and right when told its fighter count, as the live service is."""
    live, reference, truth, count = spec_scene(seed, geometry)
    reading = read_arena(live, reference, geometry, annotate=False, fighters=count)
    assert reading.ok, reading.error
    assert reading.occupied == truth


def assert_never_wrong_when_ok(seeds, geometry: BoardGeometry, *, touching_tokens: bool = False) -> dict[bool, int]:
    """Read each spec scene with and without its fighter count; every ``ok`` reading must be right.

    Returns how many were answered ``ok``, keyed by "with the count"."""
    answered = {True: 0, False: 0}
    for seed in seeds:
        live, reference, truth, count = spec_scene(seed, geometry, touching_tokens=touching_tokens)
        for fighters, reading in read_both_ways(live, reference, geometry, count):
            with_count = fighters is not None
            if reading.ok:
                answered[with_count] += 1
                assert reading.occupied == truth, (seed, with_count, reading.occupied, truth)
    return answered


def drawn_discs(view, discs):
    """A difference image and change mask of flat discs (x, y, radius, grey level), blurred like a view."""
    difference = np.zeros((int(view.height_mm * view.px_per_mm), int(view.width_mm * view.px_per_mm)), np.float32)
    mask = np.zeros(difference.shape, np.uint8)
    for x, y, r, level in discs:
        centre = tuple(int(round(c)) for c in view.to_px(x, y))
        cv2.circle(difference, centre, int(round(r * view.px_per_mm)), level, -1)
        cv2.circle(mask, centre, int(round((r + 0.5) * view.px_per_mm)), 1, -1)
    return cv2.GaussianBlur(difference, (5, 5), 0), mask


def watcher_read(watcher, image, t):
    """The watcher's read of ``image`` once the view is still (a new view is motion first)."""
    results = [r for r in (watcher.add_frame(image, t + dt) for dt in (0.0, 0.2)) if r is not None]
    assert results, "the watcher did not read a still view"
    return results[0]


def read_spaces(result):
    """The spaces a watcher result puts the fighters on, sorted."""
    return sorted(f.space for f in result.positions.values())


def away_from_camera(pose: CameraPose, x: float, y: float) -> tuple[float, float]:
    """Unit vector on the board away from the camera at (x, y), from the pose (camera in front, at its azimuth)."""
    ground = pose.distance_mm * math.cos(math.radians(pose.elevation_deg))
    cx = ground * math.sin(math.radians(pose.azimuth_deg))
    cy = -ground * math.cos(math.radians(pose.azimuth_deg))
    d = math.hypot(x - cx, y - cy)
    return (x - cx) / d, (y - cy) / d


def token_in_front_of_a_fighter(geometry: BoardGeometry, elevation: float, azimuth: float, size: float, base_bgr):
    """A vivid token on S6 and, right behind it on its line away from the camera (0.5 mm apart), a
    fighter (27 mm base, 40 mm figure): seen from low, the token stands up by that figure (the
    thirty-seventh pass's built scenes). Returns (live image, reference image, the token, truth)."""
    pose = CameraPose(distance_mm=450, elevation_deg=elevation, azimuth_deg=azimuth)
    lying = Token(40.0, -4.0, size, 3.0, (200, 40, 180))
    ax, ay = away_from_camera(pose, lying.x_mm, lying.y_mm)
    reach = size / 2 + 13.5 + 0.5
    fighter = Miniature(lying.x_mm + ax * reach, lying.y_mm + ay * reach, base_mm=27.0, base_bgr=base_bgr,
                        figure_bgr=(90, 160, 90), figure_height_mm=40.0, figure_width_mm=18.0)
    truth = tuple(s for s in [geometry.space_at(fighter.x_mm, fighter.y_mm)] if s)
    live = render(scene(pose, minis=(fighter,), tokens=(lying,)), geometry)
    reference = render(scene(pose, seed=99), geometry)
    return live, reference, lying, truth


@functools.lru_cache(maxsize=None)
def bench_module(name: str):
    """A bench script (``bench/NAME.py``) loaded as a module, for the tests that build its scenes."""
    path = Path(__file__).resolve().parents[2] / "bench" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def resting_behind_job(label: tuple):
    """The job of ``bench/arena_stacked_tokens.py --set resting-behind`` with this label: (set, label,
    pose, miniatures, tokens, truth)."""
    (job,) = [j for j in bench_module("arena_stacked_tokens").jobs("resting-behind") if j[1] == label]
    return job


def read_stacked_tokens(which: str, label: tuple, *, with_count: bool = False):
    """A scene of ``bench/arena_stacked_tokens.py --set WHICH`` by its label, built and read by the bench's
    own builder as the bench reads it, with the fighter count or without. Returns (reading, truth): the
    job's truth, or where it has none the spaces its miniatures stand on."""
    bench = bench_module("arena_stacked_tokens")
    (job,) = [j for j in bench.jobs(which) if j[1] == label]
    _, _, pose, minis, tokens, truth = job
    geometry = load_geometry(bench.LAYOUT)
    if truth is None:
        truth = tuple(sorted({geometry.space_at(m.x_mm, m.y_mm) for m in minis} - {None}))
    live = bench.render_scene(bench._scene(pose, minis, tokens), geometry)
    reference = bench.render_scene(bench._scene(pose, seed=99), geometry)
    reading = read_arena(live, reference, geometry, annotate=False, fighters=len(minis) if with_count else None)
    return reading, truth


def read_resting_behind(label: tuple, *, with_count: bool = False):
    """A scene of ``bench/arena_stacked_tokens.py --set resting-behind`` (a vivid token resting off a faint
    one on S6, a fighter off the row 0.5 mm behind the pair), by its label, read as the bench reads it,
    with the fighter count or without. Returns the reading."""
    return read_stacked_tokens("resting-behind", label, with_count=with_count)[0]


def assert_a_fighter_added_at_is_never_read_away(reference: Scene, live: Scene, truth, place, space,
                                                 geometry: BoardGeometry) -> None:
    """Adds a fighter at ``place`` (on ``space``): its base the space's colour (the spec allows a base
    close to the board's colour), a small figure; then, with and without the count, the reading is a
    doubt or names ``space`` with the rest."""
    fighter = Miniature(*place, base_mm=25.0, base_height_mm=3.0, base_bgr=live.space_bgr, figure_bgr=(60, 60, 200),
                        figure_height_mm=26.0, figure_width_mm=8.0)
    assert geometry.space_at(*place) == space
    with_fighter = dataclasses.replace(live, miniatures=live.miniatures + (fighter,))
    image, empty_image = render_scene(with_fighter, geometry), render_scene(reference, geometry)
    expected = tuple(sorted(set(truth) | {space}, key=lambda s: int(s[1:])))
    for count in (None, len(with_fighter.miniatures)):
        reading = read_arena(image, empty_image, geometry, annotate=False, fighters=count)
        assert not reading.ok or reading.occupied == expected, (count, reading.occupied, reading.error)


def answers_of(module, name: str, run):
    """What ``module.name`` answered each time it was asked while ``run()`` ran, and what ``run()`` gave."""
    seen = []
    original = getattr(module, name)

    def spy(*args, **kwargs):
        seen.append(original(*args, **kwargs))
        return seen[-1]

    setattr(module, name, spy)
    try:
        result = run()
    finally:
        setattr(module, name, original)
    return seen, result


def _cost_bench_scene_pairs(geometry: BoardGeometry, count: int):
    """The cost bench's first ``count`` 800x600 scenes as (reference scene, live scene), unrendered."""
    rng = np.random.default_rng(7)
    for _ in range(count):
        reference_scene, live_scene, _ = random_match_scene(rng, geometry, image_size=(800, 600))
        yield reference_scene, live_scene


def cost_bench_scenes(geometry: BoardGeometry, count: int = 4) -> list[tuple[np.ndarray, object, np.ndarray]]:
    """The cost bench's first ``count`` 800x600 scenes (``bench/arena_bench.py``: ``default_rng(7)``), each
    as (the live frame, the reference prepared, the frame that follows the first read)."""
    from vision.arena import prepare_reference

    scenes = []
    for reference_scene, live_scene in _cost_bench_scene_pairs(geometry, count):
        live = render_scene(live_scene, geometry)
        prepared = prepare_reference(render_scene(reference_scene, geometry), geometry)
        following = render_scene(dataclasses.replace(live_scene, seed=live_scene.seed + 1), geometry)
        scenes.append((live, prepared, following))
    return scenes


def cost_bench_reads(geometry: BoardGeometry, count: int = 4) -> list[tuple[str, np.ndarray, object]]:
    """The live reads of the cost bench's first ``count`` 800x600 scenes (``bench/arena_bench.py``:
    ``default_rng(7)``): per scene (name, frame, reference) for the first read after a nudge, the frame
    that follows it (against the reference that followed the first read) and the camera unmoved."""
    from vision.arena import prepare_reference

    reads = []
    for k, (reference_scene, live_scene) in enumerate(_cost_bench_scene_pairs(geometry, count)):
        live = render_scene(live_scene, geometry)
        prepared = prepare_reference(render_scene(reference_scene, geometry), geometry)
        first = read_arena(live, prepared, geometry, annotate=False)
        followed = prepared.following(live, first.registration) if first.registration is not None else prepared
        following = render_scene(dataclasses.replace(live_scene, seed=live_scene.seed + 1), geometry)
        unmoved = prepare_reference(render_scene(dataclasses.replace(reference_scene, pose=live_scene.pose), geometry),
                                    geometry)
        reads += [(f"{k} nudged", live, prepared), (f"{k} following", following, followed), (f"{k} unmoved", live, unmoved)]
    return reads
