"""Table calibration: the homography from markers, its file, its errors, and the printable marker sheet."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from vision.calibration import Calibration, CalibrationError, MarkerSpec, calibrate, find_markers, marker_sheet
from vision.layout import load_layout, render_plan
from vision.sources import SyntheticTableSource

LAYOUT = load_layout("baibuu_7")
GRID_MM = np.array([[x, y] for x in range(100, 1800, 200) for y in range(100, 1000, 200)], dtype=np.float64)


def _pixels(homography: np.ndarray, points_mm: np.ndarray) -> np.ndarray:
    return cv2.perspectiveTransform(points_mm.reshape(-1, 1, 2), homography).reshape(-1, 2)


@pytest.mark.parametrize(("tilt", "turn_deg"), [(0.0, 0.0), (0.08, 1.5), (0.14, -2.0)])
def test_calibration_recovers_the_camera_of_a_rendered_table(tilt: float, turn_deg: float) -> None:
    source = SyntheticTableSource(LAYOUT, size=(1280, 720), tilt=tilt, turn_deg=turn_deg, noise=2.0)
    frame = source.read()
    assert frame is not None
    calibration = calibrate(frame, LAYOUT.markers)
    assert calibration.markers_found == (0, 1, 2, 3)
    assert calibration.image_size == (1280, 720)
    # Every point of the table lands within a pixel of where the known camera puts it, and back.
    truth_px = _pixels(source.homography, GRID_MM)
    assert np.abs(calibration.to_pixels(GRID_MM) - truth_px).max() < 1.0
    assert np.abs(calibration.to_table(truth_px) - GRID_MM).max() < 2.0  # ≈ 1.4 mm per pixel at this size
    assert calibration.error_mm < 1.5


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.integers(-45, 45), min_size=8, max_size=8))
def test_calibration_recovers_any_plausible_homography(jitter: list[int]) -> None:
    """The table's corners land anywhere near a nominal view (perspective, turn, shear): the homography follows."""
    plan = render_plan(LAYOUT, px_per_mm=1.0)  # a top-down table: 1 px per mm
    nominal = np.array([[90, 60], [1190, 60], [1190, 660], [90, 660]], dtype=np.float64)
    target = nominal + np.array(jitter, dtype=np.float64).reshape(4, 2)
    table = np.array([[0, 0], [1800, 0], [1800, 1000], [0, 1000]], dtype=np.float64)
    known = cv2.getPerspectiveTransform(table.astype(np.float32), target.astype(np.float32))
    frame = cv2.warpPerspective(plan, known, (1280, 720), flags=cv2.INTER_AREA, borderValue=(230, 230, 230))
    calibration = calibrate(frame, LAYOUT.markers)
    error = np.abs(calibration.to_pixels(GRID_MM) - _pixels(known, GRID_MM)).max()
    assert error < 1.0


def test_a_marker_laid_turned_is_still_matched_right() -> None:
    px_per_mm = 0.6
    plan = render_plan(LAYOUT, px_per_mm=px_per_mm)
    white = np.full((760, 1240, 3), 235, np.uint8)  # a border, so the markers at the edge have a quiet zone
    white[80 : 80 + plan.shape[0], 80 : 80 + plan.shape[1]] = plan
    x0, y0 = (np.round(LAYOUT.markers.corners_mm(2)[0] * px_per_mm) + 80).astype(int)
    side = round(LAYOUT.markers.size_mm * px_per_mm)
    white[y0 : y0 + side, x0 : x0 + side] = np.rot90(white[y0 : y0 + side, x0 : x0 + side]).copy()
    calibration = calibrate(white, LAYOUT.markers)
    expected = GRID_MM * px_per_mm + 80
    assert np.abs(calibration.to_pixels(GRID_MM) - expected).max() < 1.0


def test_missing_markers_are_named_with_what_to_do() -> None:
    frame = SyntheticTableSource(LAYOUT, noise=0).read()
    assert frame is not None
    corners = find_markers(frame, LAYOUT.markers)
    for marker_id in (1, 3):  # a hand over two corners
        x1, y1 = corners[marker_id].min(axis=0).astype(int) - 12
        x2, y2 = corners[marker_id].max(axis=0).astype(int) + 12
        frame[y1:y2, x1:x2] = (40, 110, 40)
    with pytest.raises(CalibrationError) as caught:
        calibrate(frame, LAYOUT.markers)
    message = str(caught.value)
    assert "markers 1 and 3 not found" in message
    assert "only markers 0 and 2 seen" in message
    assert "in the camera's view" in message
    # When the operator accepts fewer markers, the two left still give a usable homography.
    assert calibrate(frame, LAYOUT.markers, min_markers=2).markers_found == (0, 2)


def test_no_markers_at_all() -> None:
    felt = np.full((720, 1280, 3), (40, 110, 40), np.uint8)
    with pytest.raises(CalibrationError, match=r"markers 0, 1, 2 and 3 not found .no DICT_4X4_50 marker seen"):
        calibrate(felt, LAYOUT.markers)


def test_markers_that_disagree_with_the_layout_are_refused() -> None:
    frame = SyntheticTableSource(LAYOUT, noise=0).read()
    assert frame is not None
    moved = dict(LAYOUT.markers.centres_mm)
    moved[2] = (moved[2][0] - 300.0, moved[2][1])  # the layout says marker 2 lies 30 cm further left
    wrong = MarkerSpec(LAYOUT.markers.dictionary, LAYOUT.markers.size_mm, moved)
    with pytest.raises(CalibrationError, match="do not agree with the layout"):
        calibrate(frame, wrong)


def test_calibration_file_round_trip_and_frame_size_check(tmp_path: Path) -> None:
    frame = SyntheticTableSource(LAYOUT, size=(1280, 720)).read()
    assert frame is not None
    calibration = calibrate(frame, LAYOUT.markers)
    path = tmp_path / "table" / "calibration.json"
    calibration.save(path)
    loaded = Calibration.load(path)
    assert np.allclose(loaded.homography, calibration.homography)
    assert loaded.image_size == calibration.image_size
    assert loaded.markers_found == calibration.markers_found
    loaded.check_frame(1280, 720)
    with pytest.raises(CalibrationError, match=r"made on 1280×720 frames but the camera gives 1920×1080"):
        loaded.check_frame(1920, 1080)


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        ("{not json", "not valid JSON"),
        ('{"format": 99}', "unknown calibration format 99"),
        ('{"format": 1, "image_size": [1280, 720]}', "missing or malformed field"),
        (
            json.dumps({"format": 1, "image_size": [1280, 720], "homography_px_to_mm": [[0, 0, 0]] * 3}),
            "not an invertible 3×3 matrix",
        ),
    ],
)
def test_a_damaged_calibration_file_says_so(tmp_path: Path, content: str, expected: str) -> None:
    path = tmp_path / "calibration.json"
    path.write_text(content)
    with pytest.raises(CalibrationError, match=expected) as caught:
        Calibration.load(path)
    assert str(path) in str(caught.value)


def test_no_calibration_file(tmp_path: Path) -> None:
    with pytest.raises(CalibrationError, match="run `dealer-assist vision calibrate`"):
        Calibration.load(tmp_path / "missing.json")


def test_marker_spec_validation() -> None:
    with pytest.raises(CalibrationError, match="unknown ArUco dictionary"):
        MarkerSpec("DICT_9X9_1", 80, {0: (0, 0)})
    with pytest.raises(CalibrationError, match="marker id 77 is not in DICT_4X4_50"):
        MarkerSpec("DICT_4X4_50", 80, {77: (0, 0)})
    with pytest.raises(CalibrationError, match="positive number"):
        MarkerSpec("DICT_4X4_50", -3, {0: (0, 0)})


def test_marker_sheet_prints_each_marker_at_its_true_size(tmp_path: Path) -> None:
    written = marker_sheet(LAYOUT.markers, tmp_path / "sheet.png", dpi=200)
    assert written == [tmp_path / "sheet.png"]
    page = cv2.imread(str(written[0]))
    assert page.shape[:2] == (round(297 / 25.4 * 200), round(210 / 25.4 * 200))  # A4 portrait
    found = find_markers(page, LAYOUT.markers)
    assert sorted(found) == [0, 1, 2, 3]
    expected_side = LAYOUT.markers.size_mm / 25.4 * 200
    for corners in found.values():
        side = np.linalg.norm(corners[1] - corners[0])
        assert abs(side - expected_side) < 3  # printed at 100 %, an 80 mm marker measures 80 mm
    pdf = marker_sheet(LAYOUT.markers, tmp_path / "sheet.pdf")
    assert pdf[0].read_bytes().startswith(b"%PDF")
    with pytest.raises(CalibrationError, match=r"\.pdf or \.png"):
        marker_sheet(LAYOUT.markers, tmp_path / "sheet.svg")
