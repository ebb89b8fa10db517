"""Fixtures for the end-to-end tests: a real ``serve`` subprocess and real headless Chromium."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.e2e.live import ARTIFACTS, CHROMIUM_ARGS, start_server


@pytest.fixture
def server(tmp_path):
    srv = start_server(tmp_path / "data")
    yield srv
    srv.close()


@pytest.fixture(scope="session")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=os.environ.get("KNOCKDOWN_CHROMIUM", "/usr/bin/chromium"), args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def shoot():
    """Save a full-page screenshot under test-artifacts/e2e/ (kept by CI as an artefact)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)

    def save(page, name: str) -> Path:
        path = ARTIFACTS / f"{name}.png"
        page.screenshot(path=str(path))
        return path

    return save
