"""Arena reader on built scenes of a small fighter on a space's corner: the forty-fourth pass's blind spots.

Run: python bench/arena_corner_sweep.py [--kind all|behind|alone] [--with-count] [--jobs J] [-v]
Rebuilt from the forty-fourth pass's description in docs/arena-reader.md (its own script was
lost). The tests' board and space colours, no cast shadows, noise 2, the line-9 layout. A small
fighter (25 mm base, a 26 mm figure 8 mm wide) stands on one of each space's four corners (its
centre 15 mm from the space's centre both ways: its base reaches 9.5 mm past the space's outline
both ways), its base the spaces' colour, the board's, or vivid (vivid on the left-hand corners
only, half the places). Either

- ``behind``: a taller fighter (27 mm vivid base, a 45 mm figure 18 mm wide) stands right in front
  of it on its line to the camera, at the first place 28-60 mm off (1 mm steps) that is on another
  space (its centre 6 mm or more inside it) or on none (its base clear of every space): the scene is
  left out when there is none; on a back corner that fighter is in front of the row or on the next
  space, on a front corner it is off the row in front; or
- ``alone``: the small fighter alone, its base the spaces' colour.

Cameras 35, 45, 60 and 80 degrees up (450 mm away; 550 at 80) at azimuths -25, 0 and 25.
Read against the empty board, without the fighter count (the offline reader's case) or with
``--with-count`` told how many fighters stand there. Counted as ``ok`` right, ``ok`` WRONG (the
small fighter read away, or read on another space) or a doubt, by kind, base and elevation.
Deterministic: the same scenes and noise every run.
"""

from __future__ import annotations

import argparse
import collections
import functools
import itertools
import math
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from vision.arena import load_geometry, read_arena  # noqa: E402
from vision.synth.arena_scene import CameraPose, Lighting, Miniature, Scene, render_scene  # noqa: E402

LAYOUT = Path(__file__).resolve().parents[1] / "assistant" / "boxes" / "data" / "arenas" / "line-9.toml"
BOARD, SPACE = (150, 170, 185), (120, 140, 160)
VIVID_SMALL = (40, 40, 160)
VIVID_TALL = (66, 158, 226)
ELEVATIONS = (35, 45, 60, 80)
AZIMUTHS = (-25, 0, 25)
#: Corners as (x, y) offsets from the space's centre; y > 0 is the back (away from the camera).
CORNERS = {"back-left": (-15.0, 15.0), "back-right": (15.0, 15.0), "front-left": (-15.0, -15.0),
           "front-right": (15.0, -15.0)}
BASES = {"space": SPACE, "board": BOARD, "vivid": VIVID_SMALL}


def pose_for(elevation: float, azimuth: float) -> CameraPose:
    return CameraPose(distance_mm=550 if elevation >= 80 else 450, elevation_deg=elevation, azimuth_deg=azimuth)


def towards_camera(pose: CameraPose, x: float, y: float) -> tuple[float, float]:
    """Unit vector on the board from (x, y) towards the point under the camera."""
    ground = pose.distance_mm * math.cos(math.radians(pose.elevation_deg))
    cx = pose.target_mm[0] + ground * math.sin(math.radians(pose.azimuth_deg))
    cy = pose.target_mm[1] - ground * math.cos(math.radians(pose.azimuth_deg))
    d = math.hypot(cx - x, cy - y)
    return (cx - x) / d, (cy - y) / d


def small_fighter(x: float, y: float, base) -> Miniature:
    return Miniature(x, y, base_mm=25.0, base_bgr=base, figure_bgr=(160, 90, 90), figure_height_mm=26.0,
                     figure_width_mm=8.0)


def taller_in_front(geometry, pose: CameraPose, x: float, y: float) -> Miniature | None:
    """The taller fighter at the first place 28-60 mm towards the camera on another space or on none."""
    own = geometry.space_at(x, y)
    ux, uy = towards_camera(pose, x, y)
    for d in range(28, 61):
        px, py = x + ux * d, y + uy * d
        space, edge = geometry.space_at(px, py), geometry.edge_distance(px, py)
        # Clear of the outlines the reader doubts at: a centre 6 mm in on another space, a base wholly off.
        if (space is not None and space != own and edge >= 6.0) or (space is None and edge >= 14.0):
            return Miniature(px, py, base_mm=27.0, base_bgr=VIVID_TALL, figure_bgr=(90, 160, 90), figure_height_mm=45.0,
                             figure_width_mm=18.0)
    return None


def jobs(kind: str = "all") -> list[tuple]:
    """Every scene of the sweep: (kind, label, pose, miniatures)."""
    geometry = load_geometry(LAYOUT)
    out = []
    for el, az, space, corner, base in itertools.product(ELEVATIONS, AZIMUTHS, sorted(geometry.spaces), CORNERS, BASES):
        if base == "vivid" and not corner.endswith("left"):
            continue
        pose = pose_for(el, az)
        sx, sy = geometry.spaces[space]
        dx, dy = CORNERS[corner]
        small = small_fighter(sx + dx, sy + dy, BASES[base])
        side = corner.split("-")[0]
        if kind in ("behind", "all"):
            tall = taller_in_front(geometry, pose, small.x_mm, small.y_mm)
            if tall is not None:
                out.append((f"behind-{side}", (el, az, space, corner, base), pose, (small, tall)))
        if kind in ("alone", "all") and base == "space":
            out.append((f"alone-{side}", (el, az, space, corner, base), pose, (small,)))
    return out


def build(job) -> tuple[Scene, Scene, tuple]:
    """(live scene, reference scene, truth) of a job."""
    _, _, pose, minis = job
    geometry = load_geometry(LAYOUT)
    live = Scene(pose=pose, miniatures=tuple(minis), lighting=Lighting(noise=2.0), board_bgr=BOARD, space_bgr=SPACE,
                 seed=1, board_seed=7)
    reference = Scene(pose=pose, lighting=Lighting(noise=2.0), board_bgr=BOARD, space_bgr=SPACE, seed=99, board_seed=7)
    truth = tuple(sorted({geometry.space_at(m.x_mm, m.y_mm) for m in minis} - {None}))
    return live, reference, truth


def read_one(job, with_count: bool = False):
    geometry = load_geometry(LAYOUT)
    live, reference, truth = build(job)
    reading = read_arena(render_scene(live, geometry), render_scene(reference, geometry), geometry, annotate=False,
                         fighters=len(live.miniatures) if with_count else None)
    return reading, truth


def run_one(job, with_count: bool = False):
    reading, truth = read_one(job, with_count)
    verdict = ("right" if reading.occupied == truth else "WRONG") if reading.ok else "doubt"
    return job[0], job[1], verdict, truth, reading.occupied, reading.error


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kind", default="all", choices=("behind", "alone", "all"))
    parser.add_argument("--with-count", action="store_true", help="tell the reader how many fighters stand there")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("-v", "--verbose", action="store_true", help="list every scene read WRONG")
    parser.add_argument("--doubts", action="store_true", help="with -v, list the doubts too")
    args = parser.parse_args()
    work = jobs(args.kind)
    run = functools.partial(run_one, with_count=args.with_count)
    if args.jobs > 1:
        with ProcessPoolExecutor(args.jobs) as pool:
            results = list(pool.map(run, work, chunksize=4))
    else:
        results = [run(job) for job in work]
    by_kind = collections.defaultdict(collections.Counter)
    by_base = collections.defaultdict(collections.Counter)
    by_elevation = collections.defaultdict(collections.Counter)
    for kind, label, verdict, truth, occupied, error in results:
        by_kind[kind][verdict] += 1
        by_base[(kind, label[4])][verdict] += 1
        by_elevation[label[0]][verdict] += 1
        if args.verbose and (verdict == "WRONG" or (args.doubts and verdict == "doubt")):
            print(f"{verdict} {kind} {label}: truth={truth} read={occupied} {error or ''}")
    print("read with the fighter count" if args.with_count else "read without the fighter count")
    print(f"{'kind':14s} {'base':6s} {'scenes':>6s} {'ok right':>9s} {'ok WRONG':>9s} {'doubt':>6s}")
    for kind in sorted(by_kind):
        for (k, base), c in sorted(by_base.items()):
            if k == kind:
                print(f"{kind:14s} {base:6s} {sum(c.values()):6d} {c['right']:9d} {c['WRONG']:9d} {c['doubt']:6d}")
        c = by_kind[kind]
        print(f"{kind:14s} {'all':6s} {sum(c.values()):6d} {c['right']:9d} {c['WRONG']:9d} {c['doubt']:6d}")
    for el, c in sorted(by_elevation.items()):
        print(f"{'elevation ' + str(el):14s} {'all':6s} {sum(c.values()):6d} {c['right']:9d} {c['WRONG']:9d} {c['doubt']:6d}")
    total = collections.Counter()
    for c in by_kind.values():
        total.update(c)
    print(f"{'total':14s} {'':6s} {sum(total.values()):6d} {total['right']:9d} {total['WRONG']:9d} {total['doubt']:6d}")
    return 1 if total["WRONG"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
