"""The floor imports the journal and the engine, never the kiosk (ARCHITECTURE.md): a kiosk may use the floor's
shipper, and the floor's server runs where no kiosk code is installed."""

from __future__ import annotations

import ast
from pathlib import Path

FLOOR = Path(__file__).resolve().parent.parent / "floor"
OURS = {"engine", "vision", "hardware", "journal", "kiosk", "floor"}
ALLOWED = {"engine", "journal", "floor"}


def imported_packages(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module.split(".")[0])
    return found


def test_the_floor_imports_only_the_journal_and_the_engine_of_ours() -> None:
    wrong = {str(path.relative_to(FLOOR.parent)): sorted((imported_packages(path) & OURS) - ALLOWED)
             for path in sorted(FLOOR.rglob("*.py"))}
    assert {path: names for path, names in wrong.items() if names} == {}
    assert len(wrong) > 5
