"""The straight classifier's training crops: every labelled card straightened, named after itself."""

from __future__ import annotations

import numpy as np

from vision.reader_crops import CROP_MARGIN
from vision.reader_outline import outline_box, straightened_card
from vision.synth.scene import render_scene
from vision.synth.straight_crops import jittered, straight_crops

SIZE = 160


def _cards(scene):  # type: ignore[no-untyped-def]
    return [(str(p.card), outline_box(p.corners.astype(np.float64)), p.corners.astype(np.float64))
            for p in scene.labelled_cards]


def test_each_labelled_card_is_straightened_by_its_own_corners_and_named_after_itself() -> None:
    scene = render_scene(7_000_021)
    cards = _cards(scene)
    assert len(cards) >= 3
    found = straight_crops(scene.image, cards, [], SIZE, np.random.default_rng(0))
    assert [name for name, _ in found] == [name for name, _, _ in cards]  # no outline drawn: the corners only
    assert all(crop.shape == (SIZE, SIZE, 3) for _, crop in found)
    # the corners are jittered a little, not replaced: each crop is close to the exact straightened card
    exact = [straightened_card(scene.image, corners, SIZE, CROP_MARGIN).astype(np.float32) for _, _, corners in cards]
    for k, (_, crop) in enumerate(found):
        distances = [float(np.abs(crop - view).mean()) for view in exact]
        assert int(np.argmin(distances)) == k


def test_an_outline_gives_its_card_one_more_crop_and_real_photos_need_one() -> None:
    scene = render_scene(7_000_022)
    cards = _cards(scene)
    outlines = [corners + 3.0 for _, _, corners in cards[:2]]  # the outline model found two, a little off
    found = straight_crops(scene.image, cards, outlines, SIZE, np.random.default_rng(0))
    assert sorted(name for name, _ in found) == sorted([c[0] for c in cards[:2]] + [c[0] for c in cards])
    photo = [(name, box, None) for name, box, _ in cards]  # a real photo's labels: boxes, no corners
    only_outlined = straight_crops(scene.image, photo, outlines, SIZE, np.random.default_rng(0))
    assert sorted(name for name, _ in only_outlined) == sorted(c[0] for c in cards[:2])


def test_jitter_moves_each_corner_by_a_small_share_of_the_card() -> None:
    corners = np.array([[0.0, 0.0], [100.0, 0.0], [100.0, 140.0], [0.0, 140.0]])
    moved = jittered(corners, np.random.default_rng(3), share=0.04)
    shift = np.linalg.norm(moved - corners, axis=1)
    assert shift.max() > 0 and shift.max() < 0.2 * 100  # a few pixels, never a corner's worth


def test_outline_copies_write_each_outlined_card_again_jittered() -> None:
    scene = render_scene(7_000_022)
    photo = [(name, box, None) for name, box, _ in _cards(scene)]
    outlines = [corners for _, _, corners in _cards(scene)[:2]]
    found = straight_crops(scene.image, photo, outlines, SIZE, np.random.default_rng(0), outline_copies=3)
    assert sorted(name for name, _ in found) == sorted([c[0] for c in photo[:2]] * 4)
    first = [crop.astype(np.float32) for name, crop in found if name == photo[0][0]]
    # the copies differ from the outline's own crop, and only a little
    assert all(0 < float(np.abs(copy - first[0]).mean()) < 40 for copy in first[1:])
