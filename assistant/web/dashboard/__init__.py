"""The tablet dashboard: pages (table, spectator, new match, history) and the few
read-only JSON views they need beyond the service's ``/api``.

Everything is served locally (no CDN, no build step): Jinja templates plus one
vanilla-JS file. The pages only read ``/api`` and ``/dashboard/api``; every change
goes through the service's own POST endpoints (PIN session + CSRF header).
"""

from __future__ import annotations

import csv
import io
from pathlib import Path

from flask import Blueprint, Flask, Response, current_app, jsonify, render_template, request

from assistant.web.qr import qr_svg

bp = Blueprint("dashboard", __name__, template_folder="templates", static_folder="static",
               static_url_path="/dashboard/static")

PAGES = {"table": "Table", "watch": "Watch", "new": "New match", "history": "History"}
THERMAL_ZONE = Path("/sys/class/thermal/thermal_zone0/temp")
CARD_FIELDS = {"name", "heavy", "light", "ko", "range", "type", "symbols", "text", "copies"}
RESULT_COLUMNS = ("id", "created", "updated", "status", "player_0", "player_1", "fighter_0", "fighter_1",
                  "variant", "winner", "winner_name", "events")


class DashboardError(ValueError):
    """A dashboard query with a bad value (the message names it)."""


def service():
    return current_app.extensions["knockdown"]


def _page(name: str, **context):
    return render_template(f"dashboard/{name}.html", page=name, pages=PAGES, **context)


@bp.get("/")
def table():
    return _page("table")


@bp.get("/watch")
def watch():
    return _page("watch", watch_url=dashboard_url("watch"))


@bp.get("/new")
def new():
    return _page("new")


@bp.get("/history")
def history():
    return _page("history")


@bp.get("/history/<int:match_id>")
def replay_page(match_id: int):
    service().store.match(match_id)  # a 404 page for an unknown id
    return _page("replay", match_id=match_id)


def dashboard_url(path: str = "") -> str:
    """The URL other devices should open: PUBLIC_URL when configured, else the one this request used."""
    base = current_app.config.get("PUBLIC_URL") or request.host_url
    return base.rstrip("/") + "/" + path.lstrip("/")


@bp.get("/dashboard/qr.svg")
def qr():
    response = Response(qr_svg(dashboard_url(request.args.get("path", "watch")[:100])), mimetype="image/svg+xml")
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.get("/dashboard/api/catalog")
def catalog():
    """Boxes with their fighters, arenas, skills and Attack cards, for the wizard and reveals."""
    from assistant import boxes

    out = []
    for box_id in boxes.list_boxes():
        box = boxes.load_box(box_id)
        out.append({
            "id": box.id,
            "name": box.info.name,
            "practice": box.info.practice,
            "arenas": list(box.info.arenas),
            "fighters": [{"name": f.name, "class": f.fighter_class} for f in box.fighters],
            "skills": [s.name for s in box.skills],
            "cards": [c.model_dump(mode="json", include=CARD_FIELDS) for c in box.cards],
        })
    return jsonify(boxes=out, variants=["tower", "dice"])


@bp.get("/dashboard/api/table")
def table_extras():
    """What ``GET /api/legal`` leaves out: skill deals, and whether cards are entered by hand."""
    svc = service()
    reveal = svc.reveal_options()
    # Only skill deals: Attack card reveals are already among /api/legal's actions.
    if reveal is not None and reveal.get("kind") != "skills":
        reveal = None
    return jsonify(version=svc.version, reveal=reveal, custom_deck=svc.is_custom_deck())


@bp.get("/dashboard/api/system")
def system():
    """Extras for the health bar that the service does not report (CPU temperature)."""
    return jsonify(cpu_temp_c=cpu_temperature())


def cpu_temperature(path: Path = THERMAL_ZONE) -> float | None:
    try:
        return round(int(path.read_text().strip()) / 1000.0, 1)
    except (OSError, ValueError):
        return None  # not a Pi (or no thermal zone): the health bar says "n/a"


@bp.get("/dashboard/api/replay/<int:match_id>")
def replay(match_id: int):
    """The state of a stored match after ``step`` events (default: all of them)."""
    svc = service()
    row = svc.store.match(match_id)
    events = svc.store.events(match_id)
    raw = request.args.get("step", str(len(events)))
    try:
        step = int(raw)
    except ValueError:
        step = -1
    if not 0 <= step <= len(events):
        raise DashboardError(f"step must be a whole number from 0 to {len(events)}, got {raw!r}")
    match = svc.engine.replay(row.header, events[:step])
    return jsonify(match=row.to_json(), step=step, steps=len(events),
                   event=events[step - 1] if step else None, snapshot=match.snapshot())


@bp.get("/dashboard/api/results.csv")
def results_csv():
    """One row per stored match: who played whom and who won."""
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=RESULT_COLUMNS, lineterminator="\n")
    writer.writeheader()
    for row in service().store.matches():
        writer.writerow(result_row(row))
    response = Response(out.getvalue(), mimetype="text/csv")
    response.headers["Content-Disposition"] = 'attachment; filename="knockdown-results.csv"'
    return response


def result_row(row) -> dict:
    setup = row.header.get("setup") or {}
    players = list(setup.get("players") or ["", ""])
    fighters = [f.get("name", "") if isinstance(f, dict) else str(f) for f in setup.get("fighters") or ["", ""]]
    result = row.result if isinstance(row.result, dict) else {}
    winner = result.get("winner")
    return {
        "id": row.id, "created": row.created, "updated": row.updated, "status": row.status,
        "player_0": players[0], "player_1": players[1], "fighter_0": fighters[0], "fighter_1": fighters[1],
        "variant": setup.get("variant", ""), "winner": "" if winner is None else winner,
        "winner_name": players[winner] if isinstance(winner, int) and 0 <= winner < len(players) else "",
        "events": row.event_count,
    }


def init_app(app: Flask) -> None:
    """Register the pages; safe to call twice (create_app may already do it)."""
    if "dashboard" in app.blueprints:
        return
    from assistant.web.errors import error_response

    @app.errorhandler(DashboardError)
    def dashboard_error(error: DashboardError):
        return error_response(422, "invalid", str(error))

    app.register_blueprint(bp)
