"""``knockdown serve``: the one referee process (web API, store, devices, cameras)."""

from __future__ import annotations

import logging
import signal
import sys
import threading
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
    parser.add_argument("--no-mdns", action="store_true", help="do not advertise knockdown.local on the network")
    add_data_options(parser)
    parser.set_defaults(handler=run)


def _announce(port: int) -> tuple[threading.Thread, list]:
    """Advertise knockdown.local in the background: zeroconf's probing takes seconds."""
    from assistant.web.announce import Announcer

    holder: list = []

    def start() -> None:
        try:
            holder.append(Announcer(port).start())
            logging.getLogger("knockdown.service").info("announced as http://knockdown.local:%d/", port)
        except Exception as error:  # no multicast here: the tablet uses the address instead
            logging.getLogger("knockdown.service").warning("mDNS not available (%s): use the address", error)

    thread = threading.Thread(target=start, name="knockdown-mdns", daemon=True)
    thread.start()
    return thread, holder


def run(args) -> int:
    began = time.monotonic()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    from waitress import create_server

    from assistant.service import ServiceError
    from assistant.service.wiring import build_service
    from assistant.web import create_app
    from assistant.web.announce import lan_addresses
    from assistant.web.qr import qr_text

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
    announcing = None
    try:
        service.start()
        shown_host = lan_addresses()[0] if config.host in ("0.0.0.0", "") else config.host
        url = f"http://{shown_host}:{server.effective_port}/"
        mode = "SIMULATED hardware" if service.hardware.simulated else "hardware"
        print(f"Knockdown Referee serving on {url} ({mode}; data in {config.data_dir})", flush=True)
        print(f"Referee PIN: {app.config['REFEREE_PIN']}", flush=True)
        print(qr_text(url), end="", flush=True)
        if not args.no_mdns and config.host not in ("127.0.0.1", "localhost"):
            announcing = _announce(int(server.effective_port))  # waitress reports it as text
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
        if announcing is not None:
            thread, holder = announcing
            thread.join(timeout=5)
            for announcer in holder:
                announcer.close()
    print("stopped", file=sys.stderr)
    return 0
