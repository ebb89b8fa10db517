"""In real headless Chromium: a calibrated view too short for the defender's tower is said on the tablet.

The service reads ``[vision.tower] tallest_tower_cubes`` from its config file; the overlay shows
the warning with the Knockdown Test before and during the countdown, and the camera's
"uncertain" verdict carries it as its own ``view_warning``, shown with the verdict, apart from the
judge's reasons (tower pass 54; its own field since the towercal pass, docs/tower-judge.md).
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.live import TABLET, start_server
from tests.e2e.match_script import OPTIONS, events_to_knockdown_test
from tests.e2e.test_dashboard_e2e import api_json, log_in

pytestmark = pytest.mark.browser

# The match script's seed 2 reaches a Knockdown Test for a fighter with 3 wound cubes.
SEED, CUBES = 2, 3


@pytest.fixture
def short_view_server(tmp_path):
    config = tmp_path / "knockdown.toml"
    config.write_text(f"[vision.tower]\ntallest_tower_cubes = {CUBES - 1}\n", encoding="utf-8")
    server = start_server(tmp_path / "data", verdict="uncertain:0.4", config=config)
    yield server
    server.close()


def test_the_overlay_warns_that_the_tower_is_taller_than_the_view(short_view_server, browser, shoot):
    server = short_view_server
    context = browser.new_context(viewport=TABLET)
    try:
        page = context.new_page()
        log_in(page, server.url, server.pin)
        token = page.request.get(server.url + "/api/session").json()["csrf_token"]

        def post(path, body=None):
            response = page.request.post(server.url + path, data=body or {}, headers={"X-CSRF-Token": token})
            assert response.ok, response.text()

        post("/api/matches", OPTIONS)
        for event in events_to_knockdown_test(seed=SEED):
            post("/api/actions", event)
        state = api_json(page, "/api/state")
        test = state["knockdown"]
        assert (test["state"], test["wounds"]) == ("armed", CUBES)
        builder = state["snapshot"]["players"][test["player"]]["name"]
        said = f"the tower camera's picture holds {CUBES - 1} cubes; {builder} builds {CUBES}"
        assert test["view_warning"].startswith(said)

        warning = page.locator("#kd-warning")
        expect(warning).to_be_visible()
        expect(warning).to_contain_text(said)
        expect(warning).to_contain_text("move the camera back and recalibrate")
        page.locator('[data-kd="start"]').click()  # the warning never blocks the test
        expect(page.locator("#kd")).to_have_attribute("data-state", "counting")
        expect(warning).to_be_visible()
        shoot(page, "15-knockdown-tall-tower-warning-1280x800")
        page.locator('[data-kd="done"]').click()
        expect(page.locator("#kd")).to_have_attribute("data-state", "verdict")
        expect(page.locator("#kd-verdict-word")).to_have_text("UNCERTAIN")
        expect(warning).to_contain_text(said)  # the verdict's own view_warning
        expect(page.locator("#kd-reasons")).not_to_contain_text(said)  # the reasons stay the judge's
        # An uncertain verdict names the rule the camera could not check.
        expect(page.locator('#kd-reasons li[data-reason="cube_count"]')).to_have_text(
            "Could not check: exactly the fighter's heavy and light cubes")
        shoot(page, "16-knockdown-tall-tower-uncertain-1280x800")
    finally:
        context.close()
