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

import dataclasses
import math
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np
import numpy.typing as npt

from engine.clock import Clock
from engine.errors import InputError
from vision.calibration import Calibration, CalibrationError, calibrate, find_markers
from vision.clock import SystemClock
from vision.detection import DUPLICATE, LOW_CONFIDENCE, PARTLY_COVERED, Detection
from vision.layout import Layout, TextDrawer, draw_layout, load_layout
from vision.sources import FrameSource, seconds
from vision.stability import StabilitySettings, Stabilizer, TableEvent, TableSnapshot
from vision.still_tiles import StillSettings, StillTiles
from vision.zones import TableDetection, locate

Frame = npt.NDArray[np.uint8]
ReadFunction = Callable[[Frame], Sequence[Detection]]


def _default_read(frame: Frame) -> Sequence[Detection]:
    import vision

    return vision.read(frame)


CARD_LONG_SIDE_MM = 88.0


@dataclass(frozen=True, slots=True)
class ReadView:
    """How the reader looks at a frame.

    ``table`` (the default): the frame is first straightened to a top-down view of the table at ``px_per_mm`` and
    read in overlapping tiles of ``tile`` pixels, so that cards on a whole table come to the reader at the size it
    reads best (a 63 mm card is ~63 px at 1 px/mm, in a 960-pixel tile) and without perspective. ``frame``: the
    reader gets the camera frame as it is (a camera close over a few cards).
    """

    mode: Literal["table", "frame"] = "table"
    px_per_mm: float = 1.0
    tile: tuple[int, int] = (960, 576)
    same_card_mm: float = 25.0  # two readings whose centres lie closer are one physical card (tiles overlap)
    # A reading whose box comes this close to an inner tile edge is of a card the edge cuts (the neighbouring tile,
    # overlapping by 1.3 card lengths, sees it whole). The detector boxes such a card a few pixels short of the edge
    # where the tile fills its input (step 46, no padding around a 960x576 tile): 2 px let a cut 9S through as 6S.
    cut_margin_mm: float = 5.0

    def __post_init__(self) -> None:
        if self.mode not in ("table", "frame"):
            raise InputError(f"read view must be 'table' or 'frame', got {self.mode!r}")
        if not (0.2 <= self.px_per_mm <= 10):
            raise InputError(f"px_per_mm must be within 0.2..10, got {self.px_per_mm}")
        if not 0.0 <= self.cut_margin_mm <= 0.25 * CARD_LONG_SIDE_MM:
            raise InputError(f"cut_margin_mm must be within 0..{0.25 * CARD_LONG_SIDE_MM:g} (a quarter of a card), "
                             f"got {self.cut_margin_mm}")
        if min(self.tile) < 2 * CARD_LONG_SIDE_MM * self.px_per_mm:
            raise InputError(
                f"tiles of {self.tile[0]}x{self.tile[1]} px are too small for cards at {self.px_per_mm} px/mm"
            )


def tile_origins(length: int, tile: int, overlap: int) -> list[int]:
    """Where tiles start along one side so that they cover it and neighbours share at least ``overlap`` pixels."""
    if length <= tile:
        return [0]
    count = math.ceil((length - tile) / (tile - overlap)) + 1
    return [round(i * (length - tile) / (count - 1)) for i in range(count)]


Reading = tuple[Detection, tuple[float, float], int]
"""A detection in frame pixels, its centre in table mm, and the tile it was read in."""


def read_table_view(
    frame: Frame, calibration: Calibration, layout: Layout, read: ReadFunction, view: ReadView,
    still: StillTiles | None = None,
) -> list[Detection]:
    """Read the straightened table tile by tile; detections come back in frame pixels, merged across tiles.

    A card whole in one tile is read there; a reading touching a tile's inner edge is dropped (the neighbouring
    tile, which overlaps by more than a card, sees that card whole). The same card read in two tiles at one spot is
    one card; ``duplicate`` is then set anew over the whole table. With ``still``, a tile that has not changed since
    it was last read is given its readings again (``vision.still_tiles``).
    """
    p = view.px_per_mm
    table = _rectifier(calibration, layout, p).straighten(frame)
    hide_markers(table, layout, lambda points_mm: np.asarray(points_mm, dtype=np.float64) * p)
    height, width = table.shape[:2]
    overlap = math.ceil(1.3 * CARD_LONG_SIDE_MM * p)
    tile_w, tile_h = min(view.tile[0], width), min(view.tile[1], height)
    readings: list[Reading] = []
    origins = [(ox, oy) for oy in tile_origins(height, tile_h, overlap) for ox in tile_origins(width, tile_w, overlap)]
    margin = view.cut_margin_mm * p
    for tile_number, (ox, oy) in enumerate(origins):
        tile = np.ascontiguousarray(table[oy : oy + tile_h, ox : ox + tile_w])
        tile_readings = read(tile) if still is None else still.read((ox, oy, tile_w, tile_h), tile, read)
        for detection in tile_readings:
            x1, y1, x2, y2 = detection.box
            if (
                (x1 <= margin and ox > 0)
                or (y1 <= margin and oy > 0)
                or (x2 >= tile_w - margin and ox + tile_w < width)
                or (y2 >= tile_h - margin and oy + tile_h < height)
            ):
                continue  # cut by an inner tile edge: the neighbouring tile sees this card whole
            moved, centre = _to_frame(detection, ox, oy, p, calibration)
            readings.append((moved, centre, tile_number))
    return merge_readings(readings, view.same_card_mm)


class _Straightener:
    """A top-down view of the table at ``px_per_mm`` from a camera frame; the pixel maps are computed once."""

    def __init__(self, calibration: Calibration, layout: Layout, px_per_mm: float) -> None:
        import cv2

        width, height = round(layout.width_mm * px_per_mm), round(layout.height_mm * px_per_mm)
        us, vs = np.meshgrid(np.arange(width, dtype=np.float64), np.arange(height, dtype=np.float64))
        mm = np.stack([us.ravel(), vs.ravel()], axis=1) / px_per_mm
        pixels = calibration.to_pixels(mm).astype(np.float32)
        map_x = pixels[:, 0].reshape(height, width)
        map_y = pixels[:, 1].reshape(height, width)
        self._maps = cv2.convertMaps(map_x, map_y, cv2.CV_16SC2)  # fixed point: remap runs several times faster

    def straighten(self, frame: Frame) -> Frame:
        import cv2

        return np.asarray(cv2.remap(frame, self._maps[0], self._maps[1], cv2.INTER_LINEAR), dtype=np.uint8)


_straighteners: dict[tuple[bytes, str, float], _Straightener] = {}


def _rectifier(calibration: Calibration, layout: Layout, px_per_mm: float) -> _Straightener:
    key = (calibration.homography.tobytes(), f"{layout.name}:{layout.width_mm}x{layout.height_mm}", px_per_mm)
    if key not in _straighteners:
        if len(_straighteners) > 8:
            _straighteners.clear()
        _straighteners[key] = _Straightener(calibration, layout, px_per_mm)
    return _straighteners[key]


MARKER_PAPER_MM = 14.0  # how far past the marker's black square its white paper may reach


def hide_markers(
    image: Frame, layout: Layout, to_image: Callable[[npt.NDArray[np.float64]], npt.NDArray[np.float64]]
) -> None:
    """Paint the corner markers' sheets over with the felt next to them (in place): a marker is not a card, and a
    reader may otherwise take its white square for one."""
    import cv2

    spec = layout.markers
    for mx, my in spec.centres_mm.values():
        half = spec.size_mm / 2 + MARKER_PAPER_MM
        square = np.array(
            [[mx - half, my - half], [mx + half, my - half], [mx + half, my + half], [mx - half, my + half]]
        )
        ring = np.array([[mx - half - 10, my - half - 10], [mx + half + 10, my - half - 10],
                         [mx + half + 10, my + half + 10], [mx - half - 10, my + half + 10]])  # fmt: skip
        inner = np.round(to_image(square)).astype(np.int32)
        outer = np.round(to_image(ring)).astype(np.int32)
        mask = np.zeros(image.shape[:2], np.uint8)
        cv2.fillConvexPoly(mask, outer, 255)
        cv2.fillConvexPoly(mask, inner, 0)
        around = image[mask > 0]
        colour = np.median(around, axis=0) if len(around) else np.array([60, 110, 50])
        cv2.fillConvexPoly(image, inner, tuple(int(c) for c in colour))


def _to_frame(
    detection: Detection, ox: int, oy: int, px_per_mm: float, calibration: Calibration
) -> tuple[Detection, tuple[float, float]]:
    """A detection in tile pixels → the same detection in frame pixels, with its centre in table mm."""
    if detection.corners is not None:
        tile_points = np.array(detection.corners, dtype=np.float64)
    else:
        x1, y1, x2, y2 = detection.box
        tile_points = np.array([[x1, y1], [x2, y1], [x2, y2], [x1, y2]], dtype=np.float64)
    mm = (tile_points + np.array([ox, oy], dtype=np.float64)) / px_per_mm
    pixels = calibration.to_pixels(mm)
    box = (float(pixels[:, 0].min()), float(pixels[:, 1].min()), float(pixels[:, 0].max()), float(pixels[:, 1].max()))
    corners = tuple((float(x), float(y)) for x, y in pixels) if detection.corners is not None else None
    moved = dataclasses.replace(detection, box=box, corners=corners)
    centre = mm.mean(axis=0)
    return moved, (float(centre[0]), float(centre[1]))


def merge_readings(readings: Sequence[Reading], same_card_mm: float, disagree_mm: float = 10.0) -> list[Detection]:
    """One detection per physical card; ``duplicate`` recomputed over the whole table.

    Tiles overlap, so a card can be read in two of them: readings of the same card from different tiles whose
    centres lie within ``same_card_mm`` are that one card (the most confident reading is kept). Readings of
    different cards from different tiles within ``disagree_mm`` are one card the tiles disagree on: the surer
    reading is kept and marked ``low_confidence``. Readings from one tile are never merged: cards fanned close
    together are different cards.
    """
    kept: list[tuple[Detection, tuple[float, float], set[int], bool]] = []

    def nearest(detection: Detection, centre: tuple[float, float], tile: int, same: bool, radius: float) -> int | None:
        best, best_distance = None, radius
        for i, (other, other_centre, tiles, _disagree) in enumerate(kept):
            if tile in tiles or (other.card == detection.card) != same:
                continue
            distance = math.dist(centre, other_centre)
            if distance < best_distance:
                best, best_distance = i, distance
        return best

    for detection, centre, tile in sorted(readings, key=lambda item: -item[0].confidence):
        match = nearest(detection, centre, tile, True, same_card_mm)
        disagreeing = match is None
        if match is None:
            match = nearest(detection, centre, tile, False, disagree_mm)
        if match is None:
            kept.append((detection, centre, {tile}, False))
            continue
        other, other_centre, tiles, disagree = kept[match]
        kept[match] = (other, other_centre, tiles | {tile}, disagree or disagreeing)
    counts: dict[object, int] = {}
    for detection, *_rest in kept:
        counts[detection.card] = counts.get(detection.card, 0) + 1
    merged = []
    for detection, _centre, _tiles, disagree in kept:
        flags = set(detection.flags) - {DUPLICATE}
        if counts[detection.card] > 1:
            flags.add(DUPLICATE)
        if disagree:
            flags.add(LOW_CONFIDENCE)
        merged.append(dataclasses.replace(detection, flags=frozenset(flags)))
    merged.sort(key=lambda d: (d.box[1], d.box[0]))
    return merged


@dataclass(frozen=True, slots=True)
class SeenFrame:
    """The camera frame a snapshot was read from, and the readings placed on it: a reading's evidence."""

    number: int
    image: Frame
    placed: tuple[TableDetection, ...]


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
        view: ReadView | None = None,
        on_events: Callable[[list[TableEvent]], None] | None = None,
        recheck_every: int = 30,
        moved_mm: float = 8.0,
        still: StillSettings | None = None,
    ) -> None:
        """``recheck_every``: frames between checks that the markers are still where the calibration puts them (0:
        never); ``moved_mm``: how far they may seem to move before the camera counts as moved and is calibrated
        again; ``still``: when the parts of the table that have not changed are given their last readings again
        (``vision.still_tiles``; on by default)."""
        self.source = source
        self.layout = layout or getattr(source, "layout", None) or load_layout()
        self.calibration = calibration
        self._read = read or _default_read
        self.clock = clock or SystemClock()
        self.stabilizer = Stabilizer(self.layout, settings)
        self.recheck_every = recheck_every
        self.moved_mm = moved_mm
        self.recalibrations = 0
        self.calibration_note: str | None = None
        self._frames_since_check = 0
        self.view = view or ReadView()
        self.still = StillTiles(still)
        self.on_events = on_events
        self._lock = threading.RLock()
        self._problem: str | None = None
        self._since: float | None = None  # frames asked for before this (clock seconds) are not read: see forget()
        self._taken: float | None = None
        self._snapshot = self.stabilizer.snapshot(problem="no frame read yet")
        self._seen: SeenFrame | None = None
        self.last_frame: Frame | None = None
        self.last_detections: list[TableDetection] = []
        # The last frame's readings, placed or not: the live view draws them even before the table is calibrated,
        # so that whoever aims the camera sees what it reads.
        self.last_seen: list[Detection] = []
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()

    @property
    def snapshot(self) -> TableSnapshot:
        with self._lock:
            return self._snapshot

    def published(self) -> tuple[TableSnapshot, SeenFrame | None]:
        """The snapshot and the frame it was read from, taken together (the reading thread may publish anew)."""
        with self._lock:
            return self._snapshot, self._seen

    def step(self) -> TableSnapshot:
        """Read one frame and update the table; returns the new snapshot (the old one, with a problem, if no frame)."""
        taken = seconds(self.clock)
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
                return self._unplaced(frame, f"not calibrated: {error}")
        try:
            self.calibration.check_frame(width, height)
        except CalibrationError as error:
            return self._unplaced(frame, str(error))
        self._frames_since_check += 1
        if self.recheck_every and self._frames_since_check >= self.recheck_every:
            self._frames_since_check = 0
            self._check_markers(frame)
        if self.view.mode == "table":
            detections = read_table_view(frame, self.calibration, self.layout, self._read, self.view, self.still)
        else:
            hidden = frame.copy()
            hide_markers(hidden, self.layout, self.calibration.to_pixels)
            detections = self.still.read("frame", hidden, self._read)
        self.last_seen = list(detections)
        located = locate(detections, self.calibration, self.layout)
        self.last_detections = located
        with self._lock:
            if self._since is not None and taken < self._since:
                return self._snapshot  # asked for before the table was forgotten: not part of the new table
            events = self.stabilizer.update(located, seconds(self.clock))
            self._taken = taken
            return self._publish(events, None, frame, tuple(located))

    def forget(self, since: float | None = None) -> None:
        """Start the table afresh (a new round's shake): every stable placement and kept reading is dropped, and a
        frame asked of the camera before ``since`` (clock seconds; default now) is not read into the new table, so
        that cards lying there before count only once they are read again."""
        with self._lock:
            self._since = seconds(self.clock) if since is None else since
            self.stabilizer.forget()
            self.still.forget()
            self._snapshot = self.stabilizer.snapshot(problem=self._problem, taken_at=self._taken)

    def _unplaced(self, frame: Frame, problem: str) -> TableSnapshot:
        """A frame read with no calibration to place its cards by: the readings are kept for the live view only."""
        self.last_seen = list(self._read(frame))
        return self._publish(None, problem)

    def _check_markers(self, frame: Frame) -> None:
        """Compare where the markers are with where the calibration puts them; after a bump, calibrate again.

        Only when every marker is in view (an arm over a corner is not a moved camera). The last move is kept in
        ``calibration_note`` for the kiosk's status line and log.
        """
        assert self.calibration is not None
        spec = self.layout.markers
        found = find_markers(frame, spec)
        if set(found) != set(spec.centres_mm):
            return
        seen_mm = self.calibration.to_table(np.concatenate([found[i] for i in sorted(found)]))
        expected_mm = np.concatenate([spec.corners_mm(i) for i in sorted(found)])
        shift = float(np.linalg.norm(seen_mm - expected_mm, axis=1).mean())
        if shift <= self.moved_mm:
            return
        try:
            self.calibration = calibrate(frame, spec)
        except CalibrationError as error:
            self.calibration_note = f"camera moved {shift:.0f} mm and could not calibrate again: {error}"
            return
        self.recalibrations += 1
        self.still.forget()
        self.calibration_note = f"camera moved {shift:.0f} mm at {seconds(self.clock):.1f} s: calibrated again"

    def _publish(self, events: list[TableEvent] | None, problem: str | None, frame: Frame | None = None,
                 placed: tuple[TableDetection, ...] = ()) -> TableSnapshot:
        with self._lock:
            self._problem = problem
            self._snapshot = self.stabilizer.snapshot(problem=problem, taken_at=self._taken)
            snapshot = self._snapshot
            if frame is not None:
                self._seen = SeenFrame(snapshot.frame, frame, placed)
        if events and self.on_events is not None:
            self.on_events(events)
        return snapshot

    # -- reading in a thread ------------------------------------------------------------------------------------

    def start(
        self,
        *,
        on_snapshot: Callable[[TableSnapshot], None] | None = None,
        idle_s: float = 0.05,
        max_fps: float | None = 10.0,
    ) -> None:
        """Read frames in a background thread until ``stop()``; ``on_snapshot`` gets each new snapshot.

        ``max_fps`` keeps a source that never waits (the synthetic table, a file) from taking a whole CPU core;
        a recorded video is also held to its own frame rate.
        """
        if self._thread is not None and self._thread.is_alive():
            return
        self._stop.clear()
        interval = 0.0 if not max_fps else 1.0 / max_fps
        interval = max(interval, float(getattr(self.source, "frame_interval_s", 0.0)))

        def loop() -> None:
            while not self._stop.is_set():
                began = seconds(self.clock)
                snapshot = self.step()
                if on_snapshot is not None:
                    on_snapshot(snapshot)
                if snapshot.problem:
                    self._stop.wait(idle_s)  # camera lost or finished: do not spin
                spent = seconds(self.clock) - began
                if interval > spent:
                    self._stop.wait(interval - spent)

        self._thread = threading.Thread(target=loop, name="table-reader", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None

    # -- drawing ------------------------------------------------------------------------------------------------

    def annotate(
        self, frame: Frame | None = None, names: Mapping[str, str] | None = None, draw_text: TextDrawer | None = None,
        problem: str | None = None, flag_words: Mapping[str, str] | None = None,
    ) -> Frame:
        """The last frame (or the one given) with the zones, each zone's stable cards and the detections drawn;
        ``names`` and ``draw_text`` word the zones in a screen's language (see ``draw_layout``), ``problem`` the
        banner of a table that cannot be read and ``flag_words`` the doubts on a reading (``unsure`` …)."""
        base = frame if frame is not None else self.last_frame
        if base is None:
            raise InputError("no frame to draw yet: the camera has not delivered one")
        image = base.copy()
        snapshot = self.snapshot
        labels: list[Rect] = []
        if self.calibration is not None:
            captions = {name: " ".join(str(card.card) for card in zone.cards) for name, zone in snapshot.zones.items()}
            attention = [name for name, zone in snapshot.zones.items() if not zone.is_certain]
            draw_layout(image, self.layout, self.calibration, captions=captions, attention=attention,
                        label_rects=labels, names=names, draw_text=draw_text)
        draw_detections(image, self.last_seen, avoid=labels, flag_words=flag_words, draw_text=draw_text)
        if snapshot.problem:
            _banner(image, problem or snapshot.problem, draw_text if problem else None)
        return image


DETECTION_COLOUR = (80, 220, 80)  # BGR green: a sure reading
DOUBT_COLOUR = (0, 0, 255)  # red: a reading with a flag


FLAG_WORDS = {LOW_CONFIDENCE: "unsure", PARTLY_COVERED: "covered", DUPLICATE: "twice"}
Rect = tuple[int, int, int, int]  # x1, y1, x2, y2


def draw_detections(image: Frame, detections: Sequence[Detection], avoid: Sequence[Rect] = (),
                    flag_words: Mapping[str, str] | None = None, draw_text: TextDrawer | None = None) -> Frame:
    """Each card's outline (or box) with its name and confidence; flagged readings in red with their flags. The
    captions sit on a dark ground and never over each other nor over ``avoid`` (the zones' names), so a fan of cards
    stays legible. ``flag_words`` and ``draw_text`` word the flags in a screen's language."""
    import cv2

    scale = max(image.shape[:2]) / 1280.0
    font, font_scale, thickness = cv2.FONT_HERSHEY_SIMPLEX, 0.45 * scale, max(1, round(scale))
    colours = [DETECTION_COLOUR if detection.is_certain else DOUBT_COLOUR for detection in detections]
    texts, sizes = [], []
    for detection, colour in zip(detections, colours, strict=True):
        if detection.corners is not None:
            points = np.round(np.array(detection.corners)).astype(np.int32)
            cv2.polylines(image, [points], True, colour, max(1, round(2 * scale)), cv2.LINE_AA)
        else:
            x1, y1, x2, y2 = (round(v) for v in detection.box)
            cv2.rectangle(image, (x1, y1), (x2, y2), colour, max(1, round(2 * scale)), cv2.LINE_AA)
        text = f"{detection.card} {detection.confidence:.2f}"
        if detection.flags:
            words = flag_words if flag_words is not None and draw_text is not None else FLAG_WORDS
            text += " " + " ".join(sorted(words.get(flag, flag) for flag in detection.flags))
        if draw_text is not None and flag_words is not None:
            width, height = _drawn_size(draw_text, text, font_scale)
            baseline = 0
        else:
            (width, height), baseline = cv2.getTextSize(text, font, font_scale, thickness)
        texts.append(text)
        sizes.append((width + 6, height + baseline + 6))
    rects = caption_places([d.box for d in detections], sizes, image.shape[1], image.shape[0], avoid)
    for colour, text, (x1, y1, x2, y2) in zip(colours, texts, rects, strict=True):
        cv2.rectangle(image, (x1, y1), (x2, y2), (20, 20, 20), -1)
        cv2.rectangle(image, (x1, y1), (x2, y2), colour, 1)
        if draw_text is not None and flag_words is not None:
            draw_text(image, text, (x1 + 3, y2 - 3 - round(4 * scale)), font_scale, colour)
        else:
            cv2.putText(image, text, (x1 + 3, y2 - 3 - round(4 * scale)), font, font_scale, colour, thickness,
                        cv2.LINE_AA)
    return image


def _drawn_size(draw_text: TextDrawer, text: str, size: float) -> tuple[int, int]:
    """How wide and high ``draw_text`` writes ``text`` (drawn on a scratch image)."""
    scratch = np.zeros((round(80 * size) + 40, 40 * max(1, len(text)) + 40, 3), dtype=np.uint8)
    x1, y1, x2, y2 = draw_text(scratch, text, (2, scratch.shape[0] - round(20 * size) - 10), size, (255, 255, 255))
    return x2 - x1, y2 - y1


def caption_places(boxes: Sequence[tuple[float, float, float, float]], sizes: Sequence[tuple[int, int]],
                   width: int, height: int, avoid: Sequence[Rect] = ()) -> list[Rect]:
    """Where each box's caption goes: under its box if there is room, else the nearest free place below or above
    it, inside the image and over no caption placed before nor any of ``avoid`` (a caption may have to cover another
    card's box)."""
    taken: list[Rect] = list(avoid)
    placed: list[Rect] = []
    for (x1, _y1, _x2, y2), (w, h) in zip(boxes, sizes, strict=True):
        left = min(max(round(x1), 0), max(width - w, 0))
        start = min(max(round(y2), 0), max(height - h, 0))
        step = max(h, 1)
        rows = range(-(height // step) - 1, height // step + 2)
        tops = {min(max(start + k * step, 0), max(height - h, 0)) for k in rows}
        rect = (left, start, left + w, start + h)
        for top in sorted(tops, key=lambda c: (abs(c - start), c < start)):  # nearest first, below before above
            trial = (left, top, left + w, top + h)
            if not any(_rects_meet(trial, other) for other in taken):
                rect = trial
                break
        placed.append(rect)
        taken.append(rect)
    return placed


def _rects_meet(a: Rect, b: Rect) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _banner(image: Frame, text: str, draw_text: TextDrawer | None = None) -> None:
    """The problem across the top of the view, wrapped to the image's width so that its advice is read whole;
    written with ``draw_text`` when given (a screen's language: OpenCV's own font has only ASCII)."""
    import cv2

    scale = max(image.shape[:2]) / 1280.0
    font, font_scale = cv2.FONT_HERSHEY_SIMPLEX, 0.5 * scale
    if draw_text is not None:
        lines = banner_lines(text, image.shape[1] - round(16 * scale),
                             lambda line: _drawn_size(draw_text, line, font_scale)[0])
        line_height = round(30 * scale)
    else:
        lines = banner_lines(text, image.shape[1] - round(16 * scale),
                             lambda line: cv2.getTextSize(line, font, font_scale, 1)[0][0])
        line_height = round(22 * scale)
    cv2.rectangle(image, (0, 0), (image.shape[1], line_height * len(lines) + round(8 * scale)), (0, 0, 160), -1)
    for row, line in enumerate(lines):
        origin = (8, round(19 * scale) + row * line_height)
        if draw_text is not None:
            draw_text(image, line, (origin[0], origin[1] + round(4 * scale)), font_scale, (255, 255, 255))
        else:
            cv2.putText(image, line, origin, font, font_scale, (255, 255, 255), 1, cv2.LINE_AA)


def banner_lines(text: str, width: int, measure: Callable[[str], int], most: int = 4) -> list[str]:
    """``text`` broken between words into lines ``measure`` finds at most ``width`` wide (a longer word stands on
    its own line); past ``most`` lines the last ends in "..." (the drawing font has no other)."""
    lines: list[str] = []
    for word in text.split():
        if lines and measure(f"{lines[-1]} {word}") <= width:
            lines[-1] = f"{lines[-1]} {word}"
        else:
            lines.append(word)
    if len(lines) > most:
        lines = [*lines[: most - 1], lines[most - 1] + " ..."]
    return lines or [""]


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
