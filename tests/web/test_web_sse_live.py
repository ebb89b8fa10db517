"""SSE through the production server (waitress): headers flush at once, events arrive live."""

import http.client
import json
import time

from assistant.service.credentials import table_pin
from tests.service.live_server import Client, Server


def read_block(stream) -> str:
    lines = []
    while True:
        line = stream.readline().decode()
        assert line, "the stream ended"
        if line == "\n":
            return "".join(lines)
        lines.append(line)


def test_events_stream_live_over_waitress_and_resume(tmp_path):
    data_dir = tmp_path / "data"
    pin = table_pin(data_dir)
    server = Server(data_dir, tmp_path / "serve.log")
    try:
        server.start()
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=5)
        try:
            connection.request("GET", "/api/events")
            response = connection.getresponse()  # returns only once the headers are flushed
            assert response.status == 200 and response.getheader("Content-Type").startswith("text/event-stream")
            assert read_block(response).startswith(":")
            first = read_block(response)
            first_id = int(first.split("id: ")[1].split("\n")[0])

            referee = Client(f"http://127.0.0.1:{server.port}")
            referee.token = referee.json("GET", "/api/session")["csrf_token"]
            referee.json("POST", "/api/login", {"pin": pin})
            referee.json("POST", "/api/matches", {"players": ["Ann", "Bob"], "seed": 1})
            live = read_block(response)
            assert f"id: {first_id + 1}\n" in live and '"Ann"' in live
        finally:
            connection.close()

        # A reconnecting tablet names the last id it saw and gets what it missed.
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=5)
        try:
            connection.request("GET", "/api/events", headers={"Last-Event-ID": str(first_id)})
            response = connection.getresponse()
            read_block(response)
            missed = read_block(response)
            assert f"id: {first_id + 1}\n" in missed
            data = json.loads(missed.split("data: ", 1)[1])
            assert data["match"]["events"] == 0
        finally:
            connection.close()
    finally:
        server.kill()


def test_sigterm_with_an_open_stream_stops_cleanly_and_at_once(tmp_path):
    server = Server(tmp_path / "data", tmp_path / "serve.log")
    try:
        server.start()
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=5)
        try:
            connection.request("GET", "/api/events")
            read_block(connection.getresponse())
            began = time.monotonic()
            assert server.terminate() == 0
            # waitress waits up to 5 s for busy threads: the stream must not be one of them.
            assert time.monotonic() - began < 3
        finally:
            connection.close()
        log = (tmp_path / "serve.log").read_text()
        assert "still running" not in log and "Traceback" not in log
    finally:
        server.kill()
