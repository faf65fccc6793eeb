"""The coarse look: the detector run a second time on the frame at half its input size, for cards too big for it.

A card photographed close up fills much of the frame, far bigger at the detector's input than any card it learnt; it
then boxes the card's parts (its pips, its index, a court's head) as cards, each read as some card: ghosts, and the card
itself missed. At half the input the same card comes to the size the detector knows and is boxed whole. The two looks
are merged box by box: a coarse box that holds several fine boxes, each a small part of it (or holds one beside a fine
box of the whole card), and is scored at least as surely as they are, is the card and replaces them; a coarse box where
the fine look found nothing at all is a card the fine look missed. Anything else stays as the fine look found it, so
cards of the usual size (a table, a fan whose cards each fill much of the coarse box) read exactly as before.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from vision.detection import box_area, covered_share, iou

Boxes = npt.NDArray[np.float32]
INSIDE = 0.8  # a fine box lies inside a coarse box when this share of it does
SAME_CARD_IOU = 0.5  # a coarse box this close to a fine box is a card both looks found: nothing to merge
APART = 0.2  # a coarse box with no fine box inside adds a card only where no fine box covers this share of it


def coarse_size(size: int, scale: float, floor: int = 128, stride: int = 32) -> int:
    """The detector's input for the coarse look: ``size`` times ``scale``, a multiple of ``stride``, at least
    ``floor``."""
    return max(floor, round(size * scale / stride) * stride)


def merge_coarse(fine: Boxes, fine_scores: npt.NDArray[np.float32], coarse: Boxes,
                 coarse_scores: npt.NDArray[np.float32], part_share: float) -> tuple[Boxes, npt.NDArray[np.float32]]:
    """The fine look's boxes with the coarse look's merged in, as the module says; ``part_share``: the most of a
    coarse box's area one of its parts may cover."""
    keep = np.ones(len(fine), bool)
    added: list[tuple[tuple[float, ...], float]] = []
    fine_list = [tuple(float(v) for v in b) for b in fine]
    for k in np.argsort(-coarse_scores):
        box, score = tuple(float(v) for v in coarse[k]), float(coarse_scores[k])
        if any(iou(box, other) >= SAME_CARD_IOU for other, _ in added):
            continue
        live = [f for f in range(len(fine)) if keep[f]]
        whole = [f for f in live if iou(box, fine_list[f]) >= SAME_CARD_IOU]
        parts = [f for f in live if f not in whole and covered_share(fine_list[f], box) >= INSIDE
                 and box_area(fine_list[f]) <= part_share * box_area(box)]
        if parts and (whole or len(parts) >= 2) and score >= float(fine_scores[parts].max()):
            keep[parts] = False  # the card's pips and index, boxed as cards by the fine look
            if not whole:
                added.append((box, score))
        elif not parts and not whole and all(covered_share(box, fine_list[f]) < APART
                                             and covered_share(fine_list[f], box) < APART for f in live):
            added.append((box, score))
    if not added and keep.all():
        return fine, fine_scores
    boxes = np.concatenate([fine[keep], np.array([b for b, _ in added], np.float32).reshape(-1, 4)])
    scores = np.concatenate([fine_scores[keep], np.array([s for _, s in added], np.float32)])
    return boxes.astype(np.float32), scores.astype(np.float32)
