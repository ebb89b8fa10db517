"""The real app (create_app + the dashboard) over the real rules engine, for dashboard tests."""

from __future__ import annotations

from contextlib import contextmanager

from assistant.knockdown import KnockdownFlow
from assistant.service import RefereeService
from assistant.service.wiring import RulesEngine
from assistant.store import MatchStore
from assistant.web import create_app, dashboard

PIN = "135790"


class FixedClock:
    def __init__(self):
        self.t = 0.0

    def __call__(self):
        return self.t


@contextmanager
def dashboard_app(data_dir, **config):
    clock = FixedClock()
    flow = KnockdownFlow(clock=clock)
    with RefereeService(store=MatchStore.in_dir(data_dir), engine=RulesEngine(), flow=flow, clock=clock) as service:
        app = create_app({"TESTING": True, "SERVICE": service, "DATA_DIR": str(data_dir), "PIN": PIN,
                          "SSE_KEEPALIVE_SECONDS": 0.05, **config})
        dashboard.init_app(app)
        yield app


class Client:
    """A browser-like client: fetches its CSRF token, sends it on every POST."""

    def __init__(self, app, *, referee: bool = False):
        self.http = app.test_client()
        self.token = self.http.get("/api/session").get_json()["csrf_token"]
        if referee:
            response = self.post("/api/login", {"pin": PIN})
            assert response.status_code == 200, response.get_json()

    def get(self, path, **kwargs):
        return self.http.get(path, **kwargs)

    def post(self, path, body=None, **kwargs):
        headers = {"X-CSRF-Token": self.token, **kwargs.pop("headers", {})}
        return self.http.post(path, json=body, headers=headers, **kwargs)
