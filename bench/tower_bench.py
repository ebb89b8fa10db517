"""Tower judge benchmark: per-frame cost against a bare HSV + inRange pass, and verdict latency.

    python bench/tower_bench.py [--scenes N] [--frames F]

Renders N synthetic 640x480 Knockdown Tests (not timed), then in the same run times
  * the floor: cv2.cvtColor(BGR->HSV) + cv2.inRange on each frame;
  * the judge's per-frame step (TowerAnalyzer.observe: side-view warp, normalise, masks);
  * the verdict latency after the deadline: TowerSession.judge() once the frames are in
    (re-finding the markers, the final analysis and the evidence image);
  * a whole offline judge_tower() call, for reference.
"""

from __future__ import annotations

import argparse
import pathlib
import statistics
import sys
import time

import cv2

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from vision.synth.tower_scene import make_tower_scene  # noqa: E402
from vision.tower import judge_tower  # noqa: E402
from vision.tower.judge import TowerAnalyzer  # noqa: E402
from vision.tower.session import TowerSession  # noqa: E402


def _per_call_ms(fn, items, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for item in items:
            fn(item)
        best = min(best, (time.perf_counter() - start) * 1000 / len(items))
    return best


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenes", type=int, default=8)
    parser.add_argument("--frames", type=int, default=10, help="frames per test after the reference")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    kinds = ["stand", "fork", "hand_top", "falling"]
    scenes = [make_tower_scene(kinds[i % len(kinds)], seed=i, frames=args.frames) for i in range(args.scenes)]
    frames = [f for s in scenes for f in s.frames[1:]]

    def floor(frame):
        hsv = cv2.cvtColor(frame, cv2.COLOR_BGR2HSV)
        cv2.inRange(hsv, (0, 60, 40), (25, 255, 255))

    floor_ms = _per_call_ms(floor, frames, args.repeat)
    observe_ms = []
    for scene in scenes:
        analyzer = TowerAnalyzer(scene.frames[0], heavy=scene.heavy, light=scene.light)
        observe_ms.append(_per_call_ms(analyzer.observe, scene.frames[1:], args.repeat))
    per_frame_ms = statistics.median(observe_ms)

    latency_ms, offline_ms = [], []
    for scene in scenes:
        best = float("inf")
        for _ in range(args.repeat):
            session = TowerSession(heavy=scene.heavy, light=scene.light)
            session.start(scene.frames[0])
            for i, frame in enumerate(scene.frames[1:]):
                session.add_frame(frame, 9.0 + 0.1 * i)
            now = 9.0 + 0.1 * (len(scene.frames) - 2)
            start = time.perf_counter()
            # At the end of the settle window, so the call always judges (the worst case).
            verdict = session.judge(deadline_t=now - session.settings.settle_seconds, now_t=now)
            best = min(best, (time.perf_counter() - start) * 1000)
            assert verdict is not None
        latency_ms.append(best)
        start = time.perf_counter()
        judge_tower(scene.frames, heavy=scene.heavy, light=scene.light)
        offline_ms.append((time.perf_counter() - start) * 1000)

    rows = [
        ("floor: cvtColor BGR->HSV + inRange", floor_ms, 1.0),
        ("judge per-frame step (observe)", per_frame_ms, per_frame_ms / floor_ms),
    ]
    print(f"{len(scenes)} scenes x {args.frames} frames, 640x480, best of {args.repeat}")
    print(f"{'measure':44} {'ms':>8} {'x floor':>8}")
    for name, ms, ratio in rows:
        print(f"{name:44} {ms:8.2f} {ratio:8.2f}")
    print(f"{'verdict latency after deadline (median)':44} {statistics.median(latency_ms):8.1f}")
    print(f"{'verdict latency after deadline (max)':44} {max(latency_ms):8.1f}")
    print(f"{'offline judge_tower, whole call (median)':44} {statistics.median(offline_ms):8.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
