"""A rendered enrollment spread: a deck's faces laid face up on felt in rows, as a dealer spreads them for the
camera, with known corners. Used to check capture (tests) and to play "the casino's own deck" in the bench.

It draws with the scene generator's own parts (``paste_card``, the felt, the sensor effects); it is a layout of the
generator's cards, not a second generator.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from engine.cards import Card
from vision.synth import textures
from vision.synth.faces import FACE_SIZE, paste_card

Image = npt.NDArray[np.uint8]
ASPECT = FACE_SIZE[1] / FACE_SIZE[0]


@dataclass(frozen=True)
class Spread:
    image: Image
    cards: tuple[Card, ...]
    corners: tuple[npt.NDArray[np.float32], ...]  # per card: the face's TL, TR, BR, BL in frame pixels


def render_spread(faces: Mapping[Card, Image], cards: Sequence[Card], seed: int, *,
                  size: tuple[int, int] = (1280, 720), card_width: float = 88.0, touching: bool = False,
                  tilt_degrees: float = 12.0, perspective: float = 0.0, noise: bool = True,
                  surface: str = "felt") -> Spread:
    """``cards`` laid in rows; each card turned by up to ``tilt_degrees`` (and by 180° at random); with
    ``touching`` the cards of a row share one angle and touch edge to edge; ``perspective`` (0..0.1) moves the
    frame's corners by that share of its size, as a camera not quite overhead; ``surface``: the table top, one of
    ``textures.SURFACES`` (felt, wood, cloth, stone: a grey desk, paper: a white table)."""
    rng = np.random.default_rng(seed)
    w, h = size
    if surface not in textures.SURFACES:
        raise ValueError(f"unknown table surface {surface!r}; one of {', '.join(textures.SURFACES)}")
    image = textures.SURFACES[surface](rng, size)
    height = card_width * ASPECT
    gap = 0.0 if touching else card_width * 0.35
    if not touching and tilt_degrees > 20:  # cards turned far need room for their diagonal
        gap = height * 1.2 - card_width
    per_row = max(1, int((w - 2 * card_width) // (card_width + gap)))
    # Touching: runs of 1, 2, 3 cards edge to edge (one angle per run), a gap between runs.
    slots: list[tuple[int, float, int]] = []  # (row, x offset in card widths, run number)
    row, x, run = 0, 0.0, 0
    while len(slots) < len(cards):
        length = (1, 2, 3)[run % 3] if touching else 1
        if x + length > per_row and x > 0:
            row, x = row + 1, 0.0
        for k in range(length):
            slots.append((row, x + k, run))
        x += length + (0.45 if touching else 0.0)
        run += 1
    placed: list[tuple[Card, npt.NDArray[np.float64]]] = []
    for index, card in enumerate(cards):
        row, offset, run = slots[index]
        if touching:
            run_rng = np.random.default_rng(seed * 1000 + run)
            angle = np.deg2rad(run_rng.uniform(-tilt_degrees, tilt_degrees) / 2)
            first = slots.index(next(s for s in slots if s[2] == run))
            start = np.array([card_width * 1.2 + slots[first][1] * card_width, height * 0.9 + row * height * 1.5])
            direction = np.array([np.cos(angle), np.sin(angle)])
            centre = start + direction * (offset - slots[first][1]) * card_width
        else:
            angle = np.deg2rad(rng.uniform(-tilt_degrees, tilt_degrees))
            centre = np.array([card_width * 1.2 + offset * (card_width + gap), height * 0.9 + row * height * 1.5])
            centre = centre + rng.uniform(-gap / 8, gap / 8, 2)
        if rng.random() < 0.5:
            angle += np.pi
        local = np.array([[-card_width / 2, -height / 2], [card_width / 2, -height / 2],
                          [card_width / 2, height / 2], [-card_width / 2, height / 2]])
        c, s = np.cos(angle), np.sin(angle)
        corners = local @ np.array([[c, s], [-s, c]]) + centre
        paste_card(image, faces[card], corners, shade=float(rng.uniform(0.88, 1.0)))
        placed.append((card, corners))
    all_corners = np.stack([c for _, c in placed]).astype(np.float64) if placed else np.zeros((0, 4, 2))
    if perspective > 0:
        src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
        dst = (src + rng.uniform(-perspective, perspective, (4, 2)) * np.float32([w, h])).astype(np.float32)
        matrix = cv2.getPerspectiveTransform(src, dst)
        image = cv2.warpPerspective(image, matrix, size, borderMode=cv2.BORDER_REFLECT)
        if len(all_corners):
            all_corners = cv2.perspectiveTransform(all_corners.reshape(-1, 1, 2), matrix).reshape(-1, 4, 2)
    if noise:
        image = cv2.GaussianBlur(image, (3, 3), 0)
        image = np.clip(image.astype(np.float32) + rng.normal(0, 3.0, image.shape), 0, 255).astype(np.uint8)
    return Spread(image, tuple(card for card, _ in placed), tuple(c.astype(np.float32) for c in all_corners))
