"""Referee service benchmark: durable events/s, cold start to serving, resident memory.

Run from the repository root:  python bench/service_bench.py
Goals (issue 4): >= 500 durable events/s, cold start <= 3 s, RSS <= 200 MB with OpenCV loaded.
"""

from __future__ import annotations

import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from assistant.boxes import new_setup  # noqa: E402
from assistant.rules.simulate import play_random  # noqa: E402
from assistant.service import RefereeService  # noqa: E402
from assistant.service.wiring import RulesEngine  # noqa: E402
from assistant.store import MatchStore  # noqa: E402

TMPFS = "/dev/shm"
SERVE = ["-m", "assistant", "serve", "--simulate", "--host", "127.0.0.1"]
PRELOAD_OPENCV = ["-c", "import sys, runpy, cv2, numpy; sys.argv[0] = 'knockdown'; "
                        "runpy.run_module('assistant', run_name='__main__')"]


def scripted_events():
    match, _ = play_random(new_setup(["practice"], players=("Ann", "Bob"), seed=11), 24, check=False)
    return list(match.events)


def bench_fsync(count: int = 500) -> float:
    """The disk's own ceiling: one small write + fsync, as a durable commit needs at least."""
    with tempfile.TemporaryDirectory() as tmp:
        fd = os.open(Path(tmp) / "probe", os.O_WRONLY | os.O_CREAT)
        try:
            began = time.perf_counter()
            for _ in range(count):
                os.write(fd, b"x" * 200)
                os.fsync(fd)
            return count / (time.perf_counter() - began)
        finally:
            os.close(fd)


def median_of(runs: int, measure, *args) -> float:
    return statistics.median(measure(*args) for _ in range(runs))


def bench_store_appends(count: int = 1000, where: str | None = None) -> float:
    with tempfile.TemporaryDirectory(dir=where) as tmp, MatchStore.in_dir(tmp) as store:
        match_id = store.create_match({"format": "knockdown-match"})
        began = time.perf_counter()
        for n in range(count):
            store.append(match_id, {"type": "move", "player": n % 2, "to": "S4"})
        return count / (time.perf_counter() - began)


def bench_service_actions(events: list[dict], where: str | None = None) -> float:
    """Checked by the real engine, committed, published: what POST /api/actions does."""
    with tempfile.TemporaryDirectory(dir=where) as tmp:
        with RefereeService(store=MatchStore.in_dir(tmp), engine=RulesEngine()) as service:
            service.new_match({"players": ["Ann", "Bob"], "seed": 11})
            began = time.perf_counter()
            for event in events:
                service.apply(event)
            return len(events) / (time.perf_counter() - began)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_server(data_dir: str, command: list[str]) -> tuple[subprocess.Popen, float, int]:
    port = free_port()
    began = time.perf_counter()
    process = subprocess.Popen([sys.executable, *command, *SERVE[2:], "--port", str(port), "--data-dir", data_dir],
                               cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               env={**os.environ, "PYTHONPATH": str(ROOT)})
    while True:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/health", timeout=1):
                return process, time.perf_counter() - began, port
        except OSError:
            if process.poll() is not None:
                raise SystemExit("the service exited during start-up")
            time.sleep(0.01)


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def bench_server(events: list[dict], command: list[str], runs: int = 5) -> tuple[float, float, float]:
    """Median and max cold start (with a stored match to resume), and RSS once serving."""
    with tempfile.TemporaryDirectory() as tmp:
        with RefereeService(store=MatchStore.in_dir(tmp), engine=RulesEngine()) as service:
            service.new_match({"players": ["Ann", "Bob"], "seed": 11})
            for event in events[: len(events) // 2]:  # a match in progress to replay
                service.apply(event)
        times, memory = [], []
        for _ in range(runs):
            process, seconds, _port = start_server(tmp, command)
            try:
                times.append(seconds)
                memory.append(rss_mb(process.pid))
            finally:
                process.terminate()
                process.wait(timeout=10)
        return statistics.median(times), max(times), max(memory)


def main() -> int:
    events = scripted_events()
    rows = [
        ("disk ceiling: write+fsync (median of 3)", f"{median_of(3, bench_fsync):.0f} /s", ""),
        ("store appends, synchronous=FULL (median of 3)", f"{median_of(3, bench_store_appends):.0f} events/s",
         ">= 500/s"),
        (f"service.apply, real engine, {len(events)} events (median of 3)",
         f"{median_of(3, bench_service_actions, events):.0f} events/s", ">= 500/s"),
    ]
    if Path(TMPFS).is_dir():
        # On tmpfs fsync costs nothing: what is left is the engine + SQLite + publishing CPU cost.
        rows.append(("service.apply on tmpfs (CPU cost only, median of 3)",
                     f"{median_of(3, bench_service_actions, events, TMPFS):.0f} events/s", ""))
    median, worst, rss = bench_server(events, SERVE[:2])
    rows.append(("cold start to serving (median / max of 5)", f"{median:.2f} s / {worst:.2f} s", "<= 3 s"))
    rows.append(("resident memory, serving", f"{rss:.0f} MB", ""))
    _, _, rss_cv = bench_server(events, PRELOAD_OPENCV, runs=1)
    rows.append(("resident memory, serving with OpenCV loaded", f"{rss_cv:.0f} MB", "<= 200 MB"))
    width = max(len(r[0]) for r in rows)
    print(f"{'measure':<{width}}  {'result':>22}  goal")
    for name, value, goal in rows:
        print(f"{name:<{width}}  {value:>22}  {goal}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
