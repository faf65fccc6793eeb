"""The table side of the card reader, measured: calibration accuracy and the cost of each step per frame.

    .venv/bin/python bench/vision_table.py [--frames 20]

Prints: calibration error against the synthetic camera's known homography; milliseconds per frame for rendering
the synthetic table, calibrating, and a TableReader step without a model (straightening + tiles + zones +
stability); and, when models/ holds a model, frames per second and cards read right with the table view (tiles)
and the whole-frame view, and with the parts of a still table kept (``vision.still_tiles``): a still table, and
one whose seat 3 changes every few frames.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.cards import parse_cards
from vision.calibration import calibrate
from vision.layout import load_layout
from vision.reader_models import DEFAULT_MODEL_DIR, MANIFEST
from vision.sources import SyntheticTableSource
from vision.stability import StabilitySettings
from vision.still_tiles import StillSettings
from vision.table_reader import ReadView, TableReader

ROUND = {
    "house.high": "KH QS",
    "house.low": "5D 4C",
    "seat2.high": "AS 9S",
    "seat3.low": "2H 3H",
    "seat4.high": "8D 8C",
    "seat5.high": "JD 10C",
    "seat6.low": "QC 2C",
    "seat7.low": "6S 7C",
}


def per_frame_ms(action: Callable[[], object], frames: int) -> float:
    action()  # warm up
    start = time.perf_counter()
    for _ in range(frames):
        action()
    return (time.perf_counter() - start) * 1000 / frames


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=20)
    args = parser.parse_args()
    layout = load_layout()
    grid = np.array([[x, y] for x in range(100, 1800, 100) for y in range(100, 1000, 100)], dtype=np.float64)

    print("calibration: max / mean error of table points against the known camera (pixels)")
    for size in ((1280, 720), (1920, 1080)):
        for tilt, turn in ((0.0, 0.0), (0.08, 1.5), (0.14, -2.0)):
            source = SyntheticTableSource(layout, size=size, tilt=tilt, turn_deg=turn)
            frame = source.read()
            assert frame is not None
            calibration = calibrate(frame, layout.markers)
            truth = cv2.perspectiveTransform(grid.reshape(-1, 1, 2), source.homography).reshape(-1, 2)
            error = np.linalg.norm(calibration.to_pixels(grid) - truth, axis=1)
            label = f"{size[0]}x{size[1]} tilt {tilt:.2f} turn {turn:+.1f}°"
            print(f"  {label}: max {error.max():.2f}  mean {error.mean():.2f}")

    print(f"\nper frame, mean of {args.frames} (ms)")
    for size in ((1280, 720), (1920, 1080)):
        source = SyntheticTableSource(layout, size=size)
        for zone, cards in ROUND.items():
            source.place(zone, cards)
        frame = source.read()
        assert frame is not None
        label = f"{size[0]}x{size[1]}"
        print(f"  {label} synthetic table render:       {per_frame_ms(source.read, args.frames):7.1f}")
        still = frame
        calibrating = per_frame_ms(lambda: calibrate(still, layout.markers), args.frames)  # noqa: B023
        print(f"  {label} calibrate from markers:       {calibrating:7.1f}")
        reader = TableReader(source, read=lambda _image: [], view=ReadView("table"))
        print(f"  {label} TableReader step, no model:   {per_frame_ms(reader.step, args.frames):7.1f}")

    if not (DEFAULT_MODEL_DIR / MANIFEST).exists():
        print("\nno model in models/: skipping the reading figures")
        return
    print("\nwith the shipped model (ONNX Runtime), 1920x1080 synthetic table, 16 cards in 8 places")
    expected = {zone: set(parse_cards(cards)) for zone, cards in ROUND.items()}
    for view in (ReadView("table"), ReadView("frame")):
        source = SyntheticTableSource(layout, size=(1920, 1080), deck="five-card-draw", seed=2)
        for zone, cards in ROUND.items():
            source.place(zone, cards)
        table = TableReader(source, view=view, settings=StabilitySettings(1, 1), still=StillSettings(enabled=False))
        ms = per_frame_ms(table.step, max(3, args.frames // 4))
        snapshot = table.snapshot
        right = sum(len(expected[z] & set(snapshot.cards_in(z))) for z in expected)
        extra = sum(len(set(snapshot.cards_in(z)) - expected.get(z, set())) for z in layout.zone_names)
        print(f"  view {view.mode:5}: {1000 / ms:5.2f} frames/s ({ms:6.0f} ms); {right}/16 cards right, {extra} extra")

    print("\nkeeping the readings of still tiles (table view, tiles read afresh per frame in brackets)")
    frames = max(20, args.frames)
    for label, changes_every in (("still table", 0), ("seat 3 changes every 5th frame", 5)):
        source = SyntheticTableSource(layout, size=(1920, 1080), deck="five-card-draw", seed=2)
        for zone, cards in ROUND.items():
            source.place(zone, cards)
        table = TableReader(source, settings=StabilitySettings(1, 1))
        table.step()
        table.step()  # two agreeing readings before a tile is kept
        fresh_before = table.still.fresh_reads
        start = time.perf_counter()
        for frame_number in range(1, frames + 1):
            if changes_every and frame_number % changes_every == 0:
                source.place("seat3.low", "4H 5H" if frame_number // changes_every % 2 else "2H 3H")
            table.step()
        ms = (time.perf_counter() - start) * 1000 / frames
        fresh = (table.still.fresh_reads - fresh_before) / frames
        print(f"  {label:31}: {1000 / ms:6.2f} frames/s ({ms:6.0f} ms; {fresh:.2f} tiles)")


if __name__ == "__main__":
    main()
