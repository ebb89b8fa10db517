"""The slit between each pair of a ring's arms, from the scene's own geometry, beside the judge's reading.

    python bench/tower_ring_slits.py [--first SEED] [--scenes N] [--kinds ring,touching_ring] [--jobs J]

Not a test: a diagnosis (docs/tower-judge.md, twentieth pass).  Each scene is the accuracy bench's
(``random_scene``); the generator's cubes, camera and clutter are kept as it builds them, and a ray
is cast through every quarter pixel around each pair of arms (the cubes and pieces as the boxes
they are, then the mat, the table, the wall).  A pixel shows through the slit where its ray crosses
the arms' mid-depth plane between their centres inside their layer, meets neither arm, and nothing
stands in front of that plane.  Per pair: the gap between the arms' centres less a cube and between
their turned footprints (mm); the widest run of such pixels in one frame row (px, and mm at the
arms' distance) and how many frame rows it is at least 2 px wide; what the rays through it meet
first and the slit's contrast (largest channel difference, 0-255, between its colour in the still
frames' average and the nearer arm face).  Then how the judge read each split it looked into
(``_background_in_slit``: may touch / seen / wide / faint, with the background's fitted share at
the column where it is largest and the faces' miss there) and the verdict.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import pathlib
import sys

import cv2
import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

import vision.synth.tower_scene as tower_scene  # noqa: E402
from tower_accuracy import random_scene  # noqa: E402  (this script's folder is on the path)
from vision.tower import judge_tower  # noqa: E402
from vision.tower import judge as tower_judge  # noqa: E402

READINGS = {tower_judge.SIDE_MAY_TOUCH: "may touch", tower_judge.SIDE_SEEN_APART: "seen",
            tower_judge.SIDE_WIDE_APART: "wide", tower_judge.SIDE_FAINT_APART: "faint"}
SUPERSAMPLE = 4
_built: dict = {}
_readings: list = []


def _keep_what_is_built() -> None:
    """Record the scene's final cubes and its clutter as the generator makes them (a scene keeps
    only its frames and camera)."""
    real_wood, distractors = tower_scene._real_wood, tower_scene._distractors

    def cubes(*args):
        out = real_wood(*args)
        _built.setdefault("cubes", out)  # the first call is the structure; a pile comes after
        return out

    def boxes(*args, **kwargs):
        _built["boxes"] = distractors(*args, **kwargs)
        return _built["boxes"]

    tower_scene._real_wood, tower_scene._distractors = cubes, boxes


def _record_slit_readings() -> None:
    read = tower_judge.TowerAnalyzer._background_in_slit

    def recording(self, obs, rows, split, reach):
        out = read(self, obs, rows, split, reach)
        colour = (obs.colour if obs.still_colour is None else obs.still_colour)[rows].mean(axis=0)
        background = self._reference_view(obs.view)[rows].mean(axis=0)
        left = colour[max(split - 3 * reach, 0): max(split - reach - 1, 1)]
        right = colour[split + reach + 2: split + 3 * reach + 1]
        best = None
        if left.size and right.size:
            faces = [np.median(left, axis=0), np.median(right, axis=0)]
            for x in range(max(split - reach, 0), min(split + reach + 1, colour.shape[0])):
                weights, _ = tower_judge._mix(colour[x], faces + [background[x]])
                share = float(weights[2] / max(float(weights.sum()), 1e-9))
                if best is None or share > best[0]:
                    best = (share, tower_judge._mix_residual(colour[x], faces))
        _readings.append((split, rows.start, out, best))
        return out

    tower_judge.TowerAnalyzer._background_in_slit = recording


def _rotation(yaw: float, tilt: float = 0.0, pitch: float = 0.0) -> np.ndarray:
    yaw, tilt, pitch = (math.radians(a) for a in (yaw, tilt, pitch))
    rz = np.array([[math.cos(yaw), -math.sin(yaw), 0], [math.sin(yaw), math.cos(yaw), 0], [0, 0, 1]])
    ry = np.array([[math.cos(tilt), 0, math.sin(tilt)], [0, 1, 0], [-math.sin(tilt), 0, math.cos(tilt)]])
    rx = np.array([[1, 0, 0], [0, math.cos(pitch), -math.sin(pitch)], [0, math.sin(pitch), math.cos(pitch)]])
    return rx @ ry @ rz


def _entry(origin, dirs, centre, rotation, half) -> np.ndarray:
    """Distance along each ray to where it enters a box (inf where it misses)."""
    o = (origin - centre) @ rotation
    d = dirs @ rotation
    with np.errstate(divide="ignore", invalid="ignore"):
        t1, t2 = (-half - o) / d, (half - o) / d
    near = np.nanmax(np.minimum(t1, t2), axis=1)
    far = np.nanmin(np.maximum(t1, t2), axis=1)
    return np.where((far >= near) & (far > 0), near, np.inf)


def cast(scene, cubes, boxes, box_uv, sample: int = SUPERSAMPLE):
    """Rays through every 1/``sample`` pixel of the frame box ``box_uv`` (u0, v0, u1, v1): the
    grid's u and v, the eye, each ray's direction and its distance to each cube, then each piece
    (inf where it misses)."""
    k, rot, t = scene.camera.matrices()
    eye = -rot.T @ t
    u0, v0, u1, v1 = box_uv
    us = np.arange(u0, u1, 1 / sample) + 0.5 / sample
    vs = np.arange(v0, v1, 1 / sample) + 0.5 / sample
    grid_u, grid_v = np.meshgrid(us, vs)
    pix = np.stack([grid_u.ravel(), grid_v.ravel(), np.ones(grid_u.size)], axis=1)
    dirs = pix @ np.linalg.inv(k).T @ rot
    dirs /= np.linalg.norm(dirs, axis=1, keepdims=True)
    hits = [_entry(eye, dirs, np.array(c.centre), _rotation(c.yaw_deg, c.tilt_deg, c.pitch_deg), np.full(3, 5.0))
            for c in cubes]
    hits += [_entry(eye, dirs, np.array(p.centre), _rotation(p.yaw_deg), np.array(p.size) / 2) for p in boxes]
    return grid_u, grid_v, eye, dirs, np.stack(hits, axis=1)


def _pair(scene, cubes, boxes, layer: int) -> dict:
    a, b = cubes[2 * layer - 1], cubes[2 * layer]
    camera = scene.camera
    corners = camera.project(np.concatenate([a.corners(), b.corners()]))
    (u0, v0), (u1, v1) = np.floor(corners.min(axis=0)).astype(int), np.ceil(corners.max(axis=0)).astype(int)
    grid_u, grid_v, eye, dirs, hits = cast(scene, cubes, boxes, (u0, v0, u1, v1))
    first = np.argmin(hits, axis=1)
    ahead = hits[np.arange(len(first)), first]
    # What a ray meets first: a cube or piece, else the table plane (the mat on it), else the wall.
    down = -eye[2] / dirs[:, 2]
    x, y = eye[0] + down * dirs[:, 0], eye[1] + down * dirs[:, 1]
    mw, mh = scene.look.mat_size_mm
    n = len(cubes)
    names = np.array(["base"] + ["arm"] * (n - 2) + ["cap"] + ["piece"] * len(boxes) + ["mat", "table", "wall"])
    on_mat = (down > 0) & (np.abs(x) < mw / 2) & (np.abs(y) < mh / 2)
    on_table = (down > 0) & (np.abs(x) < 450) & (y > -150) & (y < 550)
    what = np.where(np.isfinite(ahead), first, np.where(on_mat, len(names) - 3, np.where(on_table, len(names) - 2,
                                                                                           len(names) - 1)))
    # Where each ray crosses the pair's mid-depth plane.
    mid = (a.centre[1] + b.centre[1]) / 2
    depth = (mid - eye[1]) / dirs[:, 1]
    cross = eye + depth[:, None] * dirs
    lo, hi = sorted([a.centre[0], b.centre[0]])
    inside = (cross[:, 2] >= layer * 10) & (cross[:, 2] <= layer * 10 + 10) & (cross[:, 0] > lo) & (cross[:, 0] < hi)
    through = inside & ~np.isfinite(hits[:, 2 * layer - 1]) & ~np.isfinite(hits[:, 2 * layer]) & (ahead > depth - 7)
    through = through.reshape(grid_u.shape)
    widths = through.sum(axis=1) / SUPERSAMPLE
    px_per_mm = camera.focal_px / np.linalg.norm((np.array(a.centre) + np.array(b.centre)) / 2 - camera.position())
    still = np.mean([f.astype(np.float32) for f in scene.frames[1:]], axis=0)

    def mean_colour(mask):
        rows, cols = np.nonzero(mask)
        frame_px = np.unique(np.stack([np.floor(grid_v[rows, cols]), np.floor(grid_u[rows, cols])], axis=1).astype(int), axis=0)
        return still[frame_px[:, 0], frame_px[:, 1]].mean(axis=0)

    shows, contrast = "-", None
    if through.any():
        seen = what.reshape(grid_u.shape)[through]
        shows = str(names[np.bincount(seen).argmax()])
        slit = mean_colour(through)
        faces = [mean_colour(~np.isinf(hits[:, i]).reshape(grid_u.shape) & (first == i).reshape(grid_u.shape))
                 for i in (2 * layer - 1, 2 * layer)]
        contrast = int(min(np.abs(slit - face).max() for face in faces))
    footprints = [tower_scene._footprint(c) for c in (a, b)]
    overlap, _ = cv2.intersectConvexConvex(*footprints)
    apart = 0.0 if overlap > 0 else min(
        abs(cv2.pointPolygonTest(footprints[1 - i].reshape(-1, 1, 2), tuple(map(float, p)), True))
        for i in (0, 1) for p in footprints[i])
    return dict(layer=layer, centre_gap=abs(a.centre[0] - b.centre[0]) - 10.0, footprint_gap=apart,
                widest_px=float(widths.max()), widest_mm=float(widths.max() / px_per_mm),
                rows_2px=int((widths >= 2).sum() / SUPERSAMPLE), shows=shows, contrast=contrast)


def diagnose(job: tuple[str, int]) -> str:
    kind, seed = job
    _built.clear()
    _readings.clear()
    scene = random_scene(kind, seed)
    cubes = _built["cubes"]
    verdict = judge_tower(scene.frames, heavy=scene.heavy, light=scene.light)
    pairs = [_pair(scene, cubes, _built.get("boxes", []), layer) for layer in range(1, (len(cubes) - 2) // 2 + 1)]
    camera = scene.camera
    cells = "; ".join(
        f"L{p['layer']} {p['centre_gap']:.1f}/{p['footprint_gap']:.1f} mm, {p['widest_px']:.1f} px ({p['widest_mm']:.1f} mm) "
        f"x{p['rows_2px']}, {p['shows']}" + (f" ({p['contrast']})" if p["contrast"] is not None else "") for p in pairs)
    seen = []
    for split, top, out, best in _readings:
        if (split, top) in {(s, t) for s, t, _ in seen}:
            continue  # the same split read again on a taller window
        seen.append((split, top, READINGS[out] + (f" ({best[0]:.2f}, {best[1]:.2f})" if best and out != 1 else "")))
    reasons = ",".join(r.value for r in verdict.reasons)
    return (f"{kind:13} {seed}: {verdict.verdict.value} {verdict.confidence:.2f} {reasons or '-'} | "
            f"el {camera.elevation_deg:.0f} deg, {camera.distance_mm:.0f} mm | {cells} | "
            + "; ".join(s for _, _, s in seen))


def _init() -> None:
    _keep_what_is_built()
    _record_slit_readings()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--first", type=int, default=520000)
    parser.add_argument("--scenes", type=int, default=10)
    parser.add_argument("--kinds", default="ring,touching_ring")
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    kinds = [k.strip() for k in args.kinds.split(",") if k.strip()]
    if not set(kinds) <= {"ring", "touching_ring"}:
        parser.error("only ring and touching_ring scenes have a ring's pairs of arms")
    jobs = [(kind, seed) for kind in kinds for seed in range(args.first, args.first + args.scenes)]
    if args.jobs > 1:
        with multiprocessing.Pool(args.jobs, _init) as pool:
            lines = pool.map(diagnose, jobs, chunksize=2)
    else:
        _init()
        lines = [diagnose(job) for job in jobs]
    print("kind seed: verdict | camera | per pair: centre / footprint gap, widest slit px (mm) x rows >= 2 px, "
          "shows through (contrast) | the judge's readings (share, faces' miss)")
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
