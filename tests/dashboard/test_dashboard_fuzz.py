"""API fuzz: >= 10,000 random and malformed requests against the real app and engine.

Invariants: no response is a 5xx, every error is the JSON ``{"error", "message"}``
shape, and a refused request changes nothing (state, version, stored events, audit).
Some requests are legal actions picked from ``GET /api/legal``, so the match moves on
and the fuzzer sees many different states, not just the opening one.
"""

from __future__ import annotations

import string

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.dashboard.dashboard_app import PIN, Client, dashboard_app

REQUESTS_PER_EXAMPLE = 25
EXAMPLES = 404  # 404 x 25 = 10,100 requests
DEEP_EVERY = 10

GET_PATHS = ["/", "/watch", "/new", "/history", "/history/{id}", "/api/health", "/api/state", "/api/legal",
             "/api/matches", "/api/matches/{id}/record", "/api/matches/{id}/audit", "/api/session",
             "/api/knockdown/snapshot.png", "/dashboard/api/catalog", "/dashboard/api/table",
             "/dashboard/api/system", "/dashboard/api/replay/{id}", "/dashboard/api/replay/{id}?step={step}",
             "/dashboard/api/results.csv", "/dashboard/qr.svg", "/dashboard/qr.svg?path={text}",
             "/dashboard/static/dashboard.js", "/dashboard/static/{text}", "/{text}", "/api/{text}"]
POST_PATHS = ["/api/actions", "/api/undo", "/api/matches", "/api/login", "/api/logout",
              "/api/knockdown/start", "/api/knockdown/done", "/api/knockdown/cancel", "/api/knockdown/confirm",
              "/api/knockdown/override", "/api/knockdown/dice", "/api/knockdown/{text}", "/api/state",
              "/dashboard/api/catalog", "/{text}"]
EVENT_TYPES = ["move", "attack", "combo", "special", "dash", "end_combo", "corridor", "block", "no_block", "react",
               "no_reaction", "choose", "discard", "knockdown_test", "tower", "dice", "resolve_manual",
               "deal_skills", "keep_skill", "place_skills", "first_player", "reveal", "draft", "adjust_wounds",
               "adjust_tokens", "place_fighter", "discard_card", "teleport", ""]
FIELDS = ["type", "player", "to", "card", "cards", "name", "pay", "reduce", "cancel_effect", "option", "initiate",
          "passed", "source", "dice", "note", "heavy", "light", "reason", "space", "token", "delta", "custom",
          "face_up", "boxes", "fighters", "players", "variant", "arena", "arena_box", "skills_box", "seed", "pin",
          "extra"]

text = st.text(alphabet=string.ascii_letters + string.digits + "-_./%?&=é☃ ", max_size=24)
scalars = st.one_of(st.none(), st.booleans(), st.integers(-10**12, 10**12), st.floats(allow_nan=False),
                    text, st.sampled_from(["S1", "S4", "S9", "Jab", "High Kick", "practice", "tower", "dice"]))
values = st.recursive(scalars, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                        st.dictionaries(st.sampled_from(FIELDS), inner, max_size=4)),
                      max_leaves=5)
events = st.fixed_dictionaries({"type": st.sampled_from(EVENT_TYPES)},
                               optional={f: values for f in FIELDS[1:20]})
json_bodies = st.one_of(events, values, st.dictionaries(st.sampled_from(FIELDS), values, max_size=5))
raw_bodies = st.one_of(st.binary(max_size=64), st.sampled_from([b"{", b"[1,2", b"null", b"\xff\xfe", b"{\"a\":}",
                                                               b"1e999999", b"{\"type\": NaN}", b""]))



@st.composite
def request_spec(draw) -> dict:
    """One request; only the parts its kind uses are drawn (keeps 10,000 of them fast)."""
    kind = draw(st.sampled_from(["get", "post_json", "post_json", "post_raw", "legal", "legal", "other_method"]))
    spec = {"kind": kind, "who": draw(st.sampled_from(["referee", "referee", "spectator", "stranger"])),
            "csrf": draw(st.sampled_from(["right", "right", "right", "missing", "forged"]))}
    path = draw(st.sampled_from(GET_PATHS if kind == "get" else POST_PATHS))
    spec["path"] = path
    if "{id}" in path:
        spec["id"] = draw(st.one_of(st.integers(0, 3), st.integers(-5, 10**20), text))
    if "{step}" in path:
        spec["step"] = draw(st.one_of(st.integers(-3, 40).map(str), text))
    if "{text}" in path:
        spec["text"] = draw(text)
    if kind == "post_json":
        spec["body"] = draw(json_bodies)
    elif kind == "post_raw":
        spec["raw"] = draw(raw_bodies)
        spec["content_type"] = draw(st.sampled_from(["application/json", "text/plain",
                                                     "application/x-www-form-urlencoded", None]))
    elif kind == "other_method":
        spec["method"] = draw(st.sampled_from(["PUT", "DELETE", "PATCH", "OPTIONS", "HEAD"]))
    elif kind == "legal":
        spec["pick"] = draw(st.integers(0, 10**6))
    return spec


def fill(template: str, spec: dict) -> str:
    from urllib.parse import quote

    return template.format(id=quote(str(spec.get("id", "")), safe=""), step=quote(spec.get("step", ""), safe=""),
                           text=quote(spec.get("text", ""), safe="/"))


class Fuzzer:
    def __init__(self, app):
        self.app = app
        self.service = app.extensions["knockdown"]
        self.clients = {"referee": Client(app, referee=True), "spectator": Client(app)}
        self.stranger = app.test_client()  # never asked for a session: no CSRF token at all
        self.count = self.refused = self.accepted = 0
        self.statuses: dict[int, int] = {}

    def observe(self, spec: dict, *, deep: bool) -> tuple:
        """The match as the API shows it; ``deep`` adds what the store holds (slower to read)."""
        svc = self.service
        state = svc.state()
        if not deep:
            return (state,)
        match_id = state["match"]["id"] if state["match"] else None
        stored = svc.store.events(match_id) if match_id else []
        audit = len(svc.store.audit_log(match_id)) if match_id else 0
        # Listing matches decodes every stored header: only where a match could be created.
        creates = spec["kind"] == "legal" or "matches" in spec["path"] or "{text}" in spec["path"]
        return state, stored, audit, len(svc.store.matches()) if creates else None

    def send(self, spec: dict):
        who = spec["who"]
        client = self.clients.get(who)
        http = client.http if client else self.stranger
        headers = {}
        if client and spec["csrf"] == "right":
            headers["X-CSRF-Token"] = client.token
        elif spec["csrf"] == "forged":
            headers["X-CSRF-Token"] = "forged-token"
        kind = spec["kind"]
        path = fill(spec["path"], spec)
        if kind == "get":
            return http.get(path)
        if kind == "other_method":
            return http.open(path, method=spec["method"], headers=headers)
        if kind == "legal":
            # The referee plays on (a legal action, or a new match once there is none), so
            # the other requests meet many different states.
            referee = self.clients["referee"]
            if spec["pick"] % 5 == 0 and not referee.get("/api/session").get_json()["referee"]:
                referee.post("/api/login", {"pin": PIN})  # a random POST /api/logout logged us out
            legal = referee.get("/api/legal")
            actions = legal.get_json().get("actions") if legal.status_code == 200 else None
            if not actions:
                deal = referee.get("/dashboard/api/table").get_json()["reveal"]
                if deal:  # the skill draft: the table deals three cards
                    start = spec["pick"] % (len(deal["cards"]) - 2)
                    return referee.post("/api/actions", {"type": "deal_skills", "player": deal["player"],
                                                         "cards": deal["cards"][start:start + 3]})
                return referee.post("/api/matches", {"boxes": ["practice"], "seed": spec["pick"] % 1000})
            return referee.post("/api/actions", actions[spec["pick"] % len(actions)])
        if kind == "post_json":
            return http.post(path, json=spec["body"], headers=headers)
        if spec["content_type"]:
            headers["Content-Type"] = spec["content_type"]
        return http.post(path, data=spec["raw"], headers=headers)

    def check(self, spec: dict) -> None:
        # Every request is checked against the API's state; one in DEEP_EVERY also against
        # the store's events, audit log and match list (reading those dominates the run time).
        deep = self.count % DEEP_EVERY == 0
        before = self.observe(spec, deep=deep)
        response = self.send(spec)
        self.count += 1
        status = response.status_code
        self.statuses[status] = self.statuses.get(status, 0) + 1
        assert status < 500, f"{spec!r} -> {status} {response.get_data(as_text=True)[:300]}"
        path = response.request.path
        if status >= 400 and response.request.method != "HEAD" and path.startswith(("/api/", "/dashboard/api/")):
            body = response.get_json(silent=True)
            assert isinstance(body, dict) and set(body) == {"error", "message"}, (spec, status, body)
        if status >= 400 or response.request.method != "POST":
            assert self.observe(spec, deep=deep) == before, f"{spec!r} -> {status} changed the match"
            self.refused += status >= 400
        else:
            self.accepted += 1
        response.close()


def test_ten_thousand_random_requests_no_5xx_and_refusals_change_nothing(tmp_path):
    with dashboard_app(tmp_path / "data", LOGIN_MAX_FAILURES=10**9) as app:
        fuzzer = Fuzzer(app)
        fuzzer.clients["referee"].post("/api/matches", {"boxes": ["practice"], "seed": 1})

        @settings(max_examples=EXAMPLES, deadline=None, database=None, derandomize=True,
                  suppress_health_check=list(HealthCheck))
        @given(st.lists(request_spec(), min_size=REQUESTS_PER_EXAMPLE, max_size=REQUESTS_PER_EXAMPLE))
        def run(specs):
            for spec in specs:
                fuzzer.check(spec)

        run()
    assert fuzzer.count >= 10_000, fuzzer.count
    # The fuzzer must really have exercised both sides: refusals and accepted changes.
    assert fuzzer.refused > 2_000 and fuzzer.accepted > 200, (fuzzer.refused, fuzzer.accepted, fuzzer.statuses)


def test_wrong_pin_guesses_are_refused_by_the_fuzzer_setup_too(tmp_path):
    # The fuzz run lifts the login rate limit (it guesses PINs by the hundred); this
    # keeps the default limit honest in the same app configuration.
    with dashboard_app(tmp_path / "data") as app:
        guesser = Client(app)
        statuses = [guesser.post("/api/login", {"pin": "000000"}).status_code for _ in range(6)]
        assert statuses[:5] == [403] * 5 and statuses[5] == 429
        assert guesser.post("/api/login", {"pin": PIN}).status_code == 429
