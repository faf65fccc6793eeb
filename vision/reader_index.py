"""The index corners of a boxed card: where its rank and suit are printed, cut out upright for the index reader.

The detector gives an axis-aligned box around the whole card. A card of known shape (5:7) turned by an angle fills
its box only one way up to a mirror: the box's width-to-height ratio fixes the angle, and the card is turned that
way either clockwise or anticlockwise. Each of the two outlines has its index in two opposite corners (the card may
lie either way up), so a box gives four index patches. The same function cuts the training patches and the ones
read, so that they match.
"""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

from vision.card_shape import CARD_ASPECT, FACE_SIZE
from vision.reader_familiar import fuse, index_evidence

Image = npt.NDArray[np.uint8]
Quad = npt.NDArray[np.float64]  # 4 x 2: a card's top-left, top-right, bottom-right, bottom-left corner
INDEX_PATCH_SIZE = 64
# The part of the face cut around the top-left index, as shares of the face's width and height: the index (rank
# over suit) and a margin for outlines that are a little off. Square on the card: 133 x 133 face pixels.
INDEX_REGION = (-0.06, -0.04, 0.47, 0.34)
NO_INDEX = "none"  # the index reader's class for a patch that holds no upright index


def card_outlines(box: tuple[float, float, float, float]) -> list[Quad]:
    """The two outlines of a 5:7 card that fills ``box``: turned clockwise, then anticlockwise (the same outline
    twice when the card lies square to the box)."""
    x1, y1, x2, y2 = box
    width, height = max(x2 - x1, 2.0), max(y2 - y1, 2.0)
    a = CARD_ASPECT
    ratio = float(np.clip(width / height, 1 / a, a))
    angle = float(np.arctan2(ratio * a - 1, a - ratio))  # solves width/height = (cos + a sin) / (sin + a cos)
    card_width = width / (np.cos(angle) + a * np.sin(angle))
    centre = np.array([(x1 + x2) / 2, (y1 + y2) / 2])
    local = np.array([[-0.5, -a / 2], [0.5, -a / 2], [0.5, a / 2], [-0.5, a / 2]]) * card_width
    outlines = []
    for turn in (angle, -angle):
        c, s = np.cos(turn), np.sin(turn)
        outlines.append(local @ np.array([[c, s], [-s, c]]) + centre)
    return outlines


def index_patch(image: Image, outline: Quad, size: int = INDEX_PATCH_SIZE) -> Image:
    """The region around the index in the first corner of ``outline``, cut upright as a ``size`` square."""
    fw, fh = FACE_SIZE
    to_image = cv2.getPerspectiveTransform(np.float32([[0, 0], [fw, 0], [fw, fh], [0, fh]]),
                                           np.asarray(outline, np.float32))
    x1, y1, x2, y2 = INDEX_REGION
    region = np.float32([[x1 * fw, y1 * fh], [x2 * fw, y1 * fh], [x2 * fw, y2 * fh], [x1 * fw, y2 * fh]])
    corners = cv2.perspectiveTransform(region.reshape(-1, 1, 2), to_image).reshape(-1, 2)
    target = np.float32([[0, 0], [size, 0], [size, size], [0, size]])
    matrix = cv2.getPerspectiveTransform(corners.astype(np.float32), target)
    return cv2.warpPerspective(image, matrix, (size, size), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def index_patches(image: Image, box: tuple[float, float, float, float], size: int = INDEX_PATCH_SIZE) -> list[Image]:
    """The index patches of a boxed card: for each outline, its first and its third corner (the card turned half a
    turn), each upright."""
    return [index_patch(image, np.roll(outline, -turn, axis=0), size)
            for outline in card_outlines(box) for turn in (0, 2)]


def index_columns(class_names: tuple[str, ...], index_names: tuple[str, ...]) -> list[int] | None:
    """For each of the card classifier's classes, its column in the index reader's output; None when the index
    reader does not know every card (it then takes no part in reading)."""
    if NO_INDEX not in index_names or any(name not in index_names for name in class_names):
        return None
    return [index_names.index(name) for name in class_names]


def fuse_index(probs: npt.NDArray[np.float32], patch_probs: npt.NDArray[np.float32], columns: list[int],
               weight: float) -> npt.NDArray[np.float32]:
    """The card classifier's probabilities ``probs`` with the index reader's added in: of the box's index patches
    (rows of ``patch_probs``), the one whose index reads surest is taken, and its card probabilities (renormalised)
    are averaged in with ``weight`` times how sure that patch is. A box whose patches show no index (all
    ``none``) keeps the classifier's reading."""
    return fuse(probs, index_evidence(patch_probs, columns), weight)
