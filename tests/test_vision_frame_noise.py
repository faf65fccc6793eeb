"""Salt-and-pepper noise: told from clean frames, median-filtered away before the cards are read."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from engine.cards import parse_card
from engine.errors import InputError
from tests.vision_helpers import cards_in_a_row
from vision.frame_noise import impulse_share, without_impulse_noise
from vision.reader import CardReader, ReaderSettings
from vision.reader_models import DEFAULT_MODEL_DIR
from vision.synth.scene import render_scene
from vision.synth.textures import salt_and_pepper

CARDS = ("AS", "QD", "7H", "10C")
AT_LEAST = ReaderSettings().impulse_noise


def test_a_clean_scene_and_thin_text_are_not_noise() -> None:
    scene = render_scene(7_200_000).image
    text = np.full((200, 400, 3), 255, np.uint8)
    cv2.putText(text, "10 J Q K A", (10, 120), cv2.FONT_HERSHEY_PLAIN, 3, (0, 0, 0), 1)
    for clean in (scene, text):
        assert impulse_share(clean) < AT_LEAST
        assert without_impulse_noise(clean, AT_LEAST) is clean


@pytest.mark.parametrize("share", [0.002, 0.01, 0.04])
def test_salt_and_pepper_is_told_apart_and_filtered_out(share: float) -> None:
    scene = render_scene(7_200_001).image
    noisy = salt_and_pepper(scene, share, 0)
    assert impulse_share(noisy) >= AT_LEAST
    cleaned = without_impulse_noise(noisy, AT_LEAST)
    assert impulse_share(cleaned) < AT_LEAST
    assert without_impulse_noise(noisy, 1.0) is noisy  # 1: never


def test_cards_in_a_noisy_frame_are_read_as_in_the_clean_one() -> None:
    reader = CardReader(DEFAULT_MODEL_DIR, settings=ReaderSettings(familiar_deck="known"))
    noisy = salt_and_pepper(cards_in_a_row(3, CARDS, first_x=180.0, step=300.0), 0.04, 0)
    read = reader.read(noisy)
    assert sorted(str(d.card) for d in read) == sorted(str(parse_card(t)) for t in CARDS)
    assert not any(d.flags for d in read)


def test_an_impulse_noise_setting_out_of_range_is_refused() -> None:
    with pytest.raises(InputError, match="impulse_noise"):
        ReaderSettings(impulse_noise=1.5)
