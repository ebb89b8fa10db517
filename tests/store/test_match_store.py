import sqlite3
import subprocess
import sys
import textwrap

import pytest

from assistant.store import MatchNotFound, MatchStore, StoreError

HEADER = {"format": "knockdown-match", "version": 1, "setup": {"players": ["Ann", "Bob"], "variant": "tower"}}


@pytest.fixture
def store(tmp_path):
    with MatchStore.in_dir(tmp_path) as store:
        yield store


def test_database_is_wal_with_full_sync(store):
    db = sqlite3.connect(store.path)
    try:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    finally:
        db.close()
    # synchronous is per connection: check the store's own one.
    assert store._db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def test_events_come_back_in_order_and_survive_reopening(tmp_path):
    with MatchStore.in_dir(tmp_path) as store:
        match_id = store.create_match(HEADER)
        for n in range(5):
            store.append(match_id, {"type": "move", "player": n % 2, "to": f"S{n}"})
    with MatchStore.in_dir(tmp_path) as store:
        assert store.current_match_id() == match_id
        assert [e["to"] for e in store.events(match_id)] == ["S0", "S1", "S2", "S3", "S4"]
        assert store.match(match_id).event_count == 5
        assert store.record_lines(match_id)[0] == HEADER


def test_undo_tombstones_the_last_event_and_logs_the_correction(store):
    match_id = store.create_match(HEADER)
    store.append(match_id, {"type": "move", "player": 0, "to": "S4"})
    store.append(match_id, {"type": "move", "player": 1, "to": "S6"})
    undone = store.undo_last(match_id, who="referee", reason="misclick")
    assert undone.event == {"type": "move", "player": 1, "to": "S6"}
    assert store.events(match_id) == [{"type": "move", "player": 0, "to": "S4"}]
    # History keeps the undone event; the audit log says who and why.
    history = store.history(match_id)
    assert [h.undone is not None for h in history] == [False, True]
    assert history[1].undone_by == "referee"
    (entry,) = store.audit_log(match_id)
    assert entry.kind == "undo" and entry.who == "referee"
    assert entry.detail["event"] == undone.event and entry.detail["reason"] == "misclick"
    # The next undo takes the event before; then there is nothing left.
    store.undo_last(match_id)
    assert store.events(match_id) == []
    with pytest.raises(StoreError, match="no event to undo"):
        store.undo_last(match_id)


def test_append_after_undo_replays_in_order(store):
    match_id = store.create_match(HEADER)
    store.append(match_id, {"type": "a"})
    store.undo_last(match_id)
    store.append(match_id, {"type": "b"})
    store.append(match_id, {"type": "c"})
    assert [e["type"] for e in store.events(match_id)] == ["b", "c"]


def test_status_and_result_are_updated_with_the_event(store):
    match_id = store.create_match(HEADER)
    store.append(match_id, {"type": "tower", "player": 0, "passed": False, "source": "camera"},
                 status="finished", result={"winner": 1})
    row = store.match(match_id)
    assert row.status == "finished" and row.result == {"winner": 1}
    assert row.to_json()["players"] == ["Ann", "Bob"]


def test_every_match_is_kept_and_import_does_not_change_the_current_one(store):
    first = store.create_match(HEADER)
    imported = store.create_match(HEADER, events=[{"type": "x"}, {"type": "y"}], make_current=False,
                                  status="finished")
    assert store.current_match_id() == first
    assert [m.id for m in store.matches()] == [first, imported]
    assert store.match(imported).event_count == 2


def test_bad_input_is_refused_naming_the_value(store):
    with pytest.raises(MatchNotFound, match="no match with id 99"):
        store.append(99, {"type": "move"})
    match_id = store.create_match(HEADER)
    with pytest.raises(StoreError, match=r"got \['move'\]"):
        store.append(match_id, ["move"])
    with pytest.raises(StoreError, match="match id must be an integer, got '1'"):
        store.events("1")
    with pytest.raises(StoreError, match="header must be a JSON object"):
        store.create_match("nope")


def test_a_failed_import_leaves_nothing_behind(store):
    with pytest.raises(StoreError):
        store.create_match(HEADER, events=[{"type": "ok"}, {"no": "type"}])
    assert store.matches() == []


def test_lease_keeps_growing_across_reopen(tmp_path):
    with MatchStore.in_dir(tmp_path) as store:
        assert store.lease("version", 100) == (0, 100)
        assert store.lease("version", 100) == (100, 200)
    with MatchStore.in_dir(tmp_path) as store:
        assert store.lease("version", 10) == (200, 210)


def test_closed_store_refuses_and_close_is_idempotent(tmp_path):
    store = MatchStore.in_dir(tmp_path)
    store.close()
    store.close()
    with pytest.raises(StoreError, match="is closed"):
        store.matches()


def test_kill_during_a_write_storm_never_corrupts_or_loses_an_acknowledged_event(tmp_path):
    # A child appends as fast as it can and prints each committed id; we SIGKILL it mid-stream.
    script = textwrap.dedent(f"""
        import sys
        from assistant.store import MatchStore
        store = MatchStore.in_dir({str(tmp_path)!r})
        match_id = store.current_match_id() or store.create_match({{"format": "knockdown-match"}})
        n = 0
        while True:
            store.append(match_id, {{"type": "tick", "n": n}})
            print(n, flush=True)
            n += 1
    """)
    for _ in range(3):
        proc = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
        acknowledged = [int(proc.stdout.readline()) for _ in range(40)]
        proc.kill()
        proc.communicate()
        with MatchStore.in_dir(tmp_path) as store:
            assert store._db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
            stored = [e["n"] for e in store.events(store.current_match_id())]
            assert set(acknowledged) <= set(stored)


def test_an_override_is_logged_in_the_same_transaction_as_its_event(store):
    match_id = store.create_match(HEADER)
    event_id = store.append(match_id, {"type": "tower", "player": 0, "passed": True, "source": "override"},
                            who="referee", audit=("override", {"camera": "fail"}))
    (entry,) = store.audit_log(match_id)
    assert (entry.kind, entry.who, entry.detail) == ("override", "referee", {"camera": "fail", "event_id": event_id})
