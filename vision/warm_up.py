"""A card reader run once before the table needs it, so that the first round reads as fast as the others.

ONNX Runtime sizes its buffers and the reader opens its later stages (the index-corner look, the rank recogniser)
on the first frame that shows cards; on a cold kiosk that frame took seconds. ``warm_up`` reads a frame of a few
cards on a felt (faces from the five-card-draw package the demo table draws too) right after start.
"""

from __future__ import annotations

import importlib.resources
import time
from collections.abc import Callable
from typing import Any

import numpy as np

FRAME_SIZE = (640, 480)
CARD_SIZE = (62, 88)  # pixels: a card as the overhead camera sees it
FACES = ("S14", "H13", "D12", "C11", "S10", "H9", "D5", "C2")


def warm_up_frame() -> Any:
    """A BGR frame of eight cards in two rows on a green felt."""
    import cv2

    frame = np.zeros((FRAME_SIZE[1], FRAME_SIZE[0], 3), np.uint8)
    frame[:] = (40, 110, 30)
    data = importlib.resources.files("five_card_draw") / "data"
    for index, name in enumerate(FACES):
        face = cv2.imread(str(data / f"{name}.png"), cv2.IMREAD_COLOR)
        if face is None:
            continue
        face = cv2.resize(face, CARD_SIZE, interpolation=cv2.INTER_AREA)
        x = 60 + (index % 4) * (CARD_SIZE[0] + 70)
        y = 100 + (index // 4) * (CARD_SIZE[1] + 80)
        frame[y:y + CARD_SIZE[1], x:x + CARD_SIZE[0]] = face
    return frame


def warm_up(read: Callable[[Any], Any]) -> float:
    """Read the warm-up frame once; the seconds it took."""
    started = time.perf_counter()
    read(warm_up_frame())
    return time.perf_counter() - started
