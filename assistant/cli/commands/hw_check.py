"""``knockdown hw-check``: bring-up check of the buzzer, button, LED and cameras.

On a Raspberry Pi it beeps, waits for a real press, blinks the LED, grabs frames from
each configured camera and reports their fps. Without GPIO it says so plainly and
runs the same sequence on mock pins, pressing the mock button itself.
"""

from __future__ import annotations

import argparse
import threading
import time

from assistant.cli.commands._common import fail
from assistant.hardware.board import RefereeBoard
from assistant.hardware.cameras import configured_cameras, open_camera
from assistant.hardware.pins import PinFactoryError
from firmware_config import CameraConfig, Config, ConfigError, load_config
from vision.camera import CameraError

SIMULATED_PRESS_AFTER = 0.2  # seconds; long enough to show the wait, short for tests


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "hw-check", help="check the buzzer, button, LED and cameras (bring-up on a Pi)"
    )
    parser.add_argument("--config", metavar="FILE", help="TOML file merged over the defaults")
    parser.add_argument("--simulate", action="store_true", help="use mock pins and the demo camera feed")
    parser.add_argument("--press-timeout", type=float, default=15.0, metavar="SECONDS",
                        help="how long to wait for the button (default 15)")
    parser.add_argument("--camera-seconds", type=float, default=2.0, metavar="SECONDS",
                        help="how long to read each camera to measure its fps (default 2)")
    parser.set_defaults(handler=_hw_check)


class _Report:
    def __init__(self) -> None:
        self.failures = 0

    def line(self, status: str, what: str, detail: str) -> None:
        if status == "FAIL":
            self.failures += 1
        print(f"{status:<5} {what}: {detail}", flush=True)


def _hw_check(args: argparse.Namespace) -> int:
    if args.press_timeout <= 0 or args.camera_seconds <= 0:
        return fail("--press-timeout and --camera-seconds must be greater than 0")
    try:
        config = load_config(args.config)
        board = RefereeBoard.from_config(config, simulate=args.simulate)
    except (ConfigError, PinFactoryError) as exc:
        return fail(str(exc))
    report = _Report()
    with board:
        if board.is_simulated:
            print(f"GPIO: {board.description}: no Raspberry Pi GPIO in use, so this check runs on "
                  "mock pins and presses the button itself", flush=True)
        else:
            print(f"GPIO: {board.description}", flush=True)
        _check_buzzer(board, report)
        _check_button(board, config, report, timeout=args.press_timeout)
        _check_led(board, report)
    for role, camera in configured_cameras(config).items():
        _check_camera(role, camera, report, simulate=args.simulate, seconds=args.camera_seconds)
    print("hw-check: all ok" if not report.failures else f"hw-check: {report.failures} failed", flush=True)
    return 0 if not report.failures else 1


def _check_buzzer(board: RefereeBoard, report: _Report) -> None:
    beeper = board.beeper
    beeper.beep()
    time.sleep(0.3)
    beeper.final_tone()
    report.line("ok", "buzzer", f"beep and final tone on GPIO{beeper.pin} ({beeper.kind}); did you hear both?")


def _check_button(board: RefereeBoard, config: Config, report: _Report, *, timeout: float) -> None:
    pressed = threading.Event()
    kinds: list[str] = []
    board.button.when_pressed = lambda: (kinds.append("short press"), pressed.set())
    board.button.when_long_pressed = lambda: (kinds.append("long press"), pressed.set())
    pin = config.gpio.button_pin
    print(f"...   button: press the referee button on GPIO{pin} (waiting {timeout:g} s)", flush=True)
    presser = None
    if board.is_simulated:
        presser = threading.Timer(SIMULATED_PRESS_AFTER, _press_mock_button, args=(board, pin))
        presser.start()
    try:
        if pressed.wait(timeout):
            how = " (simulated)" if board.is_simulated else ""
            report.line("ok", "button", f"{kinds[0]} on GPIO{pin}{how}")
        else:
            report.line("FAIL", "button", f"no press on GPIO{pin} within {timeout:g} s: check the wiring "
                        "(button between the pin and GND)")
    finally:
        if presser is not None:
            presser.cancel()
            presser.join()
        board.button.when_pressed = board.button.when_long_pressed = None


def _press_mock_button(board: RefereeBoard, pin: int) -> None:
    mock_pin = board.pin_factory.pin(pin)
    mock_pin.drive_low()
    time.sleep(0.15)  # a human-length press, well past the debounce lock-out
    mock_pin.drive_high()


def _check_led(board: RefereeBoard, report: _Report) -> None:
    if board.led is None:
        report.line("skip", "led", "no status LED configured (gpio.led_pin = false)")
        return
    board.led.blink(on_seconds=0.2, off_seconds=0.2, times=3, wait=True)
    report.line("ok", "led", f"blinked 3 times on GPIO{board.led.pin}")


def _check_camera(role: str, camera: CameraConfig, report: _Report, *, simulate: bool, seconds: float) -> None:
    what = f"camera {role}"
    if camera.source == "none":
        report.line("skip", what, 'source = "none"')
        return
    try:
        source = open_camera(camera, role=role, simulate=simulate)
    except CameraError as exc:
        report.line("FAIL", what, str(exc))
        return
    assert source is not None
    with source:
        frames, shape = 0, None
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            frame = source.read()
            if frame is None:
                break
            frames, shape = frames + 1, frame.shape
        fps = source.fps
        name = source.name
    if not frames:
        report.line("FAIL", what, f"{name} opened but gave no frame")
        return
    size = f"{shape[1]}x{shape[0]}"
    report.line("ok", what, f"{name}, {size}, {fps:.1f} fps over {frames} frames")
