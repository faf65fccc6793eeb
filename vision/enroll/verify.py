"""Verify and activate: a second spread of the deck, checked against its profile, decides which model reads the table.

The truth comes from the profile, not from a model: every card of the spread is found (by the reader's detector, as
capture finds it, or by its outline on a plain table without a model), warped flat and compared with the profile's
faces (``FaceMatcher``): the detector says where the cards lie, never which they are. Then each model reads the
same frames the way it reads the table (detector, crop, classifier) and a card counts as read right when a detection
on it names it. A new model is
activated when it reads at least as many cards right as the active one (a tie goes to the model that learnt the deck
on the table: the spread, cards lying apart, is easy for both, table scenes are not); the switch goes to the journal.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from engine.cards import Card
from engine.clock import Clock
from vision.detection import Detection, iou
from vision.enroll.extract import ExtractSettings, find_cards
from vision.enroll.find import CardFinder
from vision.enroll.matching import FaceMatcher
from vision.enroll.profile import DeckProfile, ProfileError
from vision.enroll.registry import ActiveModel, active_model, model_hash, set_active

Image = npt.NDArray[np.uint8]
Box = tuple[float, float, float, float]
ReadFunction = Callable[[Image], Sequence[Detection]]
MATCH_IOU = 0.5


@dataclass(frozen=True)
class TruthCard:
    frame: int
    card: Card
    box: Box


@dataclass
class SpreadTruth:
    """The cards of the verification frames as the profile says they are."""

    cards: list[TruthCard]
    unknown: list[tuple[int, Box]] = field(default_factory=list)  # faces like no card of the profile
    problems: list[str] = field(default_factory=list)


def spread_truth(frames: Sequence[Image], profile: DeckProfile, settings: ExtractSettings | None = None,
                 finder: CardFinder | None = None) -> SpreadTruth:
    """The cards of ``frames`` named by the profile's faces; found by ``finder`` (the reader's detector, as capture
    finds them, on any table top) or, without one, by their outline on a plain table. A card cut by the picture's
    edge has no whole face to compare and is left out."""
    matcher = FaceMatcher(profile.faces())
    truth = SpreadTruth([])
    for i, frame in enumerate(frames):
        extraction = finder.find(frame) if finder is not None else find_cards(frame, settings)
        truth.problems += [f"frame {i + 1}: {p}" for p in extraction.problems]
        for found in extraction.cards:
            if found.found_by == "cut":
                continue
            match = matcher.match(found.face)
            if match.card is None:
                truth.unknown.append((i, found.box))
            else:
                truth.cards.append(TruthCard(i, match.card, found.box))
    if not truth.cards:
        raise ProfileError("no card of the profile was found in the verification frames: spread the deck face up, "
                           "apart, under the camera")
    return truth


@dataclass(frozen=True)
class CardCheck:
    card: Card
    read: Card | None  # None: no detection on the card
    confidence: float
    flagged: bool

    @property
    def right(self) -> bool:
        return self.read == self.card


@dataclass
class VerifyReport:
    model: str  # name (hash)
    checks: list[CardCheck]

    @property
    def right(self) -> int:
        return sum(c.right for c in self.checks)

    @property
    def accuracy(self) -> float:
        return self.right / len(self.checks) if self.checks else 0.0

    def per_card(self) -> dict[str, float]:
        totals: dict[Card, list[int]] = {}
        for c in self.checks:
            entry = totals.setdefault(c.card, [0, 0])
            entry[0] += c.right
            entry[1] += 1
        return {str(card): right / total for card, (right, total) in sorted(totals.items(),
                                                                           key=lambda kv: kv[0].sort_key())}

    def wrong(self) -> list[CardCheck]:
        return [c for c in self.checks if not c.right]

    def to_json(self) -> dict[str, Any]:
        return {"model": self.model, "cards": len(self.checks), "right": self.right,
                "accuracy": round(self.accuracy, 4), "per_card": self.per_card(),
                "wrong": [{"card": str(c.card), "read": None if c.read is None else str(c.read),
                           "confidence": round(c.confidence, 3)} for c in self.wrong()]}


def verify_reader(read: ReadFunction, frames: Sequence[Image], truth: SpreadTruth, model: str) -> VerifyReport:
    """How many of the truth's cards ``read`` names right, reading each frame whole as at the table."""
    checks = []
    for i, frame in enumerate(frames):
        detections = list(read(frame))
        for truth_card in (t for t in truth.cards if t.frame == i):
            best = max(detections, key=lambda d: iou(d.box, truth_card.box), default=None)
            if best is None or iou(best.box, truth_card.box) < MATCH_IOU:
                checks.append(CardCheck(truth_card.card, None, 0.0, False))
            else:
                checks.append(CardCheck(truth_card.card, best.card, best.confidence, not best.is_certain))
    return VerifyReport(model, checks)


def model_reader(folder: Path) -> ReadFunction:
    """The reader of a model folder on ONNX Runtime, as the kiosk runs it."""
    from vision.reader import CardReader

    return CardReader(folder).read


def active_reader(folder: Path) -> ReadFunction:
    """The active model's reader; when there is none yet (nothing shipped), a reader that reads nothing, so that
    any working model beats it."""
    from engine.errors import InputError

    try:
        return model_reader(folder)
    except InputError:
        return lambda _frame: []


class ActivationRefused(ProfileError):
    """The new model does not read the deck better than the active one."""


@dataclass(frozen=True)
class Switch:
    """What the journal records when the reader's model changes."""

    model: str
    name: str
    profile: str
    previous: str
    cards_checked: int
    right_before: int
    right_after: int
    by: str
    reason: str


def decide_and_activate(candidate: Path, profile: DeckProfile | str, old: VerifyReport, new: VerifyReport, *, by: str,
                        record: Callable[[Switch], None] | None, clock: Clock | None = None,
                        root: Path | None = None) -> tuple[ActiveModel, Switch]:
    """Activate ``candidate`` if it read at least as many cards of the check right as the active model; ``record``
    (the journal) is called first, so a switch that cannot be recorded does not happen. ``profile``: the deck
    profile it was learnt for, or its ``slug@vN`` (a model learnt from play keeps its base model's; "" for none)."""
    ref = profile if isinstance(profile, str) else profile.ref
    if len(old.checks) != len(new.checks) or not new.checks:
        raise ProfileError("both models must be checked on the same verification cards")
    if new.right < old.right:
        raise ActivationRefused(f"the new model read {new.right} of {len(new.checks)} cards right, the active one "
                                f"{old.right}: it reads worse, so the active model stays. Capture more of the deck "
                                "or learn longer, then verify again")
    previous = active_model(root)
    switch = Switch(model_hash(candidate), candidate.name, ref, previous.hash, len(new.checks), old.right,
                    new.right, by, f"verified on {len(new.checks)} cards: {old.accuracy:.1%} → {new.accuracy:.1%}")
    if record is not None:
        record(switch)
    return set_active(candidate, ref, clock, root), switch
