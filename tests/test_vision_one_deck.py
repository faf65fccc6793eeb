"""One deck on the table: a card read twice stays with the surer reading, the other reading takes its next choice."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import parse_card
from vision.detection import DUPLICATE, LOW_CONFIDENCE
from vision.reader import RawReading, ReaderSettings, flag_readings, one_deck_picks
from vision.reader_classes import CARDS, CLASS_INDEX

FRAME = np.full((720, 1280, 3), 40, np.uint8)


def _reading(x: float, **chances: float) -> RawReading:
    """A reading at ``x`` whose classifier gives the named cards these chances and shares the rest evenly."""
    probabilities = np.full(len(CARDS), (1.0 - sum(chances.values())) / (len(CARDS) - len(chances)), np.float32)
    for name, chance in chances.items():
        probabilities[CLASS_INDEX[parse_card(name)]] = chance
    return RawReading((x, 100.0, x + 120.0, 270.0), 0.9, probabilities)


def _read(raw: list[RawReading], **setting: object) -> list[tuple[str, frozenset[str]]]:
    detections = flag_readings(FRAME, raw, CARDS, ReaderSettings(**setting))  # type: ignore[arg-type]
    return [(str(d.card), d.flags) for d in sorted(detections, key=lambda d: d.box[0])]


def test_a_card_read_twice_stays_with_the_surer_reading_and_the_other_takes_its_next_choice() -> None:
    sure_nine = _reading(100, **{"9S": 0.95})
    covered = _reading(400, **{"9S": 0.55, "8S": 0.30})  # a covered 8 whose crop shows the 9's index
    (nine, nine_flags), (other, other_flags) = _read([sure_nine, covered])
    assert (nine, other) == ("9S", "8S")
    assert DUPLICATE not in nine_flags | other_flags
    assert LOW_CONFIDENCE in other_flags  # renamed by its second choice: the dealer is asked to check it


def test_a_renamed_reading_is_flagged_whatever_the_confidence_threshold() -> None:
    raw = [_reading(100, **{"9S": 0.95}), _reading(400, **{"9S": 0.55, "8S": 0.40})]
    (_, sure_flags), (other, other_flags) = _read(raw, confident=0.2)  # 0.40 would pass this threshold
    assert other == "8S" and LOW_CONFIDENCE in other_flags
    assert LOW_CONFIDENCE not in sure_flags


def test_the_surer_reading_keeps_the_card_whichever_comes_first() -> None:
    covered = _reading(100, **{"KH": 0.6, "QH": 0.3})
    sure_king = _reading(400, **{"KH": 0.9})
    assert [name for name, _ in _read([covered, sure_king])] == ["QH", "KH"]


def test_two_sure_copies_of_a_card_stay_duplicates() -> None:
    first, second = _reading(100, **{"AS": 0.97}), _reading(400, **{"AS": 0.96})  # next choices under 0.05
    read = _read([first, second])
    assert [name for name, _ in read] == ["AS", "AS"]
    assert all(DUPLICATE in flags for _, flags in read)


def test_with_one_deck_off_every_copy_is_flagged_duplicate() -> None:
    read = _read([_reading(100, **{"9S": 0.95}), _reading(400, **{"9S": 0.55, "8S": 0.30})], one_deck=False)
    assert [name for name, _ in read] == ["9S", "9S"]
    assert all(DUPLICATE in flags for _, flags in read)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(st.floats(0.0, 1.0), min_size=len(CARDS), max_size=len(CARDS)), min_size=1, max_size=12),
       st.floats(0.0, 0.5))
def test_one_deck_names_follow_the_readings_chances(rows: list[list[float]], alternative_min: float) -> None:
    probs = np.array(rows, np.float32) + 1e-6
    probs /= probs.sum(axis=1, keepdims=True)
    raw = [RawReading((0.0, 0.0, 10.0, 10.0), 0.9, p) for p in probs]
    picks = one_deck_picks(raw, alternative_min)
    firsts = [int(np.argmax(p)) for p in probs]
    for i, pick in enumerate(picks):
        if pick == firsts[i]:
            continue
        # a reading gives up its first choice only to a reading that holds that card more surely...
        assert any(picks[j] == firsts[i] and probs[j, firsts[i]] >= probs[i, firsts[i]]
                   for j in range(len(raw)) if j != i)
        # ...and takes a card likely enough that no other reading holds
        assert probs[i, pick] >= alternative_min
        assert picks.count(pick) == 1
    for card in set(picks):  # a card named twice: the readings that share it had nothing likely left
        holders = [i for i, pick in enumerate(picks) if pick == card]
        if len(holders) > 1:
            assert all(picks[i] == firsts[i] for i in holders)


def test_of_a_card_read_twice_the_one_copy_both_looks_vouch_for_is_not_flagged_duplicate() -> None:
    seven = CLASS_INDEX[parse_card("7S")]

    def copy(x: float, face: float, index_sure: float) -> RawReading:
        plain = _reading(x, **{"7S": face})
        return RawReading(plain.box, 0.9, plain.probabilities, seven, face, seven, index_sure, True)

    vouched, unsure = copy(100.0, 0.99, 1.0), copy(400.0, 0.98, 0.3)
    assert _read([vouched, unsure]) == [("7S", frozenset()), ("7S", frozenset({DUPLICATE}))]
    assert _read([vouched, unsure], duplicate_sure_copy=False) == [("7S", frozenset({DUPLICATE}))] * 2
    both = _read([vouched, copy(400.0, 0.98, 0.95)])  # two copies vouched for: which is the misread one is unknown
    assert both == [("7S", frozenset({DUPLICATE}))] * 2
