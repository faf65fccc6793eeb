"""Cards' outlines from the outline model: each card as an oriented box (YOLO26n-obb, one class).

The card detector boxes a card with an axis-aligned box; a turned card's two possible outlines can then only be
worked out from the box's shape (``vision.reader_index.card_outlines``), and a half-covered card's box is often off.
The outline model sees the card's edges and gives its outline directly, so that the index look cuts the index
corners where they really are.
"""

from __future__ import annotations

import cv2
import numpy as np
import numpy.typing as npt

from vision.card_shape import CARD_ASPECT
from vision.detection import iou
from vision.reader_index import index_patch

Floats = npt.NDArray[np.float32]
Quad = npt.NDArray[np.float64]  # 4 x 2 corners


def decode_outlines(raw: Floats, conf: float, iou: float) -> tuple[list[Quad], Floats]:
    """The outlines (4 corners each, network input pixels) and scores in the outline model's raw output
    ``(1, 4 + 1 + 1, A)``: ``cx cy w h score angle`` (radians) per anchor, after rotated non-maximum suppression."""
    preds = raw[0].T
    scores = preds[:, 4:-1].max(axis=1)
    keep = scores >= conf
    preds, scores = preds[keep], scores[keep]
    if len(preds) == 0:
        return [], scores.astype(np.float32)
    rects = [((float(p[0]), float(p[1])), (float(p[2]), float(p[3])), float(np.degrees(p[-1]))) for p in preds]
    idx = np.array(cv2.dnn.NMSBoxesRotated(rects, scores.tolist(), conf, iou), dtype=np.int64).reshape(-1)
    order = idx[np.argsort(-scores[idx])]
    return [cv2.boxPoints(rects[i]).astype(np.float64) for i in order], scores[order].astype(np.float32)


def upright_outline(corners: Quad) -> Quad:
    """The corners ordered as a card lying upright would have them: clockwise on the screen, a short edge first
    (top-left, top-right, bottom-right, bottom-left of the face, or of the face turned half a turn)."""
    quad = np.asarray(corners, np.float64).reshape(4, 2)
    x, y = quad[:, 0], quad[:, 1]
    if float(np.dot(x, np.roll(y, -1)) - np.dot(np.roll(x, -1), y)) < 0:  # anticlockwise on the screen (y down)
        quad = quad[::-1]
    if np.linalg.norm(quad[1] - quad[0]) > np.linalg.norm(quad[2] - quad[1]):
        quad = np.roll(quad, -1, axis=0)
    return quad


def straightened_card(image: npt.NDArray[np.uint8], outline: Quad, size: int, margin: float) -> npt.NDArray[np.uint8]:
    """The card inside ``outline`` turned upright (or upside down) in the middle of a ``size`` square, as tall as the
    square over ``margin``: the crop the card classifier is trained on, of an upright card, so that a turned card in
    a fan fills it as an upright one would rather than a corner of its neighbours' box."""
    height = size / margin
    width = height / CARD_ASPECT
    middle = size / 2.0
    square = np.float32([[middle - width / 2, middle - height / 2], [middle + width / 2, middle - height / 2],
                         [middle + width / 2, middle + height / 2], [middle - width / 2, middle + height / 2]])
    matrix = cv2.getPerspectiveTransform(np.asarray(upright_outline(outline), np.float32), square)
    return cv2.warpPerspective(image, matrix, (size, size), flags=cv2.INTER_AREA, borderMode=cv2.BORDER_REPLICATE)


def outline_box(outline: Quad) -> tuple[float, float, float, float]:
    """The axis-aligned box around an outline."""
    (x1, y1), (x2, y2) = outline.min(axis=0), outline.max(axis=0)
    return float(x1), float(y1), float(x2), float(y2)


def pair_outlines(boxes: npt.NDArray[np.float32], outlines: list[Quad], min_iou: float) -> dict[int, int]:
    """Boxes paired one to one with outlines (box index → outline index), the pair overlapping most first, while an
    outline's own box overlaps a box at least ``min_iou`` (IoU). In a fan, a card under its neighbour may overlap
    the neighbour's box a lot; it is only paired with that box when the box has not paired with its own outline."""
    outline_boxes = [outline_box(o) for o in outlines]
    pairs = sorted(((iou(tuple(float(v) for v in box), other), b, o)
                    for b, box in enumerate(boxes) for o, other in enumerate(outline_boxes)), reverse=True)
    paired: dict[int, int] = {}
    claimed: set[int] = set()
    for overlap, b, o in pairs:
        if overlap < min_iou:
            break
        if b not in paired and o not in claimed:
            paired[b] = o
            claimed.add(o)
    return paired


def outline_aspect(outline: Quad) -> float:
    """How many times as long as wide an outline is."""
    sides = [float(np.linalg.norm(outline[k] - outline[(k + 1) % 4])) for k in range(4)]
    return max(sides) / max(min(sides), 1e-6)


def fused_boxes(boxes: npt.NDArray[np.float32], scores: npt.NDArray[np.float32], outlines: list[Quad],
                outline_scores: npt.NDArray[np.float32], min_iou: float, min_aspect: float,
                ) -> npt.NDArray[np.float32]:
    """``boxes``, each one paired with an outline at least ``min_aspect`` times as long as wide (``pair_outlines``)
    moved to the mean of itself and the outline's own box, each weighted by its model's score. In a fan the detector
    often boxes a card a little wide, taking in part of its neighbour; the outline model follows the card's edges."""
    card_like = [o for o, outline in enumerate(outlines) if outline_aspect(outline) >= min_aspect]
    fused = boxes.copy()
    for b, k in pair_outlines(boxes, [outlines[o] for o in card_like], min_iou).items():
        o = card_like[k]
        weight = float(outline_scores[o]) / max(float(outline_scores[o]) + float(scores[b]), 1e-6)
        fused[b] = weight * np.array(outline_box(outlines[o]), np.float32) + (1.0 - weight) * boxes[b]
    return fused


def unclaimed_outlines(boxes: npt.NDArray[np.float32], outlines: list[Quad], min_iou: float) -> list[int]:
    """The outlines no box claims when boxes and outlines are paired one to one (``pair_outlines``)."""
    claimed = set(pair_outlines(boxes, outlines, min_iou).values())
    return [o for o in range(len(outlines)) if o not in claimed]


def shifted_outline(outline: Quad, along: float, across: float) -> Quad:
    """The outline moved along its short and long edges by ``along`` and ``across`` times its width."""
    upright = upright_outline(outline)
    short, long = upright[1] - upright[0], upright[3] - upright[0]
    width = float(np.linalg.norm(short))
    return upright + (along * short / max(width, 1e-6) + across * long / max(float(np.linalg.norm(long)), 1e-6)) * width


def outline_places(outline: Quad, shift: float = 0.0) -> list[Quad]:
    """The outline, and with ``shift`` also the outline moved by that share of the card's width along the card and
    across it, both ways (5 places): an outline a little off still puts one of them on the index."""
    places = [(0.0, 0.0)]
    if shift > 0:
        places += [(-shift, 0.0), (shift, 0.0), (0.0, -shift), (0.0, shift)]
    return [shifted_outline(outline, along, across) for along, across in places]


def outline_patches(image: npt.NDArray[np.uint8], outline: Quad | None, size: int,
                    shift: float = 0.0) -> list[npt.NDArray[np.uint8]]:
    """The two index patches (its index corners, the card either way up), upright, of each of a card's outline's
    places (``outline_places``); none without an outline."""
    if outline is None:
        return []
    return [index_patch(image, np.roll(place, -turn, axis=0), size)
            for place in outline_places(outline, shift) for turn in (0, 2)]
