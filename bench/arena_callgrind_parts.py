"""Arena reader cost by part, in instructions and callgrind's cycle estimate (the fifty-seventh pass's profile).

    python bench/arena_callgrind_parts.py [--scenes N] [--code DIR] [--cache-sim] [--keep DIR]

Renders N scenes as ``bench/arena_bench.py`` does (``random_match_scene``, ``default_rng(7)``, 800x600), then
runs one Python under ``valgrind --tool=callgrind --dump-before=getppid`` that prepares each scene's
references, reads every scene once to warm up (the three live reads: nudged 1st, following, unmoved camera,
``annotate=False``), wraps the parts below so that each entry and exit calls ``os.getppid()`` (a dump), and
reads them all again. Each dump is put down to the innermost part running when it was cut; printed per
read (the mean over the 3 N reads), millions: instructions, cycle estimate (Ir + 10 first-level misses + 100
last-level misses, with ``--cache-sim``), instruction and data first-level misses (thousands). A part's
figures are its own and what it calls, less the parts wrapped inside it; ``(reader)`` is everything outside
every part. The wrappers and the dumps add a little (some 1,500 dumps for four scenes: slow, tens of
minutes on a busy box). ``--code DIR``: the checkout whose ``vision`` to measure (default: this one).
"""

from __future__ import annotations

import argparse
import collections
import functools
import json
import os
import pathlib
import subprocess
import sys
import tempfile

from arena_callgrind import LAYOUT, cycle_estimate, dump_counts, prepared_scenes, write_scenes

HERE = pathlib.Path(__file__).resolve()
READER_PARTS = ["register", "change_between", "board_noise", "change_mask", "find_blobs", "select_bases"]
BASES_PARTS = ["_disc_fits", "_figure_evidence", "_disc_coverage", "_change_ahead", "_stands_up", "_short_behind",
               "_pinched_by", "_width_across", "_capped_difference", "_peaks", "_front_seeds", "_agreeing_fits",
               "replace", "_with", "_rises_behind", "_breaks_behind", "_apart_behind", "_unexplained",
               "_figures_past_the_outlines", "_hidden_spaces", "_figure_is_a_base_behind", "_split_touching_pairs",
               "changed_window", "classify", "_explained_mask", "_foot_of_a_top_behind"]
CHECK_METHODS = {"_TintInFrontCheck": ["in_front", "long_shadow", "side_ring", "__init__"],
                 "_FaintRingCheck": ["round", "wider_than_a_token", "fades_slower_than_it_rises"],
                 "_FrontRimCheck": ["shows"]}


def _inner(code: pathlib.Path, npz: pathlib.Path, log_path: pathlib.Path) -> None:
    sys.path.insert(0, str(code))
    os.chdir(code)
    import cv2

    import vision
    from vision.arena import bases, load_geometry, read_arena, reader

    assert pathlib.Path(vision.__file__).resolve().is_relative_to(code), vision.__file__
    cv2.setNumThreads(1)
    geometry = load_geometry(code / LAYOUT)
    scenes = prepared_scenes(npz, geometry)
    calls = [lambda s: read_arena(s[0], s[2], geometry, annotate=False),
             lambda s: read_arena(s[1], s[3], geometry, annotate=False),
             lambda s: read_arena(s[0], s[4], geometry, annotate=False)]
    for call in calls:  # warm-up
        for scene in scenes:
            call(scene)
    log: list[str] = []
    stack = ["(setup)"]

    def wrap(owner, name, tag):
        fn = getattr(owner, name)

        @functools.wraps(fn)
        def wrapped(*args, **kwargs):
            log.append(stack[-1])
            os.getppid()
            stack.append(tag)
            try:
                return fn(*args, **kwargs)
            finally:
                log.append(stack.pop())
                os.getppid()

        setattr(owner, name, wrapped)

    for name in READER_PARTS:
        if hasattr(reader, name):
            wrap(reader, name, name)
    for name in BASES_PARTS:
        if hasattr(bases, name):
            wrap(bases, name, name)
    for cls, names in CHECK_METHODS.items():
        for name in names:
            wrap(getattr(bases, cls), name, f"{cls}.{name}")
    log.append("(setup)")
    os.getppid()
    stack[-1] = "(reader)"
    for call in calls:
        for scene in scenes:
            call(scene)
    log.append("(reader)")
    os.getppid()
    log_path.write_text(json.dumps(log))


def report(out: pathlib.Path, reads: int) -> None:
    log = json.loads((out / "log.json").read_text())
    parts: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    for k, tag in enumerate(log):
        parts[tag].update(dump_counts(out / f"cg.{k + 1}"))
    parts.pop("(setup)", None)
    total: collections.Counter = collections.Counter()
    print(f"{'part':40} {'Ir':>8} {'cycles':>8} {'I1 miss':>8} {'D1 miss':>8}   (a read: millions; misses: thousands)")
    for tag, c in sorted(parts.items(), key=lambda kv: -cycle_estimate(kv[1])):
        total.update(c)
        print(f"{tag:40} {c['Ir'] / reads / 1e6:8.2f} {cycle_estimate(c) / reads / 1e6:8.2f} {c.get('I1mr', 0) / reads / 1e3:8.1f} "
              f"{(c.get('D1mr', 0) + c.get('D1mw', 0)) / reads / 1e3:8.1f}")
    print(f"{'a read, all of it':40} {total['Ir'] / reads / 1e6:8.2f} {cycle_estimate(total) / reads / 1e6:8.2f}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenes", type=int, default=4)
    parser.add_argument("--code", type=pathlib.Path, default=HERE.parents[1])
    parser.add_argument("--cache-sim", action="store_true")
    parser.add_argument("--keep", type=pathlib.Path, help="keep the dumps here (else a temporary folder)")
    parser.add_argument("--inner", nargs=2, type=pathlib.Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    code = args.code.resolve()
    if args.inner:
        _inner(code, *args.inner)
        return 0
    with tempfile.TemporaryDirectory(prefix="arena_parts_") as tmp:
        out = args.keep or pathlib.Path(tmp)
        out.mkdir(parents=True, exist_ok=True)
        npz = pathlib.Path(tmp) / "scenes.npz"
        write_scenes(npz, args.scenes, (800, 600))
        subprocess.run(["valgrind", "--tool=callgrind", "--dump-before=getppid", f"--callgrind-out-file={out}/cg"]
                       + (["--cache-sim=yes"] if args.cache_sim else [])
                       + [sys.executable, str(HERE), "--code", str(code), "--inner", str(npz), str(out / "log.json")],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        report(out, 3 * args.scenes)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
