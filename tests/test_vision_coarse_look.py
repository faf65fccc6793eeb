"""The coarse look: a card too big for the detector, boxed in parts, is read as the one card it is."""

from __future__ import annotations

import numpy as np
import pytest

from engine.errors import InputError
from tests.vision_helpers import cards_in_a_row
from vision.coarse_look import coarse_size, merge_coarse
from vision.detection import iou
from vision.reader import CardReader, ReaderSettings
from vision.reader_models import DEFAULT_MODEL_DIR


def boxes(*rows: tuple[float, float, float, float]) -> np.ndarray:
    return np.array(rows, np.float32).reshape(-1, 4)


def scores(*values: float) -> np.ndarray:
    return np.array(values, np.float32)


CARD = (100.0, 50.0, 500.0, 610.0)
PIPS = boxes((120, 70, 200, 180), (300, 250, 380, 340), (420, 500, 490, 600))


def test_parts_of_a_card_give_way_to_the_whole_card() -> None:
    merged, merged_scores = merge_coarse(PIPS, scores(0.5, 0.4, 0.45), boxes(CARD), scores(0.85), 0.35)
    assert merged.tolist() == [list(CARD)]
    assert merged_scores.tolist() == pytest.approx([0.85])


def test_a_part_beside_the_whole_card_found_by_both_looks_goes() -> None:
    fine = np.concatenate([boxes((105, 55, 495, 600)), PIPS[:1]])
    merged, _ = merge_coarse(fine, scores(0.8, 0.5), boxes(CARD), scores(0.85), 0.35)
    assert merged.tolist() == [[105, 55, 495, 600]]


def test_a_coarse_box_scored_below_the_parts_changes_nothing() -> None:
    merged, merged_scores = merge_coarse(PIPS, scores(0.5, 0.4, 0.9), boxes(CARD), scores(0.6), 0.35)
    assert merged.tolist() == PIPS.tolist() and merged_scores.tolist() == pytest.approx([0.5, 0.4, 0.9])


def test_a_fan_of_cards_is_not_taken_for_one_card() -> None:
    fan = boxes((100, 100, 260, 330), (180, 100, 340, 330), (260, 100, 420, 330))
    merged, _ = merge_coarse(fan, scores(0.8, 0.7, 0.8), boxes((100, 100, 420, 330)), scores(0.9), 0.35)
    assert merged.tolist() == fan.tolist()


def test_a_card_only_the_coarse_look_found_is_added_where_nothing_lies() -> None:
    fine = boxes((10, 10, 90, 120))
    merged, _ = merge_coarse(fine, scores(0.8), boxes(CARD, (20, 15, 88, 118)), scores(0.7, 0.6), 0.35)
    assert merged.tolist() == [[10, 10, 90, 120], list(CARD)]


def test_the_coarse_input_is_half_the_fine_one_on_the_detector_stride() -> None:
    assert coarse_size(320, 0.5) == 160
    assert coarse_size(640, 0.5) == 320
    assert coarse_size(224, 0.5) == 128  # never under the floor


def test_a_card_filling_a_phone_photo_is_read_once_and_boxed_whole() -> None:
    width = 390.0  # a card 546 px tall in a 640 px square photo: far bigger than any card the detector learnt
    photo = cards_in_a_row(11, ("9S",), size=(640, 640), first_x=320.0, width=width)
    card_box = (320 - width / 2, 320 - width * 0.7, 320 + width / 2, 320 + width * 0.7)
    read = CardReader(DEFAULT_MODEL_DIR).read(photo)
    assert len(read) == 1, [(str(d.card), d.box) for d in read]
    assert iou(read[0].box, card_box) >= 0.7


@pytest.mark.parametrize(("look", "part"), [(-0.1, 0.35), (1.5, 0.35), (0.5, 1.2)])
def test_coarse_settings_out_of_range_are_refused(look: float, part: float) -> None:
    with pytest.raises(InputError, match="coarse"):
        ReaderSettings(coarse_look=look, coarse_part=part)
