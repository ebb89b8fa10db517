"""``knockdown serve``: the one referee process (web API, store, devices, cameras)."""

from __future__ import annotations

import logging
import signal
import socket
import sys
import time

from assistant.cli.commands._common import fail
from assistant.cli.commands._service_args import add_data_options, config_from

# Each open dashboard holds one thread for its event stream; leave room for several tablets.
SERVER_THREADS = 24


def register(subparsers) -> None:
    parser = subparsers.add_parser("serve", help="run the referee service and web API",
                                   description="Run the referee: match store, countdown, cameras, web API.")
    parser.add_argument("--host", default=None, help="address to listen on (default: config, else 0.0.0.0)")
    parser.add_argument("--port", type=int, default=None, help="TCP port (default: config, else 8080)")
    parser.add_argument("--simulate", action="store_true",
                        help="simulated GPIO (mock pins) and the demo camera, even on a Pi")
    add_data_options(parser)
    parser.set_defaults(handler=run)


def _lan_address() -> str:
    """The address a tablet on the same network would use (no packet is sent)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # TEST-NET-1: only picks the outgoing interface
            return probe.getsockname()[0]
        except OSError:
            return "127.0.0.1"


def run(args) -> int:
    began = time.monotonic()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    from waitress import create_server

    from assistant.service import ServiceError
    from assistant.service.wiring import build_service
    from assistant.web import create_app

    try:
        config = config_from(args, host=args.host, port=args.port, simulate=args.simulate)
        service = build_service(config)
    except (ServiceError, ImportError) as error:
        return fail(str(error))
    try:
        app = create_app({"SERVICE": service, "DATA_DIR": str(config.data_dir), "PIN": config.pin})
        server = create_server(app, host=config.host, port=config.port, threads=SERVER_THREADS)
    except BaseException:
        service.close()
        raise
    def stop(signum, frame):
        # End the event streams first: waitress's own shutdown waits for its busy threads.
        service.broadcaster.close()
        raise KeyboardInterrupt  # unwinds waitress's loop into the finally below

    previous = {sig: signal.signal(sig, stop) for sig in (signal.SIGTERM, signal.SIGINT)}
    try:
        service.start()
        shown_host = _lan_address() if config.host in ("0.0.0.0", "") else config.host
        url = f"http://{shown_host}:{server.effective_port}/"
        mode = "SIMULATED hardware" if service.hardware.simulated else "hardware"
        print(f"Knockdown Referee serving on {url} ({mode}; data in {config.data_dir})", flush=True)
        print(f"Referee PIN: {app.config['REFEREE_PIN']}", flush=True)
        logging.getLogger("knockdown.service").info("ready in %.2f s", time.monotonic() - began)
        server.run()
    except KeyboardInterrupt:
        pass
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        service.broadcaster.close()
        server.close()
        service.close()
    print("stopped", file=sys.stderr)
    return 0
