"""Frames for the vision tests: cards of a deck the card classifier trained on, laid apart in a row on a felt."""

from __future__ import annotations

import numpy as np

from engine.cards import parse_card
from vision.synth.faces import FIVE_CARD_DRAW, load_deck, paste_card
from vision.synth.textures import felt


def cards_in_a_row(seed: int, cards: tuple[str, ...], size: tuple[int, int] = (1280, 720), first_x: float = 250.0,
                   step: float = 380.0, width: float = 130.0) -> np.ndarray:
    """``cards`` (such as "AS") upright, ``width`` px wide and of a card's shape, centred at ``first_x``,
    ``first_x + step``, … across the middle of a ``size`` felt drawn from ``seed``."""
    faces = load_deck(FIVE_CARD_DRAW)
    frame = felt(np.random.default_rng(seed), size)
    cy, half_w, half_h = size[1] / 2, width / 2, width * 0.7
    for k, text in enumerate(cards):
        cx = first_x + step * k
        corners = np.float32([[cx - half_w, cy - half_h], [cx + half_w, cy - half_h], [cx + half_w, cy + half_h],
                              [cx - half_w, cy + half_h]])
        paste_card(frame, faces[parse_card(text)], corners)
    return frame
