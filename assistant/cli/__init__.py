"""The ``knockdown`` command line.

Every module in :mod:`assistant.cli.commands` adds its own subcommands through a
``register(subparsers)`` function, so a new command group is a new file and nothing else.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys

from assistant import __version__
from assistant.cli import commands


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="knockdown",
        description="Knockdown Referee: rules tracker, countdown, camera judge and dashboard.",
    )
    parser.add_argument("--version", action="version", version=f"knockdown {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for info in sorted(pkgutil.iter_modules(commands.__path__), key=lambda m: m.name):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{commands.__name__}.{info.name}")
        module.register(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "handler", None):
        parser.print_help(sys.stderr)
        return 2
    try:
        return int(args.handler(args) or 0)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
