"""The kiosk's own imports: no production module imports a test helper, and no module of ``kiosk/`` imports one that
imports it back (imports inside functions count: they only put the circle off until run time)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("engine", "journal", "hardware", "vision", "kiosk", "floor")
TEST_HELPERS = ("kiosk.testing", "tests")


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return found


def _modules(package: str) -> dict[str, Path]:
    return {_module_name(path): path for path in (ROOT / package).rglob("*.py")}


def test_no_production_module_imports_a_test_helper() -> None:
    offenders = []
    for package in PACKAGES:
        for name, path in _modules(package).items():
            if name in TEST_HELPERS:
                continue
            bad = sorted(i for i in _imports(path) if any(i == t or i.startswith(t + ".") for t in TEST_HELPERS))
            if bad:
                offenders.append(f"{name} imports {', '.join(bad)}")
    assert offenders == []


def test_no_import_circle_inside_the_kiosk() -> None:
    modules = _modules("kiosk")
    graph = {name: {i for i in _imports(path) if i in modules and i != name} for name, path in modules.items()}
    circles = []
    for start in graph:
        stack = [(start, [start])]
        while stack:
            node, trail = stack.pop()
            for following in graph[node]:
                if following == start:
                    circles.append(" -> ".join([*trail, start]))
                elif following not in trail and following > start:  # each circle once, from its least module
                    stack.append((following, [*trail, following]))
    assert circles == []
