"""Box geometry, written once (vision.detection): the overlap measures the reader, the evaluation, enrollment's
check and the benches all count with."""

from __future__ import annotations

import ast
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from vision.detection import box_area, covered_share, iou

REPO = Path(__file__).resolve().parent.parent
coordinate = st.floats(0, 2000, allow_nan=False)


@st.composite
def boxes(draw: st.DrawFn) -> tuple[float, float, float, float]:
    x1, y1 = draw(coordinate), draw(coordinate)
    return (x1, y1, x1 + draw(st.floats(1, 500)), y1 + draw(st.floats(1, 500)))


def test_overlap_measures_of_known_boxes() -> None:
    a, b = (0.0, 0.0, 10.0, 10.0), (5.0, 0.0, 15.0, 10.0)
    assert box_area(a) == 100.0
    assert iou(a, b) == 50.0 / 150.0
    assert covered_share(a, b) == 0.5 and covered_share((0.0, 0.0, 4.0, 4.0), a) == 1.0
    assert covered_share((3.0, 3.0, 3.0, 9.0), a) == 0.0  # an empty box is covered by nothing
    assert iou(a, (20.0, 20.0, 30.0, 30.0)) == 0.0


@given(boxes(), boxes())
def test_iou_is_symmetric_and_never_above_either_covered_share(a: tuple[float, ...], b: tuple[float, ...]) -> None:
    assert abs(iou(a, b) - iou(b, a)) < 1e-9
    assert 0.0 <= iou(a, b) <= min(covered_share(a, b), covered_share(b, a)) + 1e-9 <= 1.0 + 1e-9
    assert abs(iou(a, a) - 1.0) < 1e-9


def test_no_other_module_writes_its_own_box_overlap() -> None:
    names = {"iou", "_iou", "box_iou", "covered_share", "_overlap_share", "overlap_share", "_area", "box_area"}
    found = []
    for path in [*(REPO / "vision").rglob("*.py"), *(REPO / "bench").glob("*.py"), *(REPO / "kiosk").rglob("*.py")]:
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FunctionDef) and node.name in names and path.name != "detection.py":
                found.append(f"{path.relative_to(REPO)}:{node.lineno} {node.name}")
    assert not found, f"box geometry belongs in vision/detection.py: {found}"
