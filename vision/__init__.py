"""The card reader: overhead camera frames in, cards on the felt out.

Use it like this (the kiosk does)::

    import vision
    detections = vision.read(frame)          # frame: an OpenCV BGR image (numpy uint8, H x W x 3)
    for d in detections:                     # list[vision.detection.Detection]
        print(d.card, d.confidence, d.box, d.corners, d.flags)

``read`` runs the shipped model in ``models/`` on ONNX Runtime (no torch needed): a 1-class card detector, then a
53-class classifier (52 cards + joker) on each card's crop. Doubt is reported, never resolved: a reading under the
confidence threshold carries ``low_confidence``, the same card read twice carries ``duplicate`` on every copy, and a
face overlapped by another card or covered carries ``partly_covered``. One deck is on the table: of two readings of
one card, the less sure one is named by its next likely card, flagged ``low_confidence``
(``ReaderSettings.one_deck``). ``vision.reader.CardReader`` gives the same with settings (model folder, thresholds);
``dealer-assist vision read IMAGE... [--json]`` does it from the command line.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from vision.detection import Detection

__all__ = ["read"]


def read(frame: Any) -> list[Detection]:
    """The cards in one BGR frame, read by the shipped model (loaded once, on first use)."""
    from vision.reader import default_reader

    return default_reader().read(frame)
