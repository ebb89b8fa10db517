"""What the view could show between two cubes side by side, from the scene's own geometry.

    python bench/tower_pair_slivers.py [--first SEED] [--scenes N] [--kinds ring,touching_ring,y_fork]
                                       [--solid-touch] [--arm-turn DEG] [--four-cubes] [--judge] [--json FILE]

Not a test: a diagnosis (docs/tower-judge.md, fifty-second pass).  Each scene is the accuracy bench's
(``random_scene``); its cubes, camera and clutter are kept as the generator builds them, and a ray is
cast through every quarter pixel around each pair of cubes side by side (the twentieth pass's ray
cast, ``tower_ring_slits``).  In each frame row where both cubes of the pair show, the pixels lying
between them (right of the left cube's last pixel, left of the right cube's first) that meet
neither is the pair's *sliver*: what a gap could show, whatever the arms' turns.  It is split by
what the rays meet: the cube under the pair (its lit top face: the brief's cue), the cube over it
(a cap's underside or front, left out: a cap before the arms' tops is no gap), and the background
(the mat, the table, the wall, a piece) met by a ray passing between the two at their mid-depth
within the layer's height (through the gap).  Per pair: the gap between the footprints (mm), the sliver's
area (px) on the cube below and on the background, its widest row (px) and the rows (px) at least
1 and 2 px wide; and the sliver's contrast in the still frames' average (the largest channel
difference, 0-255, between its mean colour and the nearer cube's, after the nudge of the end
frames is found by matching the cast cubes to the frame).  With ``--judge`` each scene is judged
too, and each of the judge's readings of a pair's split (``_side_gap``) records the light between
the faces in the view: the darkest and the brightest column near the split over the faces'
brighter median, on the slit's rows and on the rows under them down to the pair's foot (where a
gap would show the lower cube's top face).  The summary gives the geometric cues' distributions
for pairs apart and touching; ``--json`` keeps every figure, and ``--read`` summarises such files:
each cue for the legal pairs the judge left "may touch" beside every touching pair, and what a cut
past every touching pair would settle.
"""

from __future__ import annotations

import argparse
import json
import pathlib
import sys

import cv2
import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

import tower_ring_slits  # noqa: E402  (this script's folder is on the path)
from tower_accuracy import add_ring_variant_arguments, random_scene, ring_variant  # noqa: E402
from vision.tower import judge as tower_judge  # noqa: E402
from vision.tower import judge_tower  # noqa: E402

SUPERSAMPLE = tower_ring_slits.SUPERSAMPLE


_calls: list = []


def _record_side_gaps() -> None:
    """Record, for every split the judge looks into (``_side_gap``), the light between the faces in
    the still frames' average (sum of channels, in quiet-zone whites): across the split's zone, the
    darkest and the brightest column over the faces' brighter median (the shade of a gap; a lit
    top face or background), on the slit's rows (the band's upper part down to ``_slit_bottom``)
    and on the rows under them down to the pair's foot (where a gap would show the cube below's
    top face)."""
    side_gap = tower_judge.TowerAnalyzer._side_gap

    def recording(self, obs, lo, hi, split, *, pair_width, **kwargs):
        out = side_gap(self, obs, lo, hi, split, pair_width=pair_width, **kwargs)
        colour = obs.colour if obs.still_colour is None else obs.still_colour
        reach = int(0.15 * self.settings.cube_mm * tower_judge.VIEW_PX_PER_MM)
        bottom = self._slit_bottom(obs.view, lo)
        foot = obs.view.row(obs.view.z_of(lo) + 0.05 * self.settings.cube_mm - self.settings.cube_mm)

        def profile(rows):
            if rows.stop <= rows.start:
                return None
            light = colour[rows].sum(axis=2).mean(axis=0)
            left = light[max(split - 3 * reach, 0): max(split - reach - 1, 1)]
            right = light[split + reach + 2: split + 3 * reach + 1]
            zone = light[max(split - reach, 0): split + reach + 1]
            if not (left.size and right.size and zone.size):
                return None
            faces = max(float(np.median(left)), float(np.median(right)), 1e-6)
            return float(zone.min() / faces), float(zone.max() / faces)
        _calls.append(dict(z=obs.view.z_of(lo), out=int(out), slit=profile(slice(lo, max(bottom, lo + 1))),
                           foot=profile(slice(max(bottom, lo + 1), foot))))
        return out

    tower_judge.TowerAnalyzer._side_gap = recording


def _first_hits(scene, cubes, boxes, box_uv, sample: int = SUPERSAMPLE):
    """Per ray of ``tower_ring_slits.cast``, in the grid's shape: the index of what it meets first
    (cubes, then pieces; len(cubes) + len(boxes) for the mat, table or wall), the grid's u and v,
    and (eye, directions, distance to the first thing met) to place what it meets."""
    grid_u, grid_v, eye, dirs, hits = tower_ring_slits.cast(scene, cubes, boxes, box_uv, sample)
    first = np.argmin(hits, axis=1)
    ahead = hits[np.arange(len(first)), first]
    first = np.where(np.isfinite(ahead), first, len(cubes) + len(boxes))
    rays = (eye, dirs.reshape(*grid_u.shape, 3), ahead.reshape(grid_u.shape))
    return first.reshape(grid_u.shape), grid_u, grid_v, rays


def _nudge(scene, cubes, boxes) -> tuple[int, int]:
    """The end frames' shift (whole pixels): the cast cubes' mask matched to the frame's change."""
    corners = scene.camera.project(np.concatenate([c.corners() for c in cubes]))
    (u0, v0), (u1, v1) = np.floor(corners.min(axis=0)).astype(int) - 8, np.ceil(corners.max(axis=0)).astype(int) + 8
    w, h = scene.camera.size
    u0, v0, u1, v1 = max(u0, 0), max(v0, 0), min(u1, w), min(v1, h)
    still = np.mean([f.astype(np.float32) for f in scene.frames[1:]], axis=0)[v0:v1, u0:u1]
    change = np.abs(still - scene.frames[0][v0:v1, u0:u1].astype(np.float32)).max(axis=2) > 30
    # A coarse mask (one ray per pixel) is enough to find a shift of a few pixels.
    first = _first_hits(scene, cubes, [], (u0, v0, u1, v1), sample=1)[0]
    mask = first < len(cubes)
    best, best_score = (0, 0), -1.0
    for dv in range(-5, 6):
        for du in range(-5, 6):
            moved = np.roll(np.roll(mask, dv, axis=0), du, axis=1)
            score = float((moved & change).sum() - (moved & ~change).sum())
            if score > best_score:
                best, best_score = (du, dv), score
    return best


def _pairs(cubes) -> list[tuple[int, int, int, int | None]]:
    """(left, right, under, over) cube indices for each layer of exactly two cubes."""
    layers: dict[int, list[int]] = {}
    for i, c in enumerate(cubes):
        layers.setdefault(int(round((c.centre[2] - 5.0) / 10.0)), []).append(i)
    out = []
    for layer, row in sorted(layers.items()):
        if layer == 0 or len(row) != 2:
            continue
        a, b = sorted(row, key=lambda i: cubes[i].centre[0])
        mid = (np.array(cubes[a].centre[:2]) + np.array(cubes[b].centre[:2])) / 2

        def nearest(ids):
            return min(ids, key=lambda i: np.linalg.norm(np.array(cubes[i].centre[:2]) - mid)) if ids else None
        out.append((a, b, nearest(layers.get(layer - 1, [])), nearest(layers.get(layer + 1, []))))
    return out


def _pair(scene, cubes, boxes, pair, still, nudge) -> dict:
    a, b, under, over = pair
    camera = scene.camera
    corners = camera.project(np.concatenate([cubes[a].corners(), cubes[b].corners()]))
    (u0, v0), (u1, v1) = np.floor(corners.min(axis=0)).astype(int), np.ceil(corners.max(axis=0)).astype(int)
    first, grid_u, grid_v, (eye, dirs, ahead) = _first_hits(scene, cubes, boxes, (u0, v0, u1, v1))
    # Which of the two is on the left in the picture.
    cols_a, cols_b = (np.nonzero((first == i).any(axis=0))[0] for i in (a, b))
    if cols_a.size and cols_b.size and cols_a.mean() > cols_b.mean():
        a, b = b, a
    sliver = np.zeros(first.shape, bool)
    for r in range(first.shape[0]):
        left, right = np.nonzero(first[r] == a)[0], np.nonzero(first[r] == b)[0]
        if left.size and right.size and right.min() > left.max() + 1:
            sliver[r, left.max() + 1:right.min()] = True
    sliver &= (first != a) & (first != b)
    if over is not None:
        sliver &= first != over
    # Only what lies inside the pair's layer: the top face of the cube under it, or what a ray
    # passing between the two at their mid-depth, within the layer's height, meets beyond.
    bottom = cubes[a].centre[2] - 5.0
    with np.errstate(invalid="ignore"):
        hit_z = eye[2] + ahead * dirs[..., 2]
        mid = (cubes[a].centre[1] + cubes[b].centre[1]) / 2
        cross_z = eye[2] + (mid - eye[1]) / dirs[..., 1] * dirs[..., 2]
    on_base = sliver & (first == under) & (hit_z >= bottom - 0.2) if under is not None else np.zeros_like(sliver)
    beyond = sliver & (first >= len(cubes)) & (cross_z >= bottom) & (cross_z <= bottom + 10.0)
    sliver = on_base | beyond
    widths = sliver.sum(axis=1) / SUPERSAMPLE
    area = SUPERSAMPLE * SUPERSAMPLE

    def colour(mask):
        rows, cols = np.nonzero(mask)
        if not rows.size:
            return None
        pix = np.unique(np.stack([np.floor(grid_v[rows, cols]) + nudge[1], np.floor(grid_u[rows, cols]) + nudge[0]],
                                 axis=1).astype(int), axis=0)
        h, w = still.shape[:2]
        keep = (pix[:, 0] >= 0) & (pix[:, 0] < h) & (pix[:, 1] >= 0) & (pix[:, 1] < w)
        return still[pix[keep, 0], pix[keep, 1]].mean(axis=0) if keep.any() else None

    contrast = None
    seen = colour(sliver)
    if seen is not None:
        faces = [colour(first == i) for i in (a, b)]
        contrast = int(min(np.abs(seen - f).max() for f in faces if f is not None))
    footprints = [tower_ring_slits.tower_scene._footprint(cubes[i]) for i in (a, b)]
    overlap, _ = cv2.intersectConvexConvex(*footprints)
    apart = 0.0 if overlap > 0 else min(
        abs(cv2.pointPolygonTest(footprints[1 - i].reshape(-1, 1, 2), tuple(map(float, p)), True))
        for i in (0, 1) for p in footprints[i])
    px_per_mm = camera.focal_px / np.linalg.norm(
        (np.array(cubes[a].centre) + np.array(cubes[b].centre)) / 2 - camera.position())
    return dict(layer=int(round((cubes[a].centre[2] - 5.0) / 10.0)), carried=over is not None, gap=apart,
                colours="".join("h" if cubes[i].heavy else "l" for i in (a, b)),
                base_px=float(on_base.sum() / area), beyond_px=float(beyond.sum() / area),
                widest=float(widths.max()), rows1=float((widths >= 1).sum() / SUPERSAMPLE),
                rows2=float((widths >= 2).sum() / SUPERSAMPLE), contrast=contrast, px_per_mm=float(px_per_mm))


def diagnose(job: tuple[str, int, dict, bool]) -> dict:
    kind, seed, variant, judge = job
    tower_ring_slits._built.clear()
    scene = random_scene(kind, seed, **variant)
    cubes, boxes = tower_ring_slits._built["cubes"], tower_ring_slits._built.get("boxes", [])
    still = np.mean([f.astype(np.float32) for f in scene.frames[1:]], axis=0)
    nudge = _nudge(scene, cubes, boxes)
    pairs = [_pair(scene, cubes, boxes, p, still, nudge) for p in _pairs(cubes)]
    dim = bool(np.random.default_rng(seed + 1000).random() < 0.3)  # random_scene's first draw
    out = dict(kind=kind, seed=seed, el=scene.camera.elevation_deg, dist=scene.camera.distance_mm,
               dim=dim if "dim" not in variant else variant["dim"], pairs=pairs)
    if judge:
        _calls.clear()
        v = judge_tower(scene.frames, heavy=scene.heavy, light=scene.light)
        out.update(verdict=v.verdict.value, conf=v.confidence, reasons=",".join(r.value for r in v.reasons))
        for p in pairs:
            # The judge's readings of this pair's layer (a layer of a ring or fork holds one pair).
            p["reads"] = [dict(c) for c in _calls if int(round(c["z"] / 10.0)) - 1 == p["layer"]]
    return out


def _quantiles(values) -> str:
    if not values:
        return "-"
    q = np.percentile(values, [0, 10, 50, 90, 100])
    return " / ".join(f"{v:.2f}" if abs(v) < 10 else f"{v:.1f}" for v in q)


def _set_name(scene: dict) -> str:
    variant = scene["variant"]
    if scene["kind"] == "touching_ring":
        return "touching, arms to 45 deg" if variant.get("arm_turn") == 45 else (
            "touching, solid" if variant.get("solid_touch") else "touching")
    return scene["kind"] + (", arms to 45 deg" if variant.get("arm_turn") == 45 else "")


# The cues, per carried pair and the judge's last reading of its split, each signed so that more
# would mean apart (a gap's shade: darker).
CUES = {
    "lower cube's top, px (truth)": lambda p, read: p["base_px"],
    "background through, px (truth)": lambda p, read: p["beyond_px"],
    "rows >= 2 px, px (truth)": lambda p, read: p["rows2"],
    "foot: brightest / faces": lambda p, read: read["foot"][1] if read and read["foot"] else None,
    "foot: -darkest / faces": lambda p, read: -read["foot"][0] if read and read["foot"] else None,
    "slit: -darkest / faces": lambda p, read: -read["slit"][0] if read and read["slit"] else None,
    "slit: brightest / faces": lambda p, read: read["slit"][1] if read and read["slit"] else None,
}


def read_back(paths: list[str]) -> None:
    """The cues' distributions from ``--judge --json`` runs: legal pairs the judge left "may touch"
    (footprints 0.5 mm or more apart) beside every touching pair, and how many uncertain legal
    scenes a cut just past every touching pair would settle (every may-touch pair past it)."""
    scenes = [json.loads(line) for path in paths for line in open(path)]
    pairs: dict[str, list] = {}
    for scene in scenes:
        name = _set_name(scene)
        for p in scene["pairs"]:
            reads = p.get("reads") or []
            if not p["carried"] or not reads:
                continue
            touching = name.startswith("touching")
            if not touching and not (p["gap"] >= 0.5 and any(r["out"] == tower_judge.SIDE_MAY_TOUCH for r in reads)):
                continue
            pairs.setdefault(name, []).append((p, reads[-1], scene))
    legal = [name for name in pairs if not name.startswith("touching")]
    for cue, value in CUES.items():
        print(f"{cue} (pairs: min / 10 % / median / 90 % / max)")
        for name in sorted(pairs):
            print(f"  {name:26} {'touching' if name not in legal else 'apart, may touch':17} "
                  f"{len(pairs[name]):4}: {_quantiles([value(p, r) for p, r, _ in pairs[name] if value(p, r) is not None])}")
        touching = [value(p, r) for name in pairs if name not in legal for p, r, _ in pairs[name]]
        cut = max(v for v in touching if v is not None)
        cells = []
        for name in sorted(legal):
            uncertain = [s for s in scenes if _set_name(s) == name and s["verdict"] == "uncertain"]
            settled = 0
            for s in uncertain:
                doubts = [(p, p["reads"][-1]) for p in s["pairs"] if p["carried"] and p.get("reads")
                          and any(r["out"] == tower_judge.SIDE_MAY_TOUCH for r in p["reads"])]
                settled += bool(doubts) and all(value(p, r) is not None and value(p, r) > cut for p, r in doubts)
            past = sum(value(p, r) is not None and value(p, r) > cut for p, r, _ in pairs[name])
            cells.append(f"{name}: {past} of {len(pairs[name])} pairs, {settled} of {len(uncertain)} uncertain scenes")
        print(f"  past every touching pair (> {cut:.2f}): " + "; ".join(cells))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--first", type=int, default=930000)
    parser.add_argument("--scenes", type=int, default=10)
    parser.add_argument("--kinds", default="ring,touching_ring,y_fork")
    parser.add_argument("--judge", action="store_true", help="judge each scene too")
    parser.add_argument("--json", help="also write each scene's figures to this file, one JSON object a line")
    parser.add_argument("--read", nargs="+", metavar="FILE", help="only summarise earlier --judge --json runs")
    add_ring_variant_arguments(parser)
    args = parser.parse_args()
    if args.read:
        read_back(args.read)
        return 0
    kinds = [k.strip() for k in args.kinds.split(",") if k.strip()]
    variant = ring_variant(args)
    tower_ring_slits._keep_what_is_built()
    _record_side_gaps()
    results = []
    print("kind seed el | per carried pair: layer gap mm | sliver on the cube below / beyond px, widest px, "
          "rows >= 1 / 2 px, contrast")
    for kind in kinds:
        for seed in range(args.first, args.first + args.scenes):
            r = diagnose((kind, seed, variant, args.judge))
            results.append(r)
            if args.json:
                with open(args.json, "a") as out:
                    out.write(json.dumps(dict(r, variant=variant)) + "\n")
            cells = "; ".join(
                f"L{p['layer']}{'' if p['carried'] else ' top'} {p['colours']} {p['gap']:.2f} | {p['base_px']:.1f} / {p['beyond_px']:.1f}, "
                f"{p['widest']:.2f}, {p['rows1']:.1f} / {p['rows2']:.1f}, {p['contrast']}" for p in r["pairs"])
            head = f"{kind:13} {seed} {r['el']:4.1f}{' dim' if r['dim'] else ''}"
            if args.judge:
                head += f" {r['verdict']:9} {r['conf']:.2f} {r['reasons'] or '-'}"
            print(f"{head} | {cells}", flush=True)
    print("\nDistributions over carried pairs (min / 10 % / median / 90 % / max):")
    groups = {"apart (gap >= 0.5 mm)": lambda p: p["gap"] >= 0.5, "touching (gap < 0.5 mm)": lambda p: p["gap"] < 0.5}
    for name, test in groups.items():
        pairs = [p for r in results for p in r["pairs"] if p["carried"] and test(p)]
        print(f"  {name}: {len(pairs)} pairs")
        for key in ("base_px", "beyond_px", "widest", "rows1", "rows2"):
            print(f"    {key:10}: {_quantiles([p[key] for p in pairs])}")
        print(f"    contrast  : {_quantiles([p['contrast'] for p in pairs if p['contrast'] is not None])} "
              f"({sum(p['contrast'] is None for p in pairs)} with no sliver)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
