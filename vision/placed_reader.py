"""Reading the synthetic felt by where its cards were placed: the demo table without a trained model, and tests about
the kiosk rather than the model. It sits beside ``SyntheticTableSource`` (``vision.sources``), the only source it
can read."""

from __future__ import annotations

from typing import Any

from engine.cards import Card
from vision.detection import Detection


class PlacedReader:
    """Reads a ``SyntheticTableSource`` by what was placed on it (each card at its true place, confidence 0.99);
    ``doubt[card]`` adds flags to that card (confidence 0.55), as a real reader would for a covered card, and
    ``guesses[card]`` gives it next guesses, as a real reader's other likely cards."""

    def __init__(self, source: Any) -> None:
        self.source = source
        self.doubt: dict[Card, frozenset[str]] = {}
        self.guesses: dict[Card, tuple[Card, ...]] = {}

    def __call__(self, frame: Any) -> list[Detection]:
        detections = []
        for placed in self.source.placed_cards():
            corners = self.source.to_pixels(placed.corners_mm)
            xs, ys = corners[:, 0], corners[:, 1]
            flags = self.doubt.get(placed.card, frozenset())
            detections.append(
                Detection(
                    placed.card,
                    0.55 if flags else 0.99,
                    (float(xs.min()), float(ys.min()), float(xs.max()), float(ys.max())),
                    tuple((float(x), float(y)) for x, y in corners),  # type: ignore[arg-type]
                    flags,
                    self.guesses.get(placed.card, ()),
                )
            )
        return detections
