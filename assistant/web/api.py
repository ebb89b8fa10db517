"""The JSON API: state, legal actions, actions, undo, matches, the Knockdown Test, the cameras."""

from __future__ import annotations

from flask import Blueprint, Flask, Response, current_app, jsonify, request

from assistant.web.auth import who
from assistant.web.errors import ApiError

bp = Blueprint("api", __name__, url_prefix="/api")


def service():
    return current_app.extensions["knockdown"]


def json_body(*, required: bool = True) -> dict:
    """The request's JSON object; an empty body counts as {} when not required."""
    if not required and not request.get_data():
        return {}
    body = request.get_json(silent=True)
    if not isinstance(body, dict):
        raw = request.get_data(as_text=True)[:200]
        raise ApiError(400, "bad_json", f"the body must be a JSON object, got {raw!r}")
    return body


def only_keys(body: dict, allowed: tuple[str, ...]) -> dict:
    unknown = sorted(set(body) - set(allowed))
    if unknown:
        raise ApiError(422, "unknown_field",
                       f"unknown field {unknown[0]!r}; allowed: {', '.join(allowed) or 'none'}")
    return body


@bp.get("/health")
def health():
    return jsonify(service().health())


@bp.get("/state")
def state():
    return jsonify(service().state())


@bp.get("/legal")
def legal():
    return jsonify(version=service().version, actions=service().legal_actions())


@bp.post("/actions")
def actions():
    return jsonify(service().apply(json_body(), who=who()))


@bp.post("/undo")
def undo():
    body = only_keys(json_body(required=False), ("reason",))
    return jsonify(service().undo(who=who(), reason=body.get("reason")))


@bp.get("/matches")
def matches():
    return jsonify(matches=service().matches(), current=service().current_match_id)


@bp.post("/matches")
def new_match():
    return jsonify(service().new_match(json_body(required=False), who=who())), 201


@bp.get("/matches/<int:match_id>/record")
def match_record(match_id: int):
    response = Response(service().record(match_id), mimetype="application/x-ndjson")
    response.headers["Content-Disposition"] = f'attachment; filename="knockdown-match-{match_id}.jsonl"'
    return response


@bp.get("/matches/<int:match_id>/audit")
def match_audit(match_id: int):
    service().store.match(match_id)  # 404 for an unknown id
    return jsonify(audit=[entry.to_json() for entry in service().store.audit_log(match_id)])


@bp.post("/knockdown/<command>")
def knockdown(command: str):
    svc = service()
    if command in ("start", "done", "cancel", "confirm"):
        only_keys(json_body(required=False), ())
        return jsonify(getattr(svc, f"knockdown_{command}")(who=who()))
    if command == "override":
        body = only_keys(json_body(), ("passed", "reason"))
        if "passed" not in body:
            raise ApiError(422, "missing_field", "override needs 'passed': true or false")
        return jsonify(svc.knockdown_override(body["passed"], who=who(), reason=body.get("reason")))
    if command == "dice":
        body = only_keys(json_body(required=False), ("dice",))
        return jsonify(svc.knockdown_dice(body.get("dice"), who=who()))
    raise ApiError(404, "not_found", f"no Knockdown Test command {command!r}; "
                                     "use start, done, cancel, confirm, override or dice")


@bp.post("/arena/<command>")
def arena(command: str):
    """The arena camera: calibrate (capture the empty arena), dismiss a banner, or fix the tracker."""
    if command not in ("calibrate", "dismiss", "fix"):
        raise ApiError(404, "not_found", f"no arena command {command!r}; use calibrate, dismiss or fix")
    only_keys(json_body(required=False), ())
    return jsonify(getattr(service(), f"arena_{command}")(who=who()))


@bp.post("/tower/calibrate")
def tower_calibrate():
    """Calibrate the tower camera (the build mat, one light and one heavy cube on the build spot):
    the new state, with ``calibration``: the lines measured, the learned keys and where they were saved."""
    only_keys(json_body(required=False), ())
    return jsonify(service().tower_calibrate(who=who()))


@bp.get("/knockdown/snapshot.png")
def knockdown_snapshot():
    image = service().evidence()
    if image is None:
        raise ApiError(404, "no_evidence", "there is no camera verdict with an image right now")
    import cv2  # only here: the API itself does not need OpenCV loaded

    ok, png = cv2.imencode(".png", image)
    if not ok:
        raise ApiError(500, "encode_failed", "could not encode the evidence image")
    response = Response(png.tobytes(), mimetype="image/png")
    response.headers["Cache-Control"] = "no-store"
    return response


def init_app(app: Flask) -> None:
    app.register_blueprint(bp)
