"""Face crops and index patches of hundreds of real deck designs (`../shared/data/card-designs`), for the any-deck
readers to learn what a rank and a suit look like across real decks rather than across our own procedural ones.

Each design image shows one card filling the frame (squashed to a square). It is given back the 5:7 shape of a card,
laid on a drawn table top at a random turn and size, lit and blurred as the scenes are, sometimes in greyscale (phone
photos in black and white), and then cut exactly as the reader cuts a card: the face crop around its box
(``vision.reader_crops.square_crop``) and the index patches at its box's and its outline's corners
(``vision.synth.procedural_patches.write_patches``, labelled as every index patch set is).
"""

from __future__ import annotations

import csv
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

from engine.cards import Card
from vision.card_shape import CARD_ASPECT
from vision.reader_classes import card_of_class_name
from vision.reader_crops import square_crop
from vision.synth.scene import PlacedCard, Scene
from vision.synth.textures import apply_lighting, apply_sensor, table_surface

REPO_ROOT = Path(__file__).resolve().parent.parent.parent
DEFAULT_DESIGNS = REPO_ROOT.parent / "shared" / "data" / "card-designs"
FRAME = 320  # the drawn photo's side
CARD_LONG_SIDE = (0.35, 0.85)  # the card's longer side, as a share of the frame's
GREY_SHARE = 0.15  # photos turned to greyscale
BOX_JITTER = 0.05  # of the box's size: how far a detector's box is taken to be off


def design_images(split: str, root: Path = DEFAULT_DESIGNS) -> list[tuple[Card, Path]]:
    """The design images of one split (``train``, ``valid``, ``test``) with their cards, from ``cards.csv``."""
    listed = root / "cards.csv"
    if not listed.exists():
        raise FileNotFoundError(f"{listed} is missing: point --designs at the card-designs folder")
    with listed.open(newline="") as handle:
        rows = [row for row in csv.DictReader(handle) if row["data set"] == split]
    return [(card_of_class_name(row["labels"]), root / row["filepaths"]) for row in rows]


def lay_card(face: npt.NDArray[np.uint8], rng: np.random.Generator,
             ) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.float32]]:
    """``face`` laid on a drawn table top: the photo and the card's corners (face's top-left first, clockwise)."""
    long_side = FRAME * rng.uniform(*CARD_LONG_SIDE)
    width = long_side / CARD_ASPECT
    angle = rng.uniform(0, 2 * np.pi)
    local = np.array([[-1, -CARD_ASPECT], [1, -CARD_ASPECT], [1, CARD_ASPECT], [-1, CARD_ASPECT]]) * width / 2
    c, s = np.cos(angle), np.sin(angle)
    turned = local @ np.array([[c, s], [-s, c]])
    turned += rng.normal(0, 0.03 * width, turned.shape)  # a little perspective
    reach = np.abs(turned).max(axis=0)
    centre = rng.uniform(reach * 0.8, FRAME - reach * 0.8)  # at most a fifth of the card out of the picture
    corners = (turned + centre).astype(np.float32)
    h, w = face.shape[:2]
    matrix = cv2.getPerspectiveTransform(np.float32([[0, 0], [w, 0], [w, h], [0, h]]), corners)
    photo = table_surface(rng, (FRAME, FRAME))
    warped = cv2.warpPerspective(face, matrix, (FRAME, FRAME), flags=cv2.INTER_AREA)
    mask = cv2.warpPerspective(np.full((h, w), 255, np.uint8), matrix, (FRAME, FRAME))
    photo[mask > 127] = warped[mask > 127]
    photo = apply_sensor(rng, apply_lighting(rng, photo))
    if rng.random() < GREY_SHARE:
        photo = cv2.cvtColor(cv2.cvtColor(photo, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
    return photo, corners


def jittered_box(corners: npt.NDArray[np.float32], rng: np.random.Generator) -> tuple[float, float, float, float]:
    x1, y1 = corners.min(axis=0)
    x2, y2 = corners.max(axis=0)
    size = np.array([x2 - x1, y2 - y1, x2 - x1, y2 - y1])
    box = np.array([x1, y1, x2, y2]) + rng.normal(0, BOX_JITTER, 4) * size
    return (float(max(box[0], 0)), float(max(box[1], 0)), float(min(box[2], FRAME)), float(min(box[3], FRAME)))


def laid_designs(split: str, copies: int, seed: int, root: Path = DEFAULT_DESIGNS, limit: int | None = None,
                 ) -> Iterator[tuple[int, Card, npt.NDArray[np.uint8], npt.NDArray[np.float32]]]:
    """Every design image of ``split`` (the first ``limit``) laid ``copies`` times: (number, card, photo, corners)."""
    rng = np.random.default_rng(seed)
    number = 0
    for card, path in design_images(split, root)[:limit]:
        face = cv2.imread(str(path), cv2.IMREAD_COLOR)
        if face is None:
            continue
        for _ in range(copies):
            photo, corners = lay_card(face, rng)
            yield number, card, photo, corners
            number += 1


def write_design_faces(out: Path, split: str, copies: int = 2, seed: int = 0, size: int = 160,
                       root: Path = DEFAULT_DESIGNS, limit: int | None = None) -> int:
    """Face crops of the designs of ``split`` into ``out/<card>/``; returns how many."""
    rng = np.random.default_rng(seed + 1)
    count = 0
    for number, card, photo, corners in laid_designs(split, copies, seed, root, limit):
        folder = out / str(card)
        folder.mkdir(parents=True, exist_ok=True)
        crop = square_crop(photo, jittered_box(corners, rng), size)
        cv2.imwrite(str(folder / f"design-{split}-{number:06d}.jpg"), crop, [cv2.IMWRITE_JPEG_QUALITY, 92])
        count += 1
    return count


def write_design_patches(out: Path, split: str, copies: int = 2, seed: int = 0, keep_none: int = 3,
                         root: Path = DEFAULT_DESIGNS, limit: int | None = None) -> int:
    """Index patches of the designs of ``split`` into ``out/<class>/`` (cards and ``none``); returns how many."""
    from vision.synth.procedural_patches import write_patches

    rng = np.random.default_rng(seed + 2)
    count = 0
    for number, card, photo, corners in laid_designs(split, copies, seed, root, limit):
        scene = Scene(number, "design", photo, (PlacedCard(card, corners, 1.0, (1.0, 1.0)),))
        count += write_patches(out, scene, f"design-{split}", keep_none=keep_none, keep_card=1.0, rng=rng)
    return count
