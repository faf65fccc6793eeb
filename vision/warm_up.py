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


def warm_up_frame(like: Any = None) -> Any:
    """A BGR frame of eight cards in two rows: on a copy of ``like`` (the camera's own first frame, so the models
    meet the size they will read), or on a 640 × 480 green felt."""
    import cv2

    if like is None or getattr(like, "ndim", 0) != 3 or like.shape[2] < 3:
        frame = np.zeros((FRAME_SIZE[1], FRAME_SIZE[0], 3), np.uint8)
        frame[:] = (40, 110, 30)
    else:
        frame = np.ascontiguousarray(like[:, :, :3]).copy()
    height, width = frame.shape[:2]
    scale = min(width / FRAME_SIZE[0], height / FRAME_SIZE[1])
    card = (max(8, round(CARD_SIZE[0] * scale)), max(8, round(CARD_SIZE[1] * scale)))
    data = importlib.resources.files("five_card_draw") / "data"
    for index, name in enumerate(FACES):
        face = cv2.imread(str(data / f"{name}.png"), cv2.IMREAD_COLOR)
        if face is None:
            continue
        face = cv2.resize(face, card, interpolation=cv2.INTER_AREA)
        x = round((60 + (index % 4) * (CARD_SIZE[0] + 70)) * scale)
        y = round((100 + (index // 4) * (CARD_SIZE[1] + 80)) * scale)
        frame[y:y + card[1], x:x + card[0]] = face
    return frame


def warm_up(read: Callable[[Any], Any], like: Any = None) -> float:
    """Read the warm-up frame (made like ``like``, the camera's first frame, when given) once; the seconds it took."""
    started = time.perf_counter()
    read(warm_up_frame(like))
    return time.perf_counter() - started
