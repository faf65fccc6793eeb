"""Telling which card of a profile a warped face is, by comparing pictures (no model): the truth for verification.

The profile's face, less a margin, is slid over the warped face by a few pixels each way (a warp a little off must
not matter) and compared as normalised correlation of colours, in both 180° orientations; the best card wins.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import cv2
import numpy as np
import numpy.typing as npt

from engine.cards import Card

Image = npt.NDArray[np.uint8]
SIZE = (80, 112)
MARGIN = 6  # pixels at SIZE: how far a warp may be off; also drops the outline and any felt at the edge


def _small(face: Image) -> npt.NDArray[np.float32]:
    """Brightness and redness: the pattern of the print, and whether it is red (♥♦) or black (♠♣), which a
    correlation of raw colours weighs too lightly once each channel's mean is taken out."""
    small = cv2.resize(face, SIZE, interpolation=cv2.INTER_AREA).astype(np.float32)
    small = cv2.GaussianBlur(small, (0, 0), 0.8)
    b, g, r = cv2.split(small)
    gray = 0.114 * b + 0.587 * g + 0.299 * r
    redness = np.clip(r - (g + b) / 2, 0, None) * 1.5
    return cv2.merge([gray, redness])


@dataclass(frozen=True)
class Match:
    card: Card | None  # None: not like any card of the profile
    score: float
    runner_up: float


class FaceMatcher:
    """The profile's faces, ready to compare warped faces against."""

    def __init__(self, faces: Mapping[Card, Image], min_score: float = 0.5) -> None:
        self.cards = list(faces)
        self.min_score = min_score
        self._templates = []
        for card in self.cards:
            small = _small(faces[card])
            inner = small[MARGIN:-MARGIN, MARGIN:-MARGIN]
            self._templates.append((np.ascontiguousarray(inner), np.ascontiguousarray(inner[::-1, ::-1])))

    def scores(self, face: Image) -> npt.NDArray[np.float32]:
        query = _small(face)
        out = np.empty(len(self.cards), np.float32)
        for i, (upright, turned) in enumerate(self._templates):
            out[i] = max(float(cv2.matchTemplate(query, upright, cv2.TM_CCOEFF_NORMED).max()),
                         float(cv2.matchTemplate(query, turned, cv2.TM_CCOEFF_NORMED).max()))
        return out

    def match(self, face: Image) -> Match:
        scores = self.scores(face)
        order = np.argsort(-scores)
        best = float(scores[order[0]])
        second = float(scores[order[1]]) if len(order) > 1 else 0.0
        card = self.cards[int(order[0])] if best >= self.min_score else None
        return Match(card, best, second)
