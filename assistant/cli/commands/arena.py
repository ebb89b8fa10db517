"""``knockdown arena read``: where the fighters stand, from a photo of the arena.

Reads IMAGE against EMPTY (the board without miniatures, as the camera saw it when it was
calibrated). Exit 0 for any reading, ok or not; 2 only for unusable input.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import cv2

from assistant.cli.commands._common import ARENAS_DIR, InputFileError, fail, vision_table
from vision.arena import ArenaInputError, ArenaSettings, LayoutError, SettingsError, load_geometry, read_arena

DEFAULT_LAYOUT = "line-9"


def register(subparsers) -> None:
    arena = subparsers.add_parser("arena", help="read the arena camera: which space each fighter stands on")
    commands = arena.add_subparsers(dest="arena_command", metavar="COMMAND")
    read = commands.add_parser(
        "read",
        help="read one image of the arena against the empty reference",
        description="Read which space each fighter stands on. Exit 0 for any reading, 2 for unusable input.",
    )
    read.add_argument("image", metavar="IMAGE", help="photo of the arena")
    read.add_argument("--reference", required=True, metavar="EMPTY", help="photo of the empty board from calibration")
    read.add_argument(
        "--layout", default=DEFAULT_LAYOUT, metavar="FILE",
        help=f"arena layout: a TOML file or a layout id (default: {DEFAULT_LAYOUT})",
    )
    read.add_argument("--config", metavar="FILE", help="config TOML; its [vision.arena] table tunes the reader")
    read.add_argument("--annotate", metavar="OUT.png", help="write the evidence image here")
    read.add_argument(
        "--fighters", type=_fighter_count, metavar="N",
        help="how many fighters stand on the board (2 in a match); settles doubts about any more",
    )
    read.add_argument("--json", action="store_true", help="print the reading as one JSON object")
    read.set_defaults(handler=read_command)
    arena.set_defaults(handler=lambda args: fail("arena needs a command: read"))


def read_command(args) -> int:
    try:
        geometry = load_geometry(args.layout, layouts_dir=ARENAS_DIR)
        settings = ArenaSettings.from_mapping(vision_table(args.config, "arena"))
    except (InputFileError, LayoutError, SettingsError) as exc:
        return fail(str(exc))
    image = _load_image(args.image, "IMAGE")
    reference = _load_image(args.reference, "--reference")
    if isinstance(image, str) or isinstance(reference, str):
        return fail(image if isinstance(image, str) else reference)
    try:
        reading = read_arena(image, reference, geometry, settings, annotate=bool(args.annotate), fighters=args.fighters)
    except ArenaInputError as exc:
        return fail(str(exc))
    if args.annotate and not cv2.imwrite(args.annotate, reading.annotated):
        return fail(f"--annotate {args.annotate!r}: could not write the image (is it a .png path in a writable folder?)")
    if args.json:
        print(json.dumps(reading.to_json()))
    else:
        _print_summary(reading)
    return 0


def _fighter_count(text: str) -> int:
    if not text.isdigit():
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number of fighters (0 or more)")
    return int(text)


def _load_image(path: str, name: str):
    if not Path(path).is_file():
        return f"{name} {path!r} is not a file"
    image = cv2.imread(path, cv2.IMREAD_COLOR)
    if image is None:
        return f"{name} {path!r} is not an image OpenCV can read"
    return image


def _print_summary(reading) -> None:
    out = sys.stdout
    if reading.ok:
        print(f"ok: occupied {', '.join(reading.occupied) or 'none'}", file=out)
    else:
        print(f"not ok: {reading.error}", file=out)
    for fighter in reading.fighters:
        x, y = fighter.board_mm
        print(f"  fighter on {fighter.space or 'no space'} at ({x:.0f}, {y:.0f}) mm, confidence {fighter.confidence:.2f}", file=out)
    print(f"  markers found: {', '.join(map(str, reading.markers_found)) or 'none'}", file=out)
