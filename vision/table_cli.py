"""``dealer-assist vision calibrate | watch | layout | markers``: the table side of the card reader."""

from __future__ import annotations

import argparse
import json
import os
from pathlib import Path
from typing import Any

DEFAULT_CALIBRATION = Path("data") / "calibration.json"
CAMERA_HELP = "a camera index (0), a video file, an rtsp:// URL, or 'synthetic' for the rendered demo table"


def register(vision_subparsers: Any) -> None:
    calibrate = vision_subparsers.add_parser(
        "calibrate",
        help="find the corner markers and write the table calibration",
        description="Find the table's ArUco corner markers in one frame and write the pixel → table-mm calibration.",
    )
    source = calibrate.add_mutually_exclusive_group(required=True)
    source.add_argument("--image", type=Path, help="a photo or saved frame of the table")
    source.add_argument("--camera", help=CAMERA_HELP)
    _layout_option(calibrate)
    calibrate.add_argument("--out", type=Path, default=DEFAULT_CALIBRATION, help=f"default {DEFAULT_CALIBRATION}")
    calibrate.add_argument("--min-markers", type=int, default=4, help="markers that must be seen (default 4)")
    calibrate.add_argument(
        "--max-error-mm", type=float, default=10.0, help="refuse when the markers disagree by more (default 10)"
    )
    calibrate.add_argument("--snapshot", type=Path, help="also write the frame with the zones drawn, to check by eye")
    calibrate.set_defaults(func=_calibrate)

    watch = vision_subparsers.add_parser(
        "watch",
        help="live view with the cards read and the zones drawn",
        description="Show the camera with the detections and the layout's zones drawn (q or Esc closes the "
        "window); --snapshot writes one annotated frame instead, for headless use.",
    )
    watch.add_argument("--camera", required=True, help=CAMERA_HELP)
    _layout_option(watch)
    watch.add_argument(
        "--calibration",
        type=Path,
        help=f"calibration file (default {DEFAULT_CALIBRATION} if it exists, else the markers in the first frames)",
    )
    watch.add_argument("--snapshot", type=Path, help="write one annotated frame (PNG) after --frames frames and exit")
    watch.add_argument(
        "--frames", type=int, help="frames to read: before the snapshot (default 5), or before the window closes"
    )
    watch.add_argument("--json", action="store_true", help="with --snapshot: print the table's cards as JSON")
    watch.add_argument("--zones-only", action="store_true", help="draw the zones without reading cards")
    watch.add_argument(
        "--place",
        action="append",
        default=[],
        metavar="ZONE=CARDS",
        help="synthetic camera only: put cards in a zone, e.g. seat3.low=AS,9H (repeat for more zones)",
    )
    watch.add_argument("--seed", type=int, default=0, help="synthetic camera only: the rendering seed")
    watch.add_argument("--record", type=Path, metavar="FOLDER", help="save every frame read as PNG (for replays)")
    watch.set_defaults(func=_watch)

    layout = vision_subparsers.add_parser(
        "layout",
        help="draw a table layout to a PNG",
        description="Draw the layout's zones and markers as a plan of the table, or over a frame when --over and a "
        "calibration are given.",
    )
    _layout_option(layout)
    layout.add_argument("--out", type=Path, required=True, help="the PNG to write")
    layout.add_argument("--over", type=Path, help="a frame of the table to draw the zones over")
    layout.add_argument("--calibration", type=Path, help=f"with --over (default {DEFAULT_CALIBRATION})")
    layout.set_defaults(func=_layout)

    markers = vision_subparsers.add_parser(
        "markers",
        help="write the printable sheet of the table's corner markers",
        description="Write A4 pages with the layout's ArUco markers at their true size (print at 100 %%).",
    )
    _layout_option(markers)
    markers.add_argument("--out", type=Path, required=True, help="a .pdf or .png file")
    markers.set_defaults(func=_markers)


def _layout_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--layout", default="baibuu_7", help="a layout YAML file or a shipped layout's name")


def _calibrate(args: argparse.Namespace) -> int:
    from vision.calibration import calibrate
    from vision.image_files import read_image
    from vision.layout import draw_layout, load_layout

    layout = load_layout(args.layout)
    frame = read_image(args.image) if args.image else _first_frame(args.camera, layout)
    calibration = calibrate(frame, layout.markers, min_markers=args.min_markers, max_error_mm=args.max_error_mm)
    calibration.save(args.out)
    width, height = calibration.image_size
    print(
        f"calibrated {width}×{height} frames from markers {', '.join(map(str, calibration.markers_found))} "
        f"(mean error {calibration.error_mm:.2f} mm): wrote {args.out}"
    )
    if args.snapshot:
        _write_png(args.snapshot, draw_layout(frame.copy(), layout, calibration))
        print(f"wrote {args.snapshot}")
    return 0


def _watch(args: argparse.Namespace) -> int:
    from engine.errors import InputError
    from vision.calibration import Calibration
    from vision.layout import load_layout
    from vision.sources import RecordingSource, SyntheticTableSource, open_source
    from vision.table_reader import ReadFunction, TableReader, describe

    layout = load_layout(args.layout)
    if args.frames is not None and args.frames < 1:
        raise InputError("--frames must be 1 or more")
    synthetic = args.camera.strip().lower() == "synthetic"
    if args.place and not synthetic:
        raise InputError("--place puts cards on the synthetic table only: use --camera synthetic")
    kwargs: dict[str, Any] = {"seed": args.seed} if synthetic else {}
    source = open_source(args.camera, layout=layout, **kwargs)
    if isinstance(source, SyntheticTableSource):
        for item in args.place:
            zone, _, cards = item.partition("=")
            if not cards.strip():
                raise InputError(f"--place {item!r}: write ZONE=CARDS, e.g. seat3.low=AS,9H")
            source.place(zone.strip(), cards)
    # The synthetic camera calibrates itself from its own markers: a saved file belongs to the real camera.
    saved = DEFAULT_CALIBRATION if DEFAULT_CALIBRATION.exists() and not synthetic else None
    if args.record:
        source = RecordingSource(source, args.record)
    calibration_path = args.calibration or saved
    calibration = Calibration.load(calibration_path) if calibration_path else None
    read: ReadFunction | None = _read_nothing if args.zones_only else None
    reader = TableReader(source, layout=layout, calibration=calibration, read=read)
    try:
        if args.snapshot:
            snapshot = _read_frames(reader, args.frames or 5)
            _write_png(args.snapshot, reader.annotate())
            if args.json:
                print(json.dumps(snapshot.to_json()))
            else:
                seen = " ".join(str(d.card) for d in reader.last_seen)
                # Cards read but placed nowhere: the table is not calibrated (or they lie off every zone).
                nowhere = f"seen, in no place: {seen}" if seen else "no cards on the table"
                for line in describe(snapshot) or [nowhere]:
                    print(line)
                if snapshot.problem:
                    print(f"problem: {snapshot.problem}")
                print(f"wrote {args.snapshot}")
            return 1 if snapshot.problem else 0
        return _live_window(reader, args.frames)
    finally:
        source.close()


def _read_nothing(_frame: Any) -> list[Any]:
    return []


def _read_frames(reader: Any, frames: int, *, timeout_s: float = 10.0) -> Any:
    """Step the reader until it has read ``frames`` frames; a camera that gives none in time is an error."""
    import time

    deadline = time.monotonic() + timeout_s
    done = 0
    snapshot = reader.snapshot
    while done < frames:
        snapshot = reader.step()
        if snapshot.frame > done or (reader.last_frame is not None and snapshot.problem):
            done += 1
        elif time.monotonic() > deadline:
            raise no_frame_error(reader.source, timeout_s)
        else:
            time.sleep(0.05)
    return snapshot


def _live_window(reader: Any, frames: int | None) -> int:
    import cv2

    from engine.errors import InputError

    if os.name == "posix" and not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"):
        raise InputError("no display for the live window: use --snapshot PATH to write an annotated frame instead")
    title = "dealer-assist: table"
    cv2.namedWindow(title, cv2.WINDOW_NORMAL)
    shown = 0
    while frames is None or shown < frames:
        snapshot = reader.step()
        if reader.last_frame is not None:
            cv2.imshow(title, reader.annotate())
            shown += 1
        key = cv2.waitKey(1 if not snapshot.problem else 50) & 0xFF
        if key in (ord("q"), 27) or cv2.getWindowProperty(title, cv2.WND_PROP_VISIBLE) < 1:
            break
    cv2.destroyAllWindows()
    print(f"showed {shown} frames")
    return 0


def _layout(args: argparse.Namespace) -> int:
    from vision.calibration import Calibration
    from vision.image_files import read_image
    from vision.layout import draw_layout, load_layout, render_plan

    layout = load_layout(args.layout)
    if args.over:
        calibration = Calibration.load(args.calibration or DEFAULT_CALIBRATION)
        frame = read_image(args.over)
        calibration.check_frame(frame.shape[1], frame.shape[0])
        image = draw_layout(frame, layout, calibration)
    else:
        image = render_plan(layout)
    _write_png(args.out, image)
    print(f"layout {layout.name}: {len(layout.zones)} zones ({', '.join(layout.zone_names)}): wrote {args.out}")
    return 0


def _markers(args: argparse.Namespace) -> int:
    from vision.calibration import marker_sheet
    from vision.layout import load_layout

    layout = load_layout(args.layout)
    written = marker_sheet(layout.markers, args.out)
    spec = layout.markers
    print(
        f"{len(spec.centres_mm)} markers ({spec.dictionary}, {spec.size_mm:g} mm): wrote "
        f"{', '.join(map(str, written))}; print at 100 % scale and lay each where its label says"
    )
    return 0


def _first_frame(camera: str, layout: Any) -> Any:
    import time

    from vision.sources import open_source

    source = open_source(camera, layout=layout)
    wait_s = 3.0  # a camera may need a few tries before its first frame
    deadline = time.monotonic() + wait_s
    try:
        while time.monotonic() < deadline:
            frame = source.read()
            if frame is not None:
                return frame
            time.sleep(0.1)
        raise no_frame_error(source, wait_s)
    finally:
        source.close()


def no_frame_error(source: Any, waited_s: float) -> Exception:
    """The error of a command that waited ``waited_s`` for its source's first frame in vain: what was wrong
    (without the source's "retrying", since the command gives up) and what ``--camera`` takes."""
    from engine.errors import InputError

    why = source.status.reason or "no frame"
    return InputError(f"no frame from {source.name} in {waited_s:g} s ({why}): check the cable or stream; "
                      "--camera takes a camera's number (0, 1, ...), a stream URL (rtsp://...), a video file or a "
                      "folder of frames that exists, or 'synthetic'")


def _write_png(path: Path, image: Any) -> None:
    import cv2

    from engine.errors import InputError

    path.parent.mkdir(parents=True, exist_ok=True)
    if not cv2.imwrite(str(path), image):
        raise InputError(f"cannot write {path}: use a .png or .jpg name in a writable folder")
