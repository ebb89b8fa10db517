"""The SQLite match store.

Durability: WAL journal with ``synchronous=FULL``, so a commit has reached the disk
before :meth:`MatchStore.append` returns; the caller acknowledges an action only
after that. A ``kill -9`` at any moment leaves either the whole transaction or none
of it.

Undo never deletes: the last live event gets an ``undone`` timestamp (a tombstone)
and an audit row in the same transaction, so replay sees one event fewer while the
history of every correction stays readable.
"""

from __future__ import annotations

import json
import sqlite3
import threading
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Iterable

SCHEMA_VERSION = 1
DATABASE_NAME = "matches.sqlite3"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS matches (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    created TEXT NOT NULL,
    updated TEXT NOT NULL,
    header TEXT NOT NULL,
    status TEXT NOT NULL,
    result TEXT
);
CREATE TABLE IF NOT EXISTS events (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    match_id INTEGER NOT NULL REFERENCES matches(id),
    event TEXT NOT NULL,
    created TEXT NOT NULL,
    who TEXT,
    undone TEXT,
    undone_by TEXT
);
CREATE INDEX IF NOT EXISTS events_by_match ON events(match_id, id);
CREATE TABLE IF NOT EXISTS audit (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    match_id INTEGER REFERENCES matches(id),
    at TEXT NOT NULL,
    who TEXT,
    kind TEXT NOT NULL,
    detail TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
"""


class StoreError(ValueError):
    """The store refused a request (bad id, nothing to undo, foreign database...)."""


class MatchNotFound(StoreError, LookupError):
    """No match with that id."""


@dataclass(frozen=True)
class MatchRow:
    id: int
    created: str
    updated: str
    header: dict
    status: str
    result: Any
    event_count: int

    def to_json(self) -> dict:
        setup = self.header.get("setup") or {}
        return {
            "id": self.id,
            "created": self.created,
            "updated": self.updated,
            "status": self.status,
            "result": self.result,
            "events": self.event_count,
            "players": setup.get("players"),
            "variant": setup.get("variant"),
        }


@dataclass(frozen=True)
class StoredEvent:
    id: int
    match_id: int
    event: dict
    created: str
    who: str | None
    undone: str | None
    undone_by: str | None


@dataclass(frozen=True)
class AuditEntry:
    id: int
    match_id: int | None
    at: str
    who: str | None
    kind: str
    detail: dict

    def to_json(self) -> dict:
        return {"id": self.id, "match_id": self.match_id, "at": self.at, "who": self.who,
                "kind": self.kind, "detail": self.detail}


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="milliseconds")


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


class MatchStore:
    """Every match ever played, in one SQLite file. Thread-safe; one connection."""

    def __init__(self, path: str | Path, *, timeout: float = 10.0):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.RLock()
        # isolation_level=None: we issue BEGIN IMMEDIATE ourselves so a transaction
        # takes the write lock up front and never half-applies.
        self._conn: sqlite3.Connection | None = sqlite3.connect(
            str(self.path), timeout=timeout, isolation_level=None, check_same_thread=False
        )
        try:
            mode = self._conn.execute("PRAGMA journal_mode=WAL").fetchone()[0]
            if mode.lower() != "wal":
                raise StoreError(f"{str(self.path)!r}: cannot switch the journal to WAL (got {mode!r})")
            self._conn.execute("PRAGMA synchronous=FULL")
            self._conn.execute("PRAGMA foreign_keys=ON")
            version = self._conn.execute("PRAGMA user_version").fetchone()[0]
            if version not in (0, SCHEMA_VERSION):
                raise StoreError(
                    f"{str(self.path)!r}: schema version {version!r} is not one this build reads "
                    f"({SCHEMA_VERSION})"
                )
            with self._transaction():
                for statement in _SCHEMA.split(";"):
                    if statement.strip():
                        self._conn.execute(statement)
                self._conn.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
        except BaseException:
            self.close()
            raise

    @classmethod
    def in_dir(cls, data_dir: str | Path, **options) -> "MatchStore":
        return cls(Path(data_dir) / DATABASE_NAME, **options)

    # -- life cycle -------------------------------------------------------
    def close(self) -> None:
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None

    @property
    def closed(self) -> bool:
        return self._conn is None

    def __enter__(self) -> "MatchStore":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    @property
    def _db(self) -> sqlite3.Connection:
        if self._conn is None:
            raise StoreError(f"the store {str(self.path)!r} is closed")
        return self._conn

    def _transaction(self):
        return _Transaction(self)

    # -- matches ------------------------------------------------------------
    def create_match(
        self,
        header: dict,
        *,
        status: str = "in_progress",
        result: Any = None,
        events: Iterable[dict] = (),
        make_current: bool = True,
        who: str | None = None,
    ) -> int:
        """Add a match (with its events, for an import) in one transaction; returns its id."""
        if not isinstance(header, dict):
            raise StoreError(f"header must be a JSON object, got {header!r}")
        at = _now()
        with self._transaction() as db:
            cursor = db.execute(
                "INSERT INTO matches (created, updated, header, status, result) VALUES (?, ?, ?, ?, ?)",
                (at, at, _dumps(header), status, _dumps(result)),
            )
            match_id = int(cursor.lastrowid)
            db.executemany(
                "INSERT INTO events (match_id, event, created, who) VALUES (?, ?, ?, ?)",
                [(match_id, _dumps(_checked_event(event)), at, who) for event in events],
            )
            if make_current:
                self._set_meta(db, "current_match", str(match_id))
        return match_id

    def current_match_id(self) -> int | None:
        with self._lock:
            value = self._get_meta(self._db, "current_match")
        return int(value) if value is not None else None

    def match(self, match_id: int) -> MatchRow:
        if not -(2**63) <= match_id < 2**63:  # beyond SQLite's integers: no such match (not an OverflowError)
            raise MatchNotFound(f"no match with id {match_id!r}")
        with self._lock:
            row = self._db.execute(_MATCH_QUERY + " WHERE m.id = ? GROUP BY m.id", (match_id,)).fetchone()
        if row is None:
            raise MatchNotFound(f"no match with id {match_id!r}")
        return _match_row(row)

    def matches(self) -> list[MatchRow]:
        with self._lock:
            rows = self._db.execute(_MATCH_QUERY + " GROUP BY m.id ORDER BY m.id").fetchall()
        return [_match_row(row) for row in rows]

    def set_status(self, match_id: int, status: str, result: Any = None) -> None:
        with self._transaction() as db:
            self._require_match(db, match_id)
            db.execute("UPDATE matches SET status = ?, result = ?, updated = ? WHERE id = ?",
                       (status, _dumps(result), _now(), match_id))

    # -- events ---------------------------------------------------------------
    def append(
        self,
        match_id: int,
        event: dict,
        *,
        who: str | None = None,
        status: str | None = None,
        result: Any = None,
        audit: tuple[str, dict] | None = None,
    ) -> int:
        """Commit one event (the match's new status, and an audit entry that explains it,
        e.g. a referee override) durably in one transaction; returns the event's row id."""
        payload = _dumps(_checked_event(event))
        at = _now()
        with self._transaction() as db:
            self._require_match(db, match_id)
            cursor = db.execute(
                "INSERT INTO events (match_id, event, created, who) VALUES (?, ?, ?, ?)",
                (match_id, payload, at, who),
            )
            event_id = int(cursor.lastrowid)
            if audit is not None:
                kind, detail = audit
                db.execute(
                    "INSERT INTO audit (match_id, at, who, kind, detail) VALUES (?, ?, ?, ?, ?)",
                    (match_id, at, who, kind, _dumps({**detail, "event_id": event_id})),
                )
            self._touch(db, match_id, at, status, result)
        return event_id

    def undo_last(
        self,
        match_id: int,
        *,
        who: str | None = None,
        reason: str | None = None,
        status: str | None = None,
        result: Any = None,
    ) -> StoredEvent:
        """Tombstone the last live event and log the correction, in one transaction."""
        at = _now()
        with self._transaction() as db:
            self._require_match(db, match_id)
            row = db.execute(
                "SELECT id, match_id, event, created, who, undone, undone_by FROM events "
                "WHERE match_id = ? AND undone IS NULL ORDER BY id DESC LIMIT 1",
                (match_id,),
            ).fetchone()
            if row is None:
                raise StoreError(f"match {match_id!r} has no event to undo")
            db.execute("UPDATE events SET undone = ?, undone_by = ? WHERE id = ?", (at, who, row[0]))
            db.execute(
                "INSERT INTO audit (match_id, at, who, kind, detail) VALUES (?, ?, ?, 'undo', ?)",
                (match_id, at, who, _dumps({"event_id": row[0], "event": json.loads(row[2]), "reason": reason})),
            )
            self._touch(db, match_id, at, status, result)
        return StoredEvent(row[0], row[1], json.loads(row[2]), row[3], row[4], at, who)

    def events(self, match_id: int) -> list[dict]:
        """The live events, oldest first: what replay folds over."""
        return [stored.event for stored in self.history(match_id) if stored.undone is None]

    def history(self, match_id: int) -> list[StoredEvent]:
        """Every event ever appended, undone ones included."""
        with self._lock:
            self._require_match(self._db, match_id)
            rows = self._db.execute(
                "SELECT id, match_id, event, created, who, undone, undone_by FROM events "
                "WHERE match_id = ? ORDER BY id",
                (match_id,),
            ).fetchall()
        return [StoredEvent(r[0], r[1], json.loads(r[2]), r[3], r[4], r[5], r[6]) for r in rows]

    def record_lines(self, match_id: int) -> list[dict]:
        """Header then live events: the objects of a match record, one per line."""
        with self._lock:
            header = self.match(match_id).header
            return [header, *self.events(match_id)]

    # -- audit ------------------------------------------------------------------
    def log(self, match_id: int | None, kind: str, detail: dict, *, who: str | None = None) -> int:
        """Append an audit entry (override, dice seed, countdown cancelled by restart...)."""
        with self._transaction() as db:
            cursor = db.execute(
                "INSERT INTO audit (match_id, at, who, kind, detail) VALUES (?, ?, ?, ?, ?)",
                (match_id, _now(), who, kind, _dumps(detail)),
            )
        return int(cursor.lastrowid)

    def audit_log(self, match_id: int | None = None) -> list[AuditEntry]:
        query = "SELECT id, match_id, at, who, kind, detail FROM audit"
        params: tuple = ()
        if match_id is not None:
            query += " WHERE match_id = ?"
            params = (match_id,)
        with self._lock:
            rows = self._db.execute(query + " ORDER BY id", params).fetchall()
        return [AuditEntry(r[0], r[1], r[2], r[3], r[4], json.loads(r[5])) for r in rows]

    # -- small durable counters -------------------------------------------------
    def lease(self, key: str, size: int) -> tuple[int, int]:
        """Reserve the next ``size`` values of a durable counter: returns [start, end).

        Used for the service's state version: it must keep growing across restarts
        without a disk write per change.
        """
        with self._transaction() as db:
            start = int(self._get_meta(db, key) or 0)
            self._set_meta(db, key, str(start + size))
        return start, start + size

    # -- helpers ----------------------------------------------------------------
    def _require_match(self, db: sqlite3.Connection, match_id: int) -> None:
        if not isinstance(match_id, int) or isinstance(match_id, bool):
            raise StoreError(f"match id must be an integer, got {match_id!r}")
        if db.execute("SELECT 1 FROM matches WHERE id = ?", (match_id,)).fetchone() is None:
            raise MatchNotFound(f"no match with id {match_id!r}")

    def _touch(self, db, match_id, at, status, result) -> None:
        if status is None:
            db.execute("UPDATE matches SET updated = ? WHERE id = ?", (at, match_id))
        else:
            db.execute("UPDATE matches SET updated = ?, status = ?, result = ? WHERE id = ?",
                       (at, status, _dumps(result), match_id))

    @staticmethod
    def _get_meta(db: sqlite3.Connection, key: str) -> str | None:
        row = db.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None

    @staticmethod
    def _set_meta(db: sqlite3.Connection, key: str, value: str) -> None:
        db.execute("INSERT INTO meta (key, value) VALUES (?, ?) "
                   "ON CONFLICT(key) DO UPDATE SET value = excluded.value", (key, value))


class _Transaction:
    """``BEGIN IMMEDIATE`` ... ``COMMIT``, or ``ROLLBACK`` on any error, under the store lock."""

    def __init__(self, store: MatchStore):
        self._store = store

    def __enter__(self) -> sqlite3.Connection:
        self._store._lock.acquire()
        try:
            db = self._store._db
            db.execute("BEGIN IMMEDIATE")
        except BaseException:
            self._store._lock.release()
            raise
        return db

    def __exit__(self, exc_type, exc, tb) -> None:
        try:
            db = self._store._db
            if exc_type is None:
                db.execute("COMMIT")
            else:
                db.execute("ROLLBACK")
        finally:
            self._store._lock.release()


_MATCH_QUERY = (
    "SELECT m.id, m.created, m.updated, m.header, m.status, m.result, "
    "COUNT(e.id) FILTER (WHERE e.undone IS NULL) "
    "FROM matches m LEFT JOIN events e ON e.match_id = m.id"
)


def _match_row(row) -> MatchRow:
    return MatchRow(row[0], row[1], row[2], json.loads(row[3]), row[4], json.loads(row[5]) if row[5] else None,
                    int(row[6]))


def _checked_event(event: Any) -> dict:
    if not isinstance(event, dict) or not isinstance(event.get("type"), str):
        raise StoreError(f"an event must be a JSON object with a string 'type', got {event!r}")
    return event
