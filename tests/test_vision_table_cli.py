"""``dealer-assist vision calibrate | watch | layout | markers`` run the way a user runs them."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.calibration import Calibration, find_markers
from vision.layout import load_layout
from vision.sources import SyntheticTableSource


def run(command: list[str], args: list[str], env: dict[str, str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*command, "vision", *args], env=env, cwd=cwd, capture_output=True, text=True, timeout=120)


def test_calibrate_from_the_synthetic_camera_then_draw_the_layout_over_a_frame(
    dealer_assist: list[str], cli_env: dict[str, str], tmp_path: Path
) -> None:
    result = run(dealer_assist, ["calibrate", "--camera", "synthetic", "--snapshot", "check.png"], cli_env, tmp_path)
    assert result.returncode == 0, result.stderr
    assert "calibrated 1920×1080 frames from markers 0, 1, 2, 3" in result.stdout
    calibration = Calibration.load(tmp_path / "data" / "calibration.json")  # the default place
    source = SyntheticTableSource(load_layout())
    truth = cv2.perspectiveTransform(np.array([[[900.0, 500.0]]]), source.homography)[0]
    assert np.abs(calibration.to_pixels([[900.0, 500.0]]) - truth).max() < 1.0
    assert cv2.imread(str(tmp_path / "check.png")).shape == (1080, 1920, 3)

    frame = source.read()
    assert frame is not None
    cv2.imwrite(str(tmp_path / "frame.png"), frame)
    result = run(dealer_assist, ["layout", "--over", "frame.png", "--out", "over.png"], cli_env, tmp_path)
    assert result.returncode == 0, result.stderr
    drawn = cv2.imread(str(tmp_path / "over.png"))
    # The seat 3 low place's outline is drawn where the camera sees that place.
    corner = calibration.to_pixels([load_layout().zone("seat3.low").polygon[0]])[0].round().astype(int)
    patch = np.abs(drawn.astype(int) - frame.astype(int))[corner[1] - 2 : corner[1] + 3, corner[0] - 2 : corner[0] + 3]
    assert patch.max() > 60


def test_calibrate_names_the_missing_markers(dealer_assist: list[str], cli_env: dict[str, str], tmp_path: Path) -> None:
    frame = SyntheticTableSource(load_layout(), noise=0).read()
    assert frame is not None
    corners = find_markers(frame, load_layout().markers)
    x1, y1 = corners[2].min(axis=0).astype(int) - 12
    x2, y2 = corners[2].max(axis=0).astype(int) + 12
    frame[y1:y2, x1:x2] = (40, 110, 40)
    cv2.imwrite(str(tmp_path / "covered.png"), frame)
    result = run(dealer_assist, ["calibrate", "--image", "covered.png", "--out", "c.json"], cli_env, tmp_path)
    assert result.returncode == 2
    assert result.stderr.startswith("dealer-assist: marker 2 not found (only markers 0, 1 and 3 seen, 4 needed)")
    assert not (tmp_path / "c.json").exists()  # nothing half-written
    result = run(dealer_assist, ["calibrate", "--image", "missing.png"], cli_env, tmp_path)
    assert result.returncode == 2 and "no such image: missing.png" in result.stderr


def test_a_camera_that_never_opens_is_named_with_what_camera_takes(
    dealer_assist: list[str], cli_env: dict[str, str], tmp_path: Path
) -> None:
    result = run(dealer_assist, ["calibrate", "--camera", "tabel3.mp4"], cli_env, tmp_path)  # a typo'd file name
    assert result.returncode == 2
    message = result.stderr.strip()
    assert message.startswith("dealer-assist: no frame from tabel3.mp4 in 3 s (cannot open): check the cable")
    assert "retrying" not in message  # the command gives up; it does not retry
    assert "a video file or a folder of frames that exists" in message
    assert not (tmp_path / "data" / "calibration.json").exists()


def test_layout_plan_and_marker_sheet(dealer_assist: list[str], cli_env: dict[str, str], tmp_path: Path) -> None:
    result = run(dealer_assist, ["layout", "--out", "plan.png"], cli_env, tmp_path)
    assert result.returncode == 0, result.stderr
    assert "layout baibuu_7: 15 zones (house.high, house.low, seat2.high" in result.stdout
    assert cv2.imread(str(tmp_path / "plan.png")).shape == (600, 1080, 3)
    result = run(dealer_assist, ["markers", "--out", "sheet.pdf"], cli_env, tmp_path)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "sheet.pdf").read_bytes().startswith(b"%PDF")
    assert "print at 100 % scale" in result.stdout


def test_a_wrong_layout_file_is_explained(dealer_assist: list[str], cli_env: dict[str, str], tmp_path: Path) -> None:
    (tmp_path / "mine.yaml").write_text("table: {width_mm: 1000, height_mm: 600}\nmarkers: {}\nzones: {}\n")
    result = run(dealer_assist, ["layout", "--layout", "mine.yaml", "--out", "p.png"], cli_env, tmp_path)
    assert result.returncode == 2
    assert result.stderr.strip() == (
        "dealer-assist: mine.yaml: markers.centres_mm: map each marker id to its centre [x, y] in mm"
    )


def test_watch_snapshot_of_the_zones_headless(
    dealer_assist: list[str], cli_env: dict[str, str], tmp_path: Path
) -> None:
    args = ["watch", "--camera", "synthetic", "--zones-only", "--frames", "2", "--snapshot", "view.png", "--json"]
    result = run(dealer_assist, [*args, "--place", "seat3.low=AS,9H", "--record", "rec"], cli_env, tmp_path)
    assert result.returncode == 0, result.stderr
    snapshot = json.loads(result.stdout)
    assert snapshot["frame"] == 2 and snapshot["zones"] == {}
    assert cv2.imread(str(tmp_path / "view.png")).shape == (1080, 1920, 3)
    recorded = sorted((tmp_path / "rec").glob("*.png"))
    assert len(recorded) == 2
    # The recording plays back as a camera.
    args = ["watch", "--camera", "rec", "--zones-only", "--frames", "3", "--snapshot", "again.png", "--json"]
    result = run(dealer_assist, args, cli_env, tmp_path)
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["frame"] == 3
    result = run(dealer_assist, ["watch", "--camera", "0", "--place", "seat3.low=AS"], cli_env, tmp_path)
    assert result.returncode == 2 and "--place puts cards on the synthetic table only" in result.stderr


@pytest.mark.ui
@pytest.mark.skipif(shutil.which("xvfb-run") is None, reason="needs Xvfb for a real window")
def test_watch_opens_a_real_window(dealer_assist: list[str], cli_env: dict[str, str], tmp_path: Path) -> None:
    xvfb = ["xvfb-run", "-a", "-s", "-screen 0 1280x800x24"]
    args = ["watch", "--camera", "synthetic", "--zones-only", "--frames", "3"]
    result = run([*xvfb, *dealer_assist], args, cli_env, tmp_path)
    assert result.returncode == 0, result.stderr
    assert "showed 3 frames" in result.stdout


def test_watch_without_a_display_points_to_snapshot(
    dealer_assist: list[str], cli_env: dict[str, str], tmp_path: Path
) -> None:
    env = {k: v for k, v in cli_env.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    result = run(dealer_assist, ["watch", "--camera", "synthetic", "--zones-only"], env, tmp_path)
    assert result.returncode == 2
    assert "no display for the live window: use --snapshot PATH" in result.stderr
