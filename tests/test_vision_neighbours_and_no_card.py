"""Two rules on what lies around a reading: a neighbour's index corner is not the reading's own, and a lone box
that neither look can read is no card."""

from __future__ import annotations

import numpy as np

from vision.reader import RawReading, ReaderSettings, neighbour_cards, no_card
from vision.reader_familiar import index_evidence

COLUMNS = [0, 1, 2]  # an index reader of three cards and "none", in the classifier's order


def _patches(*rows: list[float]) -> np.ndarray:
    return np.array([[*row, 1.0 - sum(row)] for row in rows], np.float32)


def test_the_index_look_leaves_out_the_patches_that_read_as_a_card_lying_over_it() -> None:
    patches = _patches([0.0, 0.0, 0.95], [0.8, 0.0, 0.0])  # the neighbour's 2 read surer than the card's own 0
    assert index_evidence(patches, COLUMNS).card == 2
    own = index_evidence(patches, COLUMNS, not_cards={2})
    assert own.card == 0 and abs(own.sure - 0.8) < 1e-6
    nothing = index_evidence(patches[:1], COLUMNS, not_cards={2})  # its only corner is the neighbour's
    assert nothing.card == -1 and nothing.sure == 0.0


def test_a_neighbour_is_a_touching_box_whose_face_names_another_card_surely() -> None:
    boxes = np.array([[100, 100, 220, 270],  # the reading
                      [200, 120, 320, 290],  # touching it, a sure 2
                      [500, 100, 620, 270],  # apart, a sure 1
                      [150, 200, 270, 370],  # touching, unsure
                      [90, 90, 210, 260]], np.float32)  # touching, the same card as the reading (a double box)
    probs = np.array([[0.6, 0.3, 0.1], [0.0, 0.02, 0.98], [0.0, 0.99, 0.01], [0.3, 0.4, 0.3], [0.9, 0.05, 0.05]],
                     np.float32)
    assert neighbour_cards(0, boxes, probs, 0.5) == {2}
    assert neighbour_cards(0, boxes, probs, 0.35) == {1, 2}
    assert neighbour_cards(0, boxes, probs, 1.0) == set()  # off


def _reading(box: tuple[float, float, float, float], score: float = 0.35, face: float = 0.2,
             index_sure: float = 0.0) -> RawReading:
    probs = np.full(20, (1.0 - face) / 19, np.float32)  # the face's first choice, at ``face``
    probs[0] = face
    return RawReading(box, score, probs, 0, face, 0 if index_sure else -1, index_sure, True)


def test_a_lone_low_scored_box_that_neither_look_can_read_is_no_card() -> None:
    settings = ReaderSettings()
    lone, card = _reading((900.0, 50.0, 1000.0, 190.0)), _reading((100.0, 100.0, 220.0, 270.0), 0.9, 0.99, 1.0)
    assert no_card(lone, [lone, card], settings)
    assert not no_card(card, [lone, card], settings)
    touching = _reading((210.0, 120.0, 330.0, 290.0))
    assert not no_card(touching, [touching, card], settings)  # it may be a card mostly under another
    assert not no_card(_reading((900.0, 50.0, 1000.0, 190.0), score=0.5), [card], settings)  # the detector is sure
    assert not no_card(_reading((900.0, 50.0, 1000.0, 190.0), face=0.45), [card], settings)  # the face reads it
    assert not no_card(_reading((900.0, 50.0, 1000.0, 190.0), index_sure=0.3), [card], settings)  # an index shows
    assert not no_card(lone, [lone, card], ReaderSettings(no_card_detector=0.0))  # off
