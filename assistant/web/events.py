"""``GET /api/events``: the change feed as Server-Sent Events.

Each message is the full state, with ``id:`` set to its ``version``. A reconnecting
client sends ``Last-Event-ID`` (browsers do it themselves) and gets every message it
missed; if those are gone (a restart, a long absence) it gets the current state.
"""

from __future__ import annotations

from flask import Blueprint, Flask, Response, current_app, request

bp = Blueprint("events", __name__, url_prefix="/api")

RETRY_MS = 2000


def _last_event_id() -> int | None:
    raw = request.headers.get("Last-Event-ID") or request.args.get("last_event_id")
    try:
        return int(raw) if raw is not None else None
    except ValueError:
        return None  # garbage from a client: treat it as a fresh connection


def stream(broadcaster, last_seen: int | None, keepalive: float):
    # A comment first, so waitress (and any proxy) sends the headers right away.
    yield f": knockdown events\nretry: {RETRY_MS}\n\n"
    cursor = -1 if last_seen is None else last_seen
    if last_seen is None:
        latest = broadcaster.latest()
        if latest is not None:
            yield latest.encode()
            cursor = latest.version
    while not broadcaster.closed:
        messages = broadcaster.wait(cursor, timeout=keepalive)
        if broadcaster.closed:
            return
        if messages is None:
            messages = [broadcaster.latest()]  # missed too much: start again from now
        if not messages:
            yield ": keep-alive\n\n"
            continue
        for message in messages:
            yield message.encode()
            cursor = message.version


@bp.get("/events")
def events():
    broadcaster = current_app.extensions["knockdown"].broadcaster
    keepalive = float(current_app.config["SSE_KEEPALIVE_SECONDS"])
    response = Response(stream(broadcaster, _last_event_id(), keepalive), mimetype="text/event-stream")
    response.headers["Cache-Control"] = "no-cache"
    response.headers["X-Accel-Buffering"] = "no"
    return response


def init_app(app: Flask) -> None:
    app.register_blueprint(bp)
