"""Photos given on the command line: read, or refused with a message that says what to give instead."""

from pathlib import Path

import cv2
import numpy as np
import pytest

from engine.errors import InputError
from vision.image_files import read_image


def test_a_png_reads_back_as_written(tmp_path: Path) -> None:
    picture = np.zeros((30, 40, 3), np.uint8)
    picture[5:10, 5:20] = (0, 0, 255)
    cv2.imwrite(str(tmp_path / "felt.png"), picture)
    assert np.array_equal(read_image(tmp_path / "felt.png"), picture)


@pytest.mark.parametrize(("name", "message"), [
    ("missing.jpg", "no such image: {folder}/missing.jpg"),
    ("shots", "{folder}/shots is a folder, not an image: name the images in it (for example {folder}/shots/*.jpg)"),
    ("notes.jpg", "{folder}/notes.jpg is not an image OpenCV can read (use JPEG or PNG)"),
])
def test_what_is_not_an_image_is_named(tmp_path: Path, name: str, message: str) -> None:
    (tmp_path / "shots").mkdir()
    (tmp_path / "notes.jpg").write_text("table 3, shift notes")
    with pytest.raises(InputError) as error:
        read_image(tmp_path / name)
    assert str(error.value) == message.format(folder=tmp_path)
