"""Referee access: anyone may read; only a referee (who knows the table PIN) may change.

``POST /api/login {"pin": ...}`` marks the signed session cookie as a referee's.
Every POST (login included) must carry the session's CSRF token in the
``X-CSRF-Token`` header; ``GET /api/session`` hands it out. Wrong PINs are rate
limited per client address (429 with ``Retry-After``).
"""

from __future__ import annotations

import hmac
import math
import secrets
import threading
import time
from collections import defaultdict, deque

from flask import Blueprint, Flask, current_app, jsonify, request, session

from assistant.web.errors import ApiError

bp = Blueprint("auth", __name__, url_prefix="/api")

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
# POSTs a spectator may make (they still need the CSRF token).
OPEN_ENDPOINTS = frozenset({"auth.login", "auth.logout"})


class LoginThrottle:
    """At most ``max_failures`` wrong PINs per address in a sliding window."""

    def __init__(self, *, max_failures: int, window: float, clock=time.monotonic):
        self.max_failures, self.window, self._clock = max_failures, window, clock
        self._failures: dict[str, deque[float]] = defaultdict(deque)
        self._lock = threading.Lock()

    def retry_after(self, address: str) -> float:
        """Seconds until this address may try again (0 when it may try now)."""
        with self._lock:
            failures = self._recent(address)
            if len(failures) < self.max_failures:
                return 0.0
            return failures[0] + self.window - self._clock()

    def failed(self, address: str) -> None:
        with self._lock:
            self._recent(address).append(self._clock())

    def succeeded(self, address: str) -> None:
        with self._lock:
            self._failures.pop(address, None)

    def _recent(self, address: str) -> deque[float]:
        failures = self._failures[address]
        while failures and failures[0] <= self._clock() - self.window:
            failures.popleft()
        return failures


def csrf_token() -> str:
    token = session.get("csrf")
    if not token:
        token = session["csrf"] = secrets.token_urlsafe(32)
    return token


def is_referee() -> bool:
    return bool(session.get("referee"))


def who() -> str:
    """How the audit log names the person behind this request."""
    return f"referee@{request.remote_addr or 'unknown'}"


def _guard():
    if request.method in SAFE_METHODS:
        return None
    sent = request.headers.get("X-CSRF-Token", "")
    expected = session.get("csrf", "")
    if not expected or not sent or not hmac.compare_digest(expected, sent):
        raise ApiError(403, "csrf", "missing or wrong X-CSRF-Token header: get the token from GET /api/session")
    if request.endpoint not in OPEN_ENDPOINTS and not is_referee():
        raise ApiError(403, "referee_only", "only the referee may change the match: log in with the table PIN")
    return None


@bp.get("/session")
def session_info():
    return jsonify(referee=is_referee(), csrf_token=csrf_token())


@bp.post("/login")
def login():
    throttle: LoginThrottle = current_app.extensions["knockdown_login_throttle"]
    address = request.remote_addr or "unknown"
    wait = throttle.retry_after(address)
    if wait > 0:
        raise ApiError(429, "too_many_attempts", f"too many wrong PINs: try again in {math.ceil(wait)} s",
                       headers={"Retry-After": str(math.ceil(wait))})
    body = request.get_json(silent=True)
    pin = body.get("pin") if isinstance(body, dict) else None
    if not isinstance(pin, (str, int)) or isinstance(pin, bool):
        raise ApiError(400, "bad_request", f"login needs a JSON body {{\"pin\": \"...\"}}, got {body!r}")
    expected = str(current_app.config["REFEREE_PIN"])
    if not hmac.compare_digest(str(pin).encode(), expected.encode()):
        throttle.failed(address)
        raise ApiError(403, "wrong_pin", "wrong PIN")
    throttle.succeeded(address)
    session["referee"] = True
    return jsonify(referee=True, csrf_token=csrf_token())


@bp.post("/logout")
def logout():
    session.pop("referee", None)
    return jsonify(referee=False, csrf_token=csrf_token())


def init_app(app: Flask) -> None:
    app.extensions["knockdown_login_throttle"] = LoginThrottle(
        max_failures=int(app.config["LOGIN_MAX_FAILURES"]), window=float(app.config["LOGIN_WINDOW_SECONDS"])
    )
    app.before_request(_guard)
    app.register_blueprint(bp)
