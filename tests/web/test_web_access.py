import pytest

from tests.web.conftest import PIN, Api

POSTS = ["/api/actions", "/api/undo", "/api/matches", "/api/knockdown/start", "/api/knockdown/done",
         "/api/knockdown/cancel", "/api/knockdown/confirm", "/api/knockdown/override", "/api/knockdown/dice"]


def test_spectator_may_read(spectator, referee):
    referee.post("/api/matches", json={})
    for path in ("/api/health", "/api/state", "/api/legal", "/api/matches", "/api/matches/1/record"):
        assert spectator.get(path).status_code == 200, path
    assert spectator.get("/api/session").get_json()["referee"] is False


@pytest.mark.parametrize("path", POSTS)
def test_spectator_post_is_refused_and_changes_nothing(spectator, referee, path):
    referee.post("/api/matches", json={})
    before = spectator.get("/api/state").get_json()
    response = spectator.post(path, json={"type": "move", "player": 0, "to": 5})
    assert response.status_code == 403
    assert response.get_json()["error"] == "referee_only"
    assert spectator.get("/api/state").get_json() == before


@pytest.mark.parametrize("headers", [{}, {"X-CSRF-Token": "forged"}])
def test_post_without_the_csrf_token_is_refused_even_for_the_referee(referee, headers):
    response = referee.client.post("/api/matches", json={}, headers=headers)
    assert response.status_code == 403 and response.get_json()["error"] == "csrf"
    assert referee.get("/api/matches").get_json()["matches"] == []


def test_login_needs_the_csrf_token_too(app):
    client = app.test_client()
    response = client.post("/api/login", json={"pin": PIN})
    assert response.status_code == 403 and response.get_json()["error"] == "csrf"


def test_another_clients_token_does_not_work(app):
    referee = Api(app.test_client())
    referee.login()
    other = Api(app.test_client())
    response = referee.client.post("/api/matches", json={}, headers={"X-CSRF-Token": other.token})
    assert response.status_code == 403


def test_wrong_pins_are_rate_limited(app, spectator):
    for _ in range(app.config["LOGIN_MAX_FAILURES"]):
        response = spectator.login("000000")
        assert response.status_code == 403 and response.get_json()["error"] == "wrong_pin"
    response = spectator.login(PIN)  # even the right PIN waits out the lockout
    assert response.status_code == 429 and response.get_json()["error"] == "too_many_attempts"
    assert int(response.headers["Retry-After"]) > 0
    assert spectator.get("/api/session").get_json()["referee"] is False


def test_login_body_is_checked(spectator):
    response = spectator.post("/api/login", json={"pn": PIN})
    assert response.status_code == 400 and "pin" in response.get_json()["message"]


def test_logout_ends_referee_rights(referee):
    assert referee.get("/api/session").get_json()["referee"] is True
    referee.post("/api/logout")
    assert referee.post("/api/matches", json={}).status_code == 403


def test_session_cookie_is_signed_httponly_and_strict(app):
    client = app.test_client()
    response = client.get("/api/session")
    cookie = response.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie


def test_throttle_window_expires():
    from assistant.web.auth import LoginThrottle

    now = [0.0]
    throttle = LoginThrottle(max_failures=2, window=10, clock=lambda: now[0])
    throttle.failed("a")
    throttle.failed("a")
    assert throttle.retry_after("a") == 10 and throttle.retry_after("b") == 0
    now[0] = 10.0
    assert throttle.retry_after("a") == 0
