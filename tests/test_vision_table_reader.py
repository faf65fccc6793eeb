"""TableReader: synthetic table → (tiled) reading → zones → stability, with a clock the test moves.

The card reader here is a stand-in that recognises cards by colour: the synthetic table is given faces painted in
one colour per card, so the geometry (straightening, tiles, merging, zones, stability) is tested on real rendered
frames without the trained model. ``test_vision_table_model.py`` does the same with the shipped model.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import Card, parse_card, parse_cards, standard_deck
from engine.errors import InputError
from vision.detection import DUPLICATE, LOW_CONFIDENCE, PARTLY_COVERED, Detection
from vision.layout import draw_layout, load_layout
from vision.sources import CaptureSource, SyntheticTableSource
from vision.stability import CardPlaced, StabilitySettings
from vision.still_tiles import StillSettings
from vision.table_reader import (
    ReadView,
    TableReader,
    banner_lines,
    caption_places,
    describe,
    draw_detections,
    merge_readings,
    tile_origins,
)

LAYOUT = load_layout("baibuu_7")
DECK = standard_deck()


def _colour(index: int) -> tuple[int, int, int]:
    return (60 + 24 * (index % 8), 250, 60 + 24 * (index // 8))  # BGR; green 250 sets faces apart from the felt


COLOUR_FACES = {card: np.full((350, 250, 3), _colour(i), np.uint8) for i, card in enumerate(DECK)}


class ColourReader:
    """Finds the painted faces in an image and names each card by its colour; counts its calls."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, image: np.ndarray) -> Sequence[Detection]:
        self.calls += 1
        mask = ((image[:, :, 1] > 200) & (image[:, :, 0] > 40)).astype(np.uint8) * 255
        contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        found = []
        for contour in contours:
            if cv2.contourArea(contour) < 400:
                continue
            inner = np.zeros_like(mask)
            cv2.drawContours(inner, [contour], -1, 255, -1)
            inner = cv2.erode(inner, np.ones((7, 7), np.uint8))
            b, _g, r = (float(np.median(image[:, :, c][inner > 0])) for c in range(3))
            index = round((b - 60) / 24) + 8 * round((r - 60) / 24)
            corners = cv2.boxPoints(cv2.minAreaRect(contour))
            x, y, w, h = cv2.boundingRect(contour)
            box = (float(x), float(y), float(x + w), float(y + h))
            found.append(Detection(DECK[index], 0.98, box, tuple(map(tuple, corners.tolist()))))  # type: ignore[arg-type]
        return found


class FakeClock:
    def __init__(self) -> None:
        self.ns = 0

    def monotonic_ns(self) -> int:
        return self.ns

    def advance(self, seconds: float) -> None:
        self.ns += int(seconds * 1e9)


ROUND = {
    "house.high": "KH QS",
    "house.low": "5D 4C",
    "seat2.high": "AS 9S",
    "seat3.low": "2H 3H",
    "seat5.high": "JD 10C",
    "seat7.low": "6S 7C",
    "centre": "3S 4S 5S 6H 7S 8S",
}


def _table(size: tuple[int, int] = (1920, 1080)) -> SyntheticTableSource:
    source = SyntheticTableSource(LAYOUT, size=size, faces=COLOUR_FACES, noise=0)
    for zone, cards in ROUND.items():
        source.place(zone, cards)
    return source


def test_tiles_cover_the_table_with_a_card_of_overlap() -> None:
    assert tile_origins(1800, 960, 115) == [0, 840]
    assert tile_origins(1000, 576, 115) == [0, 424]
    assert tile_origins(500, 960, 115) == [0]
    for length, tile, overlap in [(1800, 640, 115), (3600, 960, 229), (1001, 1000, 100)]:
        origins = tile_origins(length, tile, overlap)
        assert origins[0] == 0 and origins[-1] + tile == length
        assert all(b - a <= tile - overlap for a, b in itertools.pairwise(origins))


@pytest.mark.parametrize("view", [ReadView("table"), ReadView("frame")], ids=["table-tiles", "whole-frame"])
def test_every_card_reaches_its_zone_once(view: ReadView) -> None:
    clock = FakeClock()
    events: list[object] = []
    reader = ColourReader()
    table = TableReader(
        _table(), read=reader, clock=clock, view=view, settings=StabilitySettings(3, 3), on_events=events.extend,
        still=StillSettings(enabled=False),
    )
    for _ in range(3):
        clock.advance(0.1)
        snapshot = table.step()
    assert snapshot.problem is None
    for zone, cards in ROUND.items():
        assert snapshot.cards_in(zone) == parse_cards(cards), zone
        assert snapshot.zone(zone).is_certain, zone  # no card split across tiles is taken for a duplicate
    assert all(not snapshot.cards_in(z) for z in LAYOUT.zone_names if z not in ROUND)
    assert snapshot.hand(3, "low").cards[0].since == pytest.approx(0.3)
    assert len(events) == 18 and all(isinstance(e, CardPlaced) for e in events)
    assert reader.calls == (12 if view.mode == "table" else 3)  # four tiles a frame, or the frame itself


def test_cards_taken_away_are_removed_after_the_frames_set() -> None:
    clock = FakeClock()
    source = _table()
    table = TableReader(source, read=ColourReader(), clock=clock, settings=StabilitySettings(2, 2))
    table.step()
    table.step()
    assert table.snapshot.cards_in("seat5.high") == parse_cards("JD 10C")
    source.clear("seat5.high")
    source.place("seat5.low", "JD")
    table.step()
    assert table.snapshot.cards_in("seat5.high") == parse_cards("JD 10C")  # one frame is not enough
    table.step()
    snapshot = table.snapshot
    assert snapshot.cards_in("seat5.high") == ()
    assert snapshot.cards_in("seat5.low") == (parse_card("JD"),)


def test_a_card_seen_in_two_places_is_flagged_duplicate() -> None:
    source = _table()
    source.place("seat6.high", "KH", allow_duplicates=True)  # KH also lies in the house's high hand
    table = TableReader(source, read=ColourReader(), settings=StabilitySettings(1, 1))
    snapshot = table.step()
    assert DUPLICATE in snapshot.zone("seat6.high").cards[0].flags
    assert DUPLICATE in snapshot.zone("house.high").cards[0].flags
    assert not snapshot.zone("house.low").flags


def test_a_lost_camera_says_why() -> None:
    clock = FakeClock()
    source = CaptureSource("/nonexistent/camera.avi", clock=clock)
    table = TableReader(source, layout=LAYOUT, read=ColourReader(), clock=clock)
    snapshot = table.step()
    assert snapshot.problem is not None and "cannot open" in snapshot.problem
    assert snapshot.frame == 0


def test_without_markers_in_view_the_reader_says_it_is_not_calibrated() -> None:
    class Blank:
        name = "blank"
        status = SyntheticTableSource(LAYOUT).status

        def read(self) -> np.ndarray:
            return np.full((720, 1280, 3), 90, np.uint8)

        def close(self) -> None:
            pass

    table = TableReader(Blank(), layout=LAYOUT, read=ColourReader())
    snapshot = table.step()
    assert snapshot.problem is not None and snapshot.problem.startswith("not calibrated: markers 0, 1, 2 and 3")


def test_before_calibration_the_live_view_still_shows_what_the_camera_reads() -> None:
    class MarkerlessTable:  # a card in view, no marker yet: the camera being aimed
        name = "markerless"
        status = SyntheticTableSource(LAYOUT).status

        def read(self) -> np.ndarray:
            frame = np.full((720, 1280, 3), 90, np.uint8)
            frame[200:340, 300:400] = (60, 230, 60)  # the face ColourReader names as the deck's first card
            return frame

        def close(self) -> None:
            pass

    table = TableReader(MarkerlessTable(), layout=LAYOUT, read=ColourReader())
    snapshot = table.step()
    assert snapshot.problem is not None and snapshot.problem.startswith("not calibrated")
    assert [d.card for d in table.last_seen] == [DECK[0]] and table.last_detections == []
    assert snapshot.zones == {} or all(not zone.cards for zone in snapshot.zones.values())  # nothing placed
    drawn = table.annotate()
    assert (drawn[340:370, 300:480] != table.last_frame[340:370, 300:480]).any()  # its caption under the card


def test_merging_keeps_the_surest_reading_of_a_spot_and_shows_disagreement() -> None:
    def d(card: str, confidence: float) -> Detection:
        return Detection(parse_card(card), confidence, (0, 0, 10, 10))

    readings = [(d("6H", 0.7), (100, 100), 0), (d("8H", 0.9), (105, 100), 1), (d("6H", 0.8), (400, 100), 1)]
    merged = merge_readings(readings, 25)
    assert [str(m.card) for m in merged] == ["8H", "6H"]
    eight, six = merged
    assert "low_confidence" in eight.flags  # another tile read that spot as 6H
    assert not six.flags


class ShortOfTheEdgeReader(ColourReader):
    """Boxes a card the tile's edge cuts a few pixels short of that edge and names it wrongly (the 6S a tile-cut
    9S read as, step 46), as a detector does that sees the tile with no padding around it."""

    def __call__(self, image: np.ndarray) -> Sequence[Detection]:
        h, w = image.shape[:2]
        out = []
        for d in super().__call__(image):
            x1, y1, x2, y2 = d.box
            if min(x1, y1) <= 0 or x2 >= w - 1 or y2 >= h - 1:
                d = Detection(parse_card("JK"), 0.95, (max(x1, 4.0), max(y1, 4.0), min(x2, w - 5.0),
                                                       min(y2, h - 5.0)))
            out.append(d)
        return out


def test_a_card_cut_by_a_tile_edge_is_read_only_where_it_lies_whole() -> None:
    expected = {zone: set(parse_cards(cards)) for zone, cards in ROUND.items()}
    table = TableReader(_table(), read=ShortOfTheEdgeReader(), settings=StabilitySettings(1, 1))
    table.step()
    assert {z: set(table.snapshot.cards_in(z)) for z in expected} == expected
    assert not any(parse_card("JK") in table.snapshot.cards_in(z) for z in LAYOUT.zone_names)
    tight = TableReader(_table(), read=ShortOfTheEdgeReader(), settings=StabilitySettings(1, 1),
                        view=ReadView(cut_margin_mm=2.0))
    tight.step()  # the margin before step 46: the cut cards come through
    assert any(parse_card("JK") in tight.snapshot.cards_in(z) for z in LAYOUT.zone_names)


def test_a_cut_margin_beyond_a_quarter_card_is_refused() -> None:
    with pytest.raises(InputError, match="cut_margin_mm"):
        ReadView(cut_margin_mm=30.0)


def test_cards_fanned_close_together_in_one_tile_stay_apart() -> None:
    fan = [
        (Detection(parse_card(c), 0.9, (0, 0, 10, 10)), (100.0 + 15 * i, 100.0), 0)
        for i, c in enumerate(["2S", "3S", "4S"])
    ]
    seen_again = [(Detection(parse_card("3S"), 0.95, (0, 0, 10, 10)), (116.0, 101.0), 1)]  # the next tile
    merged = merge_readings(fan + seen_again, 25)
    assert sorted(str(m.card) for m in merged) == ["2S", "3S", "4S"]
    assert all(not m.flags for m in merged)


def test_annotated_frame_and_text() -> None:
    table = TableReader(_table(), read=ColourReader(), settings=StabilitySettings(1, 1))
    table.step()
    image = table.annotate()
    assert image.shape == (1080, 1920, 3)
    assert not np.array_equal(image, table.last_frame)
    lines = describe(table.snapshot)
    assert "seat3.low: 2H(0.98) 3H(0.98)" in lines
    assert isinstance(lines, list) and all(isinstance(line, str) for line in lines)


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.sampled_from(DECK), min_size=1, max_size=12, unique=True),
    st.lists(st.integers(1, 3), min_size=12, max_size=12),
    st.randoms(use_true_random=False),
)
def test_merging_tile_readings_gives_one_reading_per_card(cards: list[Card], copies: list[int], rng: object) -> None:
    """However many overlapping tiles saw a card (a few mm apart), it comes out once and is not a duplicate."""
    readings = []
    for i, card in enumerate(cards):
        x, y = 100.0 + 150.0 * (i % 6), 150.0 + 200.0 * (i // 6)  # cards at least 150 mm apart
        for _ in range(copies[i]):
            jitter = (rng.uniform(-4, 4), rng.uniform(-4, 4))  # type: ignore[attr-defined]
            confidence = rng.uniform(0.5, 1.0)  # type: ignore[attr-defined]
            box = (x, y, x + 10, y + 10)
            readings.append((Detection(card, confidence, box), (x + jitter[0], y + jitter[1]), len(readings)))
    rng.shuffle(readings)  # type: ignore[attr-defined]
    merged = merge_readings(readings, 25.0)
    assert sorted(str(d.card) for d in merged) == sorted(str(c) for c in cards)
    assert all(not d.flags for d in merged)
    best = {c: max(r[0].confidence for r in readings if r[0].card == c) for c in cards}
    assert all(d.confidence == best[d.card] for d in merged)


def test_a_perfect_reader_for_tests_and_demos_that_must_not_depend_on_the_model() -> None:
    source = SyntheticTableSource(LAYOUT)
    for zone, cards in ROUND.items():
        source.place(zone, cards)
    table = TableReader(source, read=source.perfect_read, view=ReadView("frame"), settings=StabilitySettings(1, 1))
    snapshot = table.step()
    assert {zone: snapshot.cards_in(zone) for zone in ROUND} == {z: parse_cards(c) for z, c in ROUND.items()}
    assert all(card.confidence == 0.99 for zone in ROUND for card in snapshot.zone(zone).cards)


def test_reading_in_a_thread_is_held_to_the_frame_rate_and_stops() -> None:
    import time

    source = SyntheticTableSource(LAYOUT)
    source.place("seat4.high", "8D 8C")
    table = TableReader(source, read=source.perfect_read, view=ReadView("frame"), settings=StabilitySettings(2, 2))
    seen: list[int] = []
    table.start(on_snapshot=lambda snapshot: seen.append(snapshot.frame), max_fps=20)
    try:
        deadline = time.monotonic() + 10
        while not table.snapshot.cards_in("seat4.high") and time.monotonic() < deadline:
            time.sleep(0.02)
        assert table.snapshot.cards_in("seat4.high") == parse_cards("8D 8C")
        began, first = time.monotonic(), len(seen)
        time.sleep(0.5)
        frames, elapsed = len(seen) - first, time.monotonic() - began
    finally:
        table.stop()
    assert frames <= elapsed * 20 + 2  # never faster than asked, however fast the source
    after_stop = len(seen)
    time.sleep(0.2)
    assert len(seen) == after_stop


def test_a_bumped_camera_is_noticed_and_calibrated_again() -> None:
    source = SyntheticTableSource(LAYOUT, tilt=0.08, turn_deg=1.5)
    source.place("seat6.low", "QC 2C")
    table = TableReader(
        source, read=source.perfect_read, view=ReadView("frame"), settings=StabilitySettings(1, 1), recheck_every=5
    )
    for _ in range(5):
        table.step()
    assert table.recalibrations == 0 and table.calibration_note is None  # markers where they were: no change
    source.move_camera(tilt=0.02, turn_deg=-2.0)
    table.step()
    assert table.recalibrations == 0
    for _ in range(4):
        snapshot = table.step()
    assert table.recalibrations == 1
    assert table.calibration_note is not None and table.calibration_note.startswith("camera moved")
    assert snapshot.cards_in("seat6.low") == parse_cards("QC 2C")
    truth = cv2.perspectiveTransform(np.array([[[900.0, 500.0]]]), source.homography)[0]
    assert table.calibration is not None
    assert np.abs(table.calibration.to_pixels([[900.0, 500.0]]) - truth).max() < 1.0


def test_the_markers_are_hidden_from_the_reader() -> None:
    """A marker's white sheet is not a card: the reader is never shown one."""
    from vision.calibration import calibrate, find_markers
    from vision.table_reader import hide_markers

    source = SyntheticTableSource(LAYOUT, size=(1280, 720))
    frame = source.read()
    assert frame is not None
    calibration = calibrate(frame, LAYOUT.markers)
    hidden = frame.copy()
    hide_markers(hidden, LAYOUT, calibration.to_pixels)
    assert find_markers(hidden, LAYOUT.markers) == {}
    centre = calibration.to_pixels([LAYOUT.markers.centres_mm[0]])[0].round().astype(int)
    felt = frame[360, 200].astype(int)
    assert np.abs(hidden[centre[1], centre[0]].astype(int) - felt).max() < 40  # felt-coloured now
    elsewhere = np.ones(frame.shape[:2], bool)
    elsewhere[:150, :250] = elsewhere[:150, -250:] = elsewhere[-150:, :250] = elsewhere[-150:, -250:] = False
    assert np.array_equal(hidden[elsewhere], frame[elsewhere])  # the rest of the table untouched


def test_captions_of_a_fan_never_cover_each_other() -> None:
    fan = [(500.0, 10.0 + 25 * i, 650.0, 110.0 + 25 * i) for i in range(6)]  # each box 25 px below the last
    rects = caption_places(fan, [(170, 22)] * 6, 1280, 720)
    assert all(min(x1, y1) >= 0 and x2 <= 1280 and y2 <= 720 for x1, y1, x2, y2 in rects)
    for a, b in itertools.combinations(rects, 2):  # no two captions share a pixel row and column
        assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1]
    assert all(rect[0] == 500 for rect in rects)  # each stays at its card's left edge
    assert caption_places([(100.0, 100.0, 200.0, 240.0)], [(80, 20)], 1280, 720) == [(100, 240, 180, 260)]
    (x1, y1, x2, y2), = caption_places([(1200.0, 600.0, 1280.0, 720.0)], [(170, 22)], 1280, 720)
    assert x2 <= 1280 and y2 <= 720 and (x2 - x1, y2 - y1) == (170, 22)  # a card at the corner: caption inside
    zone_name = (90, 245, 260, 262)  # the next zone's name, just under the card
    (moved,) = caption_places([(100.0, 100.0, 200.0, 240.0)], [(80, 20)], 1280, 720, avoid=[zone_name])
    assert moved[0] == 100 and not (moved[1] < zone_name[3] and zone_name[1] < moved[3])


def test_a_zone_too_narrow_for_its_name_and_cards_puts_the_cards_on_a_line_above() -> None:
    table = TableReader(_table(), read=ColourReader(), settings=StabilitySettings(1, 1))
    table.step()
    assert table.calibration is not None and table.last_frame is not None
    labels: list[tuple[int, int, int, int]] = []
    captions = {"house.high": "KH QS 10H"}
    draw_layout(table.last_frame.copy(), LAYOUT, table.calibration, captions=captions, label_rects=labels)
    assert len(labels) == len(LAYOUT.zones) + 1  # one zone's cards went on a line of their own
    for a, b in itertools.combinations(labels, 2):
        assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1], (a, b)


def test_drawn_readings_are_green_when_sure_and_red_with_their_flags() -> None:
    image = np.full((720, 1280, 3), 40, np.uint8)
    sure = Detection(parse_card("7H"), 0.99, (100.0, 100.0, 200.0, 240.0))
    unsure = Detection(parse_card("9C"), 0.4, (600.0, 100.0, 700.0, 240.0), flags=frozenset({LOW_CONFIDENCE,
                                                                                             PARTLY_COVERED}))
    drawn = draw_detections(image.copy(), [sure, unsure])
    green = (drawn[..., 1] > 150) & (drawn[..., 2] < 120)
    red = (drawn[..., 2] > 200) & (drawn[..., 1] < 60)
    assert green[100:241, 95:205].any() and not green[:, 560:].any()
    assert red[100:241, 595:705].any() and not red[:, :560].any()
    # the flagged caption is longer: it names its flags ("covered unsure")
    caption_width = [np.flatnonzero(mask[240:270].any(axis=0)) for mask in (green, red)]
    assert np.ptp(caption_width[1]) > np.ptp(caption_width[0]) + 40


def test_a_long_problem_is_wrapped_whole_across_the_view() -> None:
    advice = "not calibrated: markers 0, 1, 2 and 3 not found: make sure every table corner is in the camera's view"
    lines = banner_lines(advice, 40, len)
    assert all(len(line) <= 40 for line in lines) and len(lines) == 3
    assert " ".join(lines) == advice  # every word, in order
    assert banner_lines("one " * 100, 12, len, most=2) == ["one one one", "one one one ..."]
