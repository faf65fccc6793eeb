"""Training crops for the straight look: each card straightened by an outline, as ``CardReader.straight_look`` cuts it.

A card is straightened twice: by the outline the shipped outline model draws for it (where it draws one), so that the
crops are off the way the reader's are, and by its own corners jittered (``CORNER_JITTER`` of its width), so that
every labelled card is in the set. Real photographs have no corners in their labels: only the outline model's, paired
with a labelled box, straighten their cards; as they are few, each such outline can be written again jittered
(``outline_copies``), so that the real look weighs more in the set.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

from vision.reader_crops import CROP_MARGIN
from vision.reader_outline import Quad, outline_box, pair_outlines, straightened_card
from vision.synth.dataset import SCENES_FILE

Image = npt.NDArray[np.uint8]
Box = tuple[float, float, float, float]
CORNER_JITTER = 0.04


def jittered(corners: Quad, rng: np.random.Generator, share: float = CORNER_JITTER) -> Quad:
    """``corners`` each moved at random by about ``share`` of the card's shorter side."""
    sides = [float(np.linalg.norm(corners[k] - corners[(k + 1) % 4])) for k in range(4)]
    return corners + rng.normal(0.0, share * min(sides), (4, 2))


def straight_crops(image: Image, cards: list[tuple[str, Box, Quad | None]], outlines: list[Quad], size: int,
                   rng: np.random.Generator, min_iou: float = 0.5, outline_copies: int = 0) -> list[tuple[str, Image]]:
    """The straightened crops of one picture's labelled cards (name, box, own corners or None): by the outline
    paired with each card's box as the reader pairs them (``pair_outlines`` at ``min_iou``), plus ``outline_copies``
    crops by that outline jittered, and by its corners."""
    boxes = np.array([box for _, box, _ in cards], np.float32).reshape(-1, 4)
    found: list[tuple[str, Image]] = []
    for b, o in pair_outlines(boxes, outlines, min_iou).items():
        views = [outlines[o]] + [jittered(outlines[o], rng) for _ in range(outline_copies)]
        found += [(cards[b][0], straightened_card(image, view, size, CROP_MARGIN)) for view in views]
    for name, _, corners in cards:
        if corners is not None:
            found.append((name, straightened_card(image, jittered(corners, rng), size, CROP_MARGIN)))
    return found


def _scene_records(scenes_dir: Path) -> Iterator[tuple[dict, Image]]:
    for line in (scenes_dir / SCENES_FILE).read_text().splitlines():
        if line.strip():
            record = json.loads(line)
            image = cv2.imread(str(scenes_dir / record["image"]))
            if image is not None:
                yield record, image


def write_straight_crops(out: Path, pictures: Iterable[tuple[str, Image, list[tuple[str, Box, Quad | None]]]],
                         reader_dir: Path | None = None, seed: int = 0, outline_copies: int = 0) -> int:
    """Write ``out/<card>/<stem>_<i>.jpg`` for each picture (stem, BGR image, its labelled cards); ``outline_copies``
    as ``straight_crops``."""
    from vision.reader import CardReader
    from vision.reader_models import DEFAULT_MODEL_DIR

    reader = CardReader(reader_dir or DEFAULT_MODEL_DIR, threads=2)
    size = reader.manifest.classifier_imgsz
    rng = np.random.default_rng(seed)
    count = 0
    for stem, image, cards in pictures:
        outlines = reader.outlines(image)[0]
        crops = straight_crops(image, cards, outlines, size, rng, reader.settings.outline_match, outline_copies)
        for i, (name, crop) in enumerate(crops):
            (out / name).mkdir(parents=True, exist_ok=True)
            cv2.imwrite(str(out / name / f"{stem}_{i}.jpg"), crop, [cv2.IMWRITE_JPEG_QUALITY, 95])
            count += 1
    return count


def scene_pictures(scenes_dir: Path, prefix: str) -> Iterator[tuple[str, Image, list[tuple[str, Box, Quad | None]]]]:
    """The rendered scenes of ``scenes_dir`` with their labelled cards' boxes and corners."""
    for record, image in _scene_records(scenes_dir):
        cards = []
        for card in record["cards"]:
            if card["labelled"]:
                corners = np.array(card["corners"], np.float64)
                cards.append((card["card"], outline_box(corners), corners))
        yield f"{prefix}_{record['seed']:07d}", image, cards


def photo_pictures(split: str, source_dir: Path) -> Iterator[tuple[str, Image, list[tuple[str, Box, Quad | None]]]]:
    """The real photographs of ``split`` with their labelled boxes (no corners)."""
    from vision.train_data import labelled_real_photos

    for path, image, labelled in labelled_real_photos(split, source_dir):
        yield path.stem, image, [(str(card), box, None) for card, box in labelled]
