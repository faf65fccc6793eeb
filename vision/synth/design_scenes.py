"""Detector scenes of real deck designs: the card-designs images laid on a table top, close up or at table size.

The detector learnt whole cards from the known deck's photos and from decks we draw, at the sizes a table camera
shows them; photographed close up, a card of another deck is boxed in parts (its pips and indices, each read as a
card). Here one to eight cards of hundreds of real designs (`vision.synth.design_crops`) are laid overlapping on a
drawn top, half the scenes close up (the card's longer side 40-110 % of the picture's, partly out of it), half at
table size; chips (white ones with blue spots among them), a dealer's hand and cash-coloured paper lie beside and
over them and are never labelled. A card is labelled by its whole box, clipped to the picture, when at least a
quarter of it shows; or, for the index-corner detector, each of its two index corners (rank over suit, top left and,
turned, bottom right) by the corner's box when most of the corner shows.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np
import numpy.typing as npt

from vision.card_shape import CARD_ASPECT
from vision.synth.design_crops import DEFAULT_DESIGNS, design_images
from vision.synth.textures import (
    apply_lighting,
    apply_sensor,
    cloth,
    draw_chip,
    draw_hand,
    felt,
    hand_mask,
    paper,
    stone,
    wood,
)

SIZE = 640
CLOSE_SHARE = 0.5  # scenes close up
CLOSE_LONG_SIDE = (0.4, 1.1)
TABLE_LONG_SIDE = (0.12, 0.35)
LABEL_VISIBLE = 0.25
GREY_SHARE = 0.1
# Where a card prints its index, shares of the face's width and height: top left and, turned, bottom right. Wide
# enough for the jumbo indices of the designs; a corner is labelled when this share of it shows in the picture.
INDEX_CORNER = (0.0, 0.0, 0.21, 0.28)
CORNER_VISIBLE = 0.7
Image = npt.NDArray[np.uint8]


def table_top(rng: np.random.Generator) -> Image:
    kind = int(rng.integers(0, 5))
    maker = (felt, wood, cloth, stone, paper)[kind]
    return maker(rng, (SIZE, SIZE))


def card_quad(rng: np.random.Generator, long_side: float, out_share: float) -> npt.NDArray[np.float32]:
    """A turned card's corners (face's top-left first), up to ``out_share`` of its reach outside the picture."""
    width = long_side / CARD_ASPECT
    local = np.array([[-1, -CARD_ASPECT], [1, -CARD_ASPECT], [1, CARD_ASPECT], [-1, CARD_ASPECT]]) * width / 2
    angle = rng.uniform(0, 2 * np.pi)
    c, s = np.cos(angle), np.sin(angle)
    turned = local @ np.array([[c, s], [-s, c]]) + rng.normal(0, 0.03 * width, (4, 2))
    reach = np.abs(turned).max(axis=0)
    low, high = reach * (1 - 2 * out_share), SIZE - reach * (1 - 2 * out_share)
    centre = rng.uniform(np.minimum(low, SIZE / 2), np.maximum(high, SIZE / 2))
    return (turned + centre).astype(np.float32)


def white_chip(rng: np.random.Generator, image: Image, centre: tuple[float, float], radius: float) -> None:
    """A white chip with blue spots round its edge: read as the two of spades before issue 53."""
    c, r = (int(centre[0]), int(centre[1])), int(radius)
    cv2.circle(image, c, r, (235, 235, 235), -1, cv2.LINE_AA)
    spots = int(rng.integers(4, 9))
    for k in range(spots):
        a = 2 * np.pi * k / spots
        p = (int(c[0] + 0.75 * r * np.cos(a)), int(c[1] + 0.75 * r * np.sin(a)))
        cv2.circle(image, p, max(2, r // 6), (200, 90, 30), -1, cv2.LINE_AA)
    cv2.circle(image, c, int(r * 0.45), (200, 90, 30), max(1, r // 15), cv2.LINE_AA)


def distractors(rng: np.random.Generator, image: Image, owner: npt.NDArray[np.int16]) -> None:
    """Chips, a banknote-coloured slip of paper and a hand, over whatever lies there (``owner`` set to -1)."""
    for _ in range(int(rng.integers(0, 5))):
        centre = (float(rng.uniform(0, SIZE)), float(rng.uniform(0, SIZE)))
        radius = float(rng.uniform(12, 45))
        mask = np.zeros(owner.shape, np.uint8)
        if rng.random() < 0.5:
            white_chip(rng, image, centre, radius)
            cv2.circle(mask, (int(centre[0]), int(centre[1])), int(radius), 255, -1)
        else:
            draw_chip(rng, image, mask, centre, radius)
        owner[mask > 0] = -1
    if rng.random() < 0.3:  # a banknote: a coloured rectangle with a pattern
        long_side = float(rng.uniform(0.3, 0.7)) * SIZE
        centre = (float(rng.uniform(0, SIZE)), float(rng.uniform(0, SIZE)))
        quad = cv2.boxPoints((centre, (long_side, long_side / 2.2), float(rng.uniform(0, 180))))
        colour = tuple(int(v) for v in rng.integers(40, 220, 3))
        mask = np.zeros(owner.shape, np.uint8)
        cv2.fillConvexPoly(mask, quad.astype(np.int32), 255)
        image[mask > 0] = colour
        lines = np.zeros_like(image)
        for _ in range(6):  # its print
            start, end = rng.integers(0, SIZE, 2), rng.integers(0, SIZE, 2)
            cv2.line(lines, (int(start[0]), int(start[1])), (int(end[0]), int(end[1])),
                     tuple(int(v) for v in rng.integers(0, 255, 3)), int(rng.integers(2, 8)))
        printed = (mask > 0) & (lines.sum(axis=2) > 0)
        image[printed] = lines[printed]
        owner[mask > 0] = -1
    if rng.random() < 0.35:
        mask = hand_mask(rng, (SIZE, SIZE), (float(rng.uniform(0, SIZE)), float(rng.uniform(0, SIZE))),
                         float(rng.uniform(40, 110)))
        draw_hand(rng, image, mask)
        owner[mask > 127] = -1


def index_corner_quads(quad: npt.NDArray[np.float32]) -> list[npt.NDArray[np.float32]]:
    """The two index corners of a card laid at ``quad`` (its face's corners, top-left first), in picture pixels."""
    x1, y1, x2, y2 = INDEX_CORNER
    corners = np.float32([[x1, y1], [x2, y1], [x2, y2], [x1, y2]])
    to_picture = cv2.getPerspectiveTransform(np.float32([[0, 0], [1, 0], [1, 1], [0, 1]]), quad)
    return [cv2.perspectiveTransform(c.reshape(-1, 1, 2), to_picture).reshape(-1, 2) for c in (corners, 1 - corners)]


def visible_corner_boxes(quads: Sequence[npt.NDArray[np.float32]], owner: npt.NDArray[np.int16]
                         ) -> list[tuple[float, float, float, float]]:
    """The box of every index corner of which ``CORNER_VISIBLE`` shows: its card owns those pixels in the picture
    (the corner's area outside the picture counts as hidden)."""
    boxes = []
    for k, quad in enumerate(quads):
        for corner in index_corner_quads(quad):
            mask = np.zeros(owner.shape, np.uint8)
            cv2.fillConvexPoly(mask, np.round(corner).astype(np.int32), 1)
            area = float(cv2.contourArea(corner.astype(np.float32)))
            if area < 16 or int(((owner == k) & (mask > 0)).sum()) < CORNER_VISIBLE * area:
                continue
            x1, y1 = np.clip(corner.min(axis=0), 0, SIZE)
            x2, y2 = np.clip(corner.max(axis=0), 0, SIZE)
            boxes.append((float(x1), float(y1), float(x2), float(y2)))
    return boxes


def design_scene(rng: np.random.Generator, faces: Sequence[Image], corners: bool = False
                 ) -> tuple[Image, list[tuple[float, ...]]]:
    """One scene of ``faces`` (one to eight of them are used) and the boxes of its labelled cards, or with
    ``corners`` of their visible index corners."""
    image = table_top(rng)
    owner = np.full((SIZE, SIZE), -1, np.int16)
    close = rng.random() < CLOSE_SHARE
    count = int(rng.integers(1, 4)) if close else int(rng.integers(2, 9))
    quads, areas = [], []
    for k in range(min(count, len(faces))):
        face = faces[k]
        long_side = SIZE * rng.uniform(*(CLOSE_LONG_SIDE if close else TABLE_LONG_SIDE))
        quad = card_quad(rng, long_side, 0.35 if close else 0.15)
        h, w = face.shape[:2]
        matrix = cv2.getPerspectiveTransform(np.float32([[0, 0], [w, 0], [w, h], [0, h]]), quad)
        warped = cv2.warpPerspective(face, matrix, (SIZE, SIZE), flags=cv2.INTER_AREA)
        mask = cv2.warpPerspective(np.full((h, w), 255, np.uint8), matrix, (SIZE, SIZE)) > 127
        image[mask] = warped[mask]
        owner[mask] = k
        quads.append(quad)
        areas.append(float(cv2.contourArea(quad)))
    distractors(rng, image, owner)
    image = apply_sensor(rng, apply_lighting(rng, image))
    if rng.random() < GREY_SHARE:
        image = cv2.cvtColor(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
    if corners:
        return image, list(visible_corner_boxes(quads, owner))
    boxes = []
    for k, (quad, area) in enumerate(zip(quads, areas, strict=True)):
        if int((owner == k).sum()) < LABEL_VISIBLE * area:
            continue
        x1, y1 = np.clip(quad.min(axis=0), 0, SIZE)
        x2, y2 = np.clip(quad.max(axis=0), 0, SIZE)
        if x2 - x1 >= 4 and y2 - y1 >= 4:
            boxes.append((float(x1), float(y1), float(x2), float(y2)))
    return image, boxes


def yolo_box_line(box: tuple[float, ...]) -> str:
    x1, y1, x2, y2 = box
    return f"0 {(x1 + x2) / 2 / SIZE:.6f} {(y1 + y2) / 2 / SIZE:.6f} {(x2 - x1) / SIZE:.6f} {(y2 - y1) / SIZE:.6f}"


def write_design_scenes(out: Path, split: str, scenes: int, seed: int = 0, root: Path = DEFAULT_DESIGNS,
                        corners: bool = False) -> int:
    """``scenes`` detector scenes (``out/images``, ``out/labels``, one class: whole cards, or with ``corners``
    index corners) of the designs of ``split``; scenes already written are kept. Returns how many were written now."""
    (out / "images").mkdir(parents=True, exist_ok=True)
    (out / "labels").mkdir(parents=True, exist_ok=True)
    images = [path for _, path in design_images(split, root)]
    rng = np.random.default_rng(seed)
    written = 0
    for number in range(scenes):
        picks = rng.choice(len(images), 8, replace=False)
        scene_rng = np.random.default_rng([seed, number])
        name = f"design-{split}-{number:06d}"
        if (out / "labels" / f"{name}.txt").exists():
            continue
        faces = [face for face in (cv2.imread(str(images[i]), cv2.IMREAD_COLOR) for i in picks) if face is not None]
        image, boxes = design_scene(scene_rng, faces, corners)
        cv2.imwrite(str(out / "images" / f"{name}.jpg"), image, [cv2.IMWRITE_JPEG_QUALITY, 90])
        (out / "labels" / f"{name}.txt").write_text("".join(yolo_box_line(box) + "\n" for box in boxes))
        written += 1
    return written
