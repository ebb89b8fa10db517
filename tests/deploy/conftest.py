"""Fixtures for the deploy tests (the helpers live in deploy_helpers.py)."""

from __future__ import annotations

import http.server
import shutil
import sys
import tempfile
import threading
from pathlib import Path

import pytest

from tests.deploy.deploy_helpers import DEPLOY, FAKE_DEFAULT_CONFIG, PI5_MODEL


@pytest.fixture
def fake_firmware_config(tmp_path_factory) -> dict[str, str]:
    """Environment for install.sh's config step: an interpreter whose firmware_config is a fake.

    The real firmware_config is another team's module; the script only needs
    DEFAULT_CONFIG_TEXT from it, and what it does with that text is what is under test.
    """
    site = tmp_path_factory.mktemp("fake-site")
    (site / "firmware_config").mkdir()
    (site / "firmware_config" / "__init__.py").write_text(
        f"DEFAULT_CONFIG_TEXT = {FAKE_DEFAULT_CONFIG!r}\n"
        "def load_config(path):\n"
        "    if 'bad' in open(path).read():\n"
        "        raise ValueError(f'gpio.button_pin: bad value in {path}')\n"
    )
    return {"KNOCKDOWN_CONFIG_PYTHON": sys.executable, "PYTHONPATH": str(site)}


@pytest.fixture
def pi_root(tmp_path) -> Path:
    """An empty staged root that looks like a Raspberry Pi 5 on Bookworm."""
    root = tmp_path / "root"
    (root / "proc/device-tree").mkdir(parents=True)
    (root / "proc/device-tree/model").write_bytes(PI5_MODEL)
    (root / "etc").mkdir()
    (root / "etc/os-release").write_text('PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nVERSION_CODENAME=bookworm\n')
    return root


@pytest.fixture
def public_dir():
    """A directory that the unprivileged user can use.

    The tests that drop root (setpriv) cannot read the checkout when it sits in a private
    directory such as /root, nor pytest's 0700 tmp_path: they work on copies in here.
    """
    path = Path(tempfile.mkdtemp(prefix="knockdown-deploy-", dir="/tmp"))
    path.chmod(0o777)
    yield path
    shutil.rmtree(path)


@pytest.fixture
def public_deploy(public_dir) -> Path:
    """A world-readable copy of deploy/ inside a copy-like tree (its parent plays the checkout)."""
    copy = public_dir / "checkout" / "deploy"
    shutil.copytree(DEPLOY, copy)
    for path in [public_dir / "checkout", *copy.rglob("*"), copy]:
        path.chmod(0o755 if path.is_dir() or path.stat().st_mode & 0o100 else 0o644)
    return copy


@pytest.fixture
def health_server():
    """A local HTTP server answering 200 on /api/health and 503 elsewhere: a stand-in dashboard."""
    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(200 if self.path == "/api/health" else 503)
            self.end_headers()

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()
    thread.join()
