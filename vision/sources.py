"""Camera sources: where frames come from.

- ``CaptureSource``: any OpenCV capture (a device index, a video file, an RTSP URL). A lost camera is reported and
  reopened with backoff; the kiosk keeps running meanwhile.
- ``RecordedVideoSource``: a recorded video played once (or looped), for replays and tests; ``FrameFolderSource``
  the same from a folder of saved frames (``record_frames`` writes one).
- ``SyntheticTableSource``: a rendered felt with the corner markers and the cards the program places in named zones,
  seen from a slightly tilted camera: the kiosk's demo and the tests put cards on it and the real model reads them.

Every source has ``read() -> frame | None`` (None: no frame now: lost, reconnecting or finished), ``status``,
``close()``, and calls ``on_status`` (when given) each time its status changes.
"""

from __future__ import annotations

import math
import random
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Protocol

import numpy as np
import numpy.typing as npt

from engine.cards import Card, parse_card
from engine.clock import Clock
from engine.errors import InputError
from vision.clock import SystemClock
from vision.layout import Layout, load_layout

if TYPE_CHECKING:
    from vision.detection import Detection

Frame = npt.NDArray[np.uint8]
SourceState = Literal["starting", "live", "lost", "finished", "closed"]


def seconds(clock: Clock) -> float:
    return clock.monotonic_ns() / 1e9


@dataclass(frozen=True, slots=True)
class SourceStatus:
    """What a source is doing: ``live`` (frames coming), ``lost`` (no frames; retrying), ``finished`` (a video
    ended), ``closed``. ``message`` says it for a person; ``at`` is the clock's reading in seconds."""

    state: SourceState
    message: str
    at: float
    lost_count: int = 0  # how many times the source has been lost since it started
    reason: str = ""  # while lost, why in a few words ("cannot open", "no frame")

    @property
    def ok(self) -> bool:
        return self.state == "live"


StatusListener = Callable[[SourceStatus], None]


class FrameSource(Protocol):
    name: str

    @property
    def status(self) -> SourceStatus: ...

    def read(self) -> Frame | None: ...

    def close(self) -> None: ...


class _StatusMixin:
    name: str
    _clock: Clock
    _on_status: StatusListener | None
    _status: SourceStatus

    def _set_status(self, state: SourceState, message: str, *, lost_count: int | None = None,
                    reason: str = "") -> None:
        count = self._status.lost_count if lost_count is None else lost_count
        if state == self._status.state and message == self._status.message and count == self._status.lost_count:
            return
        self._status = SourceStatus(state, message, seconds(self._clock), count, reason)
        if self._on_status is not None:
            self._on_status(self._status)

    @property
    def status(self) -> SourceStatus:
        return self._status


def parse_camera(spec: str | int) -> int | str:
    """``0`` → device index 0; anything else (a file, ``rtsp://…``) is passed to OpenCV as it is."""
    if isinstance(spec, int):
        return spec
    text = spec.strip()
    if not text:
        raise InputError("no camera given: write a device index (0), a video file or an rtsp:// URL")
    return int(text) if text.isdigit() else text


Opener = Callable[[int | str], Any]


def _open_capture(target: int | str) -> Any:
    import cv2

    # OpenCV logs every failed open of every backend; the source reports the loss in one line of its own.
    level = cv2.utils.logging.getLogLevel()
    cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_SILENT)
    try:
        return cv2.VideoCapture(target)
    finally:
        cv2.utils.logging.setLogLevel(level)


class CaptureSource(_StatusMixin):
    """Any OpenCV capture, reopened after a loss: at once, then after 0.5 s, 1 s, 2 s … up to ``max_backoff_s``.

    A failed read (unplugged camera, dropped stream, the end of a file) counts as a loss. ``read`` never blocks on
    the backoff: while waiting it returns None at once.
    """

    def __init__(
        self,
        camera: int | str,
        *,
        clock: Clock | None = None,
        on_status: StatusListener | None = None,
        first_backoff_s: float = 0.5,
        max_backoff_s: float = 10.0,
        opener: Opener = _open_capture,
    ) -> None:
        self.target = parse_camera(camera)
        self.name = f"camera {self.target}" if isinstance(self.target, int) else str(self.target)
        self._clock = clock or SystemClock()
        self._on_status = on_status
        self._opener = opener
        self._first_backoff = first_backoff_s
        self._max_backoff = max_backoff_s
        self._backoff = 0.0
        self._next_attempt = 0.0
        self._capture: Any = None
        self._was_live = False
        self._status = SourceStatus("starting", f"{self.name}: starting", seconds(self._clock))

    def read(self) -> Frame | None:
        if self._status.state == "closed":
            return None
        if self._capture is None and not self._try_open():
            return None
        ok, frame = self._capture.read()
        if not ok or frame is None or frame.size == 0:
            self._lose("no frame")
            return None
        if self._status.state != "live":
            again = self._was_live
            self._was_live = True
            self._backoff = 0.0
            self._set_status("live", f"{self.name}: {'back' if again else 'live'}")
        return np.asarray(frame, dtype=np.uint8)

    def _try_open(self) -> bool:
        now = seconds(self._clock)
        if now < self._next_attempt:
            return False
        capture = self._opener(self.target)
        if capture is not None and capture.isOpened():
            self._capture = capture
            return True
        if capture is not None:
            capture.release()
        self._lose("cannot open")
        return False

    def _lose(self, why: str) -> None:
        if self._capture is not None:
            self._capture.release()
            self._capture = None
        newly_lost = self._status.state != "lost"
        if newly_lost:
            self._backoff = 0.0  # the first reopen is immediate
        else:
            self._backoff = min(self._max_backoff, max(self._first_backoff, self._backoff * 2))
        self._next_attempt = seconds(self._clock) + self._backoff
        count = self._status.lost_count + (1 if newly_lost else 0)
        retry = "retrying now" if self._backoff == 0 else f"retrying in {self._backoff:g} s"
        self._set_status("lost", f"{self.name}: {why}; check the cable or stream, {retry}", lost_count=count,
                         reason=why)

    def close(self) -> None:
        if self._capture is not None:
            self._capture.release()
            self._capture = None
        self._set_status("closed", f"{self.name}: closed")


class RecordedVideoSource(_StatusMixin):
    """A recorded video, frame by frame; ``loop`` starts again at the end, otherwise the source finishes."""

    def __init__(
        self,
        path: str | Path,
        *,
        loop: bool = False,
        clock: Clock | None = None,
        on_status: StatusListener | None = None,
    ) -> None:
        import cv2

        self.path = Path(path)
        self.name = str(self.path)
        self.loop = loop
        self._clock = clock or SystemClock()
        self._on_status = on_status
        if not self.path.is_file():
            raise InputError(f"no video file at {self.path}: give the path of a recorded video")
        self._capture = cv2.VideoCapture(str(self.path))
        if not self._capture.isOpened():
            raise InputError(f"{self.path}: OpenCV cannot read this video (damaged, or a codec it lacks)")
        fps = float(self._capture.get(cv2.CAP_PROP_FPS) or 0.0)
        self.fps = fps if math.isfinite(fps) and fps > 0 else 25.0
        self.frames_read = 0
        self._status = SourceStatus("live", f"{self.name}: playing", seconds(self._clock))

    @property
    def frame_interval_s(self) -> float:
        return 1.0 / self.fps

    def read(self) -> Frame | None:
        import cv2

        if self._status.state in ("finished", "closed"):
            return None
        ok, frame = self._capture.read()
        if not ok and self.loop and self.frames_read > 0:
            self._capture.set(cv2.CAP_PROP_POS_FRAMES, 0)
            ok, frame = self._capture.read()
        if not ok or frame is None:
            self._set_status("finished", f"{self.name}: end of video after {self.frames_read} frames")
            return None
        self.frames_read += 1
        return np.asarray(frame, dtype=np.uint8)

    def close(self) -> None:
        self._capture.release()
        self._set_status("closed", f"{self.name}: closed")


IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp")


class FrameFolderSource(_StatusMixin):
    """Recorded frames as image files in a folder, in name order (``frame-0001.png`` …); see ``record_frames``."""

    def __init__(
        self,
        folder: str | Path,
        *,
        loop: bool = False,
        clock: Clock | None = None,
        on_status: StatusListener | None = None,
    ) -> None:
        self.folder = Path(folder)
        self.name = str(self.folder)
        self.loop = loop
        self._clock = clock or SystemClock()
        self._on_status = on_status
        if not self.folder.is_dir():
            raise InputError(f"no folder of frames at {self.folder}")
        self.files = sorted(p for p in self.folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        if not self.files:
            raise InputError(f"{self.folder} holds no frames ({', '.join(IMAGE_SUFFIXES)} files)")
        self.frames_read = 0
        self._status = SourceStatus("live", f"{self.name}: playing", seconds(self._clock))

    def read(self) -> Frame | None:
        import cv2

        if self._status.state in ("finished", "closed"):
            return None
        if self.frames_read >= len(self.files) and not self.loop:
            self._set_status("finished", f"{self.name}: end of the frames after {self.frames_read}")
            return None
        path = self.files[self.frames_read % len(self.files)]
        frame = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if frame is None:
            raise InputError(f"{path}: not an image OpenCV can read; remove it from the folder")
        self.frames_read += 1
        return np.asarray(frame, dtype=np.uint8)

    def close(self) -> None:
        self._set_status("closed", f"{self.name}: closed")


class RecordingSource:
    """Passes another source's frames through and saves each one as a PNG in ``folder`` (for replays)."""

    def __init__(self, source: FrameSource, folder: str | Path) -> None:
        self.source = source
        self.name = source.name
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self.saved = 0

    @property
    def status(self) -> SourceStatus:
        return self.source.status

    @property
    def layout(self) -> Layout | None:
        return getattr(self.source, "layout", None)

    def read(self) -> Frame | None:
        import cv2

        frame = self.source.read()
        if frame is not None:
            cv2.imwrite(str(self.folder / f"frame-{self.saved:05d}.png"), frame)
            self.saved += 1
        return frame

    def close(self) -> None:
        self.source.close()


def record_frames(source: FrameSource, folder: str | Path, frames: int) -> list[Path]:
    """Save the next ``frames`` frames of a source as PNG files, for a ``FrameFolderSource`` to play back."""
    recorder = RecordingSource(source, folder)
    for _ in range(frames):
        if recorder.read() is None:
            break
    return [recorder.folder / f"frame-{number:05d}.png" for number in range(recorder.saved)]


# ---------------------------------------------------------------------------------------------------------------
# The synthetic table

CARD_WIDTH_MM = 63.0  # a poker-size card
CARD_HEIGHT_MM = 88.0
MARKER_MARGIN_MM = 10.0  # white paper around each printed marker


@dataclass(frozen=True, slots=True)
class PlacedCard:
    """A card the synthetic table shows: its zone and its four corners in table mm (clockwise from top-left)."""

    card: Card
    zone: str
    corners_mm: tuple[tuple[float, float], ...]

    @property
    def centre_mm(self) -> tuple[float, float]:
        xs, ys = zip(*self.corners_mm, strict=True)
        return (sum(xs) / 4.0, sum(ys) / 4.0)


def camera_homography(
    layout: Layout, size: tuple[int, int], *, tilt: float = 0.08, turn_deg: float = 1.5, margin: float = 0.03
) -> npt.NDArray[np.float64]:
    """Table mm → pixels for a camera above the table, pitched a little (``tilt``: how much narrower the far,
    house-side edge looks) and turned by ``turn_deg``."""
    import cv2

    width, height = size
    usable_w, usable_h = width * (1 - 2 * margin), height * (1 - 2 * margin)
    scale = min(usable_w / layout.width_mm, usable_h / layout.height_mm)
    table_w, table_h = layout.width_mm * scale, layout.height_mm * scale
    cx, cy = width / 2.0, height / 2.0
    shrink = table_w * tilt / 2.0
    quad = np.array(
        [
            [cx - table_w / 2 + shrink, cy - table_h / 2],
            [cx + table_w / 2 - shrink, cy - table_h / 2],
            [cx + table_w / 2, cy + table_h / 2],
            [cx - table_w / 2, cy + table_h / 2],
        ]
    )
    angle = math.radians(turn_deg)
    rotation = np.array([[math.cos(angle), -math.sin(angle)], [math.sin(angle), math.cos(angle)]])
    quad = (quad - [cx, cy]) @ rotation.T + [cx, cy]
    table = np.array([[0, 0], [layout.width_mm, 0], [layout.width_mm, layout.height_mm], [0, layout.height_mm]])
    homography = cv2.getPerspectiveTransform(table.astype(np.float32), quad.astype(np.float32))
    return np.asarray(homography, dtype=np.float64)


class SyntheticTableSource(_StatusMixin):
    """A rendered table: felt, the layout's corner markers, and the cards placed by ``place(zone, cards)``.

    Cards lie face up in a row across their zone (overlapping when the row is too long, the index corner left in
    view), each turned and shifted a little; the same placement always looks the same, while every frame gets
    its own sensor noise, as a real camera's would. Safe to call ``place``/``clear`` from another thread.
    """

    def __init__(
        self,
        layout: Layout | str | Path | None = None,
        *,
        size: tuple[int, int] = (1920, 1080),
        deck: str | None = None,
        faces: Mapping[Card, Frame] | None = None,
        seed: int = 0,
        tilt: float = 0.08,
        turn_deg: float = 1.5,
        noise: float = 2.0,
        clock: Clock | None = None,
        on_status: StatusListener | None = None,
    ) -> None:
        self.layout = layout if isinstance(layout, Layout) else load_layout(layout or "baibuu_7")
        self.size = size
        self.seed = seed
        self.noise = noise
        self.name = f"synthetic table ({self.layout.name})"
        self._clock = clock or SystemClock()
        self._on_status = on_status
        self._lock = threading.Lock()
        self._zones: dict[str, tuple[PlacedCard, ...]] = {}
        self._frame_number = 0
        self._deck_name = deck
        self._faces: Mapping[Card, Frame] | None = faces  # a deck of one's own (default: the deck named, or the first)
        self._noise_fields: list[npt.NDArray[np.int16]] = []
        self._version = 0  # bumped by every change of what lies on the table
        self._changed_at_frame = 0  # the frame number when what lies on the table last changed
        self._rendered: tuple[int, Frame] | None = None
        self.homography = camera_homography(self.layout, size, tilt=tilt, turn_deg=turn_deg)
        self._background = self._render_background()
        self._status = SourceStatus("live", f"{self.name}: live", seconds(self._clock))

    def move_camera(self, *, tilt: float = 0.08, turn_deg: float = 1.5) -> None:
        """Point the simulated camera anew (a bumped camera, for tests of recalibration)."""
        homography = camera_homography(self.layout, self.size, tilt=tilt, turn_deg=turn_deg)
        with self._lock:
            self.homography = homography
            self._background = self._render_background()
            self._zones = {
                zone: tuple(self._lay_out(zone, [p.card for p in placed])) for zone, placed in self._zones.items()
            }
            self._version += 1

    # -- what is on the table ---------------------------------------------------------------------------------

    def place(self, zone: str, cards: Iterable[Card | str] | str, *, allow_duplicates: bool = False) -> None:
        """Put these cards face up in a zone (replacing what lay there)."""
        wanted = self.layout.zone(zone)
        if isinstance(cards, str):
            cards = cards.replace(",", " ").split()
        parsed = [card if isinstance(card, Card) else parse_card(card) for card in cards]
        with self._lock:
            if not allow_duplicates:
                elsewhere = {p.card: name for name, placed in self._zones.items() if name != zone for p in placed}
                for i, card in enumerate(parsed):
                    if card in elsewhere or card in parsed[:i]:
                        where = elsewhere.get(card, zone)
                        raise InputError(f"{card} already lies in {where}: one deck holds each card once")
            self._zones[zone] = tuple(self._lay_out(wanted.name, parsed))
            self._changed()

    def clear(self, zone: str) -> None:
        self.layout.zone(zone)
        with self._lock:
            if self._zones.pop(zone, None) is not None:
                self._changed()

    def clear_all(self) -> None:
        with self._lock:
            self._zones.clear()
            self._changed()

    def _changed(self) -> None:
        self._version += 1
        self._changed_at_frame = self._frame_number

    @property
    def frames_since_change(self) -> int:
        """Frames the camera has taken since what lies on the table last changed (the first of them may have been
        rendered just before the change): a simulated croupier judges the screen's reading only after a few."""
        with self._lock:
            return self._frame_number - self._changed_at_frame

    @property
    def placed(self) -> dict[str, tuple[Card, ...]]:
        """Zone → the cards lying there, as placed."""
        with self._lock:
            return {zone: tuple(p.card for p in placed) for zone, placed in self._zones.items() if placed}

    def placed_cards(self) -> list[PlacedCard]:
        with self._lock:
            return [p for placed in self._zones.values() for p in placed]

    def perfect_read(self, _frame: Frame | None = None, *, confidence: float = 0.99) -> list[Detection]:
        """What a reader that never errs reports for the cards lying on the table now, in frame pixels.

        For tests and demos that must not depend on the model: ``TableReader(source, read=source.perfect_read,
        view=ReadView("frame"))``. It reads the table as placed, not the frame it is given.
        """
        from vision.detection import Detection

        detections = []
        for placed in self.placed_cards():
            pixels = self.to_pixels(placed.corners_mm)
            box = (
                float(pixels[:, 0].min()),
                float(pixels[:, 1].min()),
                float(pixels[:, 0].max()),
                float(pixels[:, 1].max()),
            )
            corners = tuple((float(x), float(y)) for x, y in pixels)
            detections.append(Detection(placed.card, confidence, box, corners))  # type: ignore[arg-type]
        return detections

    def to_pixels(self, points_mm: Sequence[Sequence[float]] | npt.NDArray[Any]) -> npt.NDArray[np.float64]:
        import cv2

        array = np.asarray(points_mm, dtype=np.float64).reshape(-1, 1, 2)
        return np.asarray(cv2.perspectiveTransform(array, self.homography), dtype=np.float64).reshape(-1, 2)

    def _lay_out(self, zone_name: str, cards: Sequence[Card]) -> list[PlacedCard]:
        zone = self.layout.zone(zone_name)
        x1, _y1, x2, _y2 = zone.bounds
        cx, cy = zone.centre
        n = len(cards)
        if n == 0:
            return []
        gap = 8.0
        room = max(0.0, (x2 - x1) - CARD_WIDTH_MM - 6.0)
        step = CARD_WIDTH_MM + gap if n == 1 else min(CARD_WIDTH_MM + gap, room / (n - 1))
        step = max(step, CARD_WIDTH_MM * 0.4)  # never hide the index corner of the card underneath
        result = []
        for i, card in enumerate(cards):
            rng = random.Random(f"{self.seed}:{zone_name}:{i}:{card}")
            x = cx + (i - (n - 1) / 2.0) * step + rng.uniform(-2.5, 2.5)
            y = cy + rng.uniform(-3.0, 3.0)
            angle = math.radians(rng.uniform(-4.0, 4.0))
            result.append(PlacedCard(card, zone_name, _card_corners(x, y, angle)))
        return result

    # -- rendering --------------------------------------------------------------------------------------------

    def _render_background(self) -> Frame:
        import cv2

        from vision.calibration import marker_image

        width, height = self.size
        rng = np.random.default_rng(self.seed)
        frame = np.empty((height, width, 3), dtype=np.uint8)
        frame[:] = (58, 64, 72)  # the floor around the table
        table = np.array(
            [
                [0, 0],
                [self.layout.width_mm, 0],
                [self.layout.width_mm, self.layout.height_mm],
                [0, self.layout.height_mm],
            ]
        )
        outline = np.round(self.to_pixels(table)).astype(np.int32)
        felt = np.zeros_like(frame)
        felt[:] = (48, 112, 38)
        grain = rng.normal(0.0, 6.0, (height, width, 1))
        felt = np.clip(felt.astype(np.float64) + cv2.GaussianBlur(grain, (0, 0), 1.2)[..., None], 0, 255)
        shade = np.linspace(1.05, 0.9, height)[:, None, None]  # a lamp above the house side
        felt = np.clip(felt * shade, 0, 255).astype(np.uint8)
        mask = np.zeros((height, width), dtype=np.uint8)
        cv2.fillConvexPoly(mask, outline, 255)
        frame[mask > 0] = felt[mask > 0]
        spec = self.layout.markers
        for marker_id in spec.centres_mm:
            mx, my = spec.centres_mm[marker_id]
            half = spec.size_mm / 2 + MARKER_MARGIN_MM
            paper_mm = [[mx - half, my - half], [mx + half, my - half], [mx + half, my + half], [mx - half, my + half]]
            pixels_per_mm = 8
            side = round(spec.size_mm * pixels_per_mm)
            margin = round(MARKER_MARGIN_MM * pixels_per_mm)
            paper = np.full((side + 2 * margin, side + 2 * margin), 245, dtype=np.uint8)
            paper[margin : margin + side, margin : margin + side] = marker_image(spec, marker_id, side)
            paper_bgr = np.asarray(cv2.cvtColor(paper, cv2.COLOR_GRAY2BGR), dtype=np.uint8)
            _warp_onto(frame, paper_bgr, self.to_pixels(paper_mm))
        return frame

    def _faces_by_card(self) -> Mapping[Card, Frame]:
        if self._faces is None:
            from vision.synth.faces import available_decks, load_deck

            decks = available_decks()
            if not decks:
                raise InputError("no card faces are installed: install the five-card-draw package")
            name = self._deck_name or decks[0]
            if name not in decks:
                raise InputError(f"no card deck named {name!r}; installed: {', '.join(decks)}")
            self._faces = load_deck(name)
        return self._faces

    def render(self) -> Frame:
        """The table as the camera sees it now (no noise)."""
        from vision.synth.faces import paste_card

        with self._lock:
            version = self._version
            cards = [p for placed in self._zones.values() for p in placed]
        if self._rendered is not None and self._rendered[0] == version:
            return self._rendered[1].copy()
        frame = self._background.copy()
        if cards:
            faces = self._faces_by_card()
            for placed in cards:
                face = faces.get(placed.card)
                if face is None:
                    raise InputError(f"the synthetic deck has no face for {placed.card}")
                corners = self.to_pixels(placed.corners_mm)
                paste_card(frame, face, corners)
        self._rendered = (version, frame)
        return frame.copy()

    def read(self) -> Frame | None:
        if self._status.state == "closed":
            return None
        frame = self.render()
        with self._lock:
            self._frame_number += 1
            number = self._frame_number
        if self.noise > 0:
            noisy = frame.astype(np.int16) + self._noise_field(number)
            frame = np.clip(noisy, 0, 255).astype(np.uint8)
        return frame

    def _noise_field(self, number: int) -> npt.NDArray[np.int16]:
        """Sensor noise for frame ``number``: one of a few fields drawn once, shifted by a frame-dependent amount
        (drawing fresh Gaussian noise for every pixel of every frame would cost more than the rendering)."""
        if not self._noise_fields:
            rng = np.random.default_rng(self.seed)
            shape = (self.size[1], self.size[0], 3)
            self._noise_fields = [np.round(rng.normal(0.0, self.noise, shape)).astype(np.int16) for _ in range(3)]
        field = self._noise_fields[number % len(self._noise_fields)]
        step = (number // len(self._noise_fields)) % 97
        return np.roll(field, (7 * step, 13 * step), axis=(0, 1))

    def close(self) -> None:
        self._set_status("closed", f"{self.name}: closed")


def _card_corners(x: float, y: float, angle: float) -> tuple[tuple[float, float], ...]:
    """A card's corners in mm, clockwise from its top-left, centred at (x, y) and turned by ``angle``."""
    w, h = CARD_WIDTH_MM / 2, CARD_HEIGHT_MM / 2
    cos, sin = math.cos(angle), math.sin(angle)
    return tuple((x + dx * cos - dy * sin, y + dx * sin + dy * cos) for dx, dy in ((-w, -h), (w, -h), (w, h), (-w, h)))


def _warp_onto(canvas: Frame, image: Frame, corners_px: npt.NDArray[np.float64]) -> None:
    """Draw a flat image onto the canvas at the given quadrilateral (clockwise from top-left)."""
    import cv2

    h, w = image.shape[:2]
    x1, y1 = np.floor(corners_px.min(axis=0)).astype(int)
    x2, y2 = np.ceil(corners_px.max(axis=0)).astype(int) + 1
    x1, y1, x2, y2 = max(x1, 0), max(y1, 0), min(x2, canvas.shape[1]), min(y2, canvas.shape[0])
    if x2 <= x1 or y2 <= y1:
        return
    source = np.array([[0, 0], [w - 1, 0], [w - 1, h - 1], [0, h - 1]], dtype=np.float32)
    matrix = cv2.getPerspectiveTransform(source, (corners_px - [x1, y1]).astype(np.float32))
    size = (x2 - x1, y2 - y1)
    warped = cv2.warpPerspective(image, matrix, size, flags=cv2.INTER_AREA)
    mask = cv2.warpPerspective(np.full((h, w), 255, np.uint8), matrix, size, flags=cv2.INTER_AREA)
    alpha = (mask.astype(np.float32) / 255.0)[..., None]
    region = canvas[y1:y2, x1:x2]
    canvas[y1:y2, x1:x2] = (warped * alpha + region * (1.0 - alpha)).astype(np.uint8)


def open_source(camera: str, *, layout: Layout | None = None, clock: Clock | None = None, **kwargs: Any) -> Any:
    """The source a ``--camera`` option names: ``synthetic``, a device index or a stream URL (reopened when lost),
    a recorded video file or a folder of frames (both played in a loop)."""
    if camera.strip().lower() == "synthetic":
        return SyntheticTableSource(layout, clock=clock, **kwargs)
    path = Path(camera)
    if path.is_dir():
        return FrameFolderSource(path, loop=True, clock=clock, **kwargs)
    if path.is_file():
        return RecordedVideoSource(path, loop=True, clock=clock, **kwargs)
    return CaptureSource(camera, clock=clock, **kwargs)
