"""Arena reader accuracy on random spec scenes: answered, right, wrong, and why not answered.

Run: python bench/arena_accuracy.py [--start S] [--count N] [--fighters] [--touching-tokens] [--jobs J] [-v]
                                   [--hunt board|light|figures|camera|all] [--size WxH]
Renders scenes from ``random_match_scene`` (seed per scene: S, S+1, ...), reads each against
its reference and counts: ``ok: true`` and right, ``ok: true`` and WRONG (must be 0), ``ok:
false`` with fewer than three markers visible (a correct refusal), and other ``ok: false``
grouped by the kind of doubt, with how many of those still name the right spaces in
``occupied`` (the bases the reader took: its best reading, which the JSON gives with the
doubt). ``--fighters`` passes the true fighter count on the board, as the live service does in
a match. Of the right ``ok: true`` readings it also counts those whose ``fighters`` list holds fewer or
more fighters than the board (``occupied`` is right: a fighter off the row unseen, or one named there
that is not).
``--hunt FAMILY`` shows each seed's scene past the generator's own looks (``hunt_looks``: printed board
art, the room's light, painted miniatures, the camera), and counts the verdicts per kind drawn.
``--size WxH`` renders every scene in a W x H frame (the same pose and board fill: the seed's scene seen with
fewer or more pixels per board mm; the default is the generator's 800 x 600).
"""

from __future__ import annotations

import argparse
import collections
import re
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from vision.arena import ArenaInputError, load_geometry, read_arena  # noqa: E402
from vision.arena.settings import ArenaSettings  # noqa: E402
from vision.synth.arena_scene import HUNTS, random_match_scene, render_scene  # noqa: E402

LAYOUT = Path(__file__).resolve().parents[1] / "assistant" / "boxes" / "data" / "arenas" / "line-9.toml"


def run_one(job: tuple) -> tuple[int, str, tuple, tuple, str | None, int]:
    return read_one(job)[:6]


def read_one(job: tuple) -> tuple[int, str, tuple, tuple, str | None, int, int, str]:
    """``run_one``'s answer, the fighters the reading lists less the miniatures on the board, and the hunt's kinds.

    ``job`` is (seed, with the count, touching tokens) and, optionally, a hunt family (``HUNTS``) or None,
    then a frame size (width, height).
    """
    seed, with_count, touching_tokens, *extra = job
    hunt = extra[0] if extra else None
    size = extra[1] if len(extra) > 1 else (800, 600)
    geometry = load_geometry(LAYOUT)
    reference, live, truth = random_match_scene(np.random.default_rng(seed), geometry, image_size=size,
                                                touching_tokens=touching_tokens, hunt=hunt)
    count = len(live.miniatures) if with_count else None
    label = live.look.label if live.look else ""
    try:
        reading = read_arena(render_scene(live, geometry), render_scene(reference, geometry), geometry, ArenaSettings(),
                             annotate=False, fighters=count)
    except ArenaInputError as error:  # a hunt's reference calibration would refuse (a marker lost under a highlight)
        return seed, "reference", truth, (), str(error), 0, 0, label
    if reading.ok:
        verdict = "right" if reading.occupied == truth else "WRONG"
    elif len(reading.markers_found) < 3:
        verdict = "markers"
    else:
        verdict = "doubt"
    listed = len(reading.fighters) - len(live.miniatures)
    return seed, verdict, truth, reading.occupied, reading.error, len(reading.markers_found), listed, label


def doubt_kinds(error: str) -> list[str]:
    """The doubts in an error sentence, with numbers taken out so they group."""
    body = error.split(": ", 1)[-1].rstrip(".")
    return sorted({re.sub(r"\(.*?\)|S\d+|-?\d+", "#", part).strip() for part in body.split("; ")})


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--start", type=int, default=5000)
    parser.add_argument("--count", type=int, default=200)
    parser.add_argument("--fighters", action="store_true", help="tell the reader how many fighters are on the board")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--touching-tokens", action="store_true",
                        help="lay tokens against bases half the time (the spec allows it; other scenes)")
    parser.add_argument("--hunt", choices=HUNTS, help="each scene past the generator's own looks (hunt_looks)")
    parser.add_argument("--size", default="800x600", help="the frame's width x height in px (default 800x600)")
    parser.add_argument("-v", "--verbose", action="store_true", help="list every scene not answered right")
    args = parser.parse_args()
    size = tuple(int(n) for n in args.size.lower().split("x"))
    jobs = [(seed, args.fighters, args.touching_tokens, args.hunt, size) for seed in range(args.start, args.start + args.count)]
    with ProcessPoolExecutor(args.jobs) as pool:
        results = list(pool.map(read_one, jobs, chunksize=4))
    verdicts = collections.Counter(r[1] for r in results)
    kinds = collections.Counter()
    for seed, verdict, truth, occupied, error, markers, listed, look in results:
        if verdict == "doubt":
            kinds.update(doubt_kinds(error))
        if args.verbose and verdict != "right":
            print(f"{seed}: {verdict} truth={truth} read={occupied} {error}" + (f"  [{look}]" if look else ""))
        elif args.verbose and listed:
            print(f"{seed}: right, {abs(listed)} fighter(s) {'more' if listed > 0 else 'fewer'} listed than stand")
    readable = len(results) - verdicts["markers"] - verdicts["reference"]
    right = verdicts["right"]
    print(f"seeds {args.start}-{args.start + args.count - 1}{' with --fighters' if args.fighters else ''}"
          f"{f' --hunt {args.hunt}' if args.hunt else ''}{f' --size {args.size}' if size != (800, 600) else ''}: "
          f"{len(results)} scenes, {readable} with >= 3 markers")
    print(f"  ok and right: {right} ({100 * right / max(1, readable):.1f} % of readable)")
    print(f"  ok and WRONG: {verdicts['WRONG']}")
    # ``occupied`` is what is scored; the ``fighters`` list may still miss a fighter off the row that
    # nothing shows (hidden behind the other's figure), or name one that is not there.
    fewer = sum(1 for r in results if r[1] == "right" and r[6] < 0)
    more = sum(1 for r in results if r[1] == "right" and r[6] > 0)
    print(f"  ok and right, fighters listed: {fewer} fewer than stand, {more} more")
    print(f"  not ok, < 3 markers: {verdicts['markers']}")
    if verdicts["reference"]:
        print(f"  reference unusable (calibration refuses it): {verdicts['reference']}")
    # A doubt still carries the reader's best reading (the bases it took) in ``occupied``: how often
    # that alone is right is what a measure of ``occupied`` that ignores ``ok`` would count.
    proposals = sum(1 for r in results if r[1] == "doubt" and r[3] == r[2])
    print(f"  not ok, doubts: {verdicts['doubt']} (of which the best reading is right: {proposals})")
    share = 100 * (right + proposals) / max(1, readable)
    print(f"  occupied right, ok or not: {right + proposals} ({share:.1f} % of readable)")
    for kind, count in kinds.most_common():
        print(f"    {count:4d}  {kind}")
    if args.hunt:  # per kind drawn (for "all", per family's kind): right / WRONG / doubt (best reading right) / markers
        looks = collections.defaultdict(collections.Counter)
        for seed, verdict, truth, occupied, *_, look in results:
            for kind in look.split("+"):
                looks[kind][verdict] += 1
                looks[kind]["best"] += verdict == "doubt" and occupied == truth
        print("  by kind: right / WRONG / doubt (best reading right) / < 3 markers / reference unusable")
        for kind, n in sorted(looks.items()):
            print(f"    {kind:22s} {n['right']:4d} / {n['WRONG']} / {n['doubt']} ({n['best']}) / {n['markers']} / {n['reference']}")
    return 1 if verdicts["WRONG"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
