"""Index patches cut from the real photographs of the known deck, for the index reader to learn how that deck's
corners look through a real camera (step 47). The index reader had learnt them from scenes drawn with faces cut out
of these photos; on the real validation photos it read a third of the index corners that lay free as no index.
(``dealer-assist vision train --stage index-real``; tried at step 47 and not shipped: it read those corners far
better, but the reader no better; models/HISTORY.md, step 47.)

The photos are labelled with boxes, not corners, so each labelled card takes its corners from the outline model
(the outline whose own box overlaps the label's box, paired one to one as the reader pairs them). An index corner
counts as showing when no other card's outline (or, for a card without one, its box) lies over it: which card lies
on top is not known, so a corner under another card is left out of the set rather than called hidden.

The photographed deck prints its index in all four corners, so the corners the reader cuts show an index in the
photos the export mirrored too (with the glyph drawn backwards); they are kept: a reader that also reads a mirrored
glyph loses nothing at a table, where none is ever seen.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

from engine.cards import Card
from vision.reader_outline import Quad, pair_outlines, upright_outline

Box = tuple[float, float, float, float]
# The index region at an index corner, as shares of the card's width and height, that must lie free of other cards.
INDEX_CORNER_SHARE = (0.28, 0.22)
FREE_OVERLAP = 0.02  # of that region: more under another card's outline, and the corner is left out
HALF_SHOWN = 0.5  # an index share between hidden and showing: ``patch_label`` leaves such a corner out


@dataclass(frozen=True)
class OutlinedCard:
    card: Card
    outline: Quad  # upright (``upright_outline``): corners 0 and 2 are the corners the reader reads
    index_free: tuple[bool, bool]  # whether corners 0 and 2 lie under no other card


def corner_region(outline: Quad, corner: int) -> npt.NDArray[np.float32]:
    """The index region at ``corner`` (0 or 2) of an upright outline, as a 4-point polygon."""
    quad = np.roll(np.asarray(outline, np.float64), -corner, axis=0)
    along = (quad[1] - quad[0]) * INDEX_CORNER_SHARE[0]
    down = (quad[3] - quad[0]) * INDEX_CORNER_SHARE[1]
    return np.array([quad[0], quad[0] + along, quad[0] + along + down, quad[0] + down], np.float32)


def lies_free(region: npt.NDArray[np.float32], others: Sequence[npt.NDArray[np.float32]]) -> bool:
    """Whether no polygon of ``others`` covers more than ``FREE_OVERLAP`` of ``region``."""
    area = abs(float(cv2.contourArea(region)))
    return all(cv2.intersectConvexConvex(region, other)[0] <= FREE_OVERLAP * area for other in others)


def box_polygon(box: Box) -> npt.NDArray[np.float32]:
    x1, y1, x2, y2 = box
    return np.array([[x1, y1], [x2, y1], [x2, y2], [x1, y2]], np.float32)


def outlined_cards(labelled: Sequence[tuple[Card, Box]], outlines: Sequence[Quad],
                   min_iou: float = 0.5) -> list[OutlinedCard]:
    """The labelled cards the outline model outlined, each with whether its index corners lie free."""
    boxes = np.array([box for _, box in labelled], np.float32).reshape(-1, 4)
    pairs = pair_outlines(boxes, list(outlines), min_iou)
    quads = {b: np.asarray(outlines[o], np.float64) for b, o in pairs.items()}
    unoutlined = [box_polygon(labelled[i][1]) for i in range(len(labelled)) if i not in pairs]
    cards = []
    for b, quad in sorted(quads.items()):
        others = [q.astype(np.float32) for k, q in quads.items() if k != b] + unoutlined
        upright = upright_outline(quad)
        free = (lies_free(corner_region(upright, 0), others), lies_free(corner_region(upright, 2), others))
        cards.append(OutlinedCard(labelled[b][0], upright, free))
    return cards


def real_index_patches(out: Path, split: str, cuts: int, seed: int = 0, real_dir: Path | None = None,
                       reader_dir: Path | None = None) -> int:
    """Cut the index patches of the real photos of ``split`` into ``out/<class>/``, ``cuts`` times each with the
    synthetic patches' jitter (``vision.synth.procedural_patches.write_patches``); returns how many were written."""
    from vision.reader import CardReader
    from vision.reader_models import DEFAULT_MODEL_DIR
    from vision.synth.procedural_patches import write_patches
    from vision.synth.scene import PlacedCard, Scene
    from vision.train_data import DEFAULT_REAL_PHOTOS, labelled_real_photos

    reader = CardReader(reader_dir or DEFAULT_MODEL_DIR, threads=1)
    written = 0
    for number, (path, image, labelled) in enumerate(labelled_real_photos(split, real_dir or DEFAULT_REAL_PHOTOS)):
        cards = outlined_cards(labelled, reader.outlines(image)[0])
        placed = tuple(PlacedCard(c.card, c.outline.astype(np.float32), 1.0,
                                  (1.0 if c.index_free[0] else HALF_SHOWN, 1.0 if c.index_free[1] else HALF_SHOWN))
                       for c in cards)
        written += write_patches(out, Scene(number, "real", image, placed), f"real-{path.stem[:24]}", keep_none=4,
                                 keep_card=1.0, rng=np.random.default_rng(seed + number), cuts=cuts)
    return written
