"""``knockdown calibrate tower|arena``: measure the cameras' set-up and save the result.

* ``calibrate tower`` needs the build mat with both markers in view and one light and one
  heavy cube on the build spot. It prints what it measured and writes the learned
  ``[vision.tower]`` keys into the config file: the cube colours, and ``tallest_tower_cubes``
  (the tallest tower the picture holds), which the service warns with before a taller test.
* ``calibrate arena`` needs the empty arena with all four markers in view. It prints the
  reprojection error of the space centres and saves the empty reference where the service
  reads it (``DATA_DIR/arena/<layout>.png``).

Both read one frame from the configured camera, or from ``--image FILE``. The running
service owns the cameras: stop it first, or use the tablet (the table page's *Calibrate
tower camera*, ``POST /api/tower/calibrate``; the arena banner's *Recalibrate*).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from assistant.cli.commands._common import fail


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("calibrate", help="calibrate the tower or the arena camera")
    sub = parser.add_subparsers(dest="target", metavar="TARGET", required=True)

    tower = sub.add_parser("tower", help="learn the build mat's scale and the cube colours")
    tower.add_argument("--config", help="the config file to read and to update (default: built-in defaults)")
    tower.add_argument("--image", help="calibrate from this image instead of the tower camera")
    tower.add_argument("--dry-run", action="store_true", help="print the result but do not write the config")
    tower.set_defaults(handler=cmd_tower)

    arena = sub.add_parser("arena", help="capture the empty arena and check its markers")
    arena.add_argument("--config", help="the config file (cameras, data dir)")
    arena.add_argument("--data-dir", help="where the service keeps its data (default: store.data_dir)")
    arena.add_argument("--layout", default="line-9", help="arena layout id or .toml path (default: line-9)")
    arena.add_argument("--image", help="calibrate from this image instead of the arena camera")
    arena.set_defaults(handler=cmd_arena)


def _frame(args: argparse.Namespace, config, role: str):
    """One frame from --image or from the configured camera; (frame, None) or (None, error)."""
    import cv2

    if args.image:
        frame = cv2.imread(args.image, cv2.IMREAD_COLOR)
        if frame is None:
            return None, f"--image {args.image!r}: not a readable image"
        return frame, None
    from assistant.hardware.cameras import is_demo_feed, open_camera, settled_frame

    camera_config = getattr(config.cameras, role)
    try:
        camera = open_camera(camera_config, role=role)
    except Exception as error:  # the camera's own words are the useful part
        return None, f"cannot open the {role} camera ({camera_config.source}): {error}; is the service running?"
    if camera is None:
        return None, f"cameras.{role}.source is 'none': give --image FILE or configure the camera"
    with camera:
        frame = settled_frame(camera)
        if frame is None:
            return None, f"the {role} camera gave no frame"
        if is_demo_feed(camera):
            return None, f"no {role} camera found (only the synthetic demo feed): connect it or give --image FILE"
    return frame, None


def _load(path: str | None):
    from firmware_config import ConfigError, load_config

    try:
        return load_config(path), None
    except ConfigError as error:
        return None, str(error)
    except OSError as error:
        return None, f"cannot read {path}: {error.strerror}"


def cmd_tower(args: argparse.Namespace) -> int:
    from vision.tower import TowerSettings, calibrate_tower
    from vision.tower.calibration import CalibrationError

    config, error = _load(args.config)
    if error:
        return fail(error)
    settings = TowerSettings.from_mapping(config.vision.tower.model_dump(mode="json"))
    frame, error = _frame(args, config, "tower")
    if error:
        return fail(error)
    try:
        calibration = calibrate_tower(frame, settings)
    except CalibrationError as error:
        return fail(f"tower calibration failed: {error}")
    for line in calibration.describe():
        print(line)
    learned = calibration.to_mapping()
    if args.dry_run or not args.config:
        print("[vision.tower] (not written: " + ("--dry-run" if args.dry_run else "give --config FILE to write it") + ")")
        for key, value in learned.items():
            print(f"{key} = {_toml(value)}")
        return 0
    from firmware_config import update_config

    update_config(args.config, {f"vision.tower.{k}": v for k, v in learned.items()})
    print(f"wrote [vision.tower] to {args.config}")
    return 0


def _toml(value) -> str:
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    return repr(value)


def cmd_arena(args: argparse.Namespace) -> int:
    from assistant.boxes import BoxError, load_layout
    from assistant.service.arena import ArenaError, ArenaMonitor

    config, error = _load(args.config)
    if error:
        return fail(error)
    try:
        layout = load_layout(args.layout)
    except (BoxError, ValueError) as error:
        return fail(str(error))
    frame, error = _frame(args, config, "arena")
    if error:
        return fail(error)
    data_dir = Path(args.data_dir).expanduser() if args.data_dir else Path(config.store.data_dir)
    monitor = ArenaMonitor(camera=None, data_dir=data_dir)
    monitor.set_match(layout.to_dict(), ["0", "1"])
    try:
        info = monitor.calibrate(frame)
    except ArenaError as error:
        return fail(str(error))
    print(f"all {len(layout.markers)} markers visible; layout {layout.id}")
    print(f"reprojection error of the space centres: {info['reprojection_px']:.2f} px ({info['reprojection_mm']:.2f} mm)")
    print(f"saved the empty reference to {data_dir / 'arena' / (layout.id + '.png')}")
    return 0
