"""Whether two checkouts of the tower judge give the same verdicts (and the same per-frame output).

    python bench/tower_same_verdicts.py --against DIR|REF [--first SEED] [--scenes N] [--noisy M] [--jobs J]
    python bench/tower_same_verdicts.py --record OUT.json [--code DIR] [...]   # one checkout only
    python bench/tower_same_verdicts.py --compare A.json B.json

For every kind, N random scenes from ``bench/tower_accuracy.py`` (seeds SEED..SEED+N-1: the room,
camera, clutter, noise and counts the seed draws) and M more of the same seeds turned into very
noisy dim rooms (dim, noise 8: the judge's 7 x 7 average and unclipping).  Each scene is judged
with ``judge_tower`` by the ``vision`` package of a checkout (``--code``; ``--against`` takes another
source tree, or a git ref it exports with ``git archive``, and runs both it and this checkout), and
the record keeps, per scene: the verdict JSON (verdict, reasons, cubes_seen, ground_contacts, confidence at full precision),
the heavy and light cubes seen, a digest of the evidence image, and a digest of every
``TowerAnalyzer.observe`` output during the call (every mask, the raw and normalised views, the
white level: the per-frame step bit for bit).  A digest of the rendered frames shows both
checkouts judged the same input.  The comparison prints every scene that differs.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import multiprocessing
import pathlib
import sys
import tempfile

from checkouts import export  # this script's folder is on the path

HERE = pathlib.Path(__file__).resolve()
# The very noisy dim room the extra scenes are turned into.
NOISY_ROOM = {"dim": True, "noise": 8.0}


def _digest(*parts) -> str:
    h = hashlib.sha1()
    for part in parts:
        if hasattr(part, "tobytes"):
            h.update(str((part.dtype, part.shape)).encode())
            h.update(part.tobytes())
        else:
            h.update(repr(part).encode())
    return h.hexdigest()[:16]


def _judge_one(job: tuple[str, int, bool]) -> dict:
    from tower_accuracy import random_scene

    from vision.tower import judge_tower
    from vision.tower.judge import TowerAnalyzer

    kind, seed, noisy = job
    scene = random_scene(kind, seed, **(NOISY_ROOM if noisy else {}))
    observed: list[str] = []
    observe = TowerAnalyzer.observe

    def recording_observe(self, frame, **kwargs):
        obs = observe(self, frame, **kwargs)
        v = obs.view
        observed.append(_digest(obs.changed, obs.light, obs.heavy, obs.hand, obs.hand_from_front,
                                obs.hand_at_frame_edge, obs.raw, obs.white, obs.colour, v.y_mm, v.x_range, v.z_range))
        return obs

    TowerAnalyzer.observe = recording_observe
    try:
        verdict = judge_tower(scene.frames, heavy=scene.heavy, light=scene.light)
    finally:
        TowerAnalyzer.observe = observe
    record = verdict.to_json()
    del record["elapsed_ms"]
    record.update(kind=kind, seed=seed, room="very noisy dim" if noisy else "random",
                  confidence=repr(float(verdict.confidence)), heavy_seen=verdict.heavy_seen,
                  light_seen=verdict.light_seen, frames=_digest(*scene.frames),
                  annotated=_digest(verdict.annotated), observe=_digest(*observed), observe_calls=len(observed))
    return record


def _init_worker(code: str) -> None:
    sys.path.insert(0, code)
    # Import the checkout's vision first: tower_accuracy puts this checkout on the path when imported.
    import vision.tower

    if not pathlib.Path(vision.tower.__file__).resolve().is_relative_to(pathlib.Path(code).resolve()):
        raise RuntimeError(f"vision came from {vision.tower.__file__}, not from {code}")
    sys.path.insert(0, str(HERE.parent))


def record(code: pathlib.Path, out: pathlib.Path, kinds, first: int, scenes: int, noisy: int, jobs: int) -> None:
    work = [(kind, seed, False) for kind in kinds for seed in range(first, first + scenes)]
    work += [(kind, seed, True) for kind in kinds for seed in range(first, first + noisy)]
    with multiprocessing.get_context("spawn").Pool(jobs, _init_worker, (str(code),)) as pool:
        records = pool.map(_judge_one, work, chunksize=4)
    out.write_text(json.dumps({"code": str(code), "records": records}, indent=0))
    print(f"{len(records)} scenes judged with {code} -> {out}")


def compare(a_path: pathlib.Path, b_path: pathlib.Path) -> int:
    a, b = (json.loads(p.read_text()) for p in (a_path, b_path))
    a_by = {(r["kind"], r["seed"], r["room"]): r for r in a["records"]}
    b_by = {(r["kind"], r["seed"], r["room"]): r for r in b["records"]}
    if a_by.keys() != b_by.keys():
        print(f"different scene sets: {len(a_by)} vs {len(b_by)} scenes")
        return 1
    verdict_fields = ("verdict", "reasons", "cubes_seen", "ground_contacts", "confidence", "heavy_seen", "light_seen")
    differ = {"frames": 0, "verdict": 0, "annotated": 0, "observe": 0}
    for key in sorted(a_by):
        ra, rb = a_by[key], b_by[key]
        if ra["frames"] != rb["frames"]:
            differ["frames"] += 1
            print(f"  {key}: the two checkouts rendered different frames")
            continue
        changed = [f for f in verdict_fields if ra[f] != rb[f]]
        if changed:
            differ["verdict"] += 1
            print(f"  {key}: " + "; ".join(f"{f} {ra[f]!r} -> {rb[f]!r}" for f in changed))
        differ["annotated"] += ra["annotated"] != rb["annotated"]
        differ["observe"] += (ra["observe"], ra["observe_calls"]) != (rb["observe"], rb["observe_calls"])
    rooms = {}
    for r in a["records"]:
        rooms[r["room"]] = rooms.get(r["room"], 0) + 1
    verdicts = {}
    for r in a["records"]:
        verdicts[r["verdict"]] = verdicts.get(r["verdict"], 0) + 1
    print(f"{len(a_by)} scenes ({', '.join(f'{n} {room}' for room, n in rooms.items())}; "
          f"{', '.join(f'{n} {v}' for v, n in sorted(verdicts.items()))}), "
          f"{sum(r['observe_calls'] for r in a['records'])} observe calls")
    print(f"  {a['code']}\n  {b['code']}")
    print(f"different frames {differ['frames']}, different verdict JSON {differ['verdict']}, "
          f"different evidence images {differ['annotated']}, different per-frame output {differ['observe']}")
    return 1 if differ["frames"] or differ["verdict"] else 0


def main() -> int:
    from tower_accuracy import EXPECTED

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--first", type=int, default=360000)
    parser.add_argument("--scenes", type=int, default=36, help="random scenes per kind")
    parser.add_argument("--noisy", type=int, default=12, help="very noisy dim scenes per kind")
    parser.add_argument("--kinds", default=",".join(EXPECTED))
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--code", type=pathlib.Path, default=HERE.parents[1])
    parser.add_argument("--record", type=pathlib.Path, help="judge with --code only and write the records here")
    parser.add_argument("--against", help="another source tree, or a git ref: judge with it and with this checkout, and compare")
    parser.add_argument("--compare", type=pathlib.Path, nargs=2, metavar=("A", "B"))
    args = parser.parse_args()
    kinds = [k.strip() for k in args.kinds.split(",") if k.strip()]
    if args.compare:
        return compare(*args.compare)
    if args.record:
        record(args.code.resolve(), args.record, kinds, args.first, args.scenes, args.noisy, args.jobs)
        return 0
    if not args.against:
        parser.error("give --against DIR|REF, --record OUT or --compare A B")
    with tempfile.TemporaryDirectory(prefix="tower_same_") as tmp:
        other = pathlib.Path(args.against)
        base = other.resolve() if other.is_dir() else export(args.against, pathlib.Path(tmp) / "base")
        outs = []
        for code, name in ((base, "base.json"), (HERE.parents[1], "this.json")):
            out = pathlib.Path(tmp) / name
            record(code, out, kinds, args.first, args.scenes, args.noisy, args.jobs)
            outs.append(out)
        return compare(*outs)


if __name__ == "__main__":
    sys.path.insert(0, str(HERE.parent))
    raise SystemExit(main())
