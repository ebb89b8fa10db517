"""Options shared by the commands that use the data directory (serve, matches, pin)."""

from __future__ import annotations

import argparse


def add_data_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--data-dir", metavar="DIR", default=None,
                        help="where matches, the PIN and the session key live (default: the config's, else ./data)")
    parser.add_argument("--config", metavar="FILE", default=None, help="firmware_config TOML file")


def config_from(args: argparse.Namespace, **overrides):
    """The effective ServiceConfig for these arguments (ServiceError on a bad config)."""
    from assistant.service import ServiceError
    from assistant.service.wiring import load_config

    try:
        return load_config(data_dir=args.data_dir, config_file=args.config, **overrides)
    except ServiceError:
        raise
    except ValueError as error:  # firmware_config's ConfigError names the file, key and value
        raise ServiceError(str(error)) from None
