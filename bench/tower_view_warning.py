"""How often the live flow's tall-tower warning fires on ``bench/tower_accuracy.py`` scenes, and how
often it is right (tower pass 54, docs/tower-judge.md).

    python bench/tower_view_warning.py [--first SEED] [--scenes N] [--kinds a,b] [--judge]

For every scene: the tallest tower its camera's picture holds as calibration measures it (a
calibration shot taken with the scene's own camera, ``calibrate_tower``), the same count from the
generator's true camera, and the scene's cubes H + L. The flow warns when H + L exceeds the
calibrated count; the warning is *true* when H + L also exceeds the true count. With ``--judge``
every warned or truly too tall scene is judged, to show what the judge said there.
"""

from __future__ import annotations

import argparse
import collections
import sys


from tower_accuracy import EXPECTED, random_scene  # this script's folder is on the path

from assistant.knockdown.flow import PendingTest, tall_tower_warning
from vision.synth.tower_scene import make_calibration_shot
from vision.tower import calibrate_tower, judge_tower
from vision.tower.calibration import CalibrationError, tallest_tower_in_view
from vision.tower.geometry import MatGeometry


def true_tallest(camera, cube_mm: float = 10.0) -> int:
    """The count from the generator's own camera, not the pose calibration estimates."""
    return tallest_tower_in_view(MatGeometry.from_pose(*camera.matrices()), camera.size, cube_mm)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--first", type=int, default=973100)
    parser.add_argument("--scenes", type=int, default=25, help="seeds per kind")
    parser.add_argument("--kinds", default=",".join(EXPECTED))
    parser.add_argument("--judge", action="store_true", help="judge the warned or truly too tall scenes")
    args = parser.parse_args()
    counts, calibrated = collections.Counter(), {}
    for kind in args.kinds.split(","):
        for seed in range(args.first, args.first + args.scenes):
            scene = random_scene(kind, seed)
            key = repr(scene.camera)
            if key not in calibrated:
                try:
                    shot = make_calibration_shot(seed=seed, camera=scene.camera)[0]
                    calibrated[key] = calibrate_tower(shot).tallest_tower_cubes
                except CalibrationError:
                    calibrated[key] = None  # the set-up a calibration refuses: nothing stored, no warning
            holds, truth, cubes = calibrated[key], true_tallest(scene.camera), scene.heavy + scene.light
            test = PendingTest(player=0, heavy=scene.heavy, light=scene.light, variant="tower")
            warned = tall_tower_warning(test, holds) is not None
            too_tall = cubes > truth
            counts["scenes"] += 1
            counts["not calibrated"] += holds is None
            counts[("warned" if warned else "not warned", "too tall" if too_tall else "fits")] += 1
            if holds is not None:
                counts[f"calibrated - true: {holds - truth:+d}"] += 1
            if args.judge and (warned or too_tall):
                verdict = judge_tower(scene.frames, heavy=scene.heavy, light=scene.light)
                counts[("judged", "warned" if warned else "not warned", str(verdict.verdict))] += 1
                print(f"{kind} {seed}: {cubes} cubes, holds {holds} (true {truth}), {verdict.verdict} "
                      f"{sorted({str(r) for r in verdict.reasons})}", flush=True)
    for key, value in sorted(counts.items(), key=str):
        print(f"{key}: {value}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
