"""Imports point down only, and the rules tracker does no I/O.

The house, from the ground up: assistant/rules (pure) and firmware_config; the adapters
assistant/store, assistant/hardware and vision; the Knockdown Test flow; the one service;
assistant/web and the CLI on top.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

ABOVE_ADAPTERS = ("assistant.knockdown", "assistant.service", "assistant.web", "assistant.cli")
# Modules that read or write the world, or the clock: none of them in the rules tracker.
IO_MODULES = ("os", "io", "pathlib", "sqlite3", "socket", "subprocess", "time", "datetime", "tomllib",
              "threading", "logging", "shutil", "tempfile")

# module files -> import prefixes they must not use
RULES = {
    "assistant/rules": ("assistant.boxes", "assistant.store", "assistant.hardware", *ABOVE_ADAPTERS,
                        "vision", "firmware_config", *IO_MODULES),
    "firmware_config": ("assistant", "vision"),
    "vision": ("assistant", "firmware_config"),
    "assistant/boxes": ("assistant.store", "assistant.hardware", *ABOVE_ADAPTERS, "vision"),
    "assistant/store": ("assistant.hardware", *ABOVE_ADAPTERS, "vision"),
    "assistant/hardware": ("assistant.store", *ABOVE_ADAPTERS),
    "assistant/knockdown": ("assistant.service", "assistant.web", "assistant.cli"),
    "assistant/service": ("assistant.web", "assistant.cli"),
    "assistant/web": ("assistant.cli",),
}


def imported_modules(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


@pytest.mark.parametrize("target", sorted(RULES))
def test_no_upward_imports(target):
    base = ROOT / target
    files = [base] if base.is_file() else sorted(base.rglob("*.py"))
    assert files, f"nothing to check under {target}"
    offences = [
        f"{file.relative_to(ROOT)} imports {name}"
        for file in files
        for name in sorted(imported_modules(file))
        if any(name == banned or name.startswith(f"{banned}.") for banned in RULES[target])
    ]
    assert offences == []


def test_the_rules_tracker_calls_no_io_builtins():
    calls = [
        f"{file.relative_to(ROOT)}:{node.lineno} calls {node.func.id}()"
        for file in sorted((ROOT / "assistant/rules").rglob("*.py"))
        for node in ast.walk(ast.parse(file.read_text(encoding="utf-8")))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("open", "print", "input")
    ]
    assert calls == []


def test_the_import_check_sees_an_upward_import(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("import os\nfrom assistant.web import create_app\nfrom . import sibling\n")
    assert imported_modules(bad) == {"os", "assistant.web"}
