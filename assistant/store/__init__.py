"""Durable SQLite match store: every match ever played, one row per event.

The store knows nothing about the rules: it keeps headers and events as JSON and
hands them back in order. The service replays them through the engine.
"""

from assistant.store.sqlite import (
    AuditEntry,
    MatchNotFound,
    MatchRow,
    MatchStore,
    StoreError,
    StoredEvent,
)

__all__ = ["AuditEntry", "MatchNotFound", "MatchRow", "MatchStore", "StoreError", "StoredEvent"]
