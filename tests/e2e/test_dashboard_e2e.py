"""End to end in real headless Chromium: a referee tablet plays, a spectator phone follows."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.live import PHONE, TABLET
from tests.e2e.match_script import OPTIONS, events_to_knockdown_test

pytestmark = pytest.mark.browser


def current_version(page: Page) -> int:
    return int(page.locator("body").get_attribute("data-version") or -1)


def wait_for_controls(page: Page) -> None:
    """Until the action buttons are drawn for the newest state the page has."""
    page.wait_for_function(
        "() => document.body.dataset.version !== undefined &&"
        " document.querySelector('#actions').dataset.version === document.body.dataset.version")


def tap_event(page: Page, event: dict) -> None:
    """Record one engine event the way a referee would: by tapping its button(s)."""
    wait_for_controls(page)
    before = current_version(page)
    if event["type"] == "deal_skills":
        for name in event["cards"]:
            page.locator(f'#deal-cards [data-skill="{name}"]').click()
        page.locator("#deal-go").click()
    else:
        offered = [json.loads(raw) for raw in page.locator("#actions button[data-event]").evaluate_all(
            "(buttons) => buttons.map((b) => b.dataset.event)")]
        assert event in offered, f"no button for {event}; offered {offered}"
        page.locator("#actions button[data-event]").nth(offered.index(event)).click()
    page.wait_for_function(f"() => Number(document.body.dataset.version) > {before}")


def log_in(page: Page, url: str, pin: str) -> None:
    page.goto(url + "/")
    page.locator("#pin").fill(pin)
    page.locator("#login button[type=submit]").click()
    expect(page.locator("#referee")).to_be_visible()


def start_match(page: Page, url: str, shoot=None) -> None:
    page.goto(url + "/new")
    expect(page.locator("#w-boxes [data-box=practice]")).to_have_attribute("aria-pressed", "true")
    page.locator("input[name=player0]").fill(OPTIONS["players"][0])
    page.locator("input[name=player1]").fill(OPTIONS["players"][1])
    page.locator("select[name=fighter0]").select_option(OPTIONS["fighters"][0])
    page.locator("select[name=fighter1]").select_option(OPTIONS["fighters"][1])
    if shoot:
        shoot(page, "00-new-match-1280x800")
    page.locator("#w-start").click()
    page.wait_for_url(url + "/")
    expect(page.locator("#fighter-0 .name")).to_have_text(OPTIONS["players"][0])


def api_json(page: Page, path: str):
    response = page.request.get(page.url.split("/", 3)[0] + "//" + page.url.split("/", 3)[2] + path)
    assert response.ok, response.text()
    return response.json()


def test_referee_plays_spectator_follows_and_knockdown_is_overridden(server, browser, shoot):
    referee_context = browser.new_context(viewport=TABLET)
    spectator_context = browser.new_context(viewport=PHONE)
    try:
        ref = referee_context.new_page()
        log_in(ref, server.url, server.pin)
        start_match(ref, server.url, shoot)
        shoot(ref, "01-table-skill-draft-1280x800")

        spectator = spectator_context.new_page()
        spectator.goto(server.url + "/watch")
        expect(spectator.locator("#fighter-1 .name")).to_have_text(OPTIONS["players"][1])
        spectator.evaluate("window.__sameDocument = true")  # gone if the page ever reloads
        qr = spectator.locator(".qr img")
        qr.scroll_into_view_if_needed()
        spectator.wait_for_function("() => document.querySelector('.qr img').complete")
        assert qr.evaluate("(img) => img.naturalWidth") > 100  # the QR code really renders
        spectator.evaluate("window.scrollTo(0, 0)")
        expect(spectator.locator("#actions")).to_have_count(0)  # a spectator gets no controls

        script = events_to_knockdown_test()
        first_move = next(i for i, e in enumerate(script) if e["type"] == "move")
        for index, event in enumerate(script):
            tap_event(ref, event)
            if index == first_move:
                # A correction: undo replays one event fewer; then the move is made again.
                events_before = api_json(ref, "/api/state")["match"]["events"]
                wait_for_controls(ref)
                before = current_version(ref)
                ref.locator("#undo").click()
                ref.wait_for_function(f"() => Number(document.body.dataset.version) > {before}")
                assert api_json(ref, "/api/state")["match"]["events"] == events_before - 1
                expect(ref.locator("#corrections li").first).to_contain_text(
                    f"Undone: {event['type']} (undo from the tablet)")
                tap_event(ref, event)
            if event["type"] == "draft" and index + 1 < len(script) and script[index + 1]["type"] != "draft":
                shoot(ref, "02-table-row-drafted-1280x800")

        # The spectator followed every change through SSE, without reloading.
        state = api_json(ref, "/api/state")
        expect(spectator.locator("body")).to_have_attribute("data-version", str(state["version"]))
        assert spectator.evaluate("window.__sameDocument") is True
        attacked = state["snapshot"]["pending"]["player"]
        wounds = state["snapshot"]["players"][attacked]["wounds"]
        assert wounds["heavy"] + wounds["light"] > 0
        expect(spectator.locator(f"#fighter-{attacked} .cube.heavy")).to_have_count(wounds["heavy"])
        expect(spectator.locator(f"#fighter-{attacked} .cube.light")).to_have_count(wounds["light"])
        for p in (0, 1):
            expect(spectator.locator(f'#arena [data-space="{state["snapshot"]["players"][p]["space"]}"] .who.p{p}'))\
                .to_have_count(1)
        expect(spectator.locator("#row .card[data-card]")).to_have_count(len(state["snapshot"]["row"]))

        # The Knockdown Test: countdown on both screens, the camera's verdict, then an override.
        for page in (ref, spectator):
            expect(page.locator("#kd")).to_be_visible()
            expect(page.locator("#kd")).to_have_attribute("data-state", "armed")
        expect(spectator.locator("#kd-buttons button")).to_have_count(0)
        ref.locator('[data-kd="start"]').click()
        for page in (ref, spectator):
            expect(page.locator("#kd")).to_have_attribute("data-state", "counting")
            expect(page.locator("#kd-count")).to_have_text(re.compile(r"^(10|[1-9])$"))
        shoot(ref, "03-knockdown-countdown-1280x800")
        shoot(spectator, "04-knockdown-countdown-390x844")
        ref.locator('[data-kd="done"]').click()
        for page in (ref, spectator):
            expect(page.locator("#kd")).to_have_attribute("data-state", "verdict")
            expect(page.locator("#kd-verdict-word")).to_have_text("FAIL")
            expect(page.locator("#kd-confidence")).to_have_text("70% sure")
            expect(page.locator("#kd-reasons li").first).to_contain_text("simulated camera")
            # The judge's codes in words: which rule the tower broke.
            expect(page.locator('#kd-reasons li[data-reason="cube_count"]')).to_have_text(
                "Broken: exactly the fighter's heavy and light cubes")
            expect(page.locator("#kd-snapshot")).to_be_visible()
            page.wait_for_function("() => document.querySelector('#kd-snapshot').naturalWidth === 160")
        shoot(ref, "05-knockdown-verdict-1280x800")
        shoot(spectator, "06-knockdown-verdict-390x844")
        ref.locator('[data-kd="override"]', has_text="Override: pass").click()
        for page in (ref, spectator):
            expect(page.locator("#kd")).to_be_hidden()
        expect(ref.locator("#corrections li").first).to_contain_text(
            "Override: tower passed, camera said fail (referee override)")

        match_id = api_json(ref, "/api/state")["match"]["id"]
        record = ref.request.get(f"{server.url}/api/matches/{match_id}/record").text().splitlines()
        last = json.loads(record[-1])
        assert last["type"] == "tower" and last["passed"] is True and last["source"] == "override"
        audit = api_json(ref, f"/api/matches/{match_id}/audit")["audit"]
        assert any(entry["kind"] == "override" for entry in audit)
        assert sum(1 for line in record[1:]) == len(script) + 1

        # Screens for the docs: both themes, both sizes.
        wait_for_controls(ref)
        shoot(ref, "07-table-after-test-1280x800")
        shoot(spectator, "08-watch-390x844")
        ref.locator("#theme").click()
        expect(ref.locator("html")).to_have_attribute("data-theme", "light")
        shoot(ref, "09-table-light-1280x800")

        # The referee's pages on a phone: one column, same controls.
        phone = referee_context.new_page()
        phone.set_viewport_size(PHONE)
        phone.goto(server.url + "/")
        expect(phone.locator("#actions button[data-event]").first).to_be_visible()
        assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]  # no sideways scrolling
        shoot(phone, "13-table-phone-390x844")
        phone.goto(server.url + "/new")
        expect(phone.locator("#w-start")).to_be_visible()
        assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        shoot(phone, "14-new-match-phone-390x844")
        phone.close()

        # History: the match is listed; its replay steps back and forth.
        ref.goto(server.url + "/history")
        expect(ref.locator(f'#matches tr[data-match="{match_id}"]')).to_contain_text("Ada vs Bo")
        shoot(ref, "10-history-1280x800")
        ref.locator(f'#matches tr[data-match="{match_id}"] a', has_text="Replay").click()
        steps = len(script) + 1
        expect(ref.locator("#r-label")).to_have_text(f"Step {steps} / {steps}")
        ref.locator("#r-prev").click()
        expect(ref.locator("#r-label")).to_have_text(f"Step {steps - 1} / {steps}")
        expect(ref.locator("#pending")).to_contain_text("Knockdown Test")
        ref.locator("#r-first").click()
        expect(ref.locator("#r-label")).to_have_text(f"Step 0 / {steps}")
        expect(ref.locator("#s-active")).to_have_text("skill draft")
        shoot(ref, "11-replay-1280x800")
    finally:
        referee_context.close()
        spectator_context.close()


def test_dice_variant_overlay_sums_the_dice_against_the_wounds(server, browser, shoot):
    context = browser.new_context(viewport=TABLET)
    try:
        page = context.new_page()
        log_in(page, server.url, server.pin)
        # Set up through the API (the first test taps through a whole opening already).
        token = page.request.get(server.url + "/api/session").json()["csrf_token"]

        def post(path, body):
            response = page.request.post(server.url + path, data=body, headers={"X-CSRF-Token": token})
            assert response.ok, response.text()

        post("/api/matches", {**OPTIONS, "variant": "dice"})
        for event in events_to_knockdown_test(variant="dice"):
            post("/api/actions", event)
        test = api_json(page, "/api/state")["knockdown"]
        assert test["state"] == "armed" and test["variant"] == "dice"

        expect(page.locator("#kd-dice")).to_be_visible()
        expect(page.locator("#kd-title")).to_have_text("Knockdown Test · dice")
        expect(page.locator('[data-kd="start"]')).to_have_count(0)  # no tower countdown for dice
        enter = page.locator('[data-kd="dice-enter"]')
        expect(enter).to_be_disabled()
        page.locator("#die-0").fill("1")
        page.locator("#die-1").fill("1")
        expect(enter).to_be_disabled()  # two dice are not a roll
        page.locator("#die-2").fill("1")
        expect(page.locator("#dice-sum")).to_have_text("3")
        expect(page.locator("#dice-wounds")).to_have_text(str(test["wounds"]))
        expect(page.locator("#dice-sum")).to_have_class("ok" if 3 >= test["wounds"] else "bad")
        page.locator("#die-2").fill("6")
        expect(page.locator("#dice-sum")).to_have_text("8")
        shoot(page, "12-knockdown-dice-1280x800")
        enter.click()
        expect(page.locator("#kd")).to_be_hidden()
        match_id = api_json(page, "/api/state")["match"]["id"]
        last = json.loads(page.request.get(f"{server.url}/api/matches/{match_id}/record").text().splitlines()[-1])
        assert last == {"type": "dice", "player": test["player"], "dice": [1, 1, 6]}
    finally:
        context.close()
