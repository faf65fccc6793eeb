"""Impulse ("salt and pepper") noise: single pixels gone black or white, as a failing webcam sensor, a noisy cable or an
image tool's noise gives them. The models never saw it in training, and a few per cent of such pixels halve the cards
named right; a 3 x 3 median filter takes it out. A clean frame is left as it is: the median filter also thins the
strokes of small index glyphs, and costs a point or two of cards named right where there is no noise to remove."""

from __future__ import annotations

import cv2
import numpy as np

from vision.reader_models import Image

# The pixels looked at: every ROW_STEP-th row (each with its rows above and below), enough to tell the share.
ROW_STEP = 8
# A pixel's colour channel is an impulse when it is black or white (at most EXTREME from 0 or 255) and differs by
# more than IMPULSE_CONTRAST from the same channel of each of its eight neighbours: a thin stroke or an edge has
# neighbours alike on at least one side, and the grey pixels that smooth a sharp edge are not black or white.
IMPULSE_CONTRAST = 60
EXTREME = 20


def impulse_share(frame: Image) -> float:
    """The share of a BGR frame's pixel channels that are black or white and stand apart from all eight neighbours
    (0 to 1)."""
    height, width = frame.shape[:2]
    if height < 3 or width < 3:
        return 0.0
    rows = np.arange(1, height - 1, ROW_STEP)
    centre = frame[rows, 1:-1].astype(np.int16)
    least = np.full(centre.shape, np.iinfo(np.int16).max, dtype=np.int16)
    for dy in (-1, 0, 1):
        for dx in (-1, 0, 1):
            if dy or dx:
                neighbour = frame[rows + dy, 1 + dx:width - 1 + dx].astype(np.int16)
                np.minimum(least, np.abs(centre - neighbour), out=least)
    extreme = (centre <= EXTREME) | (centre >= 255 - EXTREME)
    return float(((least > IMPULSE_CONTRAST) & extreme).mean())


def without_impulse_noise(frame: Image, at_least: float) -> Image:
    """``frame`` median-filtered (3 x 3) when at least ``at_least`` of its pixel channels are impulses, else
    ``frame`` itself (``at_least`` 1 or more: never)."""
    if at_least >= 1.0 or impulse_share(frame) < at_least:
        return frame
    return np.asarray(cv2.medianBlur(frame, 3), np.uint8)
