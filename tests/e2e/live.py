"""The real ``serve`` subprocess and the browser settings the end-to-end tests share."""

from __future__ import annotations

from pathlib import Path

from tests.service.live_server import Server

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts" / "e2e"
# Also used by bench/sse_bench.py's browser clients.
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
TABLET = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


def start_server(data_dir: Path, *, verdict: str | None = "fail:0.7", config: Path | None = None) -> Server:
    """``serve --simulate`` with the dashboard, its tower judge answering ``verdict`` (see serve_with_dashboard.py),
    reading ``config`` if given."""
    server = Server(data_dir, data_dir.parent / "serve.log", entry=(str(ROOT / "tests" / "e2e" / "serve_with_dashboard.py"),),
                    env={"KNOCKDOWN_E2E_VERDICT": verdict} if verdict else None,
                    args=("--config", str(config)) if config else ())
    server.start()
    return server
