"""``knockdown pin``: print the table's referee PIN."""

from __future__ import annotations

from assistant.cli.commands._common import fail
from assistant.cli.commands._service_args import add_data_options, config_from


def register(subparsers) -> None:
    parser = subparsers.add_parser("pin", help="print the referee PIN for this table",
                                   description="Print the referee PIN (made on first use, kept in the data dir).")
    add_data_options(parser)
    parser.set_defaults(handler=run)


def run(args) -> int:
    from assistant.service import ServiceError
    from assistant.service.credentials import table_pin

    try:
        config = config_from(args)
    except ServiceError as error:
        return fail(str(error))
    print(table_pin(config.data_dir, config.pin))
    return 0
