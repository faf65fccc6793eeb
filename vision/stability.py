"""Temporal stability: a card counts as placed only after it reads the same for N frames in a row, and as removed
only after it is missing for M frames in a row. The result is a snapshot of the table per zone.

Doubt is shown, never resolved: a card read twice (two copies in one place or the same card in two places), a
card the reader was unsure of, a face partly covered, and a place holding more cards than it should all carry
flags, on the card and on its zone.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from engine.cards import Card
from engine.errors import InputError
from vision.detection import DUPLICATE, LOW_CONFIDENCE, PARTLY_COVERED
from vision.layout import Layout, hand_zone
from vision.zones import TableDetection

TOO_MANY = "too_many"  # the place holds more cards than its capacity
DOUBT_FLAGS = frozenset({LOW_CONFIDENCE, DUPLICATE, PARTLY_COVERED, TOO_MANY})


class StabilitySettingsError(InputError):
    pass


@dataclass(frozen=True, slots=True)
class StabilitySettings:
    frames_to_place: int = 3  # consecutive frames a card must read the same before it counts as placed
    frames_to_remove: int = 3  # consecutive frames a placed card must be missing before it counts as removed

    def __post_init__(self) -> None:
        for name in ("frames_to_place", "frames_to_remove"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise StabilitySettingsError(f"{name} must be a whole number of frames ≥ 1, got {value!r}")


@dataclass(frozen=True, slots=True)
class StableCard:
    card: Card
    confidence: float  # mean over the frames it was last seen in a row (up to frames_to_place of them)
    flags: frozenset[str]
    since: float  # clock seconds when it counted as placed
    centre_mm: tuple[float, float]
    alternatives: tuple[Card, ...] = ()  # the reader's next guesses, from its surest reading in the last frame seen

    @property
    def is_certain(self) -> bool:
        return not self.flags

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"card": str(self.card), "confidence": round(self.confidence, 4)}
        if self.flags:
            data["flags"] = sorted(self.flags)
        return data


@dataclass(frozen=True, slots=True)
class ZoneCards:
    """The stable cards in one zone, left to right as the table's x runs, and the zone's own flags."""

    zone: str
    cards: tuple[StableCard, ...] = ()
    capacity: int | None = None
    flags: frozenset[str] = frozenset()
    pending: tuple[Card, ...] = ()  # seen, but not yet for enough frames in a row

    @property
    def card_values(self) -> tuple[Card, ...]:
        return tuple(stable.card for stable in self.cards)

    @property
    def too_many(self) -> bool:
        return TOO_MANY in self.flags

    @property
    def is_certain(self) -> bool:
        return not self.flags and all(card.is_certain for card in self.cards)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"cards": [card.to_json() for card in self.cards]}
        if self.flags:
            data["flags"] = sorted(self.flags)
        if self.pending:
            data["pending"] = [str(card) for card in self.pending]
        return data


@dataclass(frozen=True, slots=True)
class CardPlaced:
    zone: str
    card: Card
    confidence: float
    at: float


@dataclass(frozen=True, slots=True)
class CardRemoved:
    zone: str
    card: Card
    at: float


TableEvent = CardPlaced | CardRemoved


@dataclass(frozen=True)
class TableSnapshot:
    """What lies on the table now, per zone. Ask it: ``snapshot.cards_in("seat3.low")`` or ``snapshot.hand(3,
    "low")``; ``zone(name)`` gives the cards with their confidence and flags."""

    at: float
    frame: int
    zones: Mapping[str, ZoneCards]
    off_zone: tuple[Card, ...] = ()  # stable cards lying outside every zone
    problem: str | None = None  # why the table is not being read right now (camera lost, not calibrated), if so
    taken_at: float | None = None  # clock seconds when the last frame read into it was asked of the camera

    def zone(self, name: str) -> ZoneCards:
        try:
            return self.zones[name]
        except KeyError:
            raise InputError(f"no zone {name!r}; the zones: {', '.join(self.zones)}") from None

    def cards_in(self, name: str) -> tuple[Card, ...]:
        return self.zone(name).card_values

    def hand(self, position: int, hand: str) -> ZoneCards:
        """A Bài Bửu hand place: position 1 is the house, 2–7 the seats; ``hand`` is ``high`` or ``low``."""
        return self.zone(hand_zone(position, hand))

    @property
    def doubts(self) -> list[tuple[str, Card | None, frozenset[str]]]:
        """Everything a dealer should look at: (zone, card or None for the zone itself, flags)."""
        found: list[tuple[str, Card | None, frozenset[str]]] = []
        for name, zone in self.zones.items():
            if zone.flags:
                found.append((name, None, zone.flags))
            found.extend((name, card.card, card.flags) for card in zone.cards if card.flags)
        return found

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "at": round(self.at, 3),
            "frame": self.frame,
            "zones": {name: zone.to_json() for name, zone in self.zones.items() if zone.cards or zone.flags},
        }
        if self.off_zone:
            data["off_zone"] = [str(card) for card in self.off_zone]
        if self.problem:
            data["problem"] = self.problem
        return data


OFF_ZONE = ""  # the zone key of tracks of cards lying outside every zone


@dataclass
class _Track:
    zone: str
    card: Card
    seen_in_a_row: int = 0
    missed_in_a_row: int = 0
    placed_at: float | None = None
    confidences: deque[float] = field(default_factory=deque)
    flags: frozenset[str] = frozenset()
    centres_mm: tuple[tuple[float, float], ...] = ((0.0, 0.0),)  # one per copy read in the last frame seen
    alternatives: tuple[Card, ...] = ()

    @property
    def x_mm(self) -> float:
        return min(x for x, _y in self.centres_mm)


class Stabilizer:
    """Feeds on located detections frame by frame; keeps what is placed where and says what changed."""

    def __init__(self, layout: Layout, settings: StabilitySettings | None = None) -> None:
        self.layout = layout
        self.settings = settings or StabilitySettings()
        self._tracks: dict[tuple[str, Card], _Track] = {}
        self._frame = 0
        self._at = 0.0

    def update(self, located: Iterable[TableDetection], at: float) -> list[TableEvent]:
        """Take one frame's detections (with their zones); return the cards placed and removed by this frame."""
        self._frame += 1
        self._at = at
        this_frame: dict[tuple[str, Card], list[TableDetection]] = {}
        for item in located:
            this_frame.setdefault((item.zone or OFF_ZONE, item.card), []).append(item)
        events: list[TableEvent] = []
        for key, copies in this_frame.items():
            track = self._tracks.get(key)
            if track is None:
                track = self._tracks[key] = _Track(zone=key[0], card=key[1])
            track.seen_in_a_row += 1
            track.missed_in_a_row = 0
            track.confidences.append(max(c.detection.confidence for c in copies))
            while len(track.confidences) > self.settings.frames_to_place:
                track.confidences.popleft()
            flags = frozenset().union(*(c.detection.flags for c in copies))
            track.flags = flags | {DUPLICATE} if len(copies) > 1 else flags - {DUPLICATE}
            track.centres_mm = tuple(sorted(c.centre_mm for c in copies))
            track.alternatives = max(copies, key=lambda c: c.detection.confidence).detection.alternatives
            if track.placed_at is None and track.seen_in_a_row >= self.settings.frames_to_place:
                track.placed_at = at
                if track.zone != OFF_ZONE:
                    events.append(CardPlaced(track.zone, track.card, _mean(track.confidences), at))
        for key, track in list(self._tracks.items()):
            if key in this_frame:
                continue
            track.seen_in_a_row = 0
            track.missed_in_a_row += 1
            if track.placed_at is None:
                del self._tracks[key]  # never stable: forget it
            elif track.missed_in_a_row >= self.settings.frames_to_remove:
                del self._tracks[key]
                if track.zone != OFF_ZONE:
                    events.append(CardRemoved(track.zone, track.card, at))
        return events

    def forget(self) -> None:
        """Start the table afresh: nothing counts as placed until read again for ``frames_to_place`` frames (the
        frame count goes on, so that a new snapshot is told from an old one)."""
        self._tracks.clear()

    def snapshot(self, *, problem: str | None = None, taken_at: float | None = None) -> TableSnapshot:
        placed = [t for t in self._tracks.values() if t.placed_at is not None]
        copies: dict[Card, int] = {}
        for track in placed:
            copies[track.card] = copies.get(track.card, 0) + len(track.centres_mm)
        zones: dict[str, ZoneCards] = {}
        for zone in self.layout.zones:
            here = [(centre, t) for t in placed if t.zone == zone.name for centre in t.centres_mm]
            here.sort(key=lambda item: item[0][0])
            too_many = zone.capacity is not None and len(here) > zone.capacity
            cards = []
            for centre, track in here:
                flags = set(track.flags)
                if copies[track.card] > 1:
                    flags.add(DUPLICATE)
                if too_many:
                    flags.add(TOO_MANY)
                assert track.placed_at is not None
                cards.append(
                    StableCard(track.card, _mean(track.confidences), frozenset(flags), track.placed_at, centre,
                               track.alternatives)
                )
            zone_flags = {TOO_MANY} if too_many else set()
            if any(DUPLICATE in card.flags for card in cards):
                zone_flags.add(DUPLICATE)
            pending = tuple(
                t.card
                for t in sorted(self._tracks.values(), key=lambda t: t.x_mm)
                if t.zone == zone.name and t.placed_at is None
            )
            zones[zone.name] = ZoneCards(zone.name, tuple(cards), zone.capacity, frozenset(zone_flags), pending)
        off_zone = tuple(t.card for t in placed if t.zone == OFF_ZONE)
        return TableSnapshot(self._at, self._frame, zones, off_zone, problem, taken_at)


def _mean(values: Iterable[float]) -> float:
    items = list(values)
    return sum(items) / len(items) if items else 0.0
