"""Finding the cards of a capture photo the way the table finds them: with the card reader's own detector.

The reader reads the photo (``CardReader.read``: its detector, at the input sizes it picks for near and far cards,
its looks over doubtful boxes), so capture finds on any table top (felt, wood, a grey desk, a white table) the cards
the table would find there, overlapping ones too. Each reading's four corners come from, best first:

1. ``outline``: the reader's outline model (``CardReader.outlines``), an outline paired with the reading's box
   (``pair_outlines``), scored at least ``outline_min`` and card-shaped (``card_aspect``); where the card's own edge
   (2.) agrees with it, the edge, which is more exact;
2. ``edge``: the card's own edge inside the box, where it stands out from the table as one card-shaped quadrilateral
   (the reading's ``corners``, ``vision.reader.card_outline``);
3. ``rough``: an outline of another shape: in a photo squashed to a square a card is not card-shaped (the warp to
   the face gives it its shape back); where the photo is not squashed, such an outline is a little off, so the card's
   own edge goes first;
4. ``box``: the box itself, when it is card-shaped: a card lying upright.

A card whose corners none of these gives (a turned card on a table it does not stand out from) is pointed out, not
guessed; so are cards mostly under another card. A card cut by the picture's edge is pointed out too, and what shows
of it (its index, often: close-ups cut most cards) is kept as a **partial view** (``found_by`` "cut"): an example of
the card as the table sees it, never taken for its face. A card whose box reaches the picture's edge counts as cut
unless its own edge closes inside the picture: the outline model fits a rectangle to the part of a cut card that
shows, so its outline cannot tell. Each card found is warped flat
to an upright face (``extract.warp_face``, the profile's face format) and keeps what the reader read it as.

The corners are not moved onto the strongest step in brightness nearby (``extract._snap_sides``): on the generator's
spreads on dark felt that made the faces more exact, but on real close-ups on light tables the print (an index, a
row of pips) is a stronger step than the card's edge and pulled the sides inwards. A photo too dark to show a
card's white (``too_dark``) is not read at all.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import cv2
import numpy as np
import numpy.typing as npt

from engine.errors import InputError
from vision.detection import Detection, iou
from vision.enroll.extract import Extraction, FoundCard, order_corners, warp_face
from vision.reader_outline import outline_box, pair_outlines

if TYPE_CHECKING:
    from vision.reader import CardReader

Image = npt.NDArray[np.uint8]
Box = tuple[float, float, float, float]
CUT = "cut"  # how a partial view's corners were found: the part of a card cut by the picture's edge that shows


@dataclass(frozen=True)
class FindSettings:
    """How readings become captured cards.

    ``edge_margin``: a card reaching within this many pixels of the picture's edge is cut by it. ``outline_min``,
    ``outline_match``: an outline of the outline model gives a reading's corners when scored at least this and its
    box overlaps the reading's this much (IoU). ``card_aspect``: how many times as long as wide a box must be to be
    taken as an upright card's outline (a card is 1.4; the box of a turned card is squarer). ``covered_share``: a
    card whose outline lies this much under another found card's, and whose box is the smaller, is mostly covered.
    ``same_card``: two outlines overlapping this much (IoU) are one card found twice. ``dark_level``: a photo whose
    brightest pixels (99th percentile of grey) stay under this is too dark. ``edge_agrees``: the card's own edge is
    taken over the outline model's rectangle where their corners lie within this share of the card's width (on the
    generator's spreads on felt and grey stone its corners were off by 0.035 card widths, the rectangle's by 0.058;
    on its table scenes the two tie; on a white table the edge never agrees)."""

    edge_margin: float = 2.0
    outline_min: float = 0.10  # the reader's own (``ReaderSettings.outline_min``)
    outline_match: float = 0.5
    card_aspect: tuple[float, float] = (1.2, 1.7)
    covered_share: float = 0.5
    same_card: float = 0.7
    dark_level: float = 60.0
    edge_agrees: float = 0.12

    def __post_init__(self) -> None:
        if not (0.0 <= self.outline_min <= 1.0 and 0.0 < self.outline_match <= 1.0
                and 0.0 < self.covered_share <= 1.0 and 0.0 < self.same_card <= 1.0):
            raise InputError("outline_min, outline_match, covered_share and same_card are shares (0..1)")
        if self.edge_margin < 0 or not 1.0 <= self.card_aspect[0] < self.card_aspect[1]:
            raise InputError("edge_margin is at least 0 and card_aspect a range of ratios from 1 up")


def too_dark(frame: Image, settings: FindSettings | None = None) -> bool:
    """Whether nothing in ``frame`` is bright enough to be a card's white paper."""
    settings = settings or FindSettings()
    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if frame.ndim == 3 else frame
    step = max(1, min(gray.shape[:2]) // 400)  # a sample is enough
    return float(np.percentile(gray[::step, ::step], 99)) < settings.dark_level


def _aspect(quad: npt.NDArray[np.float64]) -> float:
    sides = [float(np.linalg.norm(quad[k] - quad[(k + 1) % 4])) for k in range(4)]
    short = (min(sides[0], sides[1]) + min(sides[2], sides[3])) / 2
    long = (max(sides[0], sides[1]) + max(sides[2], sides[3])) / 2
    return long / max(short, 1e-6)


def _box_quad(box: Box) -> npt.NDArray[np.float64]:
    x1, y1, x2, y2 = box
    return np.array([[x1, y1], [x2, y1], [x2, y2], [x1, y2]], np.float64)


def _short_side(quad: npt.NDArray[np.float64]) -> float:
    return min(float(np.linalg.norm(quad[1] - quad[0])), float(np.linalg.norm(quad[2] - quad[1])))


def _corner_gap(a: npt.NDArray[np.float64], b: npt.NDArray[np.float64]) -> float:
    """How far apart two outlines' corners lie (the farthest pair, the outlines matched corner to corner)."""
    first, second = order_corners(a), order_corners(b)
    return float(min(np.abs(first - second).max(), np.abs(np.roll(first, 2, axis=0) - second).max()))


def _quad_area(quad: npt.NDArray[np.float64]) -> float:
    return float(cv2.contourArea(quad.astype(np.float32)))


def _overlap(a: npt.NDArray[np.float64], b: npt.NDArray[np.float64]) -> float:
    """The area two convex quadrilaterals share."""
    area, _ = cv2.intersectConvexConvex(a.astype(np.float32), b.astype(np.float32))
    return float(area)


class CardFinder:
    """Finds the cards of a photo with a card reader (``vision.reader.CardReader``) for capture."""

    def __init__(self, reader: CardReader, settings: FindSettings | None = None) -> None:
        self.reader = reader
        self.settings = settings or FindSettings()

    def find(self, frame: Image) -> Extraction:
        """The cards of ``frame``, read by the reader here and now."""
        return self.extract(frame, self.reader.read(frame))

    def extract(self, frame: Image, readings: Sequence[Detection]) -> Extraction:
        """The cards of ``frame`` that ``readings`` (the reader's, in ``frame``'s pixels) found, each warped flat;
        those cut by the picture's edge, mostly covered, or whose corners cannot be told are pointed out."""
        if not isinstance(frame, np.ndarray) or frame.dtype != np.uint8 or frame.ndim != 3 or frame.shape[2] != 3:
            raise InputError("a capture frame must be a colour (BGR) 8-bit image, as OpenCV reads it")
        settings = self.settings
        h, w = frame.shape[:2]
        boxes = np.array([d.box for d in readings], np.float32).reshape(-1, 4)
        outlines: list[npt.NDArray[np.float64]] = []
        paired: dict[int, int] = {}
        if len(readings):
            found, scores = self.reader.outlines(frame)
            good = [np.asarray(o, np.float64) for o, s in zip(found, scores, strict=True) if s >= settings.outline_min]
            outlines = good
            paired = pair_outlines(boxes, outlines, settings.outline_match)
        candidates: list[tuple[npt.NDArray[np.float64], str, Detection]] = []
        extraction = Extraction([])
        for i, reading in enumerate(readings):
            quad, how = self._corners(i, reading, outlines, paired)
            cut = False
            if self._touches(reading.box, w, h):
                # A box at the picture's edge: the card may run out of the picture, and the outline model then fits
                # the part that shows. Only the card's own edge, closed inside the picture, says it is whole.
                edge = None if reading.corners is None else np.asarray(reading.corners, np.float64)
                cut = edge is None or self._outside(edge, w, h)
                if not cut:
                    quad, how = edge, "edge"
            elif quad is not None and self._outside(quad, w, h):
                cut = True
            if cut:
                # What shows of it is kept as a partial view (its index, the crop the table sees), never as its face:
                # the part that shows, as the outline model fits it, else as the box has it.
                extraction.partial.append(reading.box)
                part = outlines[paired[i]] if i in paired else _box_quad(reading.box)
                candidates.append((part, CUT, reading))
            elif quad is None:
                extraction.unclear.append(reading.box)
            else:
                candidates.append((quad, how, reading))
        keep = self._uncovered(candidates, extraction)
        margin = settings.edge_margin
        for quad, how, reading in keep:
            corners = order_corners(np.clip(quad, [margin, margin], [w - 1 - margin, h - 1 - margin]))
            face = warp_face(frame, corners)
            turned = np.ascontiguousarray(face[::-1, ::-1])
            extraction.cards.append(FoundCard(corners, face, turned, False, how,
                                              reading.card, float(reading.confidence)))
        widths = [float(np.linalg.norm(c.corners[1] - c.corners[0])) for c in extraction.cards]
        extraction.card_width = float(np.median(widths)) if widths else 0.0
        row = max(extraction.card_width, 1.0) * 1.4
        extraction.cards.sort(key=lambda c: (round(c.centre[1] / row), c.centre[0]))
        return extraction

    def _card_shaped(self, quad: npt.NDArray[np.float64]) -> bool:
        low, high = self.settings.card_aspect
        return low <= _aspect(quad) <= high

    def _corners(self, i: int, reading: Detection, outlines: list[npt.NDArray[np.float64]],
                 paired: dict[int, int]) -> tuple[npt.NDArray[np.float64] | None, str]:
        outline = outlines[paired[i]] if i in paired else None
        edge = np.asarray(reading.corners, np.float64) if reading.corners is not None else None
        if outline is not None and self._card_shaped(outline):
            # the card's own edge, where it agrees with the outline model's rectangle, is the more exact of the two
            if edge is not None and _corner_gap(edge, outline) <= self.settings.edge_agrees * _short_side(outline):
                return edge, "edge"
            return outline, "outline"
        if edge is not None and self._card_shaped(edge):
            return edge, "edge"
        if outline is not None:  # not card-shaped: a squashed photo's card, or an outline a little off
            return outline, "rough"
        box = _box_quad(reading.box)
        if self._card_shaped(box):
            return box, "box"
        return None, ""

    def _touches(self, box: Box, w: int, h: int) -> bool:
        """Whether a box (clipped to the picture) reaches the picture's edge."""
        m = self.settings.edge_margin
        x1, y1, x2, y2 = box
        return x1 <= m or y1 <= m or x2 >= w - 1 - m or y2 >= h - 1 - m

    def _outside(self, quad: npt.NDArray[np.float64], w: int, h: int) -> bool:
        """Whether a card's outline reaches the picture's edge or runs out of it."""
        m = self.settings.edge_margin
        return bool((quad[:, 0] <= m).any() or (quad[:, 1] <= m).any() or (quad[:, 0] >= w - 1 - m).any()
                    or (quad[:, 1] >= h - 1 - m).any())

    def _uncovered(self, candidates: list[tuple[npt.NDArray[np.float64], str, Detection]],
                   extraction: Extraction) -> list[tuple[npt.NDArray[np.float64], str, Detection]]:
        """The candidates less those found twice (the second dropped) and those mostly under another card (the one
        of two overlapping outlines whose reading's box is the smaller: the detector boxes what shows)."""
        settings = self.settings
        dropped: set[int] = set()
        covered: set[int] = set()
        areas = [_quad_area(q) for q, _, _ in candidates]
        for a in range(len(candidates)):
            for b in range(a + 1, len(candidates)):
                if a in dropped or b in dropped:
                    continue
                qa, qb = candidates[a][0], candidates[b][0]
                shared = _overlap(qa, qb)
                if shared <= 0:
                    continue
                union = areas[a] + areas[b] - shared
                if shared / max(union, 1e-6) >= settings.same_card or iou(outline_box(qa), outline_box(qb)) >= 0.9:
                    dropped.add(b)
                    continue
                box_a, box_b = candidates[a][2].box, candidates[b][2].box
                under = a if (box_a[2] - box_a[0]) * (box_a[3] - box_a[1]) < (box_b[2] - box_b[0]) * (
                    box_b[3] - box_b[1]) else b
                if shared >= settings.covered_share * areas[under]:
                    covered.add(under)
        for k in sorted(covered - dropped):
            extraction.covered.append(candidates[k][2].box)
        for k in sorted(covered | dropped):
            if candidates[k][1] == CUT and candidates[k][2].box in extraction.partial:
                extraction.partial.remove(candidates[k][2].box)
        return [c for k, c in enumerate(candidates) if k not in dropped and k not in covered]


def open_finder(model_dir: Path, settings: FindSettings | None = None) -> tuple[CardFinder | None, str]:
    """The finder of the model in ``model_dir`` (a card-reader model folder), or None and why not."""
    from vision.reader import CardReader

    try:
        return CardFinder(CardReader(Path(model_dir)), settings), ""
    except InputError as error:
        return None, str(error)
