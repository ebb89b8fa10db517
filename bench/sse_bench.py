"""Event-to-client latency over Server-Sent Events, with many tablets watching.

Starts the real ``knockdown serve --simulate`` (waitress) on loopback, opens N SSE
clients on ``/api/events`` (raw sockets, parsed like a browser's EventSource, and
optionally some real headless Chromium pages with ``EventSource``), then as the
referee POSTs referee corrections one at a time and measures, for every client, the
time from just before the POST is sent to the moment that client has the message
with the new version. Goal (issue 7): p99 <= 50 ms with 20 clients.

    python bench/sse_bench.py [--clients 20] [--events 200] [--browsers 0] [--gap 0.02]

Prints a small table (ms). Never run as a test: numbers depend on the machine.
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

# The service is started, and spoken to, exactly as the crash and SSE tests do it.
from tests.e2e.live import CHROMIUM_ARGS  # noqa: E402
from tests.service.live_server import Client, Server  # noqa: E402


class SseClient(threading.Thread):
    """One watcher: reads the stream and notes when each version arrived."""

    def __init__(self, port: int):
        super().__init__(daemon=True)
        self.sock = socket.create_connection(("127.0.0.1", port))
        self.sock.sendall(b"GET /api/events HTTP/1.1\r\nHost: bench\r\nAccept: text/event-stream\r\n\r\n")
        self.arrived: dict[int, float] = {}
        self.ready = threading.Event()

    def run(self) -> None:
        buffer = b""
        try:
            while True:
                chunk = self.sock.recv(65536)
                if not chunk:
                    return
                now = time.perf_counter()
                self.ready.set()  # the first comment line arrived: headers are flushed
                buffer += chunk
                while b"\n\n" in buffer:
                    message, buffer = buffer.split(b"\n\n", 1)
                    for line in message.split(b"\n"):
                        if line.startswith(b"id: "):
                            self.arrived.setdefault(int(line[4:]), now)
        except OSError:
            return

    def close(self) -> None:
        try:
            self.sock.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.sock.close()


BROWSER_SCRIPT = """
window.__arrived = {};
const source = new EventSource('/api/events');
source.addEventListener('state', (e) => { window.__arrived[e.lastEventId] = Date.now(); });
"""


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(p / 100 * len(ordered) + 0.5) - 1))]


def row(name: str, values: list[float]) -> str:
    if not values:
        return f"{name:<26} {'-':>6}"
    return (f"{name:<26} {len(values):>6} {statistics.median(values):>8.1f} {percentile(values, 95):>8.1f} "
            f"{percentile(values, 99):>8.1f} {max(values):>8.1f}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=20, help="SSE watchers in all (default 20)")
    parser.add_argument("--browsers", type=int, default=0, help="how many of them are headless Chromium pages")
    parser.add_argument("--events", type=int, default=200, help="changes to publish (default 200)")
    parser.add_argument("--gap", type=float, default=0.02, help="seconds between changes (default 0.02)")
    args = parser.parse_args()
    if not 0 <= args.browsers <= args.clients:
        parser.error(f"--browsers must be between 0 and --clients, got {args.browsers!r}")

    with tempfile.TemporaryDirectory() as tmp:
        server = Server(Path(tmp) / "data", Path(tmp) / "serve.log")
        sockets: list[SseClient] = []
        playwright = browser = None
        try:
            server.start()
            referee = Client(server.url)
            referee.token = referee.json("GET", "/api/session")["csrf_token"]
            referee.json("POST", "/api/login", {"pin": server.pin})
            referee.json("POST", "/api/matches", {"boxes": ["practice"]})
            sockets = [SseClient(server.port) for _ in range(args.clients - args.browsers)]
            for client in sockets:
                client.start()
            pages = []
            if args.browsers:
                from playwright.sync_api import sync_playwright

                playwright = sync_playwright().start()
                browser = playwright.chromium.launch(
                    executable_path=os.environ.get("KNOCKDOWN_CHROMIUM", "/usr/bin/chromium"), args=CHROMIUM_ARGS)
                for _ in range(args.browsers):
                    page = browser.new_page()
                    page.goto(server.url + "/api/health")
                    page.evaluate(BROWSER_SCRIPT)
                    pages.append(page)
            for client in sockets:
                if not client.ready.wait(10):
                    raise RuntimeError("an SSE client got no headers within 10 s")
            time.sleep(0.3)

            sent: dict[int, float] = {}
            sent_wall: dict[int, float] = {}
            for i in range(args.events):
                body = {"type": "adjust_wounds", "player": i % 2, "heavy": 0, "light": 1 if i % 4 < 2 else -1,
                        "reason": "sse bench"}
                wall, start = time.time() * 1000, time.perf_counter()
                version = referee.json("POST", "/api/actions", body)["version"]
                sent[version], sent_wall[version] = start, wall
                time.sleep(args.gap)
            time.sleep(0.5)

            socket_latency = [(c.arrived[v] - t) * 1000 for c in sockets for v, t in sent.items() if v in c.arrived]
            missing = sum(1 for c in sockets for v in sent if v not in c.arrived)
            browser_latency = []
            for page in pages:
                arrived = page.evaluate("window.__arrived")
                browser_latency += [arrived[str(v)] - t for v, t in sent_wall.items() if str(v) in arrived]
                missing += sum(1 for v in sent if str(v) not in arrived)
        finally:
            for client in sockets:
                client.close()
            if browser is not None:
                browser.close()
            if playwright is not None:
                playwright.stop()
            server.close()

    print(f"SSE latency, {args.clients} clients ({args.browsers} Chromium), {args.events} events, "
          f"loopback, {os.cpu_count()} CPUs")
    print(f"{'clients':<26} {'n':>6} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8} {'max ms':>8}")
    print(row("socket (EventSource-like)", socket_latency))
    if args.browsers:
        print(row("Chromium EventSource", browser_latency))
    every = socket_latency + browser_latency
    print(row("all", every))
    print(f"missed messages: {missing}")
    p99 = percentile(every, 99) if every else float("inf")
    print(f"goal p99 <= 50 ms: {'met' if p99 <= 50 and not missing else 'NOT met'} ({p99:.1f} ms)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
