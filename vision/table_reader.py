"""``TableReader``: a camera source, the card reader, the calibration, the layout and stability in one object.

    reader = TableReader(SyntheticTableSource(), layout=load_layout("baibuu_7"))
    snapshot = reader.step()                 # read one frame; or reader.start() to read in a thread
    snapshot.cards_in("seat3.low")           # (Card(AS), Card(9H))
    snapshot.hand(3, "low").cards            # with confidence and flags

Without a calibration it calibrates itself from the first frame that shows every marker (and says so in
``snapshot.problem`` until then). A lost camera keeps the last snapshot (cards are not "removed" because the view
went dark) and ``problem`` says what is wrong.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence

import numpy as np
import numpy.typing as npt

from engine.errors import InputError
from vision.calibration import Calibration, CalibrationError, calibrate
from vision.detection import Detection
from vision.layout import Layout, draw_layout, load_layout
from vision.sources import Clock, FrameSource, SourceStatus, SystemClock, seconds
from vision.stability import StabilitySettings, Stabilizer, TableEvent, TableSnapshot
from vision.zones import TableDetection, locate

Frame = npt.NDArray[np.uint8]
ReadFunction = Callable[[Frame], Sequence[Detection]]


def _default_read(frame: Frame) -> Sequence[Detection]:
    import vision

    return vision.read(frame)


class TableReader:
    def __init__(
        self,
        source: FrameSource,
        *,
        layout: Layout | None = None,
        calibration: Calibration | None = None,
        read: ReadFunction | None = None,
        clock: Clock | None = None,
        settings: StabilitySettings | None = None,
        on_events: Callable[[list[TableEvent]], None] | None = None,
    ) -> None:
        self.source = source
        self.layout = layout or getattr(source, "layout", None) or load_layout()
        self.calibration = calibration
        self._read = read or _default_read
        self.clock = clock or SystemClock()
        self.stabilizer = Stabilizer(self.layout, settings)
        self.on_events = on_events
        self._lock = threading.Lock()
        self._problem: str | None = None
        self._snapshot = self.stabilizer.snapshot(problem="no frame read yet")
        self.last_frame: Frame | None = None
        self.last_detections: list[TableDetection] = []
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()

    @property
    def snapshot(self) -> TableSnapshot:
        with self._lock:
            return self._snapshot

    @property
    def source_status(self) -> SourceStatus:
        return self.source.status

    def step(self) -> TableSnapshot:
        """Read one frame and update the table; returns the new snapshot (the old one, with a problem, if no frame)."""
        frame = self.source.read()
        if frame is None:
            status = self.source.status
            return self._publish(None, status.message if not status.ok else "no frame")
        self.last_frame = frame
        height, width = frame.shape[:2]
        if self.calibration is None:
            try:
                self.calibration = calibrate(frame, self.layout.markers)
            except CalibrationError as error:
                return self._publish(None, f"not calibrated: {error}")
        try:
            self.calibration.check_frame(width, height)
        except CalibrationError as error:
            return self._publish(None, str(error))
        located = locate(self._read(frame), self.calibration, self.layout)
        self.last_detections = located
        events = self.stabilizer.update(located, seconds(self.clock))
        snapshot = self._publish(events, None)
        return snapshot

    def _publish(self, events: list[TableEvent] | None, problem: str | None) -> TableSnapshot:
        with self._lock:
            self._problem = problem
            self._snapshot = self.stabilizer.snapshot(problem=problem)
            snapshot = self._snapshot
        if events and self.on_events is not None:
            self.on_events(events)
        return snapshot

    # -- reading in a thread ------------------------------------------------------------------------------------

    def start(self, *, on_snapshot: Callable[[TableSnapshot], None] | None = None, idle_s: float = 0.05) -> None:
        """Read frames in a background thread until ``stop()``; ``on_snapshot`` gets each new snapshot."""
        if self._thread is not None and self._thread.is_alive():
            return
        self._stop.clear()

        def loop() -> None:
            while not self._stop.is_set():
                snapshot = self.step()
                if on_snapshot is not None:
                    on_snapshot(snapshot)
                if snapshot.problem:
                    self._stop.wait(idle_s)  # camera lost or finished: do not spin

        self._thread = threading.Thread(target=loop, name="table-reader", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None

    # -- drawing ------------------------------------------------------------------------------------------------

    def annotate(self, frame: Frame | None = None) -> Frame:
        """The last frame (or the one given) with the zones, each zone's stable cards and the detections drawn."""
        base = frame if frame is not None else self.last_frame
        if base is None:
            raise InputError("no frame to draw yet: the camera has not delivered one")
        image = base.copy()
        snapshot = self.snapshot
        if self.calibration is not None:
            captions = {name: " ".join(str(card.card) for card in zone.cards) for name, zone in snapshot.zones.items()}
            attention = [name for name, zone in snapshot.zones.items() if not zone.is_certain]
            draw_layout(image, self.layout, self.calibration, captions=captions, attention=attention)
        draw_detections(image, [item.detection for item in self.last_detections])
        if snapshot.problem:
            _banner(image, snapshot.problem)
        return image


DETECTION_COLOUR = (80, 220, 80)  # BGR green: a sure reading
DOUBT_COLOUR = (0, 0, 255)  # red: a reading with a flag


def draw_detections(image: Frame, detections: Sequence[Detection]) -> Frame:
    """Each card's outline (or box) with its name and confidence; flagged readings in red with their flags."""
    import cv2

    scale = max(image.shape[:2]) / 1280.0
    for detection in detections:
        colour = DETECTION_COLOUR if detection.is_certain else DOUBT_COLOUR
        if detection.corners is not None:
            points = np.round(np.array(detection.corners)).astype(np.int32)
            cv2.polylines(image, [points], True, colour, max(1, round(2 * scale)), cv2.LINE_AA)
        else:
            x1, y1, x2, y2 = (round(v) for v in detection.box)
            cv2.rectangle(image, (x1, y1), (x2, y2), colour, max(1, round(2 * scale)), cv2.LINE_AA)
        text = f"{detection.card} {detection.confidence:.2f}"
        if detection.flags:
            text += " " + ",".join(sorted(flag.replace("_", " ") for flag in detection.flags))
        x, y = round(detection.box[0]), round(detection.box[3]) + round(14 * scale)
        cv2.putText(image, text, (x, y), cv2.FONT_HERSHEY_SIMPLEX, 0.4 * scale, (0, 0, 0), 3, cv2.LINE_AA)
        cv2.putText(image, text, (x, y), cv2.FONT_HERSHEY_SIMPLEX, 0.4 * scale, colour, 1, cv2.LINE_AA)
    return image


def _banner(image: Frame, text: str) -> None:
    import cv2

    scale = max(image.shape[:2]) / 1280.0
    cv2.rectangle(image, (0, 0), (image.shape[1], round(28 * scale)), (0, 0, 160), -1)
    cv2.putText(
        image,
        text[:150],
        (8, round(19 * scale)),
        cv2.FONT_HERSHEY_SIMPLEX,
        0.5 * scale,
        (255, 255, 255),
        1,
        cv2.LINE_AA,
    )


def describe(snapshot: TableSnapshot) -> list[str]:
    """One line per zone holding cards (or flags), for terminals and logs."""
    lines = []
    for name, zone in snapshot.zones.items():
        if not zone.cards and not zone.flags:
            continue
        cards = " ".join(
            f"{card.card}({card.confidence:.2f}{'; ' + ','.join(sorted(card.flags)) if card.flags else ''})"
            for card in zone.cards
        )
        flags = f"  [{', '.join(sorted(zone.flags))}]" if zone.flags else ""
        lines.append(f"{name}: {cards}{flags}")
    if snapshot.off_zone:
        lines.append("outside every zone: " + " ".join(str(card) for card in snapshot.off_zone))
    return lines
