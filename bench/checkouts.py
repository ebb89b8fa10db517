"""The project as it was at a git ref, for the benches that compare two trees."""

from __future__ import annotations

import pathlib
import subprocess

REPO = pathlib.Path(__file__).resolve().parents[1]


def export(ref: str, dest: pathlib.Path) -> pathlib.Path:
    """Write the tree of ``ref`` (a commit, branch or tag of this repository) into ``dest``.

    Raises SystemExit with a sentence naming the ref if git does not know it."""
    archive = subprocess.run(["git", "-C", str(REPO), "archive", ref], capture_output=True)
    if archive.returncode != 0:
        raise SystemExit(f"--against {ref!r}: not a directory, a readings file or a git ref of this "
                         f"repository ({archive.stderr.decode().strip()})")
    dest.mkdir(parents=True, exist_ok=True)
    subprocess.run(["tar", "-x", "-C", str(dest)], input=archive.stdout, check=True)
    return dest
