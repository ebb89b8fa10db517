"""Arena reader cost per read in instructions (valgrind's callgrind) against a bare detectMarkers.

    python bench/arena_callgrind.py [--scenes N] [--size WxH ...] [--loops L] [--code DIR ...]

Wall-clock and CPU times swing with the load other processes put on the machine (and CPU time
with what they do to the shared caches); instruction counts do not. Per image size, this renders
N scenes as ``bench/arena_bench.py`` does (the same generator and seed; natively, not counted),
then runs one Python under ``valgrind --tool=callgrind`` that prepares the references (the raw
reference, the reference following the first read's registration, the reference rendered from
the live pose), reads every scene once to warm up (scratch arrays, cached camera positions), and
then runs L passes of each of, one phase after the other:

- ``bare``: ``ArucoDetector.detectMarkers`` on the grey live image (OpenCV defaults, DICT_4X4_50),
  the goal's reference;
- ``bare, following``: the same on the grey following image (another noise draw of the view);
- ``nudged, 1st``: ``read_arena`` of the live image against the prepared raw reference;
- ``following``: ``read_arena`` of the following image against the followed reference;
- ``unmoved cam``: ``read_arena`` of the live image against the reference from the live pose.

The phases are cut apart by a call to ``os.getppid()`` (``--dump-before=getppid``), so each count
is that phase's alone; the reads are made with ``annotate=False`` and no fighter count, as the
bench's live columns are. OpenCV runs on one thread (its thread pool's waiting would add counts
that vary run to run). Printed per size and per ``--code`` checkout (default: this one; pass
several to compare, e.g. main exported with ``git archive``): millions of instructions a call,
and each read's ratio to the bare detector on its own images (``following`` to ``bare,
following``, the others to ``bare``), ratios of the phase totals.

Instructions are not time: numpy's many small passes over whole top-down views cost more time per
instruction than detectMarkers' tight loops, so the reader's ratio in instructions sits well below
its ratio in CPU time (``arena_bench.py --cpu``). Use this for a stable before/after of a change's
work, and the CPU-time bench, on a quiet box, for the goal itself. ``--cache-sim`` also simulates
the caches and prints callgrind's estimate of cycles (Ir + 10 L1 misses + 100 last-level misses),
a rough model of the memory traffic that instructions leave out (a model of caches, not this CPU; slower).
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
LAYOUT = pathlib.Path("assistant") / "boxes" / "data" / "arenas" / "line-9.toml"
PHASES = ("bare", "bare, following", "nudged, 1st", "following", "unmoved cam")
#: Each read's ratio is taken against the bare detector on the images it reads.
AGAINST = {"nudged, 1st": "bare", "following": "bare, following", "unmoved cam": "bare"}


def write_scenes(npz: pathlib.Path, count: int, size: tuple[int, int]) -> None:
    """Renders ``count`` scenes as ``bench/arena_bench.py`` does (its generator and seed) into ``npz``: per
    scene the live image, the raw reference, the following image (another noise draw of the live view) and
    the reference rendered from the live pose (an unmoved camera)."""
    sys.path.insert(0, str(HERE.parents[1]))
    import dataclasses

    import numpy as np

    from vision.arena import load_geometry
    from vision.synth.arena_scene import random_match_scene, render_scene

    geometry = load_geometry(HERE.parents[1] / LAYOUT)
    rng = np.random.default_rng(7)  # as bench/arena_bench.py
    arrays = {}
    for i in range(count):
        reference_scene, live_scene, _ = random_match_scene(rng, geometry, image_size=size)
        arrays[f"live{i}"] = render_scene(live_scene, geometry)
        arrays[f"reference{i}"] = render_scene(reference_scene, geometry)
        arrays[f"following{i}"] = render_scene(dataclasses.replace(live_scene, seed=live_scene.seed + 1), geometry)
        arrays[f"unmoved{i}"] = render_scene(dataclasses.replace(reference_scene, pose=live_scene.pose), geometry)
    np.savez(npz, count=count, **arrays)


def prepared_scenes(npz: pathlib.Path, geometry) -> list[tuple]:
    """The scenes of ``write_scenes`` ready for the three live reads, inside the counted Python: per scene
    (live, following, raw reference prepared, the reference following the first read, the unmoved one)."""
    import numpy as np

    from vision.arena import prepare_reference, read_arena

    data = np.load(npz)
    scenes = []
    for i in range(int(data["count"])):
        live, following = data[f"live{i}"], data[f"following{i}"]
        prepared = prepare_reference(data[f"reference{i}"], geometry)
        first = read_arena(live, prepared, geometry, annotate=False)
        followed = prepared.following(live, first.registration) if first.registration is not None else prepared
        scenes.append((live, following, prepared, followed, prepare_reference(data[f"unmoved{i}"], geometry)))
    return scenes


def _inner(npz: pathlib.Path, loops: int) -> None:
    import cv2

    from vision.arena import load_geometry, read_arena
    from vision.arena.registration import aruco_detector

    cv2.setNumThreads(1)
    geometry = load_geometry(pathlib.Path.cwd() / LAYOUT)
    detector = aruco_detector()
    scenes = [(live, following, cv2.cvtColor(live, cv2.COLOR_BGR2GRAY), cv2.cvtColor(following, cv2.COLOR_BGR2GRAY),
               prepared, followed, unmoved)
              for live, following, prepared, followed, unmoved in prepared_scenes(npz, geometry)]
    calls = (
        lambda s: detector.detectMarkers(s[2]),
        lambda s: detector.detectMarkers(s[3]),
        lambda s: read_arena(s[0], s[4], geometry, annotate=False),
        lambda s: read_arena(s[1], s[5], geometry, annotate=False),
        lambda s: read_arena(s[0], s[6], geometry, annotate=False),
    )
    for call in calls:  # warm-up: scratch arrays, cached cameras, first-call costs
        for scene in scenes:
            call(scene)
    os.getppid()  # end of the set-up
    for call in calls:
        for _ in range(loops):
            for scene in scenes:
                call(scene)
        os.getppid()  # end of this phase


def dump_counts(path: pathlib.Path) -> dict[str, int]:
    """The dump's totals by event name (Ir, and with the cache simulation D1mr, DLmr, ...)."""
    text = path.read_text()
    events = re.search(r"^events: (.+)$", text, re.M).group(1).split()
    totals = re.search(r"^totals: (.+)$", text, re.M) or re.search(r"^summary: (.+)$", text, re.M)
    return dict(zip(events, (int(v) for v in totals.group(1).split())))


def cycle_estimate(counts: dict[str, int]) -> float:
    """Callgrind's own cycle estimate: Ir + 10 (L1 misses) + 100 (last-level misses)."""
    l1 = counts.get("I1mr", 0) + counts.get("D1mr", 0) + counts.get("D1mw", 0)
    ll = counts.get("ILmr", 0) + counts.get("DLmr", 0) + counts.get("DLmw", 0)
    return counts["Ir"] + 10 * l1 + 100 * ll


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenes", type=int, default=8, help="scenes per image size")
    parser.add_argument("--size", action="append", help="image size WxH (repeatable; default 800x600)")
    parser.add_argument("--loops", type=int, default=2, help="passes over the scenes per phase")
    parser.add_argument("--cache-sim", action="store_true", help="also simulate the caches (cycle estimate)")
    parser.add_argument("--code", type=pathlib.Path, action="append",
                        help="checkout whose vision package to count (repeatable; default: this one)")
    parser.add_argument("--inner", type=pathlib.Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    codes = [c.resolve() for c in (args.code or [HERE.parents[1]])]
    if args.inner:
        sys.path.insert(0, str(codes[0]))
        os.chdir(codes[0])
        import vision

        assert pathlib.Path(vision.__file__).resolve().is_relative_to(codes[0]), vision.__file__
        _inner(args.inner, args.loops)
        return 0

    sizes = [tuple(int(v) for v in s.lower().split("x")) for s in (args.size or ["800x600"])]
    with tempfile.TemporaryDirectory(prefix="arena_callgrind_") as tmp:
        tmp_dir = pathlib.Path(tmp)
        print(f"{args.scenes} scenes per size, {args.loops} passes; millions of instructions a call"
              f"{' (cycle estimate in brackets)' if args.cache_sim else ''}; x: a read's total over the bare "
              "detector's on the same images")
        print(f"{'code':28} {'image':>9} " + " ".join(f"{p:>15}" for p in PHASES[:2])
              + " " + " ".join(f"{p:>15} {'x':>5}" for p in PHASES[2:]))
        for size in sizes:
            npz = tmp_dir / f"{size[0]}x{size[1]}.npz"
            write_scenes(npz, args.scenes, size)
            calls = args.loops * args.scenes
            for c, code in enumerate(codes):
                out = tmp_dir / f"cg.{size[0]}.{c}"
                subprocess.run(
                    ["valgrind", "--tool=callgrind", "--dump-before=getppid", f"--callgrind-out-file={out}"]
                    + (["--cache-sim=yes"] if args.cache_sim else [])
                    + [sys.executable, str(HERE), "--inner", str(npz), "--code", str(code), "--loops", str(args.loops)],
                    check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                )
                # Dump 1 is the set-up; dumps 2.. are the phases in order.
                counts = {p: dump_counts(pathlib.Path(f"{out}.{k + 2}")) for k, p in enumerate(PHASES)}
                cells = []
                for p in PHASES:
                    cell = f"{counts[p]['Ir'] / calls / 1e6:7.2f}"
                    if args.cache_sim:
                        cell += f" ({cycle_estimate(counts[p]) / calls / 1e6:5.1f})"
                    cells.append(f"{cell:>15}")
                    if p in AGAINST:
                        ratio = counts[p]["Ir"] / counts[AGAINST[p]]["Ir"]
                        if args.cache_sim:
                            ratio_cycles = cycle_estimate(counts[p]) / cycle_estimate(counts[AGAINST[p]])
                            cells.append(f"{ratio:5.2f} ({ratio_cycles:4.2f})")
                        else:
                            cells.append(f"{ratio:5.2f}")
                label = str(code) if len(str(code)) <= 28 else "..." + str(code)[-25:]
                print(f"{label:28} {size[0]:>4}x{size[1]:<4} " + " ".join(cells), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
