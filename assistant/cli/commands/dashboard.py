"""``knockdown qr``: print the dashboard's address as a QR code on the console."""

from __future__ import annotations

from assistant.cli.commands._common import fail
from assistant.cli.commands._service_args import add_data_options, config_from


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "qr", help="print a QR code that opens the dashboard",
        description="Print the dashboard URL and a QR code for it (phones scan it to watch the match).")
    parser.add_argument("--url", default=None, help="the URL to encode (default: this machine's LAN address)")
    parser.add_argument("--mdns", action="store_true", help="use http://knockdown.local:PORT/ instead of the IP")
    parser.add_argument("--page", default="watch", choices=("watch", "table"),
                        help="spectator view (watch, default) or the referee's table view")
    add_data_options(parser)
    parser.set_defaults(handler=run)


def dashboard_url(*, host: str, port: int, page: str) -> str:
    return f"http://{host}:{port}/" + ("" if page == "table" else page)


def run(args) -> int:
    from assistant.service import ServiceError
    from assistant.web.announce import lan_addresses
    from assistant.web.qr import qr_text

    url = args.url
    if url is None:
        try:
            config = config_from(args)
        except ServiceError as error:
            return fail(str(error))
        host = "knockdown.local" if args.mdns else lan_addresses()[0]
        url = dashboard_url(host=host, port=config.port, page=args.page)
    try:
        print(qr_text(url), end="")
    except ValueError as error:
        return fail(str(error))
    print(url)
    return 0
