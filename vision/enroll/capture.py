"""Capture: photos of the deck face up → faces in the draft, each with the current model's proposal.

Cards are found the way the table finds them, by the card reader's own detector (``vision.enroll.find``), on any
table top; without a model that can be opened, by their outline on a plain table (``vision.enroll.extract``).
Proposals are what the table would read today: the reading that found the card (``CardFinder``), or the reader's
classifier on the card's box. Without a model every face waits for a person.

A batch of photos (``capture_photos``) is read as ``dealer-assist vision read`` reads one (``vision.photo_batch``):
square photos squashed from a camera's frame are read stretched back where that reads clearly surer, and captured
stretched so, faces and frames alike. A photo that cannot be read, is too dark or shows no card is named with the
reason and skipped; the batch goes on.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Protocol

import numpy as np
import numpy.typing as npt

from engine.cards import Card
from engine.errors import InputError
from vision.detection import Detection, Point
from vision.enroll.extract import Extraction, ExtractSettings, FoundCard, find_cards
from vision.enroll.find import CardFinder, too_dark
from vision.enroll.matching import FaceMatcher
from vision.enroll.profile import Draft, DraftFace

Image = npt.NDArray[np.uint8]
TOO_DARK = "too dark to see the cards: light the table and take it again"
NO_CARD = "no card found: spread the cards face up under the camera"
NONE_TAKEN = "no card could be taken: each card found is pointed out below"


class Proposes(Protocol):
    def propose(self, frame: Image, cards: Sequence[FoundCard]) -> list[tuple[Card | None, float]]: ...


class Proposer:
    """Proposes an identity for each found card with a card-reader model (ONNX Runtime, as the kiosk): the reading
    that found it where a reader found it, else the classifier on the square around its box."""

    def __init__(self, model_dir: Path | None = None, reader: object | None = None) -> None:
        from vision.reader import CardReader
        from vision.reader_models import DEFAULT_MODEL_DIR

        self.reader = reader if isinstance(reader, CardReader) else CardReader(model_dir or DEFAULT_MODEL_DIR)

    def propose(self, frame: Image, cards: Sequence[FoundCard]) -> list[tuple[Card | None, float]]:
        out: list[tuple[Card | None, float]] = [(c.read, c.confidence) for c in cards]
        unread = [i for i, c in enumerate(cards) if c.read is None]
        if unread:
            boxes = np.asarray([cards[i].box for i in unread], np.float32)
            for i, p in zip(unread, self.reader.classify(frame, boxes), strict=True):
                pick = int(np.argmax(p))
                out[i] = (self.reader.cards[pick], float(p[pick]))
        return out


class FaceProposer:
    """Proposes identities by comparing faces with a known deck's faces (an earlier profile of the same design)."""

    def __init__(self, faces: Mapping[Card, Image]) -> None:
        self.matcher = FaceMatcher(faces)

    def propose(self, frame: Image, cards: Sequence[FoundCard]) -> list[tuple[Card | None, float]]:
        out: list[tuple[Card | None, float]] = []
        for card in cards:
            match = self.matcher.match(card.face)
            out.append((match.card, max(0.0, min(1.0, match.score))))
        return out


def open_proposer(model_dir: Path | None = None) -> tuple[Proposer | None, str]:
    """The proposer of the model in ``model_dir`` (default: the shipped one), or None and why not."""
    try:
        return Proposer(model_dir), ""
    except InputError as error:
        return None, f"no identities proposed ({error}); name every face by hand"


@dataclass(frozen=True)
class CaptureResult:
    frame: str  # the frame's name in the draft ("" when nothing was added)
    added: list[DraftFace]
    problems: list[str]
    skipped: str = ""  # why nothing of the photo was taken ("" when cards were)


def _extract(frame: Image, finder: CardFinder | None, settings: ExtractSettings | None) -> Extraction:
    return finder.find(frame) if finder is not None else find_cards(frame, settings)


def _add(draft: Draft, frame: Image, extraction: Extraction, proposer: Proposes | None) -> CaptureResult:
    problems = list(extraction.problems)
    if not extraction.cards:
        return CaptureResult("", [], problems, NONE_TAKEN if problems else NO_CARD)
    proposals = proposer.propose(frame, extraction.cards) if proposer is not None else \
        [(None, 0.0)] * len(extraction.cards)
    name = draft.add_frame(frame)
    added = [draft.add_face(name, card.corners, card.face, proposed, confidence, card.found_by)
             for card, (proposed, confidence) in zip(extraction.cards, proposals, strict=True)]
    draft.save()
    return CaptureResult(name, added, problems)


def capture_frame(draft: Draft, frame: Image, proposer: Proposes | None, settings: ExtractSettings | None = None,
                  finder: CardFinder | None = None) -> CaptureResult:
    """Find the cards of one frame (with ``finder``'s reader; without one, by their outline on a plain table), add
    their faces (with proposals) to the draft and save it. A frame too dark or without a card adds nothing and
    says why (``CaptureResult.skipped``)."""
    if isinstance(frame, np.ndarray) and frame.dtype == np.uint8 and frame.ndim == 3 and too_dark(frame):
        return CaptureResult("", [], [], TOO_DARK)
    return _add(draft, frame, _extract(frame, finder, settings), proposer)


@dataclass
class BatchCapture:
    """What a batch of photos gave: each photo's result, in the order given, and how square photos were read."""

    results: list[tuple[str, CaptureResult]] = field(default_factory=list)
    aspect: tuple[float, float] = (1.0, 1.0)

    @property
    def skipped(self) -> list[tuple[str, str]]:
        """(photo, why) of every photo nothing was taken from."""
        return [(photo, result.skipped) for photo, result in self.results if result.skipped]

    @property
    def added(self) -> int:
        return sum(len(result.added) for _photo, result in self.results)


def capture_photos(draft: Draft, photos: Sequence[Path], proposer: Proposes | None, *,
                   finder: CardFinder | None = None, settings: ExtractSettings | None = None, unsquash: bool = True,
                   report: Callable[[str, CaptureResult], None] | None = None) -> BatchCapture:
    """Capture every photo into the draft; ``report`` hears of each photo as it is done. A photo that cannot be
    read, is too dark or shows no card is skipped with the reason; the rest go on."""
    from vision.image_files import read_image

    batch = BatchCapture()
    done: dict[int, CaptureResult] = {}
    readable: list[int] = []
    for k, path in enumerate(photos):  # the bad photos named first, at no cost to the rest
        try:
            frame = read_image(path)
        except InputError as error:
            done[k] = CaptureResult("", [], [], f"unreadable: {error}")
            continue
        if too_dark(frame):
            done[k] = CaptureResult("", [], [], TOO_DARK)
            continue
        readable.append(k)

    def load(k: int) -> Image:
        return read_image(photos[k])

    readings: dict[int, list[Detection]] = {}
    if finder is not None and readable:
        from vision.photo_batch import read_photos

        read = read_photos(finder.reader, readable, load, unsquash=unsquash)
        batch.aspect = read.aspect
        readings = {k: list(found) for k, found in read.readings}
    for k, path in enumerate(photos):
        if k not in done:
            done[k] = _capture_one(draft, load(k), proposer, finder, settings, batch.aspect,
                                   readings.get(k))
        batch.results.append((str(path), done[k]))
        if report is not None:
            report(str(path), done[k])
    return batch


def _capture_one(draft: Draft, frame: Image, proposer: Proposes | None, finder: CardFinder | None,
                 settings: ExtractSettings | None, aspect: tuple[float, float],
                 readings: list[Detection] | None) -> CaptureResult:
    if finder is None or readings is None:
        try:
            return _add(draft, frame, find_cards(frame, settings), proposer)
        except InputError as error:
            return CaptureResult("", [], [], str(error))
    from vision.photo_batch import is_square, stretch_frame

    found = readings
    if aspect != (1.0, 1.0) and is_square(frame):  # captured as read: stretched back to the camera's shape
        wide, tall = aspect
        frame = stretch_frame(frame, aspect)
        found = [replace(d, box=(d.box[0] * wide, d.box[1] * tall, d.box[2] * wide, d.box[3] * tall),
                         corners=None if d.corners is None else _scaled(d.corners, wide, tall))
                 for d in found]
    return _add(draft, frame, finder.extract(frame, found), proposer)


def _scaled(corners: tuple[Point, Point, Point, Point], wide: float, tall: float) -> tuple[Point, Point, Point, Point]:
    (ax, ay), (bx, by), (cx, cy), (dx, dy) = corners
    return (ax * wide, ay * tall), (bx * wide, by * tall), (cx * wide, cy * tall), (dx * wide, dy * tall)
