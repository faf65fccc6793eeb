"""Capture: frames of the deck spread face up → faces in the draft, each with the current model's proposal.

Proposals come from the card reader's own classifier on the same crop it sees at the table (the square around the
card's box), so a proposal is what the table would read today. Without a model every face waits for a person.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import numpy as np
import numpy.typing as npt

from engine.cards import Card
from engine.errors import InputError
from vision.enroll.extract import Extraction, ExtractSettings, FoundCard, find_cards
from vision.enroll.matching import FaceMatcher
from vision.enroll.profile import Draft, DraftFace

Image = npt.NDArray[np.uint8]


class Proposes(Protocol):
    def propose(self, frame: Image, cards: Sequence[FoundCard]) -> list[tuple[Card | None, float]]: ...


class Proposer:
    """Proposes an identity for each found card with a card-reader model folder (ONNX Runtime, as the kiosk)."""

    def __init__(self, model_dir: Path | None = None) -> None:
        from vision.reader import CardReader
        from vision.reader_models import DEFAULT_MODEL_DIR

        self.reader = CardReader(model_dir or DEFAULT_MODEL_DIR)

    def propose(self, frame: Image, cards: Sequence[FoundCard]) -> list[tuple[Card | None, float]]:
        if not cards:
            return []
        boxes = np.asarray([c.box for c in cards], np.float32)
        probabilities = self.reader.classify(frame, boxes)
        out: list[tuple[Card | None, float]] = []
        for p in probabilities:
            pick = int(np.argmax(p))
            out.append((self.reader.cards[pick], float(p[pick])))
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
    """The proposer of the model in ``model_dir`` (default: the active one), or None and why not."""
    try:
        return Proposer(model_dir), ""
    except InputError as error:
        return None, f"no identities proposed ({error}); name every face by hand"


@dataclass(frozen=True)
class CaptureResult:
    frame: str
    added: list[DraftFace]
    problems: list[str]


def capture_frame(draft: Draft, frame: Image, proposer: Proposes | None,
                  settings: ExtractSettings | None = None) -> CaptureResult:
    """Find the cards of one frame, add their faces (with proposals) to the draft and save it."""
    extraction: Extraction = find_cards(frame, settings)
    problems = list(extraction.problems)
    if not extraction.cards:
        problems.append("no card found in this frame: spread the cards face up on the felt, apart from each other")
        return CaptureResult("", [], problems)
    proposals = proposer.propose(frame, extraction.cards) if proposer is not None else \
        [(None, 0.0)] * len(extraction.cards)
    name = draft.add_frame(frame)
    added = [draft.add_face(name, card.corners, card.face, proposed, confidence)
             for card, (proposed, confidence) in zip(extraction.cards, proposals, strict=True)]
    draft.save()
    return CaptureResult(name, added, problems)
