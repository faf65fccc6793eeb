"""Photos read together, as one table's frames: the deck's familiarity (``vision.reader_familiar``) is counted over
all of them, and a photo read before the count settled is read again under the verdict the whole batch gives.

A reader counts, frame by frame, whether the deck on the table is the one its card classifier knows; a fresh reader
starts out doubting (``DeckFamiliarity``'s prior). At a table the first frames come again a moment later, but the
first photos of a batch do not: without a second reading they would keep the doubt of a reader that had not yet
seen the deck (the known deck's first photos read index first and flagged, an unseen deck's first photos read
without the stricter rule a settled count brings)."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import TypeVar

from vision.detection import Detection
from vision.reader import CardReader

Item = TypeVar("Item")


def read_photos(reader: CardReader, photos: Sequence[Item],
                load: Callable[[Item], object]) -> Iterator[tuple[Item, list[Detection]]]:
    """Each photo (``load`` turns an item into a BGR frame) with its readings, in the order given. Every photo is
    read once; those with cards, read while the count said otherwise than it says after the last one, are read
    again, each from the count as the whole batch left it, which stays the reader's count afterwards."""
    readings: list[list[Detection]] = []
    verdicts: list[tuple[bool, bool]] = []
    for photo in photos:
        readings.append(reader.read(load(photo)))
        verdicts.append(reader.deck_verdict())
    settled_count, settled = reader.familiarity.snapshot(), reader.deck_verdict()
    for photo, found, verdict in zip(photos, readings, verdicts, strict=True):
        if verdict != settled and found:  # a photo without cards reads the same
            reader.familiarity.restore(settled_count)
            found = reader.read(load(photo))
        yield photo, found
    reader.familiarity.restore(settled_count)

