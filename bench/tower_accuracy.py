"""Tower judge accuracy on random synthetic scenes (not a test: a measurement).

    python bench/tower_accuracy.py [--first SEED] [--scenes N] [--jobs J] [--kinds K,K] [--causes]
                                   [--solid-touch] [--arm-turn DEG] [--four-cubes] [--hunt mats|light|clutter|all|paper]

Each scene draws its own camera (pose, lens centre), mat print, table, room light (colour,
direction, fall-off), box and cube wood colours, dim room, nudge, exposure drift, off-spot tower,
clutter (also right beside the markers and behind the spot), the fighter's cubes beside the mat
at the start, noise and cube counts.  Prints, per kind, how often the judge said pass / fail /
uncertain with the share correct among decided verdicts and the uncertain share, then the
quality figures of the issue: correct among decided verdicts, wrong fails on legal towers, and
the uncertain share.

The headline mix is the kinds that stand on a real table (``STANDING_KINDS``: the unseen test
scenes are physics-simulated); the kinds that mostly could not stand (``lean``, ``fork``,
``y_fork``) are still run and shown as their own rows, with the figures over all kinds beside.
The "stands" column is the share of each kind's scenes whose structure passes the generator's
centre-of-mass check.  ``--causes`` lists every wrong or uncertain scene with what the judge measured.
``--solid-touch``, ``--arm-turn`` and ``--four-cubes`` build the rings' opt-in variants (arms meeting as
solid cubes, arms turned further, one pair of arms): built sets, not the headline.
``--hunt FAMILY`` is the hunt past the generator's own looks (``hunt_look``, ``_hunt_clutter``): each
seed's scene on a table the generator never draws -- "mats" (cream, recycled grey or coloured paper,
a glossy highlight, a laminated sheen, dark-grey ink), "light" (one hard lamp low to the side, two
lamps, a dim room the camera's gain brings up), "clutter" (supply cubes, a card, a die, a
miniature close to the tower), "all" (one of each at once) or, past the spec, "paper" (a strongly
coloured sheet: no white quiet zone); ``--causes`` then names each wrong scene's look.
"""

from __future__ import annotations

import argparse
import collections
import multiprocessing
import pathlib
import sys

import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from vision.synth.tower_scene import EXPECTED, STANDING_KINDS, make_tower_scene  # noqa: E402
from vision.tower import judge_tower  # noqa: E402


def random_scene(kind: str, seed: int, *, four_cubes: bool = False, **overrides):
    """One random scene of ``kind``; ``overrides`` replace scene options after every draw (e.g. a
    very noisy dim room), so the rest of the scene stays the one the seed gives.  ``four_cubes``
    keeps the drawn heavy count (up to four) and makes up four cubes with light ones (a ring of one
    pair of arms)."""
    rng = np.random.default_rng(seed + 1000)
    options = dict(
        dim=bool(rng.random() < 0.3), nudge_px=float(rng.uniform(0, 4)), exposure_drift=float(rng.uniform(0, 0.2)),
        off_spot_mm=float(rng.uniform(0, 12)), distractors=int(rng.integers(0, 10)), noise=float(rng.uniform(1, 6)),
    )
    heavy = int(rng.integers(1 if kind == "wrong_colour" else 0, 5))
    light = int(rng.integers(0, 6))
    light += max(0, 4 - heavy - light)
    if four_cubes:
        heavy = min(heavy, 4)
        light = 4 - heavy
    frames = int(rng.integers(2, 7))
    # Shapes built from a set number of cubes (drawn after the rest, so older kinds keep their scenes).
    if kind in ("ring", "touching_ring") and (heavy + light) % 2:
        light += 1
    if kind == "top_pair":
        heavy = int(rng.integers(0, 4))
        light = 3 - heavy
    # The fighter's cubes beside the mat at the start, clutter right beside the markers or behind the spot.
    options.update(pile=bool(rng.random() < 0.3), near=float(rng.uniform(0, 0.6)))
    options.update(overrides)
    return make_tower_scene(kind, seed=seed, heavy=heavy, light=light, frames=frames, **options)


def add_ring_variant_arguments(parser: argparse.ArgumentParser) -> None:
    """The rings' opt-in variants (built sets, not the headline); ``ring_variant`` reads them back."""
    parser.add_argument("--solid-touch", action="store_true",
                        help="touching rings' arms meet as solid cubes do (the generator's may overlap)")
    parser.add_argument("--arm-turn", type=float, help="ring arms turned up to this many degrees (default 12)")
    parser.add_argument("--four-cubes", action="store_true", help="four cubes per scene (a ring of one pair)")


def ring_variant(args: argparse.Namespace) -> dict:
    """The options ``random_scene`` takes for the variants asked for (none: every seed's own scene)."""
    variant = {k: True for k in ("solid_touch", "four_cubes") if getattr(args, k)}
    if args.arm_turn is not None:
        variant["arm_turn"] = args.arm_turn
    return variant


def judge_one(job: tuple[str, int, dict]) -> dict:
    kind, seed, variant = job
    scene = random_scene(kind, seed, **variant)
    v = judge_tower(scene.frames, heavy=scene.heavy, light=scene.light)
    return dict(kind=kind, seed=seed, verdict=v.verdict.value, standing=scene.standing,
                reasons=",".join(r.value for r in v.reasons), confidence=v.confidence,
                seen=f"{v.heavy_seen}h{v.light_seen}l", want=f"{scene.heavy}h{scene.light}l",
                ground=v.ground_contacts, hunt=scene.hunt)


def _headline(name: str, table: dict[str, collections.Counter], kinds) -> None:
    total = sum(sum(table[k].values()) for k in kinds)
    decided = sum(table[k]["pass"] + table[k]["fail"] for k in kinds)
    correct = sum(table[k][EXPECTED[k]] for k in kinds)
    legal = [k for k in kinds if EXPECTED[k] == "pass"]
    legal_total = sum(sum(table[k].values()) for k in legal)
    wrong_fail = sum(table[k]["fail"] for k in legal)
    print(f"{name}: correct among decided {correct}/{decided} = {correct / max(decided, 1):.1%}; "
          f"wrong fail on legal towers {wrong_fail}/{legal_total} = {wrong_fail / max(legal_total, 1):.1%}; "
          f"uncertain {total - decided}/{total} = {(total - decided) / max(total, 1):.1%}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--first", type=int, default=0)
    parser.add_argument("--scenes", type=int, default=10, help="scenes per kind")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--kinds", default=",".join(EXPECTED),
                        help="comma-separated kinds to run (default: all; the headline mix is the standing kinds)")
    parser.add_argument("--causes", action="store_true", help="list every wrong or uncertain scene and what the judge saw")
    add_ring_variant_arguments(parser)
    # (Imported here: tower_same_verdicts runs this file's scenes with older checkouts' generators.)
    from vision.synth.tower_scene import HUNTS

    parser.add_argument("--hunt", choices=HUNTS, help="each scene on a table past the generator's own looks")
    args = parser.parse_args()
    variant = ring_variant(args) | ({"hunt": args.hunt} if args.hunt else {})
    kinds = [k.strip() for k in args.kinds.split(",") if k.strip()]
    unknown = [k for k in kinds if k not in EXPECTED]
    if unknown:
        parser.error(f"unknown kind(s) {unknown!r} (known: {', '.join(EXPECTED)})")
    jobs = [(kind, seed, variant) for kind in kinds for seed in range(args.first, args.first + args.scenes)]
    if args.jobs > 1:
        with multiprocessing.Pool(args.jobs) as pool:
            results = pool.map(judge_one, jobs, chunksize=4)
    else:
        results = [judge_one(job) for job in jobs]
    table: dict[str, collections.Counter] = {kind: collections.Counter() for kind in kinds}
    standing: collections.Counter = collections.Counter()
    for r in results:
        table[r["kind"]][r["verdict"]] += 1
        standing[r["kind"]] += r["standing"]
    mix = [k for k in kinds if k in STANDING_KINDS]
    others = [k for k in kinds if k not in STANDING_KINDS]
    print(f"{'kind':14} {'expected':9} {'pass':>5} {'fail':>5} {'uncertain':>10} {'correct/decided':>16} "
          f"{'uncertain':>10} {'stands':>7}")
    for group in (mix, others):
        if group is others and others:
            print("-- not in the standing mix (their structures mostly could not stand on a real table):")
        for kind in group:
            counts = table[kind]
            decided = counts["pass"] + counts["fail"]
            n = sum(counts.values())
            print(f"{kind:14} {EXPECTED[kind]:9} {counts['pass']:5} {counts['fail']:5} {counts['uncertain']:10} "
                  f"{counts[EXPECTED[kind]] / max(decided, 1):16.1%} {counts['uncertain'] / n:10.1%} "
                  f"{standing[kind] / n:7.0%}")
    if mix:
        _headline("standing mix", table, mix)
    if others:
        _headline("all kinds", table, kinds)
    if args.causes:
        print("wrong and uncertain scenes (kind seed: verdict, reasons, confidence, cubes seen / wanted, ground contacts):")
        for r in sorted(results, key=lambda r: (r["verdict"] == "uncertain", r["reasons"], r["confidence"], r["kind"])):
            if r["verdict"] != EXPECTED[r["kind"]]:
                print(f"  {r['kind']:13} {r['seed']:6}: {r['verdict']:9} {r['reasons'] or '-':24} {r['confidence']:.2f} "
                      f"{r['seen']:>6}/{r['want']:6} ground {r['ground']}" + (f"  {r['hunt']}" if r["hunt"] else ""))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
