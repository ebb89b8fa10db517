"""Imports point down only: the modules of this area import nothing from the layers above."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# module files -> import prefixes they must not use
RULES = {
    "firmware_config": ("assistant", "vision"),
    "vision/camera.py": ("assistant", "firmware_config"),
    "assistant/hardware": (
        "assistant.store", "assistant.service", "assistant.knockdown", "assistant.web", "assistant.cli",
    ),
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
