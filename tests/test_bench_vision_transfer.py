"""bench/vision_transfer.py's reader settings to try (--setting NAME=VALUE): typed as the setting is, and a wrong
name or value named in one line rather than tried as something else."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

BENCH = Path(__file__).resolve().parent.parent / "bench" / "vision_transfer.py"


def _bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location("vision_transfer_bench", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def test_settings_take_the_type_of_their_default() -> None:
    settings = _bench().parse_settings(["second_look=yes", "confident=0.7", "unseen_settled=4",
                                        "familiar_deck=unseen", "turned_too=0"])
    assert (settings.second_look, settings.confident, settings.unseen_settled) == (True, 0.7, 4)
    assert settings.familiar_deck == "unseen" and settings.turned_too is False


@pytest.mark.parametrize(("pair", "message"), [
    ("no_such=1", "no reader setting 'no_such'"),
    ("second_look=maybe", "second_look takes a bool"),
    ("confident=high", "confident takes a float"),
    ("confident=1.5", "confident must be within 0..1"),
])
def test_a_wrong_setting_is_named(pair: str, message: str) -> None:
    with pytest.raises(SystemExit, match=message):
        _bench().parse_settings([pair])


def test_a_card_half_out_of_the_frame_is_scored_on_the_part_the_camera_shows() -> None:
    from engine.cards import parse_card
    from vision.detection import Detection
    from vision.synth.scene import render_scene

    bench = _bench()
    scene = render_scene(7_000_008)  # its 6D runs off the bottom of the frame
    labelled, present = bench.scene_truth(scene)
    h, w = scene.image.shape[:2]
    assert all(0 <= x1 < x2 <= w and 0 <= y1 < y2 <= h for _, (x1, y1, x2, y2) in [*labelled, *present])
    (card, shown), = labelled
    assert str(card) == "6D" and shown[3] == h < scene.labelled_cards[0].box[3]
    figures = bench.DesignFigures("t")
    bench.tally(figures, [Detection(parse_card("6D"), 0.95, shown)], labelled, present)  # a box inside the frame
    assert (figures.right, figures.unflagged_wrong) == (1, 0)


def test_the_calibration_table_says_how_often_each_confidence_band_was_right() -> None:
    from engine.cards import parse_card
    from vision.detection import Detection

    bench = _bench()
    box, other = (10.0, 10.0, 98.0, 133.0), (200.0, 10.0, 288.0, 133.0)
    truth = [(parse_card("10C"), box), (parse_card("AH"), other)]
    figures = bench.DesignFigures("t")
    bench.tally(figures, [Detection(parse_card("10S"), 0.995, box), Detection(parse_card("AH"), 1.0, other),
                          Detection(parse_card("AH"), 0.6, (400.0, 10.0, 488.0, 133.0))], truth, truth)
    assert figures.confidences == [(0.995, False), (1.0, True), (0.6, False)]
    bands = {(low, high): (count, right) for low, high, count, right in bench.calibration(figures.confidences)}
    assert bands[(0.99, 1.0)] == (2, 0.5) and bands[(0.5, 0.8)] == (1, 0.0) and bands[(0.9, 0.99)] == (0, 0.0)
    assert "confidences" not in figures.counts() and figures.counts()["readings"] == 3


def test_a_close_up_photo_holds_one_or_two_big_cards_inside_it_and_the_squashed_truth_follows() -> None:
    bench = _bench()
    from vision.synth.faces import FIVE_CARD_DRAW, load_deck
    from vision.synth.textures import squashed_to_square

    faces = load_deck(FIVE_CARD_DRAW)
    for seed, count in ((8_000_000, 1), (8_000_001, 2)):
        photo, truth = bench.close_up(seed, faces)
        assert photo.shape == (960, 1280, 3) and len(truth) == count
        for card, (x1, y1, x2, y2) in truth:
            assert card in faces and 0 <= x1 < x2 <= 1280 and 0 <= y1 < y2 <= 960
            assert x2 - x1 >= 0.2 * 1280 / count ** 0.5  # close up: a fifth of the width or more
        square = squashed_to_square(photo)
        assert square.shape == (960, 960, 3)
        (_, box), *_ = bench.squashed_truth(truth, 1280, 960)
        assert box[0] == pytest.approx(truth[0][1][0] * 0.75) and box[1] == truth[0][1][1]


def test_a_dimmer_webcam_frame_is_darker_and_noisier_and_the_seed_draws_it_again() -> None:
    import cv2
    import numpy as np

    from vision.synth.textures import dim_light

    flat = np.full((120, 160, 3), 200, np.uint8)  # a card's white face, nothing drawn on it

    def noise(image: np.ndarray) -> float:
        return float(np.std(image.astype(np.float32) - cv2.GaussianBlur(image, (0, 0), 3).astype(np.float32)))

    quarter, tenth = dim_light(flat, 0.25, 1), dim_light(flat, 0.1, 1)
    assert np.array_equal(tenth, dim_light(flat, 0.1, 1)) and not np.array_equal(tenth, dim_light(flat, 0.1, 2))
    assert flat.mean() > quarter.mean() > tenth.mean() > 0.4 * flat.mean()  # the camera's gain brings part back
    assert noise(tenth) > noise(quarter) > 2.0 > noise(flat)
