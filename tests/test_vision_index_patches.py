"""The index corners of a boxed card: outlines from the box, upright index patches, and their training labels."""

from __future__ import annotations

from collections import Counter

import cv2
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.cards import parse_card
from vision.reader_index import INDEX_REGION, NO_INDEX, card_outlines, index_patch, index_patches
from vision.synth.faces import FACE_SIZE, load_deck, paste_card
from vision.synth.index_patches import patch_label
from vision.synth.scene import PlacedCard, _card_corners, index_pixels_showing, render_scene


def _box(corners: np.ndarray) -> tuple[float, float, float, float]:
    x1, y1 = corners.min(axis=0)
    x2, y2 = corners.max(axis=0)
    return (float(x1), float(y1), float(x2), float(y2))


@settings(max_examples=60, deadline=None)
@given(angle=st.floats(-np.pi, np.pi), width=st.floats(40, 200))
def test_one_outline_of_the_box_is_the_card_itself(angle: float, width: float) -> None:
    corners = _card_corners((300.0, 300.0), width, angle)
    outlines = card_outlines(_box(corners))
    assert len(outlines) == 2
    # The card may lie either way up: its outline read from the first or from the third corner.
    error = min(float(np.linalg.norm(outline - np.roll(corners, turn, axis=0), axis=1).max())
                for outline in outlines for turn in (0, 2))
    assert error < 0.01 * width


def test_the_index_patch_of_a_turned_card_is_the_face_corner_upright() -> None:
    face = load_deck("five-card-draw")[parse_card("7H")]
    fw, fh = FACE_SIZE
    x1, y1, x2, y2 = INDEX_REGION
    region = np.full((round((y2 - y1) * fh), round((x2 - x1) * fw), 3), 60, np.uint8)  # the table beyond the edge
    sx, sy = round(-x1 * fw), round(-y1 * fh)
    region[sy:, sx:] = face[: region.shape[0] - sy, : region.shape[1] - sx]
    expected = cv2.resize(region, (64, 64), interpolation=cv2.INTER_AREA).astype(np.float32)
    canvas = np.full((600, 600, 3), 60, np.uint8)
    corners = _card_corners((300.0, 300.0), 200.0, 0.4)
    paste_card(canvas, face, corners)
    right = min(card_outlines(_box(corners)), key=lambda o: float(np.linalg.norm(o - corners, axis=1).max()))
    patch = index_patch(canvas, right).astype(np.float32)
    wrong = index_patches(canvas, _box(corners))  # includes the mirrored outline's patches
    assert np.abs(patch - expected).mean() < 12
    assert max(float(np.abs(p.astype(np.float32) - expected).mean()) for p in wrong) > 30  # the mirror is not


def test_patch_labels_name_the_card_only_at_an_index_that_shows() -> None:
    corners = _card_corners((300.0, 300.0), 120.0, 0.5).astype(np.float32)
    card = PlacedCard(parse_card("QS"), corners, visible=0.6, index_shares=(1.0, 0.05))
    outlines = card_outlines(_box(corners))
    right = min(outlines, key=lambda o: float(np.linalg.norm(o - corners, axis=1).max()))
    mirror = max(outlines, key=lambda o: float(np.linalg.norm(o - corners, axis=1).max()))
    assert patch_label(card, right) == "QS"  # the top-left index shows
    assert patch_label(card, np.roll(right, -2, axis=0)) == NO_INDEX  # the bottom-right one is covered
    assert patch_label(card, mirror) == NO_INDEX
    assert patch_label(card, np.roll(mirror, -2, axis=0)) == NO_INDEX
    half = PlacedCard(parse_card("QS"), corners, visible=0.6, index_shares=(0.5, 0.05))
    assert patch_label(half, right) is None  # half an index is taught neither way


def test_index_shares_follow_what_covers_the_corners() -> None:
    owner = np.zeros((400, 400), np.int16)
    corners = np.array([[100, 50], [200, 50], [200, 190], [100, 190]], np.float64)  # 100 x 140, upright
    owner[:, :] = 0
    owner[40:110, 90:130] = 1  # a later card over the top-left index
    shown = [float(len(points)) / total for points, total in index_pixels_showing(owner, 0, corners)]
    assert shown[0] < 0.1 and shown[1] > 0.95


def test_rendered_cards_record_their_index_shares() -> None:
    scene = render_scene(2_000_016)
    for card in scene.cards:
        assert all(0.0 <= share <= 1.0 for share in card.index_shares)
    assert any(card.visible == 1.0 and min(card.index_shares) > 0.9 for card in scene.cards)
    # a card partly out of the picture: its index corners there do not count as showing
    assert any(card.visible > 0.5 and card.index_visible < 0.3 for card in scene.cards)


def test_a_sure_index_moves_an_unsure_reading_and_no_index_leaves_it() -> None:
    from vision.reader_index import fuse_index

    names = ("AS", "7H", "KD")
    index_names = ("7H", "AS", "KD", NO_INDEX)
    columns = [index_names.index(n) for n in names]
    probs = np.float32([0.45, 0.40, 0.15])  # the classifier leans to AS
    sure_7h = np.float32([[0.02, 0.01, 0.01, 0.96], [0.95, 0.02, 0.01, 0.02],  # one patch shows a clear 7H index
                          [0.01, 0.01, 0.01, 0.97], [0.01, 0.01, 0.01, 0.97]])
    fused = fuse_index(probs, sure_7h, columns, weight=1.0)
    assert names[int(fused.argmax())] == "7H"
    assert abs(float(fused.sum()) - 1.0) < 1e-5
    nothing = np.float32([[0.01, 0.01, 0.01, 0.97]] * 4)  # no patch shows an index
    kept = fuse_index(probs, nothing, columns, weight=1.0)
    assert names[int(kept.argmax())] == "AS" and np.abs(kept - probs).max() < 0.02
    assert np.allclose(fuse_index(probs, sure_7h, columns, weight=0.0), probs)


def test_an_index_reader_that_lacks_cards_takes_no_part() -> None:
    from vision.reader_index import index_columns

    assert index_columns(("AS", "7H"), ("7H", "AS", NO_INDEX)) == [1, 0]
    assert index_columns(("AS", "7H"), ("AS", NO_INDEX)) is None
    assert index_columns(("AS", "7H"), ("AS", "7H")) is None  # no "none" class: not an index reader


def test_index_patch_sets_are_written_per_class_and_resume(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from vision.synth.index_patches import index_training_patches

    log = tmp_path / "done.txt"
    written = index_training_patches(tmp_path / "set", [7_000_100, 7_000_101], log)
    folders = {p.name for p in (tmp_path / "set").iterdir()}
    assert written > 10 and NO_INDEX in folders and len(folders) > 3
    assert all(name == NO_INDEX or name in {str(c.card) for s in (7_000_100, 7_000_101)
                                            for c in render_scene(s).cards} for name in folders)
    patch = cv2.imread(str(next((tmp_path / "set" / NO_INDEX).iterdir())))
    assert patch.shape == (64, 64, 3)
    assert index_training_patches(tmp_path / "set", [7_000_100, 7_000_101], log) == 0  # both scenes done


def test_reader_settings_out_of_range_are_refused_by_name() -> None:
    import pytest

    from engine.errors import InputError
    from vision.reader import ReaderSettings

    with pytest.raises(InputError, match=r"index_weight must be within 0\.\.10, got -1"):
        ReaderSettings(index_weight=-1.0)
    with pytest.raises(InputError, match=r"confident must be within 0\.\.1, got 1\.5"):
        ReaderSettings(confident=1.5)
    with pytest.raises(InputError, match=r"outline_shift must be within 0\.\.0\.5 \(a share .*, got 0\.8"):
        ReaderSettings(outline_shift=0.8)
    with pytest.raises(InputError, match=r"outline_box_ratio must be within 1\.\.2 \(a card outline's .*, got 2\.5"):
        ReaderSettings(outline_box_ratio=2.5)
    with pytest.raises(InputError, match=r"outline_find_ratio must be within 1\.\.2 \(a card outline's .*, got 0\.9"):
        ReaderSettings(outline_find_ratio=0.9)
    with pytest.raises(InputError, match=r"one_deck_alternative must be within 0\.\.1, got 1\.2"):
        ReaderSettings(one_deck_alternative=1.2)
    with pytest.raises(InputError, match=r"straight_weight must be within 0\.\.10, got 12"):
        ReaderSettings(straight_weight=12.0)
    assert ReaderSettings(index_look=False, index_weight=0.0).index_weight == 0.0


def test_a_cards_outline_adds_patches_named_after_it_at_its_index_corners() -> None:
    from vision.synth.index_patches import scene_patches

    scene = render_scene(7_000_102)
    card = next(c for c in scene.cards if c.visible == 1.0 and min(c.index_shares) >= 0.95)
    no_boxes = np.zeros((0, 4), np.float32)
    before = scene_patches(scene, no_boxes, np.random.default_rng(0))
    outline = card.corners.astype(np.float64)
    after = scene_patches(scene, no_boxes, np.random.default_rng(0), outlines=[outline], outline_shift=0.1)
    added = Counter(label for label, _ in after) - Counter(label for label, _ in before)
    # the outline as found gives both index corners; moved by a tenth of the width, the patches lie at the edge of
    # what is taught (left out, or named). A patch is named after no other card (a card the outline overlaps lends
    # it only `none` labels: it lies on none of that card's corners).
    assert added[str(card.card)] >= 2 and set(added) <= {str(card.card), NO_INDEX}
    assert len(after) - len(before) <= 2 * 10 * len(scene.cards)
    far = outline + 400.0  # an outline over no card adds nothing
    assert len(scene_patches(scene, no_boxes, np.random.default_rng(0), outlines=[far])) == len(before)


def test_an_index_fine_tune_starts_gently_and_a_first_run_from_the_classifier(monkeypatch, tmp_path) -> None:  # type: ignore[no-untyped-def]
    # training itself is slow: only the settings handed to Ultralytics are looked at
    from vision import train

    seen: list[dict] = []
    monkeypatch.setattr(train, "train_yolo", lambda *args, **kwargs: seen.append(kwargs) or tmp_path)
    train.train_index_reader(tmp_path / "patches", tmp_path / "run", start_from=tmp_path / "index.pt")
    train.train_index_reader(tmp_path / "patches", tmp_path / "run")
    train.train_index_reader(tmp_path / "patches", tmp_path / "run", start_from=tmp_path / "index.pt", lr0=0.0002)
    fine_tune, first_run, chosen_rate = seen
    assert fine_tune["weights"] == tmp_path / "index.pt"
    assert fine_tune["lr0"] == 0.0005 and fine_tune["warmup_epochs"] == 0.0
    assert first_run["weights"].name == "card-classifier.pt"
    assert first_run["lr0"] == 0.002 and first_run["warmup_epochs"] == 0.5
    assert chosen_rate["lr0"] == 0.0002
    assert all(s["fliplr"] == 0.0 and s["flipud"] == 0.0 for s in seen)  # a mirrored index is not a card


def test_a_real_photos_index_corner_under_another_card_is_left_out_of_the_labels() -> None:
    from vision.real_index_patches import outlined_cards

    under = _card_corners((300.0, 300.0), 100.0, 0.0)  # upright: index corners at its top left and bottom right
    over = _card_corners((370.0, 395.0), 100.0, 0.0)  # lies over the first card's bottom-right corner only
    lone = _card_corners((700.0, 300.0), 100.0, 0.3)
    labelled = [(parse_card(name), _box(corners)) for name, corners in (("7H", under), ("KS", over), ("2D", lone))]
    cards = {str(c.card): c for c in outlined_cards(labelled, [lone, under, over])}  # outlines in any order
    assert cards["7H"].index_free == (True, False)
    # Which card lies on top is not known: the second card's top-left corner lies on the first card, left out too.
    assert cards["KS"].index_free == (False, True)
    assert cards["2D"].index_free == (True, True)
    # A labelled card the outline model missed still covers by its box, and has no corners to cut.
    cards = {str(c.card): c for c in outlined_cards(labelled, [lone, under])}
    assert set(cards) == {"7H", "2D"} and cards["7H"].index_free == (True, False)
    placed = PlacedCard(parse_card("7H"), cards["7H"].outline.astype(np.float32), 1.0, (1.0, 0.5))
    assert patch_label(placed, cards["7H"].outline) == "7H"  # the free corner names the card
    assert patch_label(placed, np.roll(cards["7H"].outline, -2, axis=0)) is None  # the covered one is left out
