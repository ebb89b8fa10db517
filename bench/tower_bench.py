"""Tower judge benchmark: per-frame cost against a bare HSV + inRange pass, and verdict latency.

    python bench/tower_bench.py [--scenes N] [--frames F] [--repeat R] [--code DIR]

Renders N synthetic 640x480 Knockdown Tests per room (not timed), then in the same run times
  * the floor: cv2.cvtColor(BGR->HSV) + cv2.inRange on each frame;
  * the judge's per-frame step (TowerAnalyzer.observe: side-view warp, normalise, masks), per
    room against the floor on that room's own frames:
      - usual rooms (lit, the generator's default noise);
      - dim rooms (a third to two thirds of the light, noise x 1.6);
      - very noisy dim rooms (dim, noise 8 x 1.6 grey levels: the judge averages the view over
        7 x 7 pixels and undoes the noise's clipping at black, see ``NOISY_VIEW`` in the judge);
  * the verdict latency after the deadline: TowerSession.judge() once the frames are in
    (re-finding the markers, the final analysis and the evidence image), over all rooms;
  * a whole offline judge_tower() call, for reference.

``--code DIR`` times the ``vision`` package of another checkout (e.g. main, exported with
``git archive``) with this same script, so two trees can be timed alternately on a shared machine.
"""

from __future__ import annotations

import argparse
import pathlib
import statistics
import sys
import time

import cv2

# The rooms: (name, scene options).  Noise 8 makes every scene's room "very noisy" (the judge's
# 7 x 7 path; the bench prints how many took it).
ROOMS = (
    ("usual rooms", {}),
    ("dim rooms", {"dim": True}),
    ("very noisy dim rooms", {"dim": True, "noise": 8.0}),
)


#: The kinds of test rendered in turn for the per-frame benches.
KINDS = ("stand", "fork", "hand_top", "falling")


def floor(frame) -> None:
    """The issue's floor: a bare cvtColor BGR->HSV and one inRange on the same frame."""
    hsv = cv2.cvtColor(frame, cv2.COLOR_BGR2HSV)
    cv2.inRange(hsv, (0, 60, 40), (25, 255, 255))


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
    parser.add_argument("--scenes", type=int, default=8, help="scenes per room")
    parser.add_argument("--frames", type=int, default=10, help="frames per test after the reference")
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--code", type=pathlib.Path, default=pathlib.Path(__file__).resolve().parents[1],
                        help="checkout whose vision package to time (default: this one)")
    args = parser.parse_args()
    sys.path.insert(0, str(args.code.resolve()))
    from vision.synth.tower_scene import make_tower_scene
    from vision.tower import judge_tower
    from vision.tower.judge import TowerAnalyzer
    from vision.tower.session import TowerSession

    rows = []
    all_scenes = []
    for room, options in ROOMS:
        scenes = [make_tower_scene(KINDS[i % len(KINDS)], seed=i, frames=args.frames, **options)
                  for i in range(args.scenes)]
        all_scenes += scenes
        frames = [f for s in scenes for f in s.frames[1:]]
        floor_ms = _per_call_ms(floor, frames, args.repeat)
        observe_ms, averaged = [], 0
        for scene in scenes:
            analyzer = TowerAnalyzer(scene.frames[0], heavy=scene.heavy, light=scene.light)
            averaged += analyzer._blur > 3
            observe_ms.append(_per_call_ms(analyzer.observe, scene.frames[1:], args.repeat))
        per_frame_ms = statistics.median(observe_ms)
        rows.append((room, floor_ms, per_frame_ms, averaged, len(scenes)))

    latency_ms, offline_ms = [], []
    for scene in all_scenes:
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

    print(f"code: {args.code.resolve()}")
    print(f"{args.scenes} scenes x {args.frames} frames per room, 640x480, best of {args.repeat}")
    print(f"{'per-frame step (observe) vs floor (cvtColor BGR->HSV + inRange)':66} {'ms':>7} {'x floor':>8}")
    for room, floor_ms, per_frame_ms, averaged, n in rows:
        print(f"  {room + ': floor':64} {floor_ms:7.2f} {1.0:8.2f}")
        print(f"  {room + f': per-frame step (7x7 average in {averaged}/{n} scenes)':64} {per_frame_ms:7.2f} "
              f"{per_frame_ms / floor_ms:8.2f}")
    print(f"{'verdict latency after deadline, all rooms (median)':66} {statistics.median(latency_ms):7.1f}")
    print(f"{'verdict latency after deadline, all rooms (max)':66} {max(latency_ms):7.1f}")
    print(f"{'offline judge_tower, whole call (median)':66} {statistics.median(offline_ms):7.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
