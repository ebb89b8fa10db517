import pytest

from assistant.knockdown import KnockdownFlow
from assistant.service import RefereeService
from assistant.store import MatchStore
from assistant.web import create_app
from tests.service.fake_engine import FakeEngine
from tests.service.fakes import Clock

PIN = "246810"


@pytest.fixture
def clock():
    return Clock(0.0)


@pytest.fixture
def service(tmp_path, clock):
    flow = KnockdownFlow(clock=clock, grace_seconds=2.0)
    with RefereeService(store=MatchStore.in_dir(tmp_path / "data"), engine=FakeEngine(), flow=flow,
                        clock=clock) as service:
        yield service


@pytest.fixture
def app(service, tmp_path):
    return create_app({"TESTING": True, "SERVICE": service, "DATA_DIR": str(tmp_path / "data"), "PIN": PIN,
                       "SSE_KEEPALIVE_SECONDS": 0.05})


class Api:
    """A test client that speaks like the dashboard: CSRF header on every POST."""

    def __init__(self, client):
        self.client = client
        self.token = client.get("/api/session").get_json()["csrf_token"]

    def get(self, path, **kwargs):
        return self.client.get(path, **kwargs)

    def post(self, path, json=None, **kwargs):
        headers = {"X-CSRF-Token": self.token, **kwargs.pop("headers", {})}
        return self.client.post(path, json=json, headers=headers, **kwargs)

    def login(self, pin=PIN):
        return self.post("/api/login", json={"pin": pin})


@pytest.fixture
def spectator(app):
    return Api(app.test_client())


@pytest.fixture
def referee(app):
    api = Api(app.test_client())
    assert api.login().status_code == 200
    return api
