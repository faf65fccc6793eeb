"""Card outlines: oriented-box labels for the outline model, decoding its output, and cutting index corners at an
outline's corners."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vision.reader_outline import (
    decode_outlines,
    fused_boxes,
    outline_aspect,
    outline_box,
    outline_patches,
    pair_outlines,
    shifted_outline,
    straightened_card,
    unclaimed_outlines,
    upright_outline,
)
from vision.synth.dataset import detector_tiles, oriented_label, write_scenes
from vision.synth.faces import CARD_ASPECT, FACE_SIZE


def _card(centre: tuple[float, float], width: float, degrees: float) -> np.ndarray:
    """A card's corners, top-left first, clockwise on the screen."""
    a = np.deg2rad(degrees)
    local = np.array([[-0.5, -CARD_ASPECT / 2], [0.5, -CARD_ASPECT / 2], [0.5, CARD_ASPECT / 2],
                      [-0.5, CARD_ASPECT / 2]]) * width
    turn = np.array([[np.cos(a), np.sin(a)], [-np.sin(a), np.cos(a)]])
    return local @ turn + np.array(centre)


def _label_corners(line: str, size: tuple[int, int]) -> np.ndarray:
    values = line.split()
    assert values[0] == "0"
    return np.array([float(v) for v in values[1:]]).reshape(4, 2) * np.array(size)


def _right_angled(quad: np.ndarray) -> bool:
    edges = np.roll(quad, -1, axis=0) - quad
    return all(abs(float(np.dot(edges[i], edges[(i + 1) % 4]))) < 1e-3 * float(np.dot(edges[i], edges[i])) + 1e-6
               for i in range(4))


def test_a_card_inside_the_picture_is_labelled_by_its_own_outline() -> None:
    card = _card((300, 200), 90, 27)
    label = _label_corners(oriented_label(card, (640, 480)) or "", (640, 480))
    # the same four corners (in some order), to a pixel
    assert max(float(np.min(np.linalg.norm(card - point, axis=1))) for point in label) < 1.0


def test_a_card_cut_by_the_edge_is_labelled_by_its_part_inside_turned_as_the_card() -> None:
    card = _card((20, 200), 100, 33)  # about half of it left of the picture
    label = _label_corners(oriented_label(card, (640, 480)) or "", (640, 480))
    assert label.min() >= 0 and label[:, 0].max() <= 640 and label[:, 1].max() <= 480
    assert _right_angled(label)
    # its sides run along the card's sides
    card_edge, label_edges = card[1] - card[0], np.roll(label, -1, axis=0) - label
    cosines = [abs(float(np.dot(card_edge, e))) / (np.linalg.norm(card_edge) * np.linalg.norm(e)) for e in label_edges]
    assert max(cosines) > 0.999
    # it lies inside the card and covers the larger part of the card inside the picture (the rest is the
    # triangle the edge cuts at a slant, outside any rectangle turned as the card)
    inside_card = [cv2.pointPolygonTest(card.astype(np.float32), (float(x), float(y)), True) >= -1 for x, y in label]
    assert all(inside_card)
    picture = np.float32([[0, 0], [640, 0], [640, 480], [0, 480]])
    visible, _ = cv2.intersectConvexConvex(card.astype(np.float32), picture)
    assert cv2.contourArea(label.astype(np.float32)) > 0.5 * visible


def test_a_card_outside_the_picture_has_no_label() -> None:
    assert oriented_label(_card((-200, 200), 80, 10), (640, 480)) is None


def test_oriented_tiles_label_each_card_by_a_rectangle_along_a_scene_card(tmp_path: Path) -> None:
    scenes = write_scenes(tmp_path / "scenes", range(3, 5))
    tiles = detector_tiles(scenes, tmp_path / "tiles", tile=640, per_scene=2, seed=1, oriented=True)
    records = {Path(r["image"]).stem: r for r in map(json.loads, (scenes / "scenes.jsonl").read_text().splitlines())}
    labelled = 0
    for label_file in (tiles / "labels").glob("*.txt"):
        scene_name, x, y = label_file.stem.rsplit("_", 2)
        offset = np.array([int(x[1:]), int(y[1:])])
        outlines = [np.array(c["corners"]) - offset for c in records[scene_name]["cards"] if c["labelled"]]
        for line in label_file.read_text().splitlines():
            label = _label_corners(line, (640, 640))
            assert _right_angled(label)
            # inside one of the scene's labelled cards
            assert any(all(cv2.pointPolygonTest(o.astype(np.float32), (float(px), float(py)), True) >= -2
                           for px, py in label) for o in outlines), (label_file.stem, label)
            labelled += 1
    assert labelled >= 3


@settings(max_examples=40, deadline=None)
@given(st.floats(-180, 180), st.integers(0, 3), st.booleans())
def test_an_outline_is_put_upright_whatever_order_its_corners_come_in(degrees: float, start: int,
                                                                       backwards: bool) -> None:
    card = _card((400, 300), 120, degrees)
    given_corners = np.roll(card, -start, axis=0)
    if backwards:
        given_corners = given_corners[::-1]
    quad = upright_outline(given_corners)
    x, y = quad[:, 0], quad[:, 1]
    assert float(np.dot(x, np.roll(y, -1)) - np.dot(np.roll(x, -1), y)) > 0  # clockwise on the screen
    assert np.linalg.norm(quad[1] - quad[0]) < np.linalg.norm(quad[2] - quad[1])  # a short edge first
    # the card's own top-left corner, or its bottom-right one (the card turned half a turn), comes first
    assert min(np.linalg.norm(quad[0] - card[0]), np.linalg.norm(quad[0] - card[2])) < 1e-6
    assert sorted(map(tuple, np.round(quad, 6))) == sorted(map(tuple, np.round(card, 6)))


@settings(max_examples=25, deadline=None)
@given(st.floats(-180, 180), st.integers(0, 3), st.booleans())
def test_a_straightened_card_stands_in_the_middle_of_the_square_as_printed(degrees: float, start: int,
                                                                          backwards: bool) -> None:
    # a face with a red mark where the top-left index is printed and a green one at its top-right corner
    face = np.full((FACE_SIZE[1], FACE_SIZE[0], 3), 255, np.uint8)
    mark = FACE_SIZE[0] // 5
    face[:mark, :mark] = (0, 0, 255)
    face[:mark, -mark:] = (0, 255, 0)
    card = _card((400, 300), 150, degrees)
    to_table = cv2.getPerspectiveTransform(np.float32([[0, 0], [FACE_SIZE[0], 0], FACE_SIZE, [0, FACE_SIZE[1]]]),
                                           card.astype(np.float32))
    table = cv2.warpPerspective(face, to_table, (800, 600))
    given_corners = np.roll(card, -start, axis=0)
    if backwards:
        given_corners = given_corners[::-1]
    view = straightened_card(table, given_corners, 160, 1.12)
    white = np.argwhere(view.sum(axis=2) > 100)
    (top, left), (bottom, right) = white.min(axis=0), white.max(axis=0)
    assert abs((bottom - top + 1) - 160 / 1.12) <= 2 and abs((right - left + 1) - 160 / 1.12 / CARD_ASPECT) <= 2
    assert abs((top + bottom) / 2 - 79.5) <= 1 and abs((left + right) / 2 - 79.5) <= 1  # in the middle

    def where(colour: tuple[int, int, int]) -> np.ndarray:
        hits = np.argwhere(np.all(np.abs(view.astype(int) - colour) < 60, axis=2))
        return hits.mean(axis=0)  # row, column

    red, green = where((0, 0, 255)), where((0, 255, 0))
    # upright (red top-left, green top-right) or turned half a turn (red bottom-right, green bottom-left): never a
    # mirror image, which would put green on red's left in the upright card
    upright = red[0] < 80
    assert (red[1] < green[1]) if upright else (red[1] > green[1])
    assert (green[0] < 80) == upright


def test_outlines_are_decoded_from_the_raw_output_with_overlapping_ones_made_one() -> None:
    # anchors: cx cy w h score angle; two anchors on one card, one on another, one too unsure
    anchors = np.array([[200, 150, 60, 84, 0.9, 0.3],
                        [202, 151, 61, 83, 0.7, 0.31],
                        [400, 300, 50, 70, 0.8, -0.2],
                        [100, 100, 40, 56, 0.1, 0.0]], np.float32)
    quads, scores = decode_outlines(anchors.T[None], conf=0.3, iou=0.6)
    assert len(quads) == 2
    assert list(np.round(scores, 2)) == [0.9, 0.8]
    centres = [q.mean(axis=0) for q in quads]
    assert np.allclose(centres[0], [200, 150], atol=1e-3) and np.allclose(centres[1], [400, 300], atol=1e-3)
    sides = sorted(np.linalg.norm(np.roll(quads[0], -1, axis=0) - quads[0], axis=1))
    assert np.allclose(sides, [60, 60, 84, 84], atol=0.01)


def test_a_box_is_paired_with_the_outline_around_it_and_no_other() -> None:
    near, far = _card((200, 150), 80, 20), _card((600, 400), 80, -35)
    boxes = np.array([outline_box(near), (0.0, 0.0, 30.0, 30.0)], np.float32)
    assert pair_outlines(boxes, [far, near], min_iou=0.5) == {0: 1}  # the box over bare felt gets none
    assert pair_outlines(boxes, [], min_iou=0.5) == {}


def test_in_a_fan_each_box_keeps_its_own_outline_though_it_overlaps_its_neighbours_more() -> None:
    top, under = _card((300, 200), 100, 0), _card((284, 204), 100, 10)
    # the lower card's box is a little off, and overlaps the top card's outline most; the top card's box claims that
    # outline first (it fits it better), so the lower card's box is paired with its own
    top_box = outline_box(top)
    under_box = (top_box[0] - 8.0, top_box[1] + 2.0, top_box[2] - 6.0, top_box[3] + 4.0)
    from vision.eval import iou

    assert iou(under_box, outline_box(top)) > iou(under_box, outline_box(under))
    boxes = np.array([under_box, top_box], np.float32)
    assert pair_outlines(boxes, [top, under], min_iou=0.5) == {1: 0, 0: 1}


def test_in_a_fan_the_card_under_its_neighbour_stays_unclaimed_when_only_the_top_card_is_boxed() -> None:
    # the lower card of a fan: turned 12 degrees under the top one, its box overlaps the top card's a lot
    top, under = _card((300, 200), 100, 0), _card((280, 205), 100, 12)
    apart = _card((700, 400), 100, 30)
    top_box = np.array([outline_box(top)], np.float32)
    assert unclaimed_outlines(top_box, [under, top, apart], min_iou=0.5) == [0, 2]  # not the top card's own
    both = np.array([outline_box(top), outline_box(under)], np.float32)
    assert unclaimed_outlines(both, [under, top], min_iou=0.5) == []
    assert unclaimed_outlines(np.zeros((0, 4), np.float32), [top], min_iou=0.5) == [0]
    assert unclaimed_outlines(top_box, [], min_iou=0.5) == []


def test_a_shifted_outline_moves_along_the_cards_own_edges() -> None:
    card = _card((300, 200), 100, 30)
    upright = upright_outline(card)
    moved = shifted_outline(card, 0.1, 0.0)
    short_edge = (upright[1] - upright[0]) / np.linalg.norm(upright[1] - upright[0])
    assert np.allclose(moved - upright, np.tile(short_edge * 10.0, (4, 1)))  # a tenth of the width along
    long_edge = (upright[3] - upright[0]) / np.linalg.norm(upright[3] - upright[0])
    assert np.allclose(shifted_outline(card, 0.0, -0.2) - upright, np.tile(long_edge * -20.0, (4, 1)))
    assert np.allclose(shifted_outline(card, 0.0, 0.0), upright)


def test_outline_patches_without_and_with_shifts() -> None:
    image = np.full((400, 600, 3), 90, np.uint8)
    card = _card((300, 200), 100, 20)
    assert len(outline_patches(image, card, 64)) == 2  # the two index corners
    shifted = outline_patches(image, card, 64, shift=0.1)
    assert len(shifted) == 10 and all(p.shape == (64, 64, 3) for p in shifted)
    assert all(np.array_equal(a, b) for a, b in zip(shifted[:2], outline_patches(image, card, 64), strict=True))
    assert outline_patches(image, None, 64, shift=0.1) == []


def test_an_outline_fine_tune_runs_without_mosaic_and_warm_up(monkeypatch, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    # training itself is slow: only the settings handed to Ultralytics are looked at
    from vision import train

    seen: list[dict] = []
    monkeypatch.setattr(train, "train_yolo", lambda *args, **kwargs: seen.append(kwargs) or tmp_path)
    train.train_outline_model(tmp_path / "data.yaml", tmp_path / "run", start_from=tmp_path / "outline.pt",
                              lr0=0.0003)
    train.train_outline_model(tmp_path / "data.yaml", tmp_path / "run")
    fine_tune, first_run = seen
    assert fine_tune["mosaic"] == 0.0 and fine_tune["warmup_epochs"] == 0.0 and fine_tune["lr0"] == 0.0003
    assert fine_tune["weights"] == tmp_path / "outline.pt" and fine_tune["transfer"] is None
    assert "mosaic" not in first_run and first_run["close_mosaic"] == 3 and first_run["warmup_epochs"] == 0.5
    assert first_run["transfer"].name == "card-detector.pt"


def test_a_box_moves_towards_its_cards_outline_by_the_two_models_scores() -> None:
    card = _card((400.0, 300.0), 100.0, 30.0)
    tight = np.array(outline_box(card), np.float32)
    wide = tight + np.array([-30.0, -10.0, 20.0, 10.0], np.float32)  # taking in part of the neighbour
    far = np.array([900.0, 100.0, 1000.0, 240.0], np.float32)  # a box no outline overlaps
    boxes = np.stack([wide, far])
    same = fused_boxes(boxes, np.array([0.6, 0.9], np.float32), [card], np.array([0.6], np.float32), 0.5, 1.3)
    assert np.allclose(same[0], (wide + tight) / 2) and np.array_equal(same[1], far)
    surer_outline = fused_boxes(boxes, np.array([0.3, 0.9], np.float32), [card], np.array([0.9], np.float32), 0.5,
                                1.3)
    assert np.allclose(surer_outline[0], 0.75 * tight + 0.25 * wide)


def test_an_outline_not_shaped_like_a_card_leaves_the_box_alone() -> None:
    two_cards = np.array([[300.0, 200.0], [440.0, 200.0], [440.0, 340.0], [300.0, 340.0]])  # square: two side by side
    assert outline_aspect(two_cards) == pytest.approx(1.0)
    assert outline_aspect(_card((0.0, 0.0), 80.0, 17.0)) == pytest.approx(CARD_ASPECT)
    box = np.array([[310.0, 195.0, 450.0, 345.0]], np.float32)
    assert np.array_equal(fused_boxes(box, np.array([0.8], np.float32), [two_cards], np.array([0.9], np.float32),
                                      0.5, 1.3), box)
