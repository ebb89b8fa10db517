import json


def read_events(response, count):
    """The first `count` SSE blocks (comments included) from a streaming test response."""
    blocks, buffer = [], ""
    chunks = iter(response.response)
    while len(blocks) < count:
        buffer += _text(next(chunks))
        while "\n\n" in buffer and len(blocks) < count:
            block, buffer = buffer.split("\n\n", 1)
            blocks.append(block)
    return blocks


def _text(chunk):
    return chunk.decode() if isinstance(chunk, bytes) else chunk


def parse(block):
    fields = {}
    for line in block.splitlines():
        key, _, value = line.partition(": ")
        fields.setdefault(key, value)
    return fields


def test_stream_starts_with_a_comment_then_the_current_state(app, service):
    response = app.test_client().get("/api/events", buffered=False)
    try:
        assert response.mimetype == "text/event-stream"
        assert response.headers["Cache-Control"] == "no-cache"
        first, second = read_events(response, 2)
        assert first.startswith(":")
        event = parse(second)
        assert event["event"] == "state" and int(event["id"]) == service.version
        assert json.loads(event["data"])["version"] == service.version
    finally:
        response.close()


def test_reconnect_with_last_event_id_misses_nothing(app, referee, service):
    seen = service.version
    referee.post("/api/matches", json={})
    referee.post("/api/actions", json={"type": "move", "player": 0, "to": 2})
    referee.post("/api/actions", json={"type": "move", "player": 1, "to": 8})
    response = app.test_client().get("/api/events", headers={"Last-Event-ID": str(seen)}, buffered=False)
    try:
        blocks = read_events(response, 4)
        ids = [int(parse(b)["id"]) for b in blocks[1:]]
        assert ids == [seen + 1, seen + 2, seen + 3]
        assert json.loads(parse(blocks[-1])["data"])["snapshot"]["positions"] == [2, 8]
    finally:
        response.close()


def test_unknown_last_event_id_gets_the_current_state_and_keepalives_follow(app, service):
    response = app.test_client().get("/api/events", headers={"Last-Event-ID": "999999999"}, buffered=False)
    try:
        comment, state, keepalive = read_events(response, 3)
        assert int(parse(state)["id"]) == service.version
        assert keepalive == ": keep-alive"
    finally:
        response.close()


def test_several_clients_get_the_same_live_change(app, referee, service):
    clients = [app.test_client().get("/api/events", buffered=False) for _ in range(3)]
    try:
        for response in clients:
            read_events(response, 2)  # comment + current state
        referee.post("/api/matches", json={})
        for response in clients:
            (block,) = read_events(response, 1)
            assert int(parse(block)["id"]) == service.version
    finally:
        for response in clients:
            response.close()


def test_closing_the_service_ends_the_stream(app, service):
    response = app.test_client().get("/api/events", buffered=False)
    try:
        read_events(response, 2)
        service.broadcaster.close()
        assert list(response.response) == []
    finally:
        response.close()
