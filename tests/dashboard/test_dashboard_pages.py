"""The dashboard blueprint: pages, its read-only JSON views, QR codes and CSV export."""

from __future__ import annotations

import csv
import io

import pytest

from assistant.web import dashboard
from assistant.web.dashboard import cpu_temperature
from assistant.web.qr import qr_svg, qr_text
from tests.dashboard.dashboard_app import Client, dashboard_app


@pytest.fixture
def app(tmp_path):
    with dashboard_app(tmp_path / "data", PUBLIC_URL="http://knockdown.local:8080/") as app:
        yield app


@pytest.fixture
def referee(app):
    return Client(app, referee=True)


@pytest.fixture
def spectator(app):
    return Client(app)


def start(referee, **options):
    response = referee.post("/api/matches", {"boxes": ["practice"], "players": ["Ada", "Bo"],
                                             "fighters": ["Brawler", "Duelist"], **options})
    assert response.status_code == 201, response.get_json()
    return response.get_json()


@pytest.mark.parametrize("path, marker", [("/", 'data-page="table"'), ("/watch", 'data-page="watch"'),
                                          ("/new", 'id="wizard"'), ("/history", 'id="matches"')])
def test_every_page_renders_with_local_assets_only(spectator, path, marker):
    response = spectator.get(path)
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert marker in html
    assert "/dashboard/static/dashboard.js" in html and "/dashboard/static/dashboard.css" in html
    assert "http://" not in html.replace("http://knockdown.local:8080/watch", "")  # no CDN, no external asset


def test_static_assets_are_served(spectator):
    for name, kind in (("dashboard.js", "javascript"), ("dashboard.css", "text/css")):
        response = spectator.get(f"/dashboard/static/{name}")
        assert response.status_code == 200 and kind in response.content_type
        response.close()


def test_init_app_twice_is_harmless(app):
    dashboard.init_app(app)
    assert app.blueprints["dashboard"] is dashboard.bp


def test_spectator_page_has_a_qr_code_for_the_public_url(spectator):
    html = spectator.get("/watch").get_data(as_text=True)
    assert "http://knockdown.local:8080/watch" in html
    svg = spectator.get("/dashboard/qr.svg?path=watch")
    assert svg.status_code == 200 and svg.content_type.startswith("image/svg+xml")
    assert svg.get_data(as_text=True) == qr_svg("http://knockdown.local:8080/watch")


def test_qr_helpers_encode_the_url_and_refuse_an_empty_one():
    svg = qr_svg("http://knockdown.local/")
    assert svg.startswith("<svg") and 'xmlns="http://www.w3.org/2000/svg"' in svg  # loadable as an <img>
    text = qr_text("http://knockdown.local/")
    lines = text.splitlines()
    assert len(lines) > 10 and len({len(line) for line in lines}) == 1  # a square block of text
    assert set(text) <= set(" █▀▄\n")
    assert qr_text("http://a/") != qr_text("http://b/")
    with pytest.raises(ValueError, match="''"):
        qr_text("")


def test_catalog_lists_boxes_fighters_arenas_and_cards(spectator):
    boxes = {b["id"]: b for b in spectator.get("/dashboard/api/catalog").get_json()["boxes"]}
    practice = boxes["practice"]
    assert {"name": "Brawler", "class": "Bruiser"} in practice["fighters"]
    assert practice["arenas"] == ["line-9"]
    assert practice["skills"] and all(isinstance(s, str) for s in practice["skills"])
    jab = next(c for c in practice["cards"] if c["name"] == "Jab")
    assert set(jab) == {"name", "heavy", "light", "ko", "range", "type", "symbols", "text", "copies"}


def test_table_extras_offer_the_skill_deal_then_nothing(referee):
    assert referee.get("/dashboard/api/table").get_json()["reveal"] is None  # no match yet
    start(referee)
    deal = referee.get("/dashboard/api/table").get_json()["reveal"]
    assert deal["kind"] == "skills" and deal["player"] == 0 and deal["count"] == 3
    assert referee.post("/api/actions", {"type": "deal_skills", "player": 0, "cards": deal["cards"][:3]}).status_code == 200
    second = referee.get("/dashboard/api/table").get_json()["reveal"]
    assert second["player"] == 1 and not set(deal["cards"][:3]) & set(second["cards"])


def test_replay_steps_through_a_stored_match(referee):
    start(referee)
    deal = referee.get("/dashboard/api/table").get_json()["reveal"]
    referee.post("/api/actions", {"type": "deal_skills", "player": 0, "cards": deal["cards"][:3]})
    match_id = referee.get("/api/state").get_json()["match"]["id"]
    full = referee.get(f"/dashboard/api/replay/{match_id}").get_json()
    assert full["step"] == full["steps"] == 1
    assert full["event"]["type"] == "deal_skills" and full["snapshot"]["players"][0]["skills"]["dealt"]
    zero = referee.get(f"/dashboard/api/replay/{match_id}?step=0").get_json()
    assert zero["event"] is None and zero["snapshot"]["players"][0]["skills"]["dealt"] == []
    assert referee.get(f"/history/{match_id}").status_code == 200


@pytest.mark.parametrize("step", ["2", "-1", "x", "1.5"])
def test_replay_refuses_a_step_outside_the_match(referee, step):
    start(referee)
    response = referee.get(f"/dashboard/api/replay/1?step={step}")
    assert response.status_code == 422
    assert response.get_json()["error"] == "invalid" and repr(step) in response.get_json()["message"]


@pytest.mark.parametrize("path", ["/dashboard/api/replay/99", "/history/99", "/dashboard/api/replay/99999999999999999999",
                                  "/api/matches/99999999999999999999/record"])
def test_unknown_or_impossible_match_ids_are_404(spectator, path):
    response = spectator.get(path)
    assert response.status_code == 404


def test_results_csv_has_one_row_per_match_with_the_winner(referee, app):
    start(referee)
    start(referee, players=["Cy", "Di"], variant="dice")
    service = app.extensions["knockdown"]
    service.store.set_status(1, "finished", {"winner": 1})
    response = referee.get("/dashboard/api/results.csv")
    assert response.content_type.startswith("text/csv")
    assert "attachment" in response.headers["Content-Disposition"]
    rows = list(csv.DictReader(io.StringIO(response.get_data(as_text=True))))
    assert len(rows) == 2
    by_id = {r["id"]: r for r in rows}
    assert by_id["1"]["winner_name"] == "Bo" and by_id["1"]["status"] == "finished"
    assert by_id["1"]["fighter_0"] == "Brawler" and by_id["1"]["fighter_1"] == "Duelist"
    assert by_id["2"]["winner"] == "" and by_id["2"]["variant"] == "dice" and by_id["2"]["player_0"] == "Cy"


def test_cpu_temperature_reads_the_thermal_zone_or_says_none(tmp_path):
    zone = tmp_path / "temp"
    zone.write_text("48312\n")
    assert cpu_temperature(zone) == 48.3
    zone.write_text("garbage")
    assert cpu_temperature(zone) is None
    assert cpu_temperature(tmp_path / "missing") is None


def test_system_view_reports_a_number_or_null(spectator):
    value = spectator.get("/dashboard/api/system").get_json()["cpu_temp_c"]
    assert value is None or isinstance(value, float)


def test_spectator_cannot_use_the_dashboard_to_change_anything(spectator, referee):
    start(referee)
    before = spectator.get("/api/state").get_json()
    response = spectator.post("/api/actions", {"type": "deal_skills", "player": 0, "cards": ["a", "b", "c"]})
    assert response.status_code == 403 and response.get_json()["error"] == "referee_only"
    assert spectator.get("/api/state").get_json() == before


@pytest.mark.parametrize("options, field", [({"boxes": [["practice"]]}, "boxes"), ({"fighters": [1, 2]}, "fighters"),
                                            ({"arena_box": ["practice"]}, "arena_box"), ({"players": "Ada"}, "players")])
def test_new_match_names_of_the_wrong_type_are_refused_not_a_500(referee, options, field):
    response = referee.post("/api/matches", options)
    assert response.status_code == 422
    assert response.get_json()["error"] == "invalid" and repr(field) in response.get_json()["message"]
    assert referee.get("/api/matches").get_json()["matches"] == []


@pytest.mark.parametrize("kind", [["move"], {"move": 1}])
def test_an_action_type_that_is_not_a_string_is_refused_not_a_500(referee, kind):
    start(referee)
    before = referee.get("/api/state").get_json()
    response = referee.post("/api/actions", {"type": kind, "player": 0})
    assert response.status_code == 422 and "'type'" in response.get_json()["message"]
    assert referee.get("/api/state").get_json() == before
