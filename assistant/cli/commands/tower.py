"""``knockdown tower judge``: judge a Knockdown Test tower from recorded frames."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import cv2

from assistant.cli.commands._common import InputFileError, fail, vision_table
from vision.tower import TowerInputError, TowerSettings, TowerSettingsError, judge_tower
from vision.tower.frames import FramesError, read_frames


def register(subparsers) -> None:
    tower = subparsers.add_parser("tower", help="the Knockdown Test tower camera")
    commands = tower.add_subparsers(dest="tower_command", metavar="COMMAND")
    judge = commands.add_parser(
        "judge",
        help="judge a tower from frames (the first frame is the empty build spot)",
        description="Judge a Knockdown Test tower. FRAMES is a directory of images read in name order, "
        "or a video file; the first frame shows the empty build spot. Exits 0 for any verdict.",
    )
    judge.add_argument("frames", metavar="FRAMES", help="directory of images, or a video file")
    judge.add_argument("--heavy", type=int, required=True, help="the fighter's heavy wound cubes")
    judge.add_argument("--light", type=int, required=True, help="the fighter's light wound cubes")
    judge.add_argument("--config", metavar="FILE", help="config TOML; its [vision.tower] table sets the judge")
    judge.add_argument("--annotate", metavar="OUT.png", help="write the evidence image here")
    judge.add_argument("--json", action="store_true", help="print the verdict as one JSON object")
    judge.set_defaults(handler=_judge)
    tower.set_defaults(handler=lambda args: _usage(tower))


def _usage(parser: argparse.ArgumentParser) -> int:
    parser.print_help()
    return 2


def _judge(args: argparse.Namespace) -> int:
    if args.heavy < 0 or args.light < 0:
        return fail(f"--heavy and --light must not be negative, got {args.heavy!r} and {args.light!r}")
    if args.annotate and Path(args.annotate).suffix.lower() not in (".png", ".jpg", ".jpeg"):
        return fail(f"--annotate must name a .png or .jpg file, got {args.annotate!r}")
    try:
        settings = TowerSettings.from_mapping(vision_table(args.config, "tower"))
        frames = read_frames(args.frames)
        verdict = judge_tower(frames, heavy=args.heavy, light=args.light, settings=settings)
    except (FramesError, InputFileError, TowerInputError, TowerSettingsError) as exc:
        return fail(str(exc))
    if args.annotate:
        Path(args.annotate).parent.mkdir(parents=True, exist_ok=True)
        if not cv2.imwrite(args.annotate, verdict.annotated):
            return fail(f"cannot write the evidence image {args.annotate!r}")
    result = verdict.to_json()
    if args.json:
        print(json.dumps(result))
    else:
        reasons = ", ".join(result["reasons"]) or "-"
        print(f"verdict: {result['verdict']} (confidence {result['confidence']:.2f})")
        print(f"reasons: {reasons}")
        print(f"cubes seen: {result['cubes_seen']}, ground contacts: {result['ground_contacts']}, "
              f"{result['elapsed_ms']:.0f} ms")
    return 0
