"""Tower judge per-frame cost in instructions (valgrind's callgrind): stable on a shared machine.

    python bench/tower_callgrind.py [--scenes N] [--frames F] [--loops L] [--code DIR ...]

Wall-clock times swing with the load other processes put on the machine; instruction counts do
not.  For each room of ``bench/tower_bench.py`` this renders N scenes (natively, not counted),
then runs one Python under ``valgrind --tool=callgrind`` that builds the analyzers, warms them up
(the reference's cached planes), and then runs L passes of the floor (cvtColor BGR->HSV +
inRange) over every frame, then L passes of ``TowerAnalyzer.observe``.  The phases are cut apart
by a call to ``os.getppid()`` (``--dump-before=getppid``), so each count is that phase's alone.
OpenCV runs on one thread here (its thread pool's waiting would add counts that vary run to run).
Printed: instructions per frame of the floor and of the per-frame step, and their ratio, per room
and per ``--code`` checkout (default: this one; pass several to compare, e.g. main exported with
``git archive``).
"""

from __future__ import annotations

import argparse
import os
import pathlib
import re
import subprocess
import sys
import tempfile

HERE = pathlib.Path(__file__).resolve()


def _inner(npz: pathlib.Path, loops: int) -> None:
    import cv2
    import numpy as np
    from tower_bench import floor  # this script's folder is on the path

    from vision.tower.judge import TowerAnalyzer

    cv2.setNumThreads(1)
    data = np.load(npz)
    analyzers, frame_sets = [], []
    for i in range(int(data["count"])):
        frames = data[f"frames{i}"]
        analyzer = TowerAnalyzer(frames[0], heavy=int(data[f"heavy{i}"]), light=int(data[f"light{i}"]))
        analyzer.observe(frames[1])  # warm-up: the reference's planes and colours are cached
        analyzers.append(analyzer)
        frame_sets.append(list(frames[1:]))

    floor(frame_sets[0][0])
    os.getppid()  # end of the set-up
    for _ in range(loops):
        for frames in frame_sets:
            for frame in frames:
                floor(frame)
    os.getppid()  # end of the floor
    for _ in range(loops):
        for analyzer, frames in zip(analyzers, frame_sets):
            for frame in frames:
                analyzer.observe(frame)
    os.getppid()  # end of the per-frame step


def _totals(path: pathlib.Path) -> int:
    return int(re.search(r"^totals: (\d+)", path.read_text(), re.M).group(1))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenes", type=int, default=4, help="scenes per room")
    parser.add_argument("--frames", type=int, default=4, help="frames per test after the reference")
    parser.add_argument("--loops", type=int, default=2, help="passes over the frames per phase")
    parser.add_argument("--code", type=pathlib.Path, action="append",
                        help="checkout whose vision package to count (repeatable; default: this one)")
    parser.add_argument("--inner", type=pathlib.Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    codes = [c.resolve() for c in (args.code or [HERE.parents[1]])]
    if args.inner:
        sys.path.insert(0, str(codes[0]))
        _inner(args.inner, args.loops)
        return 0

    sys.path.insert(0, str(HERE.parents[1]))
    sys.path.insert(0, str(HERE.parent))
    import numpy as np
    from tower_bench import KINDS, ROOMS

    from vision.synth.tower_scene import make_tower_scene

    with tempfile.TemporaryDirectory(prefix="tower_callgrind_") as tmp:
        tmp_dir = pathlib.Path(tmp)
        print(f"{args.scenes} scenes x {args.frames} frames per room, {args.loops} passes; "
              "instructions per frame (millions)")
        print(f"{'code':28} {'room':22} {'floor':>8} {'observe':>8} {'x floor':>8}")
        for r, (room, options) in enumerate(ROOMS):
            npz = tmp_dir / f"room{r}.npz"
            scenes = [make_tower_scene(KINDS[i % len(KINDS)], seed=i, frames=args.frames, **options)
                      for i in range(args.scenes)]
            np.savez(npz, count=len(scenes), **{f"frames{i}": np.stack(s.frames) for i, s in enumerate(scenes)},
                     **{f"heavy{i}": s.heavy for i, s in enumerate(scenes)},
                     **{f"light{i}": s.light for i, s in enumerate(scenes)})
            per_phase = args.loops * args.scenes * args.frames
            for code in codes:
                out = tmp_dir / f"cg.{r}.{codes.index(code)}"
                subprocess.run(
                    ["valgrind", "--tool=callgrind", "--dump-before=getppid", f"--callgrind-out-file={out}",
                     sys.executable, str(HERE), "--inner", str(npz), "--code", str(code), "--loops", str(args.loops)],
                    check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                )
                floor = _totals(pathlib.Path(f"{out}.2")) / per_phase
                observe = _totals(pathlib.Path(f"{out}.3")) / per_phase
                label = str(code) if len(str(code)) <= 28 else "..." + str(code)[-25:]
                print(f"{label:28} {room:22} {floor / 1e6:8.2f} {observe / 1e6:8.2f} {observe / floor:8.2f}",
                      flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
