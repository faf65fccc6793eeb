"""Cards read by their index corners alone: found by the index-corner detector, the rank read by the pretrained
OCR recogniser (``vision.rank_ocr``) and by the corner index reader (``vision.corner_index``: a network that learnt
real designs' corners), their two looks multiplied; the suit by the corner index reader. A model folder without the
corner index reader falls back on the OCR alone for the rank and the any-deck index reader's suit.

A close-up photo or a fan shows cards in parts: a whole-card box then takes in a neighbour, or boxes half a card,
and the index patches cut from it by the card's shape miss the index. A corner (rank over suit) is what every
French-suited deck prints and what stays visible where cards overlap. The detector boxes each corner it sees (axis
aligned, any turn); the corner is looked at in four quarter turns, and the turn in which the OCR reads a rank surest
is the upright one.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from vision.corner_index import SUITS, CornerIndexReader, corner_crop
from vision.rank_ocr import RANK_TEXTS, RankReader
from vision.reader_index import INDEX_PATCH_SIZE, INDEX_REGION, NO_INDEX
from vision.reader_models import decode_detections, letterbox, to_tensor

Image = npt.NDArray[np.uint8]
Box = tuple[float, float, float, float]
CORNER_MODEL = "card-corner.onnx"
CORNER_IMGSZ = 416
# The index corner the detector learnt to box, shares of the face (``vision.synth.design_scenes.INDEX_CORNER``).
CORNER_ON_FACE = (0.0, 0.0, 0.21, 0.28)
# The detector also looks at the frame this much smaller, so that close-up corners come to the size it learnt them
# at: its scenes' corners are mostly 3.5-9 % of the frame's height (15-38 px at 416), a phone close-up's 10-25 %.
# The three looks (416, 256, 160 px) bring corners of 3.5-25 % of the frame to that size.
SMALLER_LOOKS = (0.6, 0.4)
RANK_SHARE = 0.6  # the top of an upright corner that holds the rank (a big rank reaches this far down)
RED_SUITS = (False, True, True, False)  # of SUITS (clubs, diamonds, hearts, spades)
# The ink of a rank: its pixels' red over the larger of green and blue, on average. Black ink stays under BLACK_INK,
# red over RED_INK; between them (or in a grey picture) the colour is not told. Chosen on the top-left corners of
# card-designs' validation and test images: 9 % of red and 3 % of black corners fall on the wrong side. (The median
# instead: 9 more readings of real photos named a wrong suit, shadows counted as ink.)
BLACK_INK, RED_INK = 5.0, 30.0


@dataclass(frozen=True)
class CornerReading:
    box: Box  # the corner's box in the frame
    card: str  # e.g. "7H"
    rank_sure: float  # the probability of the rank (the OCR's and the corner index reader's looks together)
    suit_sure: float  # the corner index reader's probability of the suit (after the ink's colour)
    score: float  # the detector's confidence that this is an index corner
    ink_told: bool = True  # whether the ink's colour checked the suit (not in a grey picture, nor on unclear ink)
    # whether the corner index reader read it (its suit, and its rank with the OCR's); else the fallback: the OCR's
    # rank and the any-deck index reader's suit
    by_corner_index: bool = False

    @property
    def sure(self) -> float:
        return self.rank_sure * self.suit_sure


def quarter_turns(frame: Image, box: Box) -> list[tuple[Image, Box]]:
    """The neighbourhood of ``box`` (the box and as much again around it) turned by 0-3 quarter turns
    anticlockwise, each with the box's place in it."""
    x1, y1, x2, y2 = box
    side = max(x2 - x1, y2 - y1)
    left, top = int(np.floor(x1 - side)), int(np.floor(y1 - side))
    right, bottom = int(np.ceil(x2 + side)), int(np.ceil(y2 + side))
    height, width = frame.shape[:2]
    local = cv2.copyMakeBorder(frame[max(top, 0):min(bottom, height), max(left, 0):min(right, width)],
                               max(-top, 0), max(bottom - height, 0), max(-left, 0), max(right - width, 0),
                               cv2.BORDER_REPLICATE)
    corners = np.array([[x1 - left, y1 - top], [x2 - left, y2 - top]])
    views = []
    for turn in range(4):
        turned = np.ascontiguousarray(np.rot90(local, turn))
        points, w = corners.copy(), local.shape[1]
        for _ in range(turn):  # (x, y) → (y, W - x) per anticlockwise quarter turn
            points = np.stack([points[:, 1], w - points[:, 0]], axis=1)
            w = local.shape[0] if w == local.shape[1] else local.shape[1]
        (a, b), (c, d) = points.min(axis=0), points.max(axis=0)
        views.append((turned, (float(a), float(b), float(c), float(d))))
    return views


def candidate_turns(box: Box) -> tuple[int, ...]:
    """The quarter turns that may bring a corner boxed so upright: an upright corner's box is about half as wide as
    it is high (0.21 of a card's width by 0.28 of its height), a sideways one twice as wide; a corner turned about
    45 degrees has a square box and may be any."""
    x1, y1, x2, y2 = box
    aspect = (x2 - x1) / max(y2 - y1, 1e-6)
    return (0, 2) if aspect < 0.6 else (1, 3) if aspect > 1.7 else (0, 1, 2, 3)


def rank_crop(view: Image, box: Box) -> Image:
    x1, y1, x2, y2 = box
    return view[int(max(y1, 0)):int(y1 + RANK_SHARE * (y2 - y1)) + 1, int(max(x1, 0)):int(x2) + 1]


def is_grey_picture(frame: Image) -> bool:
    """Whether the picture has no colour (a greyscale camera or photo): its channels differ by under a level or two."""
    step = max(1, frame.shape[0] * frame.shape[1] // 40000)
    pixels = frame.reshape(-1, 3)[::step].astype(np.int16)
    return float(np.abs(pixels[:, 2] - pixels[:, 1]).mean() + np.abs(pixels[:, 1] - pixels[:, 0]).mean()) < 3.0


def ink_is_red(crop: Image) -> bool | None:
    """Whether the darker strokes of ``crop`` (a rank on card paper) are red ink, black ink, or not told (None)."""
    pixels = crop.reshape(-1, 3).astype(np.float32)
    if len(pixels) < 16:
        return None
    brightness = pixels.mean(axis=1)
    ink = brightness < np.percentile(brightness, 90) * 0.7
    if ink.mean() < 0.03:
        return None
    blue, green, red = pixels[ink].T
    redness = float(np.mean(red - np.maximum(green, blue)))
    return True if redness > RED_INK else False if redness < BLACK_INK else None


def index_patch_of_corner(view: Image, box: Box) -> Image:
    """The index reader's patch (``INDEX_REGION`` of the face) around an upright corner box."""
    x1, y1, x2, y2 = box
    cx1, cy1, cx2, cy2 = CORNER_ON_FACE
    rx1, ry1, rx2, ry2 = INDEX_REGION
    per_x, per_y = (x2 - x1) / (cx2 - cx1), (y2 - y1) / (cy2 - cy1)  # pixels per face width / height
    source = np.float32([[x1 + (rx1 - cx1) * per_x, y1 + (ry1 - cy1) * per_y],
                         [x1 + (rx2 - cx1) * per_x, y1 + (ry2 - cy1) * per_y]])
    s = INDEX_PATCH_SIZE
    matrix = cv2.getAffineTransform(np.float32([source[0], [source[1][0], source[0][1]], source[1]]),
                                    np.float32([[0, 0], [s, 0], [s, s]]))
    return cv2.warpAffine(view, matrix, (s, s), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


class CornerReader:
    """Finds index corners in a frame and reads each (``read``)."""

    def __init__(self, folder: Path, index_reader: Any, index_names: tuple[str, ...], threads: int = 2,
                 conf: float = 0.3, imgsz: int = CORNER_IMGSZ, turn_by_network: bool = True) -> None:
        import onnxruntime as ort

        options = ort.SessionOptions()
        options.intra_op_num_threads = threads
        self._detector = ort.InferenceSession(str(folder / CORNER_MODEL), options, providers=["CPUExecutionProvider"])
        self._index_reader = index_reader  # batch (N, 3, 64, 64) → (N, classes) probabilities
        self._index_names = index_names
        self._ranks = RankReader(threads=threads)
        self._corner_index = CornerIndexReader(folder, threads) if CornerIndexReader.available(folder) else None
        self.conf = conf
        self.imgsz = imgsz
        # the upright turn: the one the corner index reader is surest of (the OCR reads only it), or where the OCR
        # (reading every turn the box allows) and the corner index reader agree most
        self.turn_by_network = turn_by_network

    @staticmethod
    def available(folder: Path) -> bool:
        return (folder / CORNER_MODEL).exists()

    def find(self, frame: Image) -> list[tuple[Box, float]]:
        """The index corners' boxes in ``frame`` (frame pixels) and the detector's scores, of every look (one box
        where two box one corner)."""
        found = self._find_at(frame, self.imgsz)
        for share in SMALLER_LOOKS:
            found += self._find_at(frame, max(128, round(self.imgsz * share / 32) * 32))
        if len(found) < 2:
            return found
        boxes = [[x1, y1, x2 - x1, y2 - y1] for (x1, y1, x2, y2), _ in found]
        keep = cv2.dnn.NMSBoxes(boxes, [score for _, score in found], self.conf, 0.5)
        return [found[int(k)] for k in np.asarray(keep).reshape(-1)]

    def _find_at(self, frame: Image, imgsz: int) -> list[tuple[Box, float]]:
        boxed, scale, (pad_x, pad_y) = letterbox(frame, imgsz, 32)
        raw = np.asarray(self._detector.run(None, {self._detector.get_inputs()[0].name: to_tensor([boxed])})[0],
                         np.float32)
        boxes, scores = decode_detections(raw, self.conf, 0.5)
        found = []
        for (x1, y1, x2, y2), score in zip(boxes, scores, strict=True):
            box = tuple(float(v) for v in ((x1 - pad_x) / scale, (y1 - pad_y) / scale, (x2 - pad_x) / scale,
                                           (y2 - pad_y) / scale))
            found.append((box, float(score)))  # type: ignore[arg-type]
        return found

    def read(self, frame: Image) -> list[CornerReading]:
        return self.read_boxes(frame, self.find(frame))

    def read_boxes(self, frame: Image, found: list[tuple[Box, float]]) -> list[CornerReading]:
        """The corners boxed in ``found`` (box, detector's score), each read."""
        if not found:
            return []
        views = [quarter_turns(frame, box) for box, _ in found]
        asked = [(k, turn) for k, (box, _) in enumerate(found) for turn in candidate_turns(box)]
        turn_of, rank_probs_of, suit_probs = self._upright_reading(views, asked)
        grey = is_grey_picture(frame)
        readings = []
        for k, (box, score) in enumerate(found):
            rank_probs = rank_probs_of[k]
            rank = RANK_TEXTS[int(rank_probs.argmax())]
            suits = suit_probs[k]
            red = None if grey else ink_is_red(rank_crop(*views[k][int(turn_of[k])]))
            if red is not None:  # the ink's colour rules out two suits
                suits = suits * np.array([is_red == red for is_red in RED_SUITS])
                suits = suits / max(float(suits.sum()), 1e-9)
            suit = SUITS[int(suits.argmax())]
            readings.append(CornerReading(box, rank + suit, float(rank_probs.max()), float(suits.max()), score,
                                          red is not None, self._corner_index is not None))
        return readings

    def _ocr(self, views: list[list[tuple[Image, Box]]], asked: list[tuple[int, int]]) -> npt.NDArray[np.float64]:
        """The OCR's rank probabilities of each (corner, turn) in ``asked``."""
        return np.asarray(self._ranks.read([rank_crop(*views[k][turn]) for k, turn in asked]), np.float64)

    def _upright_reading(self, views: list[list[tuple[Image, Box]]], asked: list[tuple[int, int]],
                         ) -> tuple[list[int], npt.NDArray[np.float64], npt.NDArray[np.float64]]:
        """Each corner's upright turn, and there its probabilities of the 13 ranks (``RANK_TEXTS``) and of the four
        suits (``SUITS``), of the turns ``asked`` ((corner, turn) pairs).

        With the corner index reader, the rank's two looks are independent (an OCR that learnt text lines, a network
        that learnt card corners): their product, so that a rank counts as sure only where neither look doubts it
        much. The upright turn is the one the network is surest of (``turn_by_network``; it learnt upright corners
        only, and a turned one leaves it unsure), or the one where the two looks most agree on a rank (the chance
        that both name the same one). Without it: the OCR's surest turn and rank, the index reader's suit.
        """
        def best_per_corner(score: npt.NDArray[np.float64]) -> list[int]:
            """For each corner, the position in ``asked`` of its turn with the highest ``score``."""
            return [max((a for a in range(len(asked)) if asked[a][0] == k), key=lambda a: score[a])
                    for k in range(len(views))]

        if self._corner_index is not None:
            net_ranks, net_suits = self._corner_index.read([corner_crop(*views[k][turn]) for k, turn in asked])
            if self.turn_by_network:
                chosen = best_per_corner(net_ranks.max(axis=1) * net_suits.max(axis=1))
                ocr = self._ocr(views, [asked[a] for a in chosen])
            else:
                ocr = self._ocr(views, asked)
                chosen = best_per_corner((ocr * net_ranks).sum(axis=1))
                ocr = ocr[chosen]
            product = ocr * net_ranks[chosen]
            ranks = product / np.maximum(product.sum(axis=1, keepdims=True), 1e-12)
            return [asked[a][1] for a in chosen], ranks, net_suits[chosen]
        ocr = self._ocr(views, asked)
        chosen = best_per_corner(ocr.max(axis=1))
        upright = [views[asked[a][0]][asked[a][1]] for a in chosen]
        index_probs = self._index_reader(to_tensor([index_patch_of_corner(view, box) for view, box in upright]))
        return [asked[a][1] for a in chosen], ocr[chosen], np.array([self._suit_shares(p) for p in index_probs])

    def _suit_shares(self, probs: npt.NDArray[np.float32]) -> npt.NDArray[np.float64]:
        """The index reader's probability summed per suit over every rank (its rank is the weak part on an unseen
        deck), as shares of the four."""
        totals = np.zeros(4)
        for name, p in zip(self._index_names, probs, strict=True):
            if name != NO_INDEX and name != "JK":
                totals[SUITS.index(name[-1])] += float(p)
        return np.asarray(totals / max(totals.sum(), 1e-9), np.float64)
