"""The camera frame a reading was made from, kept as evidence: encoded at the configured quality, stored in the
journal's evidence folder by content hash before the ``cards_read`` event that cites it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from engine.cards import Card
from journal import Journal, JournalError

SUFFIXES = {"jpeg": ".jpg", "webp": ".webp"}


@dataclass(frozen=True)
class FrameEncoding:
    """``format``: jpeg or webp; ``quality``: 1 (smallest file) to 100 (best picture)."""

    format: str = "jpeg"
    quality: int = 80


def encode(image: Any, encoding: FrameEncoding) -> bytes:
    import cv2

    flag = cv2.IMWRITE_JPEG_QUALITY if encoding.format == "jpeg" else cv2.IMWRITE_WEBP_QUALITY
    ok, data = cv2.imencode(SUFFIXES[encoding.format], image, [int(flag), int(encoding.quality)])
    if not ok:
        raise JournalError(f"the camera frame could not be encoded as {encoding.format}: nothing was recorded")
    return bytes(data)


class EvidenceFrame:
    """One camera frame (``vision.table_reader.SeenFrame``) on its way to the journal with the readings made from
    it. Encoded once, on the first reading that is journaled."""

    def __init__(self, seen: Any, encoding: FrameEncoding) -> None:
        self.seen = seen
        self.encoding = encoding
        self._digest: str | None = None

    @property
    def number(self) -> int:
        return int(self.seen.number)

    def store(self, journal: Journal) -> str:
        """Keep the frame in the journal's evidence folder; returns the hash a ``CardsRead`` cites."""
        if self._digest is None:
            data = encode(self.seen.image, self.encoding)
            try:
                self._digest = journal.store_frame(data, SUFFIXES[self.encoding.format])
            except OSError as error:
                raise JournalError(f"could not keep the camera frame as evidence ({error}): nothing was recorded; "
                                   "check the disk") from None
        return self._digest

    def boxes(self, zone: str, cards: Sequence[Card | None]) -> tuple[tuple[int, ...], ...]:
        """Where each card of ``zone`` was read in this frame (``()`` for a card not read there: set by hand)."""
        found: dict[Card, tuple[int, ...]] = {}
        for placed in self.seen.placed:
            if placed.zone == zone and placed.card not in found:
                found[placed.card] = tuple(round(v) for v in placed.detection.box)
        return tuple(found.get(card, ()) if card is not None else () for card in cards)
