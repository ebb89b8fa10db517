"""Arena readings of this tree and another, compared scene by scene: a change meant only to cost
less must read every scene the same.

Run: python bench/arena_same_readings.py --against DIR|FILE|REF [--start S] [--count N] [--no-stacked] [--jobs J]
DIR is another checkout of the project (e.g. ``git worktree add`` or ``git archive main | tar -x -C
DIR``), the readings file a run with ``--save FILE`` wrote of it, to compare against again, or a
git ref of this repository (exported for the run). Each tree reads, in its own processes with its own ``vision``, per seed S, S+1, ... of
``random_match_scene``:

- ``no count``: the offline reader's path (``read_arena`` against the raw reference image);
- ``--fighters``: the same with the true fighter count;
- ``--touching-tokens``: that seed's touching-tokens scene, no count;
- ``following``: the live path with the count: a reference prepared once, the first read
  (a nudged camera's), then another noise draw of the same view against the reference that
  followed the first read's registration (``PreparedReference.following``, as the watcher does);
- ``unmoved``: the live path with the count, the reference rendered from the live pose;

and, unless ``--no-stacked``, every scene of ``bench/arena_stacked_tokens.py`` (no count; each
tree's own copy builds them).
Each reading is compared as the JSON the CLI prints (``ok``, ``occupied``, ``fighters``,
``markers_found``, ``error``), byte for byte. Prints the count of readings compared and every
one that differs; exits 1 if any does.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import subprocess
import sys
import tempfile
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from checkouts import export  # this script's folder is on the path

HERE = Path(__file__).resolve().parents[1]
LAYOUT_PATH = Path("assistant") / "boxes" / "data" / "arenas" / "line-9.toml"


def _random_scene_readings(seed: int) -> list[tuple[str, str]]:
    import numpy as np

    from vision.arena import load_geometry, prepare_reference, read_arena
    from vision.synth.arena_scene import random_match_scene, render_scene

    geometry = load_geometry(Path.cwd() / LAYOUT_PATH)
    out = []

    def reading(mode, image, reference, fighters=None):
        result = read_arena(image, reference, geometry, annotate=False, fighters=fighters)
        out.append((f"{seed} {mode}", json.dumps(result.to_json(), sort_keys=True)))
        return result

    reference_scene, live_scene, _ = random_match_scene(np.random.default_rng(seed), geometry)
    live, reference = render_scene(live_scene, geometry), render_scene(reference_scene, geometry)
    count = len(live_scene.miniatures)
    reading("no count", live, reference)
    reading("--fighters", live, reference, count)
    prepared = prepare_reference(reference, geometry)
    first = read_arena(live, prepared, geometry, annotate=False, fighters=count)
    followed = prepared.following(live, first.registration) if first.registration is not None else prepared
    following = render_scene(dataclasses.replace(live_scene, seed=live_scene.seed + 1), geometry)
    reading("following", following, followed, count)
    unmoved = render_scene(dataclasses.replace(reference_scene, pose=live_scene.pose), geometry)
    reading("unmoved", live, prepare_reference(unmoved, geometry), count)
    reference_scene, live_scene, _ = random_match_scene(np.random.default_rng(seed), geometry, touching_tokens=True)
    reading("--touching-tokens", render_scene(live_scene, geometry), render_scene(reference_scene, geometry))
    return out


def _stacked_reading(job) -> list[tuple[str, str]]:
    import arena_stacked_tokens as stacked

    from vision.arena import load_geometry, read_arena
    from vision.synth.arena_scene import render_scene

    kind, label, pose, minis, tokens, _ = job
    geometry = load_geometry(Path.cwd() / LAYOUT_PATH)
    result = read_arena(render_scene(stacked._scene(pose, minis, tokens), geometry),
                        render_scene(stacked._scene(pose, seed=99), geometry), geometry, annotate=False)
    return [(f"stacked {kind} {label}", json.dumps(result.to_json(), sort_keys=True))]


def _read_tree(args) -> int:
    """Worker mode: this process imports ``vision`` from ``args.tree`` and writes its readings."""
    tree = Path(args.tree).resolve()
    sys.path[:0] = [str(tree), str(tree / "bench")]  # its own vision, and its bench's stacked scenes
    import os

    os.chdir(tree)
    import vision

    assert Path(vision.__file__).resolve().is_relative_to(tree), f"vision came from {vision.__file__}, not {tree}"
    work = [(_random_scene_readings, seed) for seed in range(args.start, args.start + args.count)]
    if args.stacked:
        import arena_stacked_tokens as stacked

        work += [(_stacked_reading, job) for job in stacked.jobs("all")]
    with ProcessPoolExecutor(args.jobs) as pool:
        results = pool.map(_call, work, chunksize=4)
        with open(args.out, "w") as out:
            for lines in results:
                for key, text in lines:
                    out.write(f"{key}\t{text}\n")
    return 0


def _call(work):
    fn, arg = work
    return fn(arg)


def _load(path: Path) -> dict[str, str]:
    return dict(line.rstrip("\n").split("\t", 1) for line in path.read_text().splitlines())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", help="the other source tree, its saved readings, or a git ref")
    parser.add_argument("--start", type=int, default=230000)
    parser.add_argument("--count", type=int, default=400)
    parser.add_argument("--no-stacked", dest="stacked", action="store_false", help="leave out the stacked-token scenes")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--save", help="keep the other tree's readings in this file (pass it as --against later)")
    parser.add_argument("--tree", help=argparse.SUPPRESS)  # worker mode
    parser.add_argument("--out", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.tree:
        return _read_tree(args)
    if not args.against:
        parser.error("--against DIR, FILE or REF is needed")
    readings = {}
    with tempfile.TemporaryDirectory() as tmp:
        other = Path(args.against)
        if not other.exists():
            other = export(args.against, Path(tmp) / "other")  # a git ref
        for name, tree in (("this tree", HERE), ("other tree", other)):
            if tree.is_file():
                readings[name] = _load(tree)  # (read for the same seeds and sets, or keys differ below)
                continue
            out = Path(args.save) if args.save and name == "other tree" else Path(tmp) / f"{len(readings)}.tsv"
            command = [sys.executable, __file__, "--tree", str(tree), "--out", str(out), "--start", str(args.start),
                       "--count", str(args.count), "--jobs", str(args.jobs)] + ([] if args.stacked else ["--no-stacked"])
            subprocess.run(command, check=True)
            readings[name] = _load(out)
    ours, theirs = readings["this tree"], readings["other tree"]
    differ = sorted(k for k in ours.keys() | theirs.keys() if ours.get(k) != theirs.get(k))
    for key in differ:
        print(f"{key}:\n  this:  {ours.get(key)}\n  other: {theirs.get(key)}")
    modes = sorted({k.split(" ", 1)[1] if not k.startswith("stacked") else "stacked" for k in ours})
    print(f"seeds {args.start}-{args.start + args.count - 1}: {len(ours)} readings compared "
          f"({', '.join(modes)}), {len(differ)} differ")
    return 1 if differ else 0


if __name__ == "__main__":
    raise SystemExit(main())
