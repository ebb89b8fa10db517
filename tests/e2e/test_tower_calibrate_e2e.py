"""In real headless Chromium: the referee calibrates the tower camera from the tablet, with the service running.

``serve --simulate --config`` whose tower camera is a folder holding a calibration shot (the build
mat, one light and one heavy cube on the build spot): the button measures it, the tablet shows what
was measured, the config file has the learned keys, and the tall-tower warning uses the new height at
once. A picture without the mat gives calibration's own words on the tablet.
"""

from __future__ import annotations

import numpy as np
import pytest
from playwright.sync_api import expect

from firmware_config import load_config
from tests.e2e.live import TABLET, start_server
from tests.e2e.test_dashboard_e2e import api_json, log_in
from tests.tower.tower_judging import tower_camera_config
from vision.tower import calibrate_tower

pytestmark = pytest.mark.browser


def _calibrate_on_the_tablet(browser, tmp_path, picture=None):
    config, shot = tower_camera_config(tmp_path, picture)
    server = start_server(tmp_path / "data", config=config)
    context = browser.new_context(viewport=TABLET)
    try:
        page = context.new_page()
        log_in(page, server.url, server.pin)
        button = page.locator('[data-tower="calibrate"]')
        expect(button).to_be_visible()
        expect(page.locator("#tower-calibration")).to_contain_text("never calibrated")
        button.click()
        return page, context, server, config, shot
    except BaseException:
        context.close()
        server.close()
        raise


def test_the_referee_calibrates_the_tower_camera_from_the_tablet(browser, tmp_path, shoot):
    page, context, server, config, shot = _calibrate_on_the_tablet(browser, tmp_path)
    expected = calibrate_tower(shot)
    try:
        result = page.locator("#tower-calibration")
        expect(result).to_have_attribute("data-outcome", "calibrated")
        expect(result).to_contain_text("Tower camera calibrated")
        for line in expected.describe():
            expect(result).to_contain_text(line)
        expect(page.locator('[data-tower="calibrate"]')).to_be_enabled()
        shoot(page, "17-tower-calibrated-1280x800")
        state = api_json(page, "/api/state")
        assert state["tower"]["learned"]["tallest_tower_cubes"] == expected.tallest_tower_cubes
        assert load_config(config).vision.tower.tallest_tower_cubes == expected.tallest_tower_cubes
    finally:
        context.close()
        server.close()


def test_a_calibration_error_is_shown_word_for_word(browser, tmp_path, shoot):
    blank = np.full((480, 640, 3), 200, np.uint8)
    page, context, server, config, _ = _calibrate_on_the_tablet(browser, tmp_path, blank)
    try:
        with pytest.raises(ValueError) as direct:
            calibrate_tower(blank)
        result = page.locator("#tower-calibration")
        expect(result).to_have_attribute("data-outcome", "error")
        expect(result).to_contain_text(f"Not calibrated: tower calibration failed: {direct.value}")
        shoot(page, "18-tower-calibration-error-1280x800")
        assert load_config(config).vision.tower.tallest_tower_cubes is None
    finally:
        context.close()
        server.close()
