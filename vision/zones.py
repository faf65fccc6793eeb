"""From detections in frame pixels to cards at table positions, each in its zone (or in none)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

from engine.cards import Card
from vision.calibration import Calibration
from vision.detection import Detection
from vision.layout import Layout


@dataclass(frozen=True, slots=True)
class TableDetection:
    """A detection placed on the table: where its centre lies in table mm, and the zone holding that point."""

    detection: Detection
    centre_mm: tuple[float, float]
    zone: str | None

    @property
    def card(self) -> Card:
        return self.detection.card


def card_centre_mm(detection: Detection, calibration: Calibration) -> tuple[float, float]:
    """The card's centre on the table.

    With the card's outline known, its four corners are taken to the table and averaged (a perspective camera
    moves the middle of the box away from the middle of the card); else the middle of the box is used.
    """
    if detection.corners is not None:
        x, y = calibration.to_table(np.array(detection.corners)).mean(axis=0)
    else:
        x, y = calibration.to_table(np.array([detection.center]))[0]
    return (float(x), float(y))


ZONE_MARGIN_MM = 15.0  # a card whose centre lies this far outside its printed place still counts as in it


def locate(
    detections: Iterable[Detection], calibration: Calibration, layout: Layout, margin_mm: float = ZONE_MARGIN_MM
) -> list[TableDetection]:
    """Every detection with its table position and zone (None when it lies outside every zone, by more than
    ``margin_mm``)."""
    located = []
    for detection in detections:
        x, y = card_centre_mm(detection, calibration)
        zone = layout.zone_at(x, y, margin_mm)
        located.append(TableDetection(detection, (x, y), zone.name if zone else None))
    return located
