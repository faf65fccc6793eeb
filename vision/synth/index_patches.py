"""Training patches for the index reader: the index corners of rendered cards, cut the way the reader cuts them.

Each face-up card is boxed twice: where the shipped detector boxes it, and by its own box a little jittered. Each
box gives four patches (``vision.reader_index.index_patches``). Where the shipped outline model outlines the card,
the outline gives ten more, cut as the reader cuts them (``vision.reader_outline.outline_places``, shifted).

A patch is named after its card when its corner lies on one of the card's two index corners, its edge along the
card's (``CORNER_CLOSE``, ``ANGLE_CLOSE``), and the index there shows (``INDEX_SHOWS``); it is ``none`` when it lies on
no index corner or the index is hidden (under ``INDEX_HIDDEN``); patches between the two are left out rather than
taught either way.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

from vision.reader_index import NO_INDEX, card_outlines, index_patch
from vision.synth.dataset import scenes_not_done
from vision.synth.scene import PlacedCard, Scene

# A patch shows the index the way the reader needs it when the outline's corner lies within this share of the card's
# width of the card's own corner and its edge within this angle of the card's; it shows no usable index beyond the
# wider limits. Between the two the patch is left out.
CORNER_CLOSE, CORNER_FAR = 0.10, 0.20
ANGLE_CLOSE, ANGLE_FAR = np.radians(12), np.radians(25)
INDEX_SHOWS = 0.8
INDEX_HIDDEN = 0.3
BOX_JITTER = 0.04


def patch_label(card: PlacedCard, outline: npt.NDArray[np.float64]) -> str | None:
    """What the index patch in ``outline``'s first corner shows: the card, ``none``, or None (left out)."""
    truth = card.corners.astype(np.float64)
    width = float(np.linalg.norm(truth[1] - truth[0]))
    edge = outline[1] - outline[0]
    unsure = False
    for turn, share in ((0, card.index_shares[0]), (2, card.index_shares[1])):
        corner, along = truth[turn], truth[(turn + 1) % 4] - truth[turn]
        distance = float(np.linalg.norm(outline[0] - corner)) / max(width, 1.0)
        cos = float(edge @ along) / max(float(np.linalg.norm(edge) * np.linalg.norm(along)), 1e-9)
        angle = float(np.arccos(np.clip(cos, -1.0, 1.0)))
        if distance <= CORNER_CLOSE and angle <= ANGLE_CLOSE:
            if share >= INDEX_SHOWS:
                return str(card.card)
            return NO_INDEX if share <= INDEX_HIDDEN else None
        unsure |= distance <= CORNER_FAR and angle <= ANGLE_FAR and share > INDEX_HIDDEN
    return None if unsure else NO_INDEX


def scene_patches(scene: Scene, detector_boxes: npt.NDArray[np.float32], rng: np.random.Generator,
                  min_visible: float = 0.25, outlines: Sequence[npt.NDArray[np.float64]] = (),
                  outline_shift: float = 0.0) -> list[tuple[str, npt.NDArray[np.uint8]]]:
    """Labelled index patches of every face-up card showing at least ``min_visible`` of its face: cut from its boxes
    and from ``outlines`` (the outline model's) whose own box overlaps its box (IoU ≥ 0.5)."""
    from vision.detection import iou
    from vision.reader_outline import outline_box, outline_places

    h, w = scene.image.shape[:2]
    found = []
    for card in scene.cards:
        if card.visible < min_visible:
            continue
        x1, y1, x2, y2 = card.box
        own = card.box_in_frame((w, h))
        size = np.array([x2 - x1, y2 - y1, x2 - x1, y2 - y1])
        boxes = [tuple(float(v) for v in np.array(own) + rng.normal(0, BOX_JITTER, 4) * size)]
        boxes += [tuple(float(v) for v in b) for b in detector_boxes if iou(tuple(b), own) >= 0.5]
        cut = [outline for box in boxes for outline in card_outlines(box)]  # type: ignore[arg-type]
        cut += [place for outline in outlines if iou(outline_box(outline), own) >= 0.5
                for place in outline_places(outline, outline_shift)]
        for outline in cut:
            for turn in (0, 2):
                turned = np.roll(outline, -turn, axis=0)
                label = patch_label(card, turned)
                if label is not None:
                    found.append((label, index_patch(scene.image, turned)))
    return found


def index_training_patches(out: Path, seeds: Iterable[int], done_log: Path, decks: list[str] | None = None,
                           prefix: str = "scene", reader_dir: Path | None = None, keep_none: int = 3,
                           with_outlines: bool = True) -> int:
    """Write the index patches of freshly rendered scenes into ``out/<class>/``; resumable like the crop sets. Only
    one ``none`` patch in ``keep_none`` is kept: most patches show no index, and the cards would drown in them.
    ``with_outlines``: also the patches the outline model's outlines give (when the model folder has one)."""
    from vision.reader import CardReader
    from vision.reader_models import DEFAULT_MODEL_DIR

    reader = CardReader(reader_dir or DEFAULT_MODEL_DIR, threads=1)
    count = 0
    for scene in scenes_not_done(seeds, done_log, decks=decks):
        boxes, _ = reader.detect(scene.image)
        outlines = reader.outlines(scene.image)[0] if with_outlines else []
        rng = np.random.default_rng(scene.seed)
        patches = scene_patches(scene, boxes, rng, outlines=outlines, outline_shift=reader.settings.outline_shift)
        for i, (label, patch) in enumerate(patches):
            if label == NO_INDEX and i % keep_none:
                continue
            folder = out / label
            folder.mkdir(parents=True, exist_ok=True)
            cv2.imwrite(str(folder / f"{prefix}_{scene.seed:07d}_{i}.jpg"), patch, [cv2.IMWRITE_JPEG_QUALITY, 92])
            count += 1
    return count
