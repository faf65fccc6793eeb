"""What the card reader reports for one card it sees in a frame, and the box geometry every part of vision uses."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.cards import Card

Point = tuple[float, float]
Box = tuple[float, float, float, float]

# Flags a detection can carry. The reader marks doubt; it never resolves it on its own.
LOW_CONFIDENCE = "low_confidence"  # under the reader's confidence threshold
DUPLICATE = "duplicate"  # the same card is read more than once in the frame
PARTLY_COVERED = "partly_covered"  # the face is overlapped by another card or covered by a hand or chip
KNOWN_FLAGS = frozenset({LOW_CONFIDENCE, DUPLICATE, PARTLY_COVERED})


def iou(a: Box | tuple[float, ...], b: Box | tuple[float, ...]) -> float:
    """How much two boxes ``(x1, y1, x2, y2)`` overlap: their intersection over their union, 0 to 1."""
    iw = min(a[2], b[2]) - max(a[0], b[0])
    ih = min(a[3], b[3]) - max(a[1], b[1])
    inter = max(iw, 0.0) * max(ih, 0.0)
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union > 0 else 0.0


def box_area(box: Box | tuple[float, ...]) -> float:
    return max(box[2] - box[0], 0.0) * max(box[3] - box[1], 0.0)


def covered_share(box: Box | tuple[float, ...], by: Box | tuple[float, ...]) -> float:
    """The share of ``box``'s area that the box ``by`` covers, 0 to 1 (0 for an empty box)."""
    iw = min(box[2], by[2]) - max(box[0], by[0])
    ih = min(box[3], by[3]) - max(box[1], by[1])
    area = box_area(box)
    return max(iw, 0.0) * max(ih, 0.0) / area if area > 0 else 0.0


def union_box(a: Box | tuple[float, ...], b: Box | tuple[float, ...]) -> Box:
    """The smallest box holding both ``a`` and ``b``."""
    return (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))


def one_card_twice(a: Box | tuple[float, ...], b: Box | tuple[float, ...], inside_share: float) -> bool:
    """Whether two boxes are one card boxed twice (their readings naming it alike): the smaller lies at least
    ``inside_share`` inside the larger."""
    return max(covered_share(a, b), covered_share(b, a)) >= inside_share


@dataclass(frozen=True, slots=True)
class Detection:
    """One card read in a frame.

    ``box`` is ``(x1, y1, x2, y2)`` in pixels of the frame as given; ``corners`` the card's four corner points
    (clockwise from the top-left one as seen in the frame) when the reader found the card's outline, else ``None``.
    ``confidence`` (0..1) is how sure the reader is of the identity *and* that a card is there.
    """

    card: Card
    confidence: float
    box: Box
    corners: tuple[Point, Point, Point, Point] | None = None
    flags: frozenset[str] = field(default_factory=frozenset)
    alternatives: tuple[Card, ...] = ()
    """The reader's next guesses for this card, likeliest first (the card itself not among them): what a picker
    offers first when the dealer checks the reading."""

    def __post_init__(self) -> None:
        if not 0.0 <= self.confidence <= 1.0:
            raise ValueError(f"confidence must be within 0..1, got {self.confidence}")
        x1, y1, x2, y2 = self.box
        if x2 < x1 or y2 < y1:
            raise ValueError(f"box must be (x1, y1, x2, y2) with x1 <= x2 and y1 <= y2, got {self.box}")
        unknown = set(self.flags) - KNOWN_FLAGS
        if unknown:
            raise ValueError(f"unknown detection flags {sorted(unknown)}; known: {sorted(KNOWN_FLAGS)}")

    @property
    def is_certain(self) -> bool:
        """True when nothing casts doubt on this reading (no flag at all)."""
        return not self.flags

    @property
    def center(self) -> Point:
        x1, y1, x2, y2 = self.box
        return ((x1 + x2) / 2.0, (y1 + y2) / 2.0)

    def to_json(self) -> dict[str, object]:
        data: dict[str, object] = {
            "card": str(self.card),
            "confidence": round(self.confidence, 4),
            "box": [round(v, 1) for v in self.box],
        }
        if self.corners is not None:
            data["corners"] = [[round(x, 1), round(y, 1)] for x, y in self.corners]
        if self.flags:
            data["flags"] = sorted(self.flags)
        if self.alternatives:
            data["alternatives"] = [str(card) for card in self.alternatives]
        return data
