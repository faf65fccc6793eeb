"""Whether the deck on the table is one the card classifier knows: the index reader's and the face's readings agree.

The card classifier reads whole faces: on a deck it trained on it is the better reader, on any other deck it is
confidently wrong about half the time (models/HISTORY.md, "Decks it never saw"). The index reader reads the corner
every French-suited deck prints, trained on hundreds of procedural designs. Their agreement tells the two cases
apart: over the readings whose index reads surely, the face names the same card 91-98 % of the time on the decks
the classifier knows and 22-68 % on designs it never saw (step 42). The table is dealt from one deck, so agreement
is counted over the frames read so far (``DeckFamiliarity``), slowly forgetting, and a fresh reader starts out
doubting the face until a few readings agree.

A familiar deck is read as before: the face first, the index weighed in for doubtful readings. An unfamiliar one is
read index first: the index weighed in heavily on every reading, and a reading whose index is surely another card
is flagged. On either, a reading overlapped by another card whose face and index agree surely is not flagged
``partly_covered``: two independent looks named it.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

FAMILIAR_MODES = ("auto", "known", "unseen")


@dataclass(frozen=True)
class IndexEvidence:
    """What a reading's index corners say: the surest patch's card probabilities (the classifier's class order,
    renormalised), its card and how sure it is (0 when no patch shows an index)."""

    share: npt.NDArray[np.float32]
    card: int
    sure: float


def index_evidence(patch_probs: npt.NDArray[np.float32], columns: list[int],
                   not_cards: Collection[int] = ()) -> IndexEvidence:
    """The surest of a reading's index patches (rows of the index reader's output), leaving out the patches whose
    card is one of ``not_cards`` (the corners of the cards lying over it)."""
    cards = patch_probs[:, columns] if len(patch_probs) else patch_probs
    if len(cards) and not_cards:
        cards = cards[[int(row.argmax()) not in not_cards for row in cards]]
    if not len(cards):
        return IndexEvidence(np.zeros(len(columns), np.float32), -1, 0.0)
    best = int(cards.max(axis=1).argmax())
    share = (cards[best] / max(float(cards[best].sum()), 1e-9)).astype(np.float32)
    return IndexEvidence(share, int(share.argmax()), float(cards[best].max()))


def fuse(face: npt.NDArray[np.float32], evidence: IndexEvidence, weight: float) -> npt.NDArray[np.float32]:
    """The face's probabilities with the index's averaged in, ``weight`` times how sure the index is."""
    w = weight * evidence.sure
    return ((face + w * evidence.share) / (1.0 + w)).astype(np.float32)


class DeckFamiliarity:
    """A running count, over the readings whose index reads at least ``sure``, of how often the face names the
    same card; the deck is familiar while the share (with a prior of ``prior_agree`` out of ``prior_seen``, so that
    a fresh reader starts out doubting) is at least ``agreement``. Each new reading counts ``decay`` times less old
    ones, so a deck changed at the table is noticed after some dozens of readings."""

    def __init__(self, agreement: float = 0.8, sure: float = 0.9, prior_agree: float = 2.0, prior_seen: float = 4.0,
                 decay: float = 0.995) -> None:
        self.agreement, self.sure, self.decay = agreement, sure, decay
        self.prior_agree, self.prior_seen = prior_agree, prior_seen
        self.agreed = 0.0
        self.seen = 0.0

    def forget(self) -> None:
        """Start over, as for a new deck."""
        self.agreed = self.seen = 0.0

    def snapshot(self) -> tuple[float, float]:
        """The count as it stands, for ``restore``."""
        return self.agreed, self.seen

    def restore(self, count: tuple[float, float]) -> None:
        self.agreed, self.seen = count

    def share(self) -> float:
        return (self.agreed + self.prior_agree) / (self.seen + self.prior_seen)

    def update(self, face_cards: list[int], evidence: list[IndexEvidence]) -> bool:
        """Count one frame's readings; whether the deck is now familiar."""
        for face_card, index in zip(face_cards, evidence, strict=True):
            if index.sure >= self.sure:
                self.agreed = self.agreed * self.decay + (face_card == index.card)
                self.seen = self.seen * self.decay + 1.0
        return self.familiar()

    def familiar(self) -> bool:
        return self.share() >= self.agreement
