"""Index corners of hundreds of real deck designs (`../shared/data/card-designs`), cut as the corner look cuts them,
for the corner index reader (``vision.corner_index``) to learn what a rank and a suit look like in a corner across
real decks.

Each design image is laid on a drawn table top at any turn (``vision.synth.design_crops.lay_card``). Both of its
index corners (the top-left one, and the bottom-right one, upright when the card is turned half round) are boxed
axis-aligned as the corner detector boxes them, the box jittered as a detector's is, and cut from the quarter turn
of the photo that brings the corner nearest upright (``vision.corner_reader.quarter_turns``): the same crop the
reader gives the corner index reader. Labelled with the card's rank and suit.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

from vision.corner_index import CORNER_CROP, SUITS, corner_crop
from vision.corner_reader import CORNER_ON_FACE, quarter_turns
from vision.rank_ocr import RANK_TEXTS
from vision.synth.design_crops import DEFAULT_DESIGNS, laid_designs

Image = npt.NDArray[np.uint8]
Box = tuple[float, float, float, float]
BOX_JITTER = 0.08  # of the corner box's size: a corner detector's box is looser than a whole card's
# The box grown or shrunk about its centre: the detector boxes a large index (or a small one) more or less tightly
# than the share of the face it learnt.
BOX_SCALE = (0.9, 1.25)


def _face_point(corners: npt.NDArray[np.float32], u: float, v: float) -> npt.NDArray[np.float64]:
    """The photo point of the face's (u, v) in shares of its width and height (bilinear in the card's corners)."""
    top = corners[0] + (corners[1] - corners[0]) * u
    bottom = corners[3] + (corners[2] - corners[3]) * u
    return np.asarray(top + (bottom - top) * v, np.float64)


def index_corners(corners: npt.NDArray[np.float32]) -> list[tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]]:
    """A laid card's two index corners: each one's four photo points and its downward direction (rank to suit)."""
    x1, y1, x2, y2 = CORNER_ON_FACE
    top_left = np.array([_face_point(corners, u, v) for u, v in ((x1, y1), (x2, y1), (x2, y2), (x1, y2))])
    bottom_right = np.array([_face_point(corners, 1 - u, 1 - v) for u, v in ((x1, y1), (x2, y1), (x2, y2), (x1, y2))])
    down = _face_point(corners, 0.5, 1.0) - _face_point(corners, 0.5, 0.0)
    return [(top_left, down), (bottom_right, -down)]


def upright_turn(down: npt.NDArray[np.float64]) -> int:
    """The anticlockwise quarter turns (``np.rot90``) that bring ``down`` (image x right, y down) nearest to down."""
    x, y = float(down[0]), float(down[1])
    scores = [y, -x, -y, x]  # after 0, 1, 2, 3 anticlockwise quarter turns, the vector's y is these
    return int(np.argmax(scores))


def detector_boxes(photo: Image, corners: npt.NDArray[np.float32], rng: np.random.Generator,
                   ) -> Iterator[tuple[Box, npt.NDArray[np.float64]]]:
    """A laid card's index corners that lie wholly in the photo, each boxed as the corner detector boxes one (axis
    aligned, jittered, grown or shrunk), with its downward direction (rank to suit)."""
    height, width = photo.shape[:2]
    for quad, down in index_corners(corners):
        (x1, y1), (x2, y2) = quad.min(axis=0), quad.max(axis=0)
        if x1 < 0 or y1 < 0 or x2 > width or y2 > height:
            continue
        size = np.array([x2 - x1, y2 - y1, x2 - x1, y2 - y1])
        grow = (rng.uniform(*BOX_SCALE) - 1) / 2
        box = np.array([x1, y1, x2, y2]) + (np.array([-grow, -grow, grow, grow]) + rng.normal(0, BOX_JITTER, 4)) * size
        yield (float(box[0]), float(box[1]), float(box[2]), float(box[3])), down


def corner_index_crops(photo: Image, corners: npt.NDArray[np.float32], rng: np.random.Generator,
                       ) -> Iterator[Image]:
    """The corner index reader's crops of a laid card's index corners that lie wholly in the photo."""
    for box, down in detector_boxes(photo, corners, rng):
        yield corner_crop(*quarter_turns(photo, box)[upright_turn(down)])


def design_corner_crops(split: str, copies: int, seed: int, root: Path = DEFAULT_DESIGNS, limit: int | None = None,
                        ) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.int64]]:
    """Every design of ``split`` laid ``copies`` times, cut at both corners: (crops N×H×W×3, labels N×2: the rank's
    number in ``RANK_TEXTS``, the suit's in ``SUITS``); the joker is left out."""
    rng = np.random.default_rng(seed + 3)
    crops: list[Image] = []
    labels: list[tuple[int, int]] = []
    for _, card, photo, corners in laid_designs(split, copies, seed, root, limit):
        if card.suit is None:
            continue
        label = (RANK_TEXTS.index(str(card)[:-1]), SUITS.index(str(card)[-1]))
        for crop in corner_index_crops(photo, corners, rng):
            crops.append(crop)
            labels.append(label)
    if not crops:
        return np.zeros((0, CORNER_CROP[1], CORNER_CROP[0], 3), np.uint8), np.zeros((0, 2), np.int64)
    return np.stack(crops), np.asarray(labels, np.int64)


def write_examples(out: Path, crops: npt.NDArray[np.uint8], labels: npt.NDArray[np.int64], count: int = 48) -> Path:
    """A contact sheet of the first ``count`` crops with their labels (to look at what is learnt)."""
    tiles = []
    for crop, (rank, suit) in zip(crops[:count], labels[:count], strict=True):
        tile = cv2.copyMakeBorder(crop, 0, 12, 0, 0, cv2.BORDER_CONSTANT, value=(255, 255, 255))
        text = RANK_TEXTS[int(rank)] + SUITS[int(suit)]
        cv2.putText(tile, text, (1, tile.shape[0] - 2), cv2.FONT_HERSHEY_PLAIN, 0.8, (0, 0, 255), 1)
        tiles.append(tile)
    rows = [np.hstack(tiles[i:i + 12]) for i in range(0, len(tiles) - len(tiles) % 12, 12)]
    sheet = np.vstack(rows) if rows else np.zeros((1, 1, 3), np.uint8)
    cv2.imwrite(str(out), sheet)
    return out
