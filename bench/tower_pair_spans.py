"""Each pair of cubes side by side the judge looks into, its measured span beside the scene's truth.

    python bench/tower_pair_spans.py [--first SEED] [--scenes N] [--kinds ring,touching_ring,y_fork] [--solid-touch]
                                     [--arm-turn DEG] [--four-cubes]

Not a test: a diagnosis (docs/tower-judge.md, forty-seventh pass).  Each scene is the accuracy
bench's (``random_scene``).  Every call of the judge's ``_side_gap`` (whether two cubes split out of
one run touch) is recorded: the pair's span in the view (cube widths), the allowance for a very noisy
room's blur and the reading.  Beside it, from the generator's cubes: the two cubes' turns against
the view, each one's own silhouette width and the pair's (cast along the camera's horizontal
direction onto the view plane), and the gap between their footprints.  "touch span" is what the
pair would show touching, on a real table, at their own turns: at most the two silhouettes side by
side (``w1 + w2``, meeting at a corner); "ff" if they met face to face, turned as one.  The
generator's touching rings let arms overlap, so theirs show less: ``--solid-touch`` makes them meet
as solid cubes do.  The summary asks what a rule knowing each cube's true turn could settle.
"""

from __future__ import annotations

import argparse
import math
import pathlib
import sys

import cv2
import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

import tower_ring_slits  # noqa: E402  (this script's folder is on the path)
from tower_accuracy import add_ring_variant_arguments, random_scene, ring_variant  # noqa: E402
from vision.tower import judge_tower  # noqa: E402
from vision.tower import judge as tower_judge  # noqa: E402

_calls: list = []


def _record_side_gaps() -> None:
    side_gap = tower_judge.TowerAnalyzer._side_gap

    def recording(self, obs, lo, hi, split, *, pair_width, **kwargs):
        out = side_gap(self, obs, lo, hi, split, pair_width=pair_width, **kwargs)
        view = obs.view
        _calls.append(dict(z=view.z_of(lo), x=view.x_of(split), width=pair_width,
                           widening=(self._blur - 3) / tower_judge.VIEW_PX_PER_MM / self.settings.cube_mm,
                           out=out))
        return out

    tower_judge.TowerAnalyzer._side_gap = recording


def _silhouette(cube, yaw_deg: float) -> tuple[float, float]:
    """The cube's x extent on the view plane, cast along the camera's horizontal direction."""
    corners = cube.corners()
    x = corners[:, 0] + corners[:, 1] * math.tan(math.radians(yaw_deg))
    return float(x.min()), float(x.max())


def _turn(cube, yaw_deg: float) -> float:
    """The cube's turn against the view, folded to 0-45 degrees."""
    t = (cube.yaw_deg - yaw_deg) % 90.0
    return min(t, 90.0 - t)


def diagnose(job: tuple[str, int, dict]) -> list[dict]:
    kind, seed, variant = job
    tower_ring_slits._built.clear()
    _calls.clear()
    scene = random_scene(kind, seed, **variant)
    cubes = tower_ring_slits._built["cubes"]
    verdict = judge_tower(scene.frames, heavy=scene.heavy, light=scene.light)
    yaw = scene.camera.yaw_deg
    layers: dict[int, list] = {}
    for c in cubes:
        layers.setdefault(int(round((c.centre[2] - 5.0) / 10.0)), []).append(c)
    pairs = []
    for layer, row in sorted(layers.items()):
        if len(row) != 2:
            continue
        a, b = sorted(row, key=lambda c: c.centre[0])
        (a0, a1), (b0, b1) = _silhouette(a, yaw), _silhouette(b, yaw)
        footprints = [tower_ring_slits.tower_scene._footprint(c) for c in (a, b)]
        overlap, _ = cv2.intersectConvexConvex(*footprints)
        apart = 0.0 if overlap > 0 else min(
            abs(cv2.pointPolygonTest(footprints[1 - i].reshape(-1, 1, 2), tuple(map(float, p)), True))
            for i in (0, 1) for p in footprints[i])
        turns = (_turn(a, yaw), _turn(b, yaw))
        # Face to face, the pair turned as one: the centres a cube apart along the turned axis.
        face_to_face = (a1 - a0 + b1 - b0) / 2 + 10.0 * math.cos(math.radians(sum(turns) / 2))
        pairs.append(dict(layer=layer, x0=min(a0, b0), x1=max(a1, b1), w1=a1 - a0, w2=b1 - b0,
                          turns=turns, gap=apart, overlap=float(overlap), face_to_face=face_to_face))
    rows = []
    for call in _calls:
        layer = int(round(call["z"] / 10.0)) - 1
        match = [p for p in pairs if p["layer"] == layer and p["x0"] - 3 <= call["x"] <= p["x1"] + 3]
        rows.append(dict(kind=kind, seed=seed, verdict=verdict.verdict.value, conf=verdict.confidence,
                         reasons=",".join(r.value for r in verdict.reasons), call=call,
                         pair=match[0] if match else None))
    if not _calls:
        rows.append(dict(kind=kind, seed=seed, verdict=verdict.verdict.value, conf=verdict.confidence,
                         reasons=",".join(r.value for r in verdict.reasons), call=None, pair=None))
    return rows


def _init() -> None:
    tower_ring_slits._keep_what_is_built()
    _record_side_gaps()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--first", type=int, default=930000)
    parser.add_argument("--scenes", type=int, default=10)
    parser.add_argument("--kinds", default="ring,touching_ring,y_fork")
    add_ring_variant_arguments(parser)
    args = parser.parse_args()
    kinds = [k.strip() for k in args.kinds.split(",") if k.strip()]
    variant = ring_variant(args)
    jobs = [(kind, seed, variant) for kind in kinds for seed in range(args.first, args.first + args.scenes)]
    _init()
    results = []
    print("kind seed verdict conf reasons | layer: measured span (cube widths) +widening reading | "
          "true span, w1+w2 touch span, turns, footprint gap (mm)")
    for job in jobs:
        results.append(diagnose(job))
        for r in results[-1]:
            head = f"{r['kind']:13} {r['seed']} {r['verdict']:9} {r['conf']:.2f} {r['reasons'] or '-':20}"
            c, p = r["call"], r["pair"]
            if c is None:
                print(head + " | no side gap looked into", flush=True)
                continue
            cell = f"| z{c['z']:.0f}: {c['width']:.3f} +{c['widening']:.2f} {tower_ring_slits.READINGS[c['out']]:9}"
            if p:
                cell += (f" | true {(p['x1'] - p['x0']) / 10:.3f} touch {(p['w1'] + p['w2']) / 10:.3f} "
                         f"ff {p['face_to_face'] / 10:.3f} "
                         f"turns {p['turns'][0]:.0f},{p['turns'][1]:.0f} gap {p['gap']:.2f} ov {p['overlap']:.1f}")
            else:
                cell += " | (no true pair)"
            print(head + " " + cell, flush=True)
    _summary(results, kinds)
    return 0


def _summary(results: list[list[dict]], kinds: list[str]) -> None:
    """The measurement's error, and what a rule knowing each cube's true turn could settle: a pair
    "apart" where its measured span (less the blur's widening) exceeds a touching pair's span at
    those turns by more than ``margin`` -- touching at a corner (the silhouettes side by side,
    ``w1 + w2``) or face to face (the pair turned as one)."""
    def excess(r, bound):
        c, p = r["call"], r["pair"]
        return c["width"] - c["widening"] - bound(p) / 10.0
    corner = lambda p: p["w1"] + p["w2"]  # noqa: E731
    face = lambda p: p["face_to_face"]  # noqa: E731
    for kind in kinds:
        scenes = [rows for rows in results if rows[0]["kind"] == kind]
        pairs = [r for rows in scenes for r in rows if r["call"] is not None and r["pair"] is not None]
        if not pairs:
            continue
        err = np.array([r["call"]["width"] - r["call"]["widening"] - (r["pair"]["x1"] - r["pair"]["x0"]) / 10.0
                        for r in pairs])
        silhouette_gap = np.median([(r["pair"]["x1"] - r["pair"]["x0"] - corner(r["pair"])) / 10 for r in pairs])
        print(f"{kind}: {len(scenes)} scenes, {len(pairs)} pairs looked into; measured span less true: "
              f"mean {err.mean():+.3f}, sd {err.std():.3f}, {err.min():+.3f} to {err.max():+.3f} cube widths; "
              f"true span less the corner-touching span: median {silhouette_gap:+.3f}")
        uncertain = [rows for rows in scenes if rows[0]["verdict"] == "uncertain"]
        for name, bound in (("corner", corner), ("face to face", face)):
            over = {m: sum(excess(r, bound) > m for r in pairs) for m in (0.1, 0.15, 0.2)}

            def may_touch(rows):
                return [r for r in rows if r["call"] and r["call"]["out"] == 0]
            # An upper bound: a may-touch pair matched to no true pair does not hold a scene back.
            settled = {m: sum(bool(may_touch(rows)) and all(excess(r, bound) > m for r in may_touch(rows) if r["pair"])
                              for rows in uncertain) for m in (0.1, 0.15, 0.2)}
            print(f"   {name:12}: pairs over it by more than 0.10 / 0.15 / 0.20: "
                  + " / ".join(str(over[m]) for m in over) + f"; of {len(uncertain)} uncertain scenes, every "
                  "may-touch pair over it: " + " / ".join(str(settled[m]) for m in settled))


if __name__ == "__main__":
    raise SystemExit(main())
