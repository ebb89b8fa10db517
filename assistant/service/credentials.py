"""The table's referee PIN and the session-signing key, kept in the data directory.

Both are made on first use with :mod:`secrets` and written owner-only, so a
restart keeps the referee logged in and the PIN printed on the console stays valid.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path

PIN_FILE = "referee-pin"
SECRET_KEY_FILE = "session-key"
PIN_DIGITS = 6


def _read_or_create(path: Path, make) -> str:
    try:
        return path.read_text(encoding="utf-8").strip()
    except FileNotFoundError:
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    # Write a private temp file, then link it into place: a kill leaves either no file
    # or a complete one, and if two processes race the first link wins for both.
    temp = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}")
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(make() + "\n")
            handle.flush()
            os.fsync(handle.fileno())
        try:
            os.link(temp, path)
        except FileExistsError:
            pass
    finally:
        temp.unlink(missing_ok=True)
    return path.read_text(encoding="utf-8").strip()


def table_pin(data_dir: str | Path, configured: str | None = None) -> str:
    """The referee PIN: the configured one, else the one stored in the data dir."""
    if configured:
        return str(configured)
    return _read_or_create(Path(data_dir) / PIN_FILE,
                           lambda: "".join(secrets.choice("0123456789") for _ in range(PIN_DIGITS)))


def session_key(data_dir: str | Path) -> str:
    return _read_or_create(Path(data_dir) / SECRET_KEY_FILE, lambda: secrets.token_hex(32))
