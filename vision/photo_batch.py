"""Photos read together, as one table's frames.

- **The deck, counted over all of them.** A reader counts, frame by frame, whether the deck on the table is the one
  its card classifier knows (``vision.reader_familiar``); a fresh reader starts out doubting. At a table the first
  frames come again a moment later, but the first photos of a batch do not: a photo read before the count settled
  is read again under the verdict the whole batch gives (else the known deck's first photos would be read index
  first and flagged, and an unseen deck's first photos without the stricter rule a settled count brings).
- **Squashed photos.** Exports of camera frames are often squashed to a square (a 4:3 or 16:9 frame resized to
  640 x 640): cards then look narrower or wider than a card is, and read less surely. Where the batch holds square
  photos, it is also read with them stretched back to each usual camera shape, wide and tall, and the batch is read
  the way that leaves clearly the most readings without a flag (but not a way that leaves an unseen deck's count
  unsettled where the photos as they are settle it); the readings' boxes are given in the photos' own pixels.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Generic, TypeVar

import cv2
import numpy as np
import numpy.typing as npt

from vision.detection import Detection
from vision.reader import CardReader

Item = TypeVar("Item")
# How much a square photo is stretched (width, height) before it is read: as it is first, then back to the usual
# camera shapes: 16:9 and 4:3 wide, 4:3 and 16:9 tall.
ASPECTS: tuple[tuple[float, float], ...] = ((1.0, 1.0), (16 / 9, 1.0), (4 / 3, 1.0), (1.0, 4 / 3), (1.0, 16 / 9))
# A stretch is taken over reading the photos as they are only when it leaves at least this many more readings
# without a flag, and this share more: a single photo of a few cards can read one card surer by chance. Chosen on
# the real validation photos (as they are: 531 of 568 readings unflagged; stretched 4:3 wide: 545), the held-out
# designs' validation scenes squashed from 16:9 (as they are 42 of 276, stretched back 144 of 289) and the same
# scenes cut square without squashing (as they are 77 of 200, no stretch more than 65), step 49. The share was 0.02
# until the detector of step 51, which learnt the real photos as they are and reads them surer so: its 4:3 wide
# stretch leaves 547 unflagged against 537 (1.9 % more; flagged 15 against 27), while the scenes cut square still
# read best as they are and the built-in deck's validation scenes cut square 234 as they are, at most 223 stretched.
STRETCH_MARGIN = 2
STRETCH_SHARE = 0.015


@dataclass
class PhotoReadings(Generic[Item]):
    """Each photo with its readings, in the order given, and the stretch the square photos were read at."""
    readings: list[tuple[Item, list[Detection]]]
    aspect: tuple[float, float] = (1.0, 1.0)

    @property
    def stretched(self) -> bool:
        return self.aspect != (1.0, 1.0)


@dataclass
class Pass:
    """The batch read at one stretch."""
    aspect: tuple[float, float]
    readings: list[list[Detection]]
    count: tuple[float, float]
    square: bool  # whether any photo is square
    verdict: tuple[bool, bool]  # the deck's verdict the count settled on (``CardReader.deck_verdict``)

    @property
    def unflagged(self) -> int:
        return sum(not d.flags for found in self.readings for d in found)


def is_square(frame: object) -> bool:
    height, width = np.shape(frame)[:2]
    return abs(width - height) <= 1


def stretch_frame(frame: npt.NDArray[np.uint8], aspect: tuple[float, float]) -> npt.NDArray[np.uint8]:
    """``frame`` stretched by ``aspect`` (width, height) when it is square and the aspect is not 1:1, else as it is:
    how a squashed photo is given its camera's shape back."""
    if aspect == (1.0, 1.0) or not is_square(frame):
        return frame
    wide, tall = aspect
    height, width = np.shape(frame)[:2]
    stretched = cv2.resize(np.asarray(frame), (round(width * wide), round(height * tall)),
                           interpolation=cv2.INTER_LINEAR)
    return np.asarray(stretched, np.uint8)


def read_stretched(reader: CardReader, frame: object, aspect: tuple[float, float]) -> list[Detection]:
    """``frame`` read stretched by ``aspect`` (width, height) when it is square, its readings in its own pixels."""
    if aspect == (1.0, 1.0) or not is_square(frame):
        return reader.read(frame)
    wide, tall = aspect
    stretched = stretch_frame(np.asarray(frame), aspect)
    return [replace(d, box=(d.box[0] / wide, d.box[1] / tall, d.box[2] / wide, d.box[3] / tall),
                    corners=None if d.corners is None else tuple((x / wide, y / tall) for x, y in d.corners))
            for d in reader.read(stretched)]


def _read_pass(reader: CardReader, photos: Sequence[Item], load: Callable[[Item], object],
               aspect: tuple[float, float], start: tuple[float, float]) -> Pass:
    """The photos read at ``aspect`` from the count ``start``, those read before the count settled read again."""
    reader.familiarity.restore(start)
    readings, verdicts, square = [], [], False
    for photo in photos:
        frame = load(photo)
        square = square or is_square(frame)
        readings.append(read_stretched(reader, frame, aspect))
        verdicts.append(reader.deck_verdict())
    count = reader.familiarity.snapshot()
    settled = reader.deck_verdict()
    for k, (photo, verdict) in enumerate(zip(photos, verdicts, strict=True)):
        if verdict != settled and readings[k]:  # a photo without cards reads the same
            reader.familiarity.restore(count)
            readings[k] = read_stretched(reader, load(photo), aspect)
    reader.familiarity.restore(count)
    return Pass(aspect, readings, count, square, settled)


def choose_pass(passes: Sequence[Pass]) -> Pass:
    """Of the batch read at each stretch (the first as the photos are), the one to give."""
    as_they_are = passes[0]
    # An unseen deck whose stretched photos give fewer sure index readings is not yet read by the stricter rule a
    # settled count brings, and leaves more readings unflagged for that, not for reading better: a stretch that
    # leaves the count unsettled where the photos as they are settle it is not weighed. One that makes the deck
    # familiar is (face and index agree once the cards have their shape back: a known deck's squashed photos).
    unsettled = (False, False)
    surest = max((p for p in passes if p.verdict != unsettled or as_they_are.verdict == unsettled),
                 key=lambda p: p.unflagged)
    clearly = surest.unflagged >= as_they_are.unflagged + max(STRETCH_MARGIN, STRETCH_SHARE * as_they_are.unflagged)
    return surest if clearly else as_they_are


def read_photos(reader: CardReader, photos: Sequence[Item], load: Callable[[Item], object],
                unsquash: bool = True) -> PhotoReadings[Item]:
    """Every photo (``load`` turns an item into a BGR frame) read as the module says; with ``unsquash`` off, square
    photos are read only as they are. The reader's count afterwards is the one the chosen reading left."""
    start = reader.familiarity.snapshot()
    passes = [_read_pass(reader, photos, load, ASPECTS[0], start)]
    if unsquash and passes[0].square:
        passes += [_read_pass(reader, photos, load, aspect, start) for aspect in ASPECTS[1:]]
    chosen = choose_pass(passes)
    reader.familiarity.restore(chosen.count)
    return PhotoReadings(list(zip(photos, chosen.readings, strict=True)), chosen.aspect)


def aspect_name(aspect: tuple[float, float]) -> str:
    """``(4/3, 1)`` as "4:3 wide", ``(1, 16/9)`` as "16:9 tall"."""
    wide, tall = aspect
    stretch = max(wide, tall)
    ratio = "16:9" if abs(stretch - 16 / 9) < 0.01 else "4:3" if abs(stretch - 4 / 3) < 0.01 else f"{stretch:.2f}:1"
    return "as taken" if stretch == 1.0 else f"{ratio} {'wide' if wide > tall else 'tall'}"
