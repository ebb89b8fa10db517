"""``knockdown config check [FILE]`` and ``knockdown config show [--config FILE]``."""

from __future__ import annotations

import argparse

from assistant.cli.commands._common import fail
from firmware_config import ConfigError, dump_config, load_config


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("config", help="check or show the configuration")
    actions = parser.add_subparsers(dest="config_command", metavar="ACTION", required=True)

    check = actions.add_parser("check", help="validate a config file (or the built-in defaults)")
    check.add_argument("file", nargs="?", help="TOML file merged over the defaults")
    check.set_defaults(handler=_check)

    show = actions.add_parser("show", help="print the effective configuration as TOML")
    show.add_argument("--config", metavar="FILE", help="TOML file merged over the defaults")
    show.set_defaults(handler=_show)


def _check(args: argparse.Namespace) -> int:
    try:
        load_config(args.file)
    except ConfigError as exc:
        return fail(str(exc))
    print(f"ok: {args.file or 'built-in defaults'}")
    return 0


def _show(args: argparse.Namespace) -> int:
    try:
        config = load_config(args.config)
    except ConfigError as exc:
        return fail(str(exc))
    print(dump_config(config), end="")
    return 0
