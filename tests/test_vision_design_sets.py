"""Training sets drawn from real deck designs (`../shared/data/card-designs`): cut as the reader cuts, labelled
only where a card is."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.reader_index import NO_INDEX
from vision.synth import design_scenes
from vision.synth.design_crops import DEFAULT_DESIGNS, design_images, write_design_faces, write_design_patches

pytestmark = pytest.mark.skipif(not (DEFAULT_DESIGNS / "cards.csv").exists(),
                                reason="../shared/data/card-designs is not beside the checkout")


def test_every_design_image_is_named_as_one_of_the_readers_cards() -> None:
    listed = design_images("valid")
    assert len(listed) == 265
    assert {str(card) for card, _ in listed} >= {"AS", "10H", "QC", "JK"}
    assert all(path.exists() for _, path in listed[:20])


def test_face_crops_are_the_readers_crop_size_in_a_folder_per_card(tmp_path: Path) -> None:
    written = write_design_faces(tmp_path, "valid", copies=2, root=DEFAULT_DESIGNS, limit=30)
    files = sorted(tmp_path.glob("*/*.jpg"))
    assert written == len(files) == 60
    assert cv2.imread(str(files[0])).shape == (160, 160, 3)


def test_index_patches_name_cards_and_none(tmp_path: Path) -> None:
    write_design_patches(tmp_path, "valid", copies=1, root=DEFAULT_DESIGNS, limit=40)
    per_class = {folder.name: len(list(folder.glob("*.jpg"))) for folder in tmp_path.iterdir()}
    assert per_class.get(NO_INDEX, 0) > 0  # sideways corners and the face's middle read as no index
    assert sum(n for name, n in per_class.items() if name != NO_INDEX) > 40  # both index corners, cut several ways
    patch = cv2.imread(str(next(tmp_path.glob("[!n]*/*.jpg"))))
    assert patch.shape == (64, 64, 3)


def test_scene_labels_lie_in_the_picture_and_chips_alone_are_no_card() -> None:
    faces = [cv2.imread(str(path)) for _, path in design_images("valid")[:8]]
    rng = np.random.default_rng(3)
    for _ in range(12):
        image, boxes = design_scenes.design_scene(rng, faces)
        assert image.shape == (design_scenes.SIZE, design_scenes.SIZE, 3)
        for x1, y1, x2, y2 in boxes:
            assert 0 <= x1 < x2 <= design_scenes.SIZE and 0 <= y1 < y2 <= design_scenes.SIZE
    image, boxes = design_scenes.design_scene(np.random.default_rng(5), [])
    assert boxes == []  # chips, cash and a hand on the table: nothing labelled


def test_index_corner_labels_box_the_corners_that_show() -> None:
    face = np.full((350, 250, 3), 250, np.uint8)
    quad = np.float32([[100, 100], [350, 100], [350, 450], [100, 450]])  # upright, wholly in the picture
    top_left, bottom_right = design_scenes.index_corner_quads(quad)
    assert np.allclose(top_left[0], (100, 100)) and np.allclose(bottom_right[0], (350, 450))
    owner = np.full((design_scenes.SIZE, design_scenes.SIZE), -1, np.int16)
    owner[100:450, 100:350] = 0
    assert len(design_scenes.visible_corner_boxes([quad], owner)) == 2
    owner[100:200, 100:170] = -1  # a chip over the top-left index
    boxes = design_scenes.visible_corner_boxes([quad], owner)
    assert len(boxes) == 1 and boxes[0][0] > 250  # only the bottom-right corner is labelled
    faces = [cv2.imread(str(path)) for _, path in design_images("valid")[:8]] + [face]
    _, corners = design_scenes.design_scene(np.random.default_rng(3), faces, corners=True)
    assert corners and all(0 <= x1 < x2 <= design_scenes.SIZE and 0 <= y1 < y2 <= design_scenes.SIZE
                           for x1, y1, x2, y2 in corners)
