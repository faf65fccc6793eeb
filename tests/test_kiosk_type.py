"""Type that fits every language: a real bold face for Latin, Vietnamese and Khmer (never a regular one stroked,
which runs a Vietnamese accent into its letter), Khmer line metrics from the font that hold every mark the kiosk
draws, and long Khmer lines broken between words."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from PIL import Image, ImageDraw

from kiosk.i18n import TEXTS
from kiosk.i18n_km import PHRASES_KM, TEXTS_KM
from kiosk.ui.line_breaks import KHMER, break_between_words, pieces
from kiosk.ui.shaped_text import _font, bold_file, khmer_font, kivy_font_path, metrics


def _ink(path: str, text: str, bold: bool, size: int = 48) -> np.ndarray:
    font = _font(path, size, bold)
    image = Image.new("L", (int(font.getlength(text)) + 20, size * 3), 0)
    ImageDraw.Draw(image).text((10, size * 2), text, font=font, fill=255, anchor="ls")
    return np.asarray(image) > 96


def _parts(ink: np.ndarray) -> int:
    count, _ = cv2.connectedComponents(ink.astype(np.uint8))
    return int(count) - 1


@pytest.mark.parametrize("font", ["Roboto-Regular.ttf", "khmer"])
def test_bold_is_a_heavier_face_and_keeps_every_mark_apart(font: str) -> None:
    path = khmer_font() if font == "khmer" else kivy_font_path(font)
    assert path is not None and bold_file(path) is not None, "no bold face for " + font
    text = "ឈ្នះ ផ្ទះ" if font == "khmer" else "XẾP ĐÚNG Ễ ộ"
    regular, bold = _ink(path, text, False), _ink(path, text, True)
    assert bold.sum() > 1.2 * regular.sum()  # heavier
    assert _parts(bold) == _parts(regular)  # no accent or vowel sign run into its letter


def test_a_khmer_line_holds_the_ink_of_every_khmer_text_the_kiosk_shows() -> None:
    path = khmer_font()
    assert path is not None
    size = 30
    ascent, descent = metrics(path, size)
    font = _font(path, size)
    texts = [line for text in (*TEXTS_KM.values(), *PHRASES_KM.values()) for line in text.split("\n")]
    tallest = min(font.getbbox(text, anchor="ls")[1] for text in texts)
    deepest = max(font.getbbox(text, anchor="ls")[3] for text in texts)
    assert -tallest <= ascent and deepest <= descent, (tallest, deepest, ascent, descent)


def test_long_khmer_lines_break_between_words() -> None:
    path = khmer_font()
    assert path is not None
    font = _font(path, 22)
    long_texts = [text for text in TEXTS_KM.values() if KHMER.search(text) and font.getlength(text) > 600]
    assert len(long_texts) > 20
    for text in long_texts:
        broken = break_between_words(text, 300, font.getlength)
        lines = broken.split("\n")
        assert len(lines) > 1 and "".join(lines).replace(" ", "") == text.replace("\n", "").replace(" ", "")
        allowed = {len("".join(pieces(text)[:n]).rstrip()) for n in range(len(pieces(text)) + 1)}
        at = 0
        for line in lines[:-1]:  # each line ends where ICU allows a break, and fits unless it is one word
            at = text.index(line, at) + len(line)
            assert at in allowed, (text, line)
            assert font.getlength(line) <= 300 or len(pieces(line)) == 1, line


def test_a_text_without_khmer_is_left_to_kivy() -> None:
    english = TEXTS["bb.prompt.shake"][0]
    assert break_between_words(english, 10, len) == english
