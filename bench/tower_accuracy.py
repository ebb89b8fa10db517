"""Tower judge accuracy on random synthetic scenes (not a test: a measurement).

    python bench/tower_accuracy.py [--first SEED] [--scenes N] [--jobs J]

Each scene draws its own camera (pose, lens centre), mat print, table, room light (colour,
direction, fall-off), box and cube wood colours, dim room, nudge, exposure drift, off-spot tower,
clutter (also right beside the markers and behind the spot), the fighter's cubes beside the mat
at the start, noise and cube counts.  Prints, per kind, how often the judge said pass / fail /
uncertain with the share correct among decided verdicts and the uncertain share, then the
quality figures of the issue: correct among decided verdicts, wrong fails on legal towers, and
the uncertain share.
"""

from __future__ import annotations

import argparse
import collections
import multiprocessing
import pathlib
import sys

import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from vision.synth.tower_scene import EXPECTED, make_tower_scene  # noqa: E402
from vision.tower import judge_tower  # noqa: E402


def random_scene(kind: str, seed: int):
    rng = np.random.default_rng(seed + 1000)
    options = dict(
        dim=bool(rng.random() < 0.3), nudge_px=float(rng.uniform(0, 4)), exposure_drift=float(rng.uniform(0, 0.2)),
        off_spot_mm=float(rng.uniform(0, 12)), distractors=int(rng.integers(0, 10)), noise=float(rng.uniform(1, 6)),
    )
    heavy = int(rng.integers(1 if kind == "wrong_colour" else 0, 5))
    light = int(rng.integers(0, 6))
    light += max(0, 4 - heavy - light)
    frames = int(rng.integers(2, 7))
    # The fighter's cubes beside the mat at the start, clutter right beside the markers or behind the spot.
    options.update(pile=bool(rng.random() < 0.3), near=float(rng.uniform(0, 0.6)))
    return make_tower_scene(kind, seed=seed, heavy=heavy, light=light, frames=frames, **options)


def judge_one(job: tuple[str, int]) -> tuple[str, str]:
    kind, seed = job
    scene = random_scene(kind, seed)
    return kind, judge_tower(scene.frames, heavy=scene.heavy, light=scene.light).verdict.value


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--scenes", type=int, default=10, help="scenes per kind")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    args = parser.parse_args()
    jobs = [(kind, seed) for kind in EXPECTED for seed in range(args.first, args.first + args.scenes)]
    if args.jobs > 1:
        with multiprocessing.Pool(args.jobs) as pool:
            results = pool.map(judge_one, jobs, chunksize=4)
    else:
        results = [judge_one(job) for job in jobs]
    table: dict[str, collections.Counter] = {kind: collections.Counter() for kind in EXPECTED}
    for kind, verdict in results:
        table[kind][verdict] += 1
    print(f"{'kind':14} {'expected':9} {'pass':>5} {'fail':>5} {'uncertain':>10} {'correct/decided':>16} {'uncertain':>10}")
    for kind, counts in table.items():
        decided = counts["pass"] + counts["fail"]
        print(f"{kind:14} {EXPECTED[kind]:9} {counts['pass']:5} {counts['fail']:5} {counts['uncertain']:10} "
              f"{counts[EXPECTED[kind]] / max(decided, 1):16.1%} {counts['uncertain'] / sum(counts.values()):10.1%}")
    total = sum(sum(c.values()) for c in table.values())
    decided = sum(c["pass"] + c["fail"] for c in table.values())
    correct = sum(c[EXPECTED[k]] for k, c in table.items())
    legal = [k for k, e in EXPECTED.items() if e == "pass"]
    legal_total = sum(sum(table[k].values()) for k in legal)
    wrong_fail = sum(table[k]["fail"] for k in legal)
    print(f"correct among decided: {correct}/{decided} = {correct / max(decided, 1):.1%}")
    print(f"wrong fail on legal towers: {wrong_fail}/{legal_total} = {wrong_fail / max(legal_total, 1):.1%}")
    print(f"uncertain: {total - decided}/{total} = {(total - decided) / total:.1%}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
