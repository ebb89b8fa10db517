"""``knockdown print``: printable sheets at exact size (build mat, arena markers)."""

from __future__ import annotations

import argparse
from pathlib import Path

from assistant.cli.commands._common import ARENAS_DIR, InputFileError, fail, read_toml
from vision.sheets import SheetError, render_arena_markers, render_build_mat, save_sheet


def register(subparsers) -> None:
    printer = subparsers.add_parser("print", help="printable sheets (PDF + 300-dpi PNG at exact size)")
    commands = printer.add_subparsers(dest="print_command", metavar="SHEET")
    mat = commands.add_parser("build-mat", help="the tower build mat (A4 landscape)")
    mat.add_argument("--out", required=True, metavar="FILE", help="output name; FILE.pdf and FILE.png are written")
    mat.add_argument("--dpi", type=int, default=300, help="PNG resolution (default 300)")
    mat.set_defaults(handler=_build_mat)
    arena = commands.add_parser("arena-markers", help="the arena marker sheet for a layout")
    arena.add_argument("--layout", required=True, metavar="L", help="a layout id (e.g. line-9) or a layout TOML file")
    arena.add_argument("--out", required=True, metavar="FILE", help="output name; FILE.pdf and FILE.png are written")
    arena.add_argument("--dpi", type=int, default=300, help="PNG resolution (default 300)")
    arena.set_defaults(handler=_arena_markers)
    printer.set_defaults(handler=lambda args: _usage(printer))


def _usage(parser: argparse.ArgumentParser) -> int:
    parser.print_help()
    return 2


def _report(paths: list[Path]) -> int:
    for path in paths:
        print(f"wrote {path}")
    return 0


def _build_mat(args: argparse.Namespace) -> int:
    try:
        return _report(save_sheet(render_build_mat(dpi=args.dpi), args.out, dpi=args.dpi))
    except SheetError as exc:
        return fail(str(exc))
    except OSError as exc:
        return fail(f"cannot write {args.out!r}: {exc.strerror}")


def load_layout(layout: str) -> dict:
    """A parsed arena layout from a layout id in the box data, or from a TOML file path."""
    path = Path(layout)
    if not (path.suffix == ".toml" or path.exists()):
        path = ARENAS_DIR / f"{layout}.toml"
        if not path.exists():
            known = ", ".join(sorted(p.stem for p in ARENAS_DIR.glob("*.toml")))
            raise SheetError(f"unknown arena layout {layout!r} (known: {known}; or give a .toml file)")
    return read_toml(path, "layout")


def _arena_markers(args: argparse.Namespace) -> int:
    try:
        layout = load_layout(args.layout)
        return _report(save_sheet(render_arena_markers(layout, dpi=args.dpi), args.out, dpi=args.dpi))
    except (InputFileError, SheetError) as exc:
        return fail(str(exc))
    except OSError as exc:
        return fail(f"cannot write {args.out!r}: {exc.strerror}")
