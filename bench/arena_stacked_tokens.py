"""Arena reader on purpose-built scenes of tokens lying one on another: never a fighter with ok:true.

Run: python bench/arena_stacked_tokens.py [--set stacked|front|resting|resting-wide|resting-behind|gap-behind|
gap-behind-board|overlap-behind-board|overlap-behind-board-resting|fighters|beside|hand-corner|all]
[--with-count] [--jobs J] [-v]
Read without the fighter count (the offline reader's case), or with ``--with-count`` told how many
fighters the scene holds (the live service's case in a match): every fighter built into it,
including one standing off every space (it is on the arena, though on no space: the
``resting-behind`` and ``front`` sets' fighter counts as 1, the token-only sets are read with 0).
Each scene is counted as ``ok`` right, ``ok`` WRONG (must be 0) or a doubt:

- ``stacked``: two vivid tokens, 22 and 21 mm, the upper dropped 4 mm off the lower's centre
  (``Token(z_mm=3)``), from 55 to 80 degrees up, 3 sides, 4 places, 8 offset directions (480).
- ``front``: two overlapping tokens (19 and 21.6 mm, 5 mm apart) on S6 with a fighter standing
  behind them, 40-45 degrees up, at several offsets (36).
- ``resting``: a vivid 20 mm token resting (``Token(z_mm=3)``) 3, 5 or 7 mm off the centre of a
  22 mm token close to the spaces' colour, on S6, from 55 to 80 degrees up, 3 sides, 8 offset
  directions (360): the lower token's edge is a faint ring round the upper one, and the upper one,
  off centre, reaches past the lower one's far rim as a figure's top would.
- ``resting-wide``: as ``resting``, a vivid 15 or 22 mm token resting 9 or 11 mm off the centre (up
  to the lower token's radius, as far as a token can lie flat on it) (480): the pairs fitted
  base-sized from high above, whose lower token's rim is a faint ring on part of their front arc.
- ``resting-behind``: as ``resting-wide`` with a 22 mm upper token, 5 or 11 mm off, the pair on the
  back of S6 (y 8 mm) and a fighter (base 27 mm, vivid or the spaces' colour) standing off the row
  right behind it, its base 0.5 mm from the pair (480): the pair's disc stands up by that
  fighter's figure, and its lower token's faint ring is round it, as a base's faint ring is round a
  figure's foot (the thirtieth pass's premise: no fighter on S6 may be read).
- ``gap-behind``: as ``resting-behind``, the fighter's base (27 mm, vivid) 3, 4.5 or 6 mm behind the pair,
  the lower token faint or vivid (30, 150, 220), from 61 to 80 degrees up, 20 degrees to either side, the
  upper token 5 or 11 mm off towards 0-180 degrees (480): seen from so high that a figure stays over its
  base, a pair fitted base-sized with a fighter a few mm behind it looks like two fighters one right behind
  the other (the fifty-ninth pass).
- ``gap-behind-board``: as ``gap-behind``, the fighter's base the board's colour, the spaces' or a shade off
  the board's (1440): a fighter hard to see behind a pair fitted base-sized, which, with the count, is the
  one fighter the reader may take the pair for (the ninety-fourth and ninety-fifth passes).
- ``overlap-behind-board``: two tokens (21.6 and 19.2 mm) overlapping on the board on S6, 5 or 8 mm apart towards one
  of six directions, a fighter (base 27 mm the board's colour, the spaces' or a shade off the board's, a 36 mm figure)
  standing 0.5 mm behind them on the line away from the camera, off the row, from 35 to 80 degrees up and up to 25
  degrees to either side (1260): with no gap, the fighter's figure joins the pair's change and lends it a figure
  (the eighty-seventh and ninety-seventh passes' family).
- ``overlap-behind-board-resting``: the same scenes drawn as a real pair lies (1260): the 19.2 mm token resting on
  the 21.6 mm one (its underside 3.1 mm up, the lower one's thickness), not overlapping it flat. Its centre, 5 or
  8 mm off, is over the lower token's top (10.8 mm radius), so it lies level on it, raised, its overhang in the air
  (the hundred-and-fifth pass).
- ``fighters``: a real fighter (base 26.5 mm, vivid or the spaces' colour) on each place and
  pose of ``stacked``: how many are still read (right), as a cost check.
- ``beside``: a fighter on S6 (base 26.5 mm the spaces' colour or a shade off the board's, a 35 mm
  figure) seen from 67 to 80 degrees up, so high that its figure's top is a disc like a token, with a
  vivid 15 or 22 mm token lying against its base (0.5 mm apart) towards the camera or up to 90 degrees
  to either side of that (180): the token's change joins the base's, on the base's front arc, where
  the front-rim check looks for that base (the sixty-eighth pass: S6 must never be read away).
- ``hand-corner``: a hand over marker 10, 11, 12 or 13 (the marker hidden) and a fighter by it at the row's end:
  on the end space's corner towards the marker, its outer edge's middle, its middle, its edge towards the
  marker's side, the next space's corner, or off the row beyond the corner; small (25 mm base, a 26 mm figure
  8 mm wide) or larger (28 mm base, 35 mm figure), its base the spaces', the board's or a vivid colour; 35, 55
  and 80 degrees up, 3 sides (1296), and the same hands with no fighter, two hand draws (72): a fighter whose
  change runs into the hand's must not be read away (the hundredth and hundred-and-fourth passes). Not in ``all``:
  3305f32 reads 2 of every third scene away (S9's back corner under marker 11's hand), found, not fixed.
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
from vision.synth.arena_scene import CameraPose, Lighting, Miniature, Scene, Token, render_scene  # noqa: E402

LAYOUT = Path(__file__).resolve().parents[1] / "assistant" / "boxes" / "data" / "arenas" / "line-9.toml"
BOARD, SPACE = (150, 170, 185), (120, 140, 160)
ELEVATIONS = (55, 61, 67, 74, 80)
AZIMUTHS = (-20, 0, 20)
PLACES = {-80: ("S3",), -40: ("S4",), 40: ("S6",), 80: ("S7",)}
DIRECTIONS = tuple(range(0, 360, 45))
#: Close to the spaces' colour (SPACE), a shade lighter.
FAINT_TOKEN = (128, 150, 168)
#: The ``beside`` set's other base colour: a shade off the board's (BOARD).
FAINT_BASE = (142, 162, 178)
#: The ``gap-behind`` set's other lower token: as vivid as the upper one.
VIVID_TOKEN = (30, 150, 220)
#: The ``gap-behind-board`` set's fighter bases: the board's colour, the spaces', a shade off the board's.
DULL_BASES = {"board": BOARD, "space": SPACE, "near-board": FAINT_BASE}
#: The sets whose poses each hold every one of DULL_BASES (``--every`` counts their poses).
DULL_SETS = ("gap-behind-board", "overlap-behind-board", "overlap-behind-board-resting")


def _scene(pose: CameraPose, minis=(), tokens=(), seed: int = 1, hidden=()) -> Scene:
    return Scene(pose=pose, miniatures=tuple(minis), tokens=tuple(tokens), hidden_markers=tuple(hidden),
                 lighting=Lighting(noise=2.0), board_bgr=BOARD, space_bgr=SPACE, seed=seed, board_seed=7)


def stacked_pair(x: float, angle_deg: float) -> tuple[Token, Token]:
    """Two vivid tokens, 22 mm and 21 mm, the upper dropped 4 mm off the lower's centre."""
    dx, dy = 4 * math.cos(math.radians(angle_deg)), 4 * math.sin(math.radians(angle_deg))
    return Token(x, 0.0, 22.0, 3.0, (30, 150, 220)), Token(x + dx, dy, 21.0, 3.0, (200, 40, 180), z_mm=3.0)


def _gap_behind(colours: dict) -> list[tuple]:
    """The ``gap-behind`` scenes, the fighter behind on a base of each of ``colours`` (name: BGR)."""
    out = []
    for el, az, offset, angle, gap, lower, name in itertools.product(
            (61, 67, 74, 80), (-20, 20), (5.0, 11.0), (0, 45, 90, 135, 180), (3.0, 4.5, 6.0), (FAINT_TOKEN, VIVID_TOKEN),
            colours):
        dx, dy = offset * math.cos(math.radians(angle)), offset * math.sin(math.radians(angle))
        pair = (Token(40.0, 8.0, 22.0, 3.0, lower), Token(40.0 + dx, 8.0 + dy, 22.0, 3.0, (200, 40, 180), z_mm=3.0))
        # Its base ``gap`` mm behind whichever token reaches further back.
        behind = Miniature(40.0, 8.0 + max(0.0, dy) + 11.0 + 13.5 + gap, base_mm=27.0, base_bgr=colours[name],
                           figure_bgr=(90, 160, 90), figure_height_mm=35.0)
        out.append(("gap-behind-board", (el, az, offset, angle, gap, lower == FAINT_TOKEN, name),
                    CameraPose(distance_mm=450, elevation_deg=el, azimuth_deg=az), (behind,), pair, ()))
    return out


def _overlap_behind(pose: CameraPose, offset: float, angle: float, base_bgr, resting: bool = False) -> tuple:
    """Two tokens overlapping on S6 ``offset`` mm apart towards ``angle``, a fighter on ``base_bgr`` 0.5 mm behind
    them on the line away from the camera (the eighty-second pass's ``_stacked_pair_before_a_fighter``). ``resting``:
    the second token lies on the first (as on a real table), else both flat on the board."""
    ground = pose.distance_mm * math.cos(math.radians(pose.elevation_deg))
    cx, cy = ground * math.sin(math.radians(pose.azimuth_deg)), -ground * math.cos(math.radians(pose.azimuth_deg))
    x, y = 40.2, 2.0
    dx, dy = offset * math.cos(math.radians(angle)), offset * math.sin(math.radians(angle))
    pair = (Token(x, y, 21.6, 3.1, (85, 170, 126)), Token(x + dx, y + dy, 19.2, 2.9, (175, 223, 75), z_mm=3.1 if resting else 0.0))
    away = math.atan2(y - cy, x - cx)
    ux, uy = math.cos(away), math.sin(away)
    reach = max((t.x_mm - x) * ux + (t.y_mm - y) * uy + t.diameter_mm / 2 for t in pair)
    behind = Miniature(x + (reach + 14.0) * ux, y + (reach + 14.0) * uy, base_mm=27.0, base_bgr=base_bgr,
                       figure_bgr=(174, 168, 233), figure_height_mm=36.0)
    return (behind,), pair


def _overlap_jobs(kind: str) -> list[tuple]:
    """The ``overlap-behind-board`` scenes, or with ``-resting`` the same with the second token resting on the first."""
    out = []
    for el, az, offset, angle, name in itertools.product((35, 40, 48, 56, 64, 72, 80), (-25, -15, 0, 15, 25),
                                                         (5.0, 8.0), (0, 45, 135, 180, 225, 315), DULL_BASES):
        pose = CameraPose(distance_mm=480, elevation_deg=el, azimuth_deg=az)
        out.append((kind, (el, az, offset, angle, name), pose,
                    *_overlap_behind(pose, offset, angle, DULL_BASES[name], kind.endswith("-resting")),
                    None))  # truth: where the fighter stands
    return out


#: ``hand-corner``: each covered marker's end space and its sides (x towards the board's end, y towards the marker).
HAND_CORNERS = {10: ("S1", "S2", -1, 1), 11: ("S9", "S8", 1, 1), 12: ("S9", "S8", 1, -1), 13: ("S1", "S2", -1, -1)}
HAND_BASES = {"space": SPACE, "board": BOARD, "vivid": (40, 40, 160)}


def _hand_corner() -> list[tuple]:
    """The ``hand-corner`` scenes: (kind, label, pose, minis, tokens, truth, hidden markers, seed)."""
    geometry = load_geometry(LAYOUT)
    out = []
    for el, az, marker in itertools.product((35, 55, 80), (-25, 0, 25), HAND_CORNERS):
        pose = CameraPose(distance_mm=550 if el >= 80 else 450, elevation_deg=el, azimuth_deg=az)
        end, next_, sx, sy = HAND_CORNERS[marker]
        places = {"corner": (end, 15 * sx, 15 * sy), "edge": (end, 15 * sx, 0), "middle": (end, 0, 0),
                  "side": (end, 0, 15 * sy), "next-corner": (next_, 15 * sx, 15 * sy),
                  "off-row": (end, 5 * sx, 30 * sy)}
        for place, size, base in itertools.product(places, ("small", "large"), HAND_BASES):
            space, dx, dy = places[place]
            x, y = geometry.spaces[space][0] + dx, geometry.spaces[space][1] + dy
            fighter = (Miniature(x, y, base_mm=25.0, base_bgr=HAND_BASES[base], figure_bgr=(160, 90, 90),
                                 figure_height_mm=26.0, figure_width_mm=8.0) if size == "small" else
                       Miniature(x, y, base_mm=28.0, base_bgr=HAND_BASES[base], figure_bgr=(90, 160, 90),
                                 figure_height_mm=35.0))
            out.append(("hand-corner", (el, az, marker, place, size, base), pose, (fighter,), (), None, (marker,), 1))
        for seed in (1, 2):
            out.append(("hand-alone", (el, az, marker, seed), pose, (), (), (), (marker,), seed))
    return out


def jobs(which: str) -> list[tuple]:
    out = []
    if which in ("stacked", "all"):
        for el, az, x, angle in itertools.product(ELEVATIONS, AZIMUTHS, PLACES, DIRECTIONS):
            out.append(("stacked", (el, az, x, angle), CameraPose(distance_mm=450, elevation_deg=el, azimuth_deg=az),
                        (), stacked_pair(x, angle), ()))
    if which in ("front", "all"):
        pair = (Token(45.0, 3.7, 19.2, 2.9, (175, 223, 75)), Token(40.2, 2.6, 21.6, 3.1, (85, 170, 126)))
        for el, az, by, dx in itertools.product((40, 45), (-8, 0, 8), (30, 34), (12, 16, 20)):
            behind = Miniature(40 + dx, by, base_mm=27.2, base_bgr=(66, 158, 226), figure_bgr=(174, 168, 233),
                               figure_height_mm=33.0)
            out.append(("front", (el, az, by, dx), CameraPose(distance_mm=520, elevation_deg=el, azimuth_deg=az),
                        (behind,), pair, None))  # truth: whatever the fighter behind stands on
    if which in ("resting", "all"):
        for el, az, offset, angle in itertools.product(ELEVATIONS, AZIMUTHS, (3.0, 5.0, 7.0), DIRECTIONS):
            dx, dy = offset * math.cos(math.radians(angle)), offset * math.sin(math.radians(angle))
            pair = (Token(40.0, 0.0, 22.0, 3.0, FAINT_TOKEN), Token(40.0 + dx, dy, 20.0, 3.0, (200, 40, 180), z_mm=3.0))
            out.append(("resting", (el, az, offset, angle), CameraPose(distance_mm=450, elevation_deg=el, azimuth_deg=az),
                        (), pair, ()))
    if which in ("resting-wide", "all"):
        for el, az, offset, upper, angle in itertools.product(ELEVATIONS, AZIMUTHS, (9.0, 11.0), (15.0, 22.0), DIRECTIONS):
            dx, dy = offset * math.cos(math.radians(angle)), offset * math.sin(math.radians(angle))
            pair = (Token(40.0, 0.0, 22.0, 3.0, FAINT_TOKEN), Token(40.0 + dx, dy, upper, 3.0, (200, 40, 180), z_mm=3.0))
            out.append(("resting-wide", (el, az, offset, upper, angle),
                        CameraPose(distance_mm=450, elevation_deg=el, azimuth_deg=az), (), pair, ()))
    if which in ("resting-behind", "all"):
        for el, az, offset, angle, base in itertools.product(ELEVATIONS, AZIMUTHS, (5.0, 11.0), DIRECTIONS,
                                                             ((66, 158, 226), SPACE)):
            dx, dy = offset * math.cos(math.radians(angle)), offset * math.sin(math.radians(angle))
            pair = (Token(40.0, 8.0, 22.0, 3.0, FAINT_TOKEN), Token(40.0 + dx, 8.0 + dy, 22.0, 3.0, (200, 40, 180), z_mm=3.0))
            # Its base 0.5 mm behind whichever token reaches further back.
            behind = Miniature(40.0, 8.0 + max(0.0, dy) + 11.0 + 13.5 + 0.5, base_mm=27.0, base_bgr=base, figure_bgr=(90, 160, 90),
                               figure_height_mm=35.0)
            out.append(("resting-behind", (el, az, offset, angle, base == SPACE),
                        CameraPose(distance_mm=450, elevation_deg=el, azimuth_deg=az), (behind,), pair, ()))
    if which in ("gap-behind", "all"):
        out += [("gap-behind", label[:-1], *rest) for _, label, *rest in _gap_behind({"vivid": (66, 158, 226)})]
    if which in ("gap-behind-board", "all"):
        out += _gap_behind(DULL_BASES)
    if which in ("overlap-behind-board", "all"):
        out += _overlap_jobs("overlap-behind-board")
    if which in ("beside", "all"):
        for el, az, size, turn, base in itertools.product((67, 74, 80), AZIMUTHS, (15.0, 22.0), (-90, -45, 0, 45, 90),
                                                          (SPACE, FAINT_BASE)):
            pose = CameraPose(distance_mm=450, elevation_deg=el, azimuth_deg=az)
            fighter = Miniature(40.0, 2.0, base_mm=26.5, base_bgr=base, figure_bgr=(90, 160, 90), figure_height_mm=35.0)
            ground = pose.distance_mm * math.cos(math.radians(el))
            cx, cy = ground * math.sin(math.radians(az)), -ground * math.cos(math.radians(az))
            towards = math.atan2(cy - fighter.y_mm, cx - fighter.x_mm) + math.radians(turn)
            reach = 26.5 / 2 + size / 2 + 0.5
            lying = Token(40.0 + reach * math.cos(towards), 2.0 + reach * math.sin(towards), size, 3.0, (200, 40, 180))
            out.append(("beside", (el, az, size, turn, base == SPACE), pose, (fighter,), (lying,), ("S6",)))
    if which in ("fighters", "all"):
        for el, az, x, base in itertools.product(ELEVATIONS, AZIMUTHS, PLACES, ((40, 40, 160), SPACE)):
            fighter = Miniature(x, 2.0, base_mm=26.5, base_bgr=base, figure_bgr=(90, 160, 90), figure_height_mm=35.0)
            out.append(("fighters", (el, az, x, base == SPACE), CameraPose(distance_mm=450, elevation_deg=el, azimuth_deg=az),
                        (fighter,), (), PLACES[x]))
    if which in ("overlap-behind-board-resting", "all"):  # last: --every picks the other sets' scenes as before
        out += _overlap_jobs("overlap-behind-board-resting")
    if which == "hand-corner":  # (not in "all": it holds wrong readings found, not fixed)
        out += _hand_corner()
    return out


def run_one(job, with_count: bool = False):
    kind, label, pose, minis, tokens, truth, *hand = job
    hidden, seed = hand or ((), 1)
    geometry = load_geometry(LAYOUT)
    if truth is None:
        truth = tuple(sorted({geometry.space_at(m.x_mm, m.y_mm) for m in minis} - {None}))
    reading = read_arena(render_scene(_scene(pose, minis, tokens, seed, hidden), geometry),
                         render_scene(_scene(pose, seed=99), geometry),
                         geometry, annotate=False, fighters=len(minis) if with_count else None)
    verdict = ("right" if reading.occupied == truth else "WRONG") if reading.ok else "doubt"
    return kind, label, verdict, truth, reading.occupied, reading.error


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", default="all", choices=("stacked", "front", "resting", "resting-wide", "resting-behind", "gap-behind",
                                                         "gap-behind-board", "overlap-behind-board",
                                                         "overlap-behind-board-resting", "fighters",
                                                         "beside", "hand-corner", "all"))
    parser.add_argument("--with-count", action="store_true",
                        help="tell the reader how many fighters the scene holds, those off every space included")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--every", type=int, default=1,
                        help="read every Nth scene only (of gap-behind-board and the overlap-behind-board sets: "
                             "every Nth pose, all its base colours)")
    parser.add_argument("-v", "--verbose", action="store_true", help="list every scene read WRONG")
    parser.add_argument("--all-verdicts", action="store_true", help="list every scene's verdict and reading")
    args = parser.parse_args()
    chosen = [job for i, job in enumerate(jobs(args.set))
              if (i // len(DULL_BASES) if job[0] in DULL_SETS else i) % args.every == 0]
    with ProcessPoolExecutor(args.jobs) as pool:
        results = list(pool.map(functools.partial(run_one, with_count=args.with_count), chosen, chunksize=4))
    counts = collections.defaultdict(collections.Counter)
    for kind, label, verdict, truth, occupied, error in results:
        counts[kind][verdict] += 1
        if args.all_verdicts:
            print(f"{kind} {label}: {verdict} truth={truth} read={occupied} -- {error}")
        elif args.verbose and verdict == "WRONG":
            print(f"{kind} {label}: truth={truth} read={occupied}")
    print("read with the fighter count" if args.with_count else "read without the fighter count")
    print(f"{'set':10s} {'scenes':>6s} {'ok right':>9s} {'ok WRONG':>9s} {'doubt':>6s}")
    for kind, c in counts.items():
        print(f"{kind:10s} {sum(c.values()):6d} {c['right']:9d} {c['WRONG']:9d} {c['doubt']:6d}")
    return 1 if any(c["WRONG"] for c in counts.values()) else 0


if __name__ == "__main__":
    raise SystemExit(main())
