"""Zones and temporal stability: detections → table mm → zone → cards placed and removed, with their flags."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import parse_card
from engine.errors import InputError
from vision.calibration import Calibration
from vision.detection import DUPLICATE, LOW_CONFIDENCE, PARTLY_COVERED, Detection
from vision.layout import load_layout
from vision.stability import (
    TOO_MANY,
    CardPlaced,
    CardRemoved,
    StabilitySettings,
    StabilitySettingsError,
    Stabilizer,
)
from vision.zones import locate

LAYOUT = load_layout("baibuu_7")
# A camera looking straight down at 2 px per mm, the table's corner 40 px in: pixels = 2 × mm + 40.
PX_PER_MM = 2.0
CALIBRATION = Calibration(
    np.array([[1 / PX_PER_MM, 0, -40 / PX_PER_MM], [0, 1 / PX_PER_MM, -40 / PX_PER_MM], [0, 0, 1]]), (3700, 2100), (), 0
)


def seen(card: str, x_mm: float, y_mm: float, confidence: float = 0.97, flags: Sequence[str] = ()) -> Detection:
    """A card the reader saw with its centre at this table point (a 63 × 88 mm card)."""
    cx, cy = x_mm * PX_PER_MM + 40, y_mm * PX_PER_MM + 40
    w, h = 63 * PX_PER_MM / 2, 88 * PX_PER_MM / 2
    corners = ((cx - w, cy - h), (cx + w, cy - h), (cx + w, cy + h), (cx - w, cy + h))
    return Detection(parse_card(card), confidence, (cx - w, cy - h, cx + w, cy + h), corners, frozenset(flags))


def at(zone: str, dx: float = 0.0) -> tuple[float, float]:
    x, y = LAYOUT.zone(zone).centre
    return (x + dx, y)


def feed(stabilizer: Stabilizer, detections: Sequence[Detection], t: float) -> list[CardPlaced | CardRemoved]:
    return stabilizer.update(locate(detections, CALIBRATION, LAYOUT), t)


def test_detections_land_in_their_zones() -> None:
    located = locate(
        [seen("AS", *at("seat3.low")), seen("KH", *at("house.high")), seen("2C", 10, 500)], CALIBRATION, LAYOUT
    )
    assert [item.zone for item in located] == ["seat3.low", "house.high", None]
    assert np.allclose(located[0].centre_mm, at("seat3.low"))


def test_a_card_counts_as_placed_only_after_n_frames_in_a_row() -> None:
    stabilizer = Stabilizer(LAYOUT, StabilitySettings(frames_to_place=3))
    frame = [seen("AS", *at("seat3.low", -35)), seen("9H", *at("seat3.low", 35))]
    assert feed(stabilizer, frame, 1.0) == []
    assert feed(stabilizer, frame, 1.1) == []
    assert stabilizer.snapshot().cards_in("seat3.low") == ()
    assert stabilizer.snapshot().zone("seat3.low").pending == (parse_card("AS"), parse_card("9H"))
    events = feed(stabilizer, frame, 1.2)
    assert {(type(e), e.zone, str(e.card), e.at) for e in events} == {
        (CardPlaced, "seat3.low", "AS", 1.2),
        (CardPlaced, "seat3.low", "9H", 1.2),
    }
    snapshot = stabilizer.snapshot()
    assert snapshot.cards_in("seat3.low") == (parse_card("AS"), parse_card("9H"))  # left to right
    assert snapshot.hand(3, "low").cards[0].since == 1.2
    assert snapshot.hand(3, "low").is_certain
    assert feed(stabilizer, frame, 1.3) == []  # placed once, reported once


def test_a_reading_that_flickers_is_not_placed() -> None:
    stabilizer = Stabilizer(LAYOUT, StabilitySettings(frames_to_place=3))
    where = at("seat5.high")
    for t, card in enumerate(["6H", "8H", "6H", "8H", "6H", "6H"]):
        feed(stabilizer, [seen(card, *where)], float(t))
    assert stabilizer.snapshot().cards_in("seat5.high") == ()
    feed(stabilizer, [seen("6H", *where)], 6.0)
    assert stabilizer.snapshot().cards_in("seat5.high") == (parse_card("6H"),)


def test_removal_needs_m_frames_missing_and_one_dropped_frame_is_forgiven() -> None:
    stabilizer = Stabilizer(LAYOUT, StabilitySettings(frames_to_place=2, frames_to_remove=3))
    frame = [seen("QD", *at("house.low"))]
    feed(stabilizer, frame, 0.0)
    feed(stabilizer, frame, 0.1)
    assert feed(stabilizer, [], 0.2) == []  # a hand passes over the card
    assert feed(stabilizer, frame, 0.3) == []
    assert stabilizer.snapshot().cards_in("house.low") == (parse_card("QD"),)
    assert feed(stabilizer, [], 0.4) == []
    assert feed(stabilizer, [], 0.5) == []
    assert stabilizer.snapshot().cards_in("house.low") == (parse_card("QD"),)
    assert feed(stabilizer, [], 0.6) == [CardRemoved("house.low", parse_card("QD"), 0.6)]
    assert stabilizer.snapshot().cards_in("house.low") == ()


def test_a_card_moved_to_another_place_leaves_one_and_arrives_in_the_other() -> None:
    stabilizer = Stabilizer(LAYOUT, StabilitySettings(frames_to_place=1, frames_to_remove=1))
    feed(stabilizer, [seen("JC", *at("house.high"))], 0.0)
    events = feed(stabilizer, [seen("JC", *at("house.low"))], 1.0)
    assert set(events) == {
        CardPlaced("house.low", parse_card("JC"), 0.97, 1.0),
        CardRemoved("house.high", parse_card("JC"), 1.0),
    }


def test_the_same_card_in_two_places_is_flagged_on_both_never_resolved() -> None:
    stabilizer = Stabilizer(LAYOUT, StabilitySettings(frames_to_place=1))
    feed(stabilizer, [seen("AS", *at("seat2.high")), seen("AS", *at("seat4.low"))], 0.0)
    snapshot = stabilizer.snapshot()
    for zone in ("seat2.high", "seat4.low"):
        (card,) = snapshot.zone(zone).cards
        assert card.card == parse_card("AS")
        assert DUPLICATE in card.flags
        assert DUPLICATE in snapshot.zone(zone).flags
    assert len(snapshot.doubts) == 4  # each zone, and each card


def test_two_copies_in_one_place_are_both_shown() -> None:
    stabilizer = Stabilizer(LAYOUT, StabilitySettings(frames_to_place=1))
    feed(stabilizer, [seen("7S", *at("seat6.low", -35)), seen("7S", *at("seat6.low", 35))], 0.0)
    zone = stabilizer.snapshot().zone("seat6.low")
    assert zone.card_values == (parse_card("7S"), parse_card("7S"))
    assert all(DUPLICATE in card.flags for card in zone.cards)


def test_too_many_cards_in_a_place() -> None:
    stabilizer = Stabilizer(LAYOUT, StabilitySettings(frames_to_place=1))
    cards = [seen(c, *at("seat4.high", dx)) for c, dx in (("2S", -50), ("3S", 0), ("4S", 50))]
    feed(stabilizer, cards, 0.0)
    zone = stabilizer.snapshot().zone("seat4.high")
    assert zone.too_many and TOO_MANY in zone.flags
    assert [str(c) for c in zone.card_values] == ["2S", "3S", "4S"]
    assert all(TOO_MANY in card.flags for card in zone.cards)
    # The centre takes any number of cards.
    feed(stabilizer, [seen(c, 700 + 60 * i, 450) for i, c in enumerate(["5C", "6C", "7C", "8C", "9C"])], 1.0)
    assert len(stabilizer.snapshot().cards_in("centre")) == 5
    assert not stabilizer.snapshot().zone("centre").flags


def test_reader_flags_and_confidence_reach_the_snapshot() -> None:
    stabilizer = Stabilizer(LAYOUT, StabilitySettings(frames_to_place=2))
    for t, confidence in enumerate([0.4, 0.5]):
        feed(stabilizer, [seen("10D", *at("seat7.low"), confidence, (LOW_CONFIDENCE, PARTLY_COVERED))], float(t))
    (card,) = stabilizer.snapshot().zone("seat7.low").cards
    assert card.confidence == pytest.approx(0.45)
    assert card.flags == {LOW_CONFIDENCE, PARTLY_COVERED}
    assert not stabilizer.snapshot().zone("seat7.low").is_certain
    assert card.to_json() == {"card": "10D", "confidence": 0.45, "flags": ["low_confidence", "partly_covered"]}


def test_cards_outside_every_zone_are_reported_apart() -> None:
    stabilizer = Stabilizer(LAYOUT, StabilitySettings(frames_to_place=1))
    feed(stabilizer, [seen("KS", 10, 500)], 0.0)
    snapshot = stabilizer.snapshot()
    assert snapshot.off_zone == (parse_card("KS"),)
    assert all(not zone.cards for zone in snapshot.zones.values())


def test_the_snapshot_answers_by_zone_name_and_refuses_unknown_ones() -> None:
    snapshot = Stabilizer(LAYOUT).snapshot()
    assert snapshot.cards_in("seat3.low") == ()
    with pytest.raises(InputError, match=r"no zone 'seat3.middle'"):
        snapshot.cards_in("seat3.middle")


def test_settings_are_validated() -> None:
    with pytest.raises(StabilitySettingsError, match="frames_to_place must be a whole number of frames ≥ 1"):
        StabilitySettings(frames_to_place=0)
    with pytest.raises(StabilitySettingsError, match="frames_to_remove"):
        StabilitySettings(frames_to_remove=True)


def _reference(presence: Sequence[bool], n: int, m: int) -> list[bool]:
    """Placed after n frames seen in a row; gone after m frames missed in a row; a candidate missing once resets."""
    placed, run_seen, run_missed, states = False, 0, 0, []
    for present in presence:
        if present:
            run_seen, run_missed = run_seen + 1, 0
            placed = placed or run_seen >= n
        else:
            run_seen, run_missed = 0, run_missed + 1
            if placed and run_missed >= m:
                placed = False
        states.append(placed)
    return states


@settings(max_examples=150, deadline=None)
@given(st.lists(st.booleans(), max_size=40), st.integers(1, 5), st.integers(1, 5))
def test_placed_state_follows_the_rule_for_any_sequence(presence: list[bool], n: int, m: int) -> None:
    stabilizer = Stabilizer(LAYOUT, StabilitySettings(frames_to_place=n, frames_to_remove=m))
    card = parse_card("5H")
    placed_events = removed_events = 0
    for t, (present, expected) in enumerate(zip(presence, _reference(presence, n, m), strict=True)):
        events = feed(stabilizer, [seen("5H", *at("seat2.low"))] if present else [], float(t))
        placed_events += sum(isinstance(e, CardPlaced) for e in events)
        removed_events += sum(isinstance(e, CardRemoved) for e in events)
        assert (card in stabilizer.snapshot().cards_in("seat2.low")) == expected
    # Every placement is matched by a removal unless the card is still there.
    still_there = card in stabilizer.snapshot().cards_in("seat2.low")
    assert placed_events == removed_events + (1 if still_there else 0)
