"""Classifier crops from the synthetic table the kiosk's embedded default shows (``SyntheticTableSource``).

The demo table lays one deck (``five-card-draw`` unless told) in rows across the layout's zones, seen by a camera
tilted and turned a little. Crops of those cards, cut the way the reader cuts a detector's box, teach the classifier
that deck as the demo camera shows it, as an enrolled deck would be taught at a real table.
"""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np

from engine.cards import Card, deck_with_joker
from vision.synth.dataset import write_crops

MAX_PER_ZONE = {"centre": 8}
DEFAULT_MAX_PER_ZONE = 3


def table_crops(out: Path, frames: int, seed: int = 0, deck: str | None = None, copies: int = 1,
                jitter: float = 0.06) -> int:
    """Render ``frames`` random deals on the synthetic table and write a crop of every card (``out/<class>/``)."""
    from vision.sources import SyntheticTableSource

    rng = random.Random(seed)
    crop_rng = np.random.default_rng(seed)
    count = 0
    for frame_number in range(frames):
        source = SyntheticTableSource(size=(1920, 1080), deck=deck, seed=seed * 100_000 + frame_number)
        source.move_camera(tilt=rng.uniform(0.0, 0.14), turn_deg=rng.uniform(-4.0, 4.0))
        cards: list[Card] = list(deck_with_joker())
        rng.shuffle(cards)
        zones = [z.name for z in source.layout.zones]
        rng.shuffle(zones)
        for zone in zones[: rng.randint(3, len(zones))]:
            n = rng.randint(1, MAX_PER_ZONE.get(zone, DEFAULT_MAX_PER_ZONE))
            source.place(zone, [cards.pop() for _ in range(min(n, len(cards)))])
        frame = source.read()
        if frame is None:
            continue
        boxes = []
        for placed in source.placed_cards():
            pixels = source.to_pixels(placed.corners_mm)
            boxes.append((str(placed.card), (float(pixels[:, 0].min()), float(pixels[:, 1].min()),
                                             float(pixels[:, 0].max()), float(pixels[:, 1].max()))))
        count += write_crops(frame, boxes, out, f"table_{seed}_{frame_number:05d}", crop_rng, copies, jitter)
        source.close()
    return count
