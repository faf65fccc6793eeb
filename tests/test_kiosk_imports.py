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


CLOCK_USERS = ("journal", "vision", "hardware", "kiosk", "floor")


def _names_bound_to_the_clock_protocol(tree: ast.AST) -> set[str]:
    return {alias.asname or alias.name for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom) and node.module == "engine.clock"
            for alias in node.names if alias.name == "Clock"}


def _is_a_clock(name: str) -> bool:  # clock, self._clock, wall_clock; not clockwise
    return name.rsplit(".", 1)[-1].lower().endswith("clock")


def test_there_is_one_clock_protocol_and_it_is_the_engines() -> None:
    definitions = []
    for package in PACKAGES:
        for name, path in _modules(package).items():
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.ClassDef) and "clock" in node.name.lower() and any(
                        getattr(base, "id", getattr(base, "attr", "")) == "Protocol" for base in node.bases):
                    definitions.append(f"{name}.{node.name}")
    assert definitions == ["engine.clock.Clock"]


def test_every_clock_the_packages_take_is_typed_with_the_engines_protocol() -> None:
    wrong = []
    for package in CLOCK_USERS:
        for name, path in _modules(package).items():
            tree = ast.parse(path.read_text(encoding="utf-8"))
            protocol = _names_bound_to_the_clock_protocol(tree)
            for node in ast.walk(tree):
                if isinstance(node, ast.arg) and _is_a_clock(node.arg):
                    label, annotation = node.arg, node.annotation
                elif isinstance(node, ast.AnnAssign) and _is_a_clock(ast.unparse(node.target)):
                    label, annotation = ast.unparse(node.target), node.annotation
                else:
                    continue
                named = {n.id for n in ast.walk(annotation) if isinstance(n, ast.Name)} if annotation else set()
                if not named & protocol:
                    wrong.append(f"{name}:{node.lineno} {label}: {ast.unparse(annotation) if annotation else '-'}")
    assert wrong == []


def test_the_clocks_all_fit_the_one_protocol_and_the_entry_points_name_it() -> None:
    import typing

    import engine.clock
    import floor.console.app
    import hardware.client
    import journal
    import kiosk.clock
    import kiosk.runtime
    import vision.clock
    import vision.enroll.profile
    import vision.sources
    from engine.clock import Clock

    for clock in (journal.SystemClock(), journal.ManualClock(), kiosk.clock.ManualClock(), vision.clock.SystemClock(),
                  hardware.client.SystemClock()):
        assert isinstance(clock, Clock), type(clock)
    # one clock module: every package's SystemClock and ManualClock are engine.clock's
    assert journal.SystemClock is vision.clock.SystemClock is hardware.client.SystemClock is engine.clock.SystemClock
    assert journal.ManualClock is engine.clock.ManualClock and issubclass(kiosk.clock.ManualClock, journal.ManualClock)
    written = [f"{path.relative_to(ROOT)}:{node.lineno}"
               for package in ("engine", "vision", "hardware", "journal", "kiosk", "floor")
               for path in (ROOT / package).rglob("*.py") if path != ROOT / "engine" / "clock.py"
               for node in ast.walk(ast.parse(path.read_text())) if isinstance(node, ast.ClassDef)
               and node.name in ("SystemClock", "ManualClock") and not node.bases]
    assert written == [], "a clock written again: take engine.clock's"
    for takes_a_clock in (journal.Journal.open, kiosk.runtime.KioskRuntime.__init__,
                          vision.sources.CaptureSource.__init__, vision.enroll.profile.save_profile,
                          hardware.client.DeviceClient.__init__, floor.console.app.Console.__init__):
        assert typing.get_type_hints(takes_a_clock)["clock"] == Clock | None


def test_no_kiosk_module_reaches_a_game_by_its_name() -> None:
    """The screens and the runtime's loop reach the game played now through ``KioskRuntime.controller`` (the
    ``TableController`` protocol) and the Bài Bửu table's shaker and set-up through ``KioskRuntime.dice_table`` (the
    ``DiceTable`` protocol), never through an attribute named after a game."""
    reached = []
    for name, path in _modules("kiosk").items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and node.attr in ("baibuu", "samloc", "schmier", "active"):
                reached.append(f"{name}:{node.lineno} {ast.unparse(node)}")
    assert reached == []


def test_the_runtime_builds_the_tables_by_the_games_makers_and_names_no_controller_class() -> None:
    games = tuple(f"kiosk.controller.{game}" for game in ("baibuu", "samloc", "schmier"))
    named = sorted(i for i in _imports(ROOT / "kiosk" / "runtime.py") if i.startswith(games))
    assert named == []


READING_PATH = ("vision.reader", "vision.reader_models", "vision.table_reader")
NOT_SHIPPED = ("vision.eval", "vision.train", "vision.train_data", "vision.synth")
DRAWS_ITS_OWN_CARDS = {("vision.sources", "vision.synth.faces")}
"""The demo's synthetic felt draws its cards with the scene generator's faces, and only when it is opened."""


def test_the_card_reading_path_imports_nothing_of_training_evaluation_or_scene_generation() -> None:
    modules = _modules("vision")
    graph = {name: {i for i in _imports(path) if i in modules} for name, path in modules.items()}
    reached, stack, wrong = set(), list(READING_PATH), []
    while stack:
        name = stack.pop()
        if name in reached:
            continue
        reached.add(name)
        for imported in sorted(graph[name]):
            if any(imported == n or imported.startswith(n + ".") for n in NOT_SHIPPED):
                if (name, imported) not in DRAWS_ITS_OWN_CARDS:
                    wrong.append(f"{name} imports {imported}")
            else:
                stack.append(imported)
    assert wrong == []
