"""Capture: cards found by their outline on rendered spreads with known answers, warped flat to their faces."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from engine.cards import standard_deck
from engine.errors import InputError
from vision.enroll.extract import ExtractSettings, find_cards, order_corners
from vision.enroll.matching import FaceMatcher
from vision.enroll.spread import render_spread
from vision.synth.faces import available_decks, load_deck

DECK = "standard" if "standard" in available_decks() else "five-card-draw"
CARDS = list(standard_deck())


@pytest.fixture(scope="module")
def faces():
    return load_deck(DECK)


def _check_spread(spread, extraction, faces, tolerance: float) -> int:
    """Every found card lies on a true card, corners within ``tolerance`` px (up to a 180° turn), and its face is
    the true card's face (more alike than any other face of the deck). Returns how many true cards were found."""
    matcher = FaceMatcher(faces)
    found = 0
    for card in extraction.cards:
        centres = [c.mean(axis=0) for c in spread.corners]
        i = int(np.argmin([np.linalg.norm(card.corners.mean(axis=0) - c) for c in centres]))
        truth = spread.corners[i]
        error = min(np.abs(card.corners - truth).max(), np.abs(np.roll(card.corners, 2, axis=0) - truth).max())
        assert error <= tolerance, f"{spread.cards[i]}: corners off by {error:.1f} px"
        match = matcher.match(card.face)
        assert match.card == spread.cards[i], f"{spread.cards[i]} warped to a face more like {match.card}"
        assert matcher.match(card.face_turned).card == spread.cards[i]
        found += 1
    return found


def test_lone_cards_at_any_rotation_are_all_found_and_warped(faces):
    spread = render_spread(faces, CARDS[13:33], seed=1, tilt_degrees=90)
    extraction = find_cards(spread.image)
    assert len(extraction.cards) == 20 and not extraction.unresolved
    assert _check_spread(spread, extraction, faces, tolerance=5.0) == 20


def test_perspective_of_a_camera_not_quite_overhead(faces):
    spread = render_spread(faces, CARDS[26:], seed=2, perspective=0.05)
    extraction = find_cards(spread.image)
    assert len(extraction.cards) == 26
    assert _check_spread(spread, extraction, faces, tolerance=5.0) == 26


def test_touching_cards_are_split_at_their_seams(faces):
    spread = render_spread(faces, CARDS[:26], seed=3, touching=True)
    extraction = find_cards(spread.image)
    assert sum(c.split for c in extraction.cards) >= 10  # most cards of this spread touch a neighbour
    assert _check_spread(spread, extraction, faces, tolerance=6.0) == 26


def test_touching_cards_under_perspective_are_found_or_reported_never_made_up(faces):
    spread = render_spread(faces, CARDS[:26], seed=3, touching=True, perspective=0.04)
    extraction = find_cards(spread.image)
    found = _check_spread(spread, extraction, faces, tolerance=9.0)
    assert found >= 20
    for corners in spread.corners:  # every card is found, or lies in a region reported as unresolved
        cx, cy = corners.mean(axis=0)
        hit = any(np.linalg.norm(c.corners.mean(axis=0) - (cx, cy)) < 15 for c in extraction.cards)
        reported = any(x1 - 5 <= cx <= x2 + 5 and y1 - 5 <= cy <= y2 + 5 for x1, y1, x2, y2 in extraction.unresolved)
        assert hit or reported
    assert len(extraction.problems) == len(extraction.unresolved)


def test_a_card_cut_by_the_edge_of_the_picture_is_reported_not_enrolled(faces):
    spread = render_spread(faces, CARDS[:3], seed=5, tilt_degrees=0)
    image = spread.image[:, int(spread.corners[1][:, 0].mean()):]  # cut through the middle of the second card
    extraction = find_cards(image)
    assert len(extraction.cards) == 1 and len(extraction.at_edge) == 1
    assert "edge of the picture" in extraction.problems[0]


def test_corners_are_ordered_short_side_first_clockwise():
    landscape = np.float32([[10, 10], [150, 10], [150, 110], [10, 110]])  # wider than tall: a card on its side
    quad = order_corners(landscape[[2, 0, 3, 1]])
    top = np.linalg.norm(quad[1] - quad[0])
    side = np.linalg.norm(quad[3] - quad[0])
    assert top < side  # the face's top edge is a short side
    (ax, ay), (bx, by) = quad[1] - quad[0], quad[2] - quad[1]
    assert ax * by - ay * bx > 0  # clockwise in image coordinates (y down)


def test_a_spread_with_no_lone_card_needs_the_card_width(faces):
    spread = render_spread(faces, CARDS[:2], seed=4, touching=True, tilt_degrees=0)  # a run of... one, then two
    image = spread.image
    extraction = find_cards(image)
    assert len(extraction.cards) == 2
    blank = np.full((300, 400, 3), (30, 110, 40), np.uint8)
    assert find_cards(blank).cards == []
    with pytest.raises(InputError, match="colour"):
        find_cards(np.zeros((50, 50), np.uint8))
    with pytest.raises(InputError, match="card width"):
        ExtractSettings(card_width=5)


# ---- capture with the card reader's own detector (vision.enroll.find), as the CLI and the kiosk capture ----------

SPREAD_DECK = "nicu-white" if "nicu-white" in available_decks() else "five-card-draw"


@pytest.fixture(scope="module")
def finder():
    from vision.enroll.find import CardFinder
    from vision.reader import CardReader
    from vision.reader_models import DEFAULT_MODEL_DIR

    return CardFinder(CardReader(DEFAULT_MODEL_DIR))


def _lies_on_a_true_card(found, corners_of_cards) -> bool:
    """Whether the centre of a card found lies on a card that is there (a card half under a hand is found by the
    half that shows, so its centre is not the whole card's)."""
    centre = tuple(float(v) for v in found.corners.mean(axis=0))
    return any(cv2.pointPolygonTest(np.asarray(c, np.float32).reshape(-1, 1, 2), centre, False) >= 0
               for c in corners_of_cards)


@pytest.mark.parametrize("surface", ["felt", "wood", "stone", "paper"])
def test_the_readers_detector_finds_a_spread_on_any_table_top(finder, surface):
    """Felt, wood, a grey desk, a white table: every card found and warped to its own face."""
    faces = load_deck(SPREAD_DECK)
    spread = render_spread(faces, CARDS[:20], seed=81, surface=surface, tilt_degrees=40)
    extraction = finder.find(spread.image)
    assert len(extraction.cards) == 20 and not extraction.problems
    assert {c.found_by for c in extraction.cards} <= {"outline", "edge"}
    matcher = FaceMatcher(faces)
    own_face = read_right = 0
    for card in extraction.cards:
        i = int(np.argmin([np.linalg.norm(card.corners.mean(axis=0) - t.mean(axis=0)) for t in spread.corners]))
        truth = spread.corners[i]
        error = min(np.abs(card.corners - truth).max(), np.abs(np.roll(card.corners, 2, axis=0) - truth).max())
        assert error <= 14.0, f"{spread.cards[i]}: corners off by {error:.1f} px"  # the outline model's rectangle
        own_face += matcher.match(card.face).card == spread.cards[i]
        read_right += card.read == spread.cards[i]  # what the table's reader read it as: the proposal
    assert own_face >= 18 and read_right >= 15


def test_on_a_white_table_the_outline_way_fails_and_the_detector_does_not(finder):
    faces = load_deck(SPREAD_DECK)
    spread = render_spread(faces, CARDS[:20], seed=81, surface="paper", tilt_degrees=40)
    with pytest.raises(InputError, match="touches another"):  # the white table is taken for card paper
        find_cards(spread.image)
    assert len(finder.find(spread.image).cards) == 20


def test_cards_overlapping_as_they_fall_are_found_never_made_up(finder):
    """Table scenes of the project's generator (overlaps, fans, stacks, hands) on four table tops."""
    from vision.synth.scene import render_scene

    shown = found = 0
    for seed, surface in ((9_910_001, "stone"), (9_910_002, "paper"), (9_910_003, "wood"), (9_910_004, "felt")):
        scene = render_scene(seed, (960, 540), surface=surface)
        extraction = finder.find(scene.image)
        corners = [c.corners for c in scene.cards]
        assert all(_lies_on_a_true_card(card, corners) for card in extraction.cards)  # nothing made up
        for card in (c for c in scene.cards if c.index_visible >= 0.5):
            shown += 1
            found += any(np.linalg.norm(f.corners.mean(axis=0) - card.corners.mean(axis=0))
                         < 0.3 * np.linalg.norm(card.corners[1] - card.corners[0]) for f in extraction.cards)
    assert shown >= 25 and found >= 0.85 * shown


def test_a_card_cut_by_the_picture_is_kept_as_a_partial_view_never_as_a_face(finder):
    faces = load_deck(SPREAD_DECK)
    spread = render_spread(faces, CARDS[:3], seed=5, tilt_degrees=0)
    image = np.ascontiguousarray(spread.image[:, int(spread.corners[1][:, 0].mean()):])  # through the second card
    extraction = finder.find(image)
    whole = [c for c in extraction.cards if c.found_by != "cut"]
    cut = [c for c in extraction.cards if c.found_by == "cut"]
    assert len(whole) == 1 and len(cut) == 1
    assert cut[0].box[0] <= 3  # what shows of the second card, at the picture's edge
    assert any("cut by the edge of the picture" in p and "partial view" in p for p in extraction.problems)


def test_real_photos_of_cards_are_captured(finder, tmp_path):
    """Photos from a phone (../shared/data/real-cards-train: whole-card labels), read as `vision read` reads them."""
    from tests.conftest import SHARED
    from vision.detection import iou
    from vision.enroll.capture import Proposer, capture_photos
    from vision.enroll.profile import Draft

    root = SHARED / "data" / "real-cards-train"
    if not root.is_dir():
        pytest.skip("no ../shared/data/real-cards-train here")
    photos = sorted((root / "images").glob("*.jpg"))[::100][:4]
    draft = Draft.open("Phone deck", tmp_path)
    batch = capture_photos(draft, photos, Proposer(reader=finder.reader), finder=finder)
    labelled = found = 0
    for photo, (_name, result) in zip(photos, batch.results, strict=True):
        boxes = []
        for row in (root / "labels" / f"{photo.stem}.txt").read_text().splitlines():
            _c, cx, cy, w, h = (float(v) for v in row.split()[:5])
            boxes.append(((cx - w / 2) * 640, (cy - h / 2) * 640, (cx + w / 2) * 640, (cy + h / 2) * 640))
        wide, tall = batch.aspect
        captured = [tuple(np.ravel([np.min(q, axis=0), np.max(q, axis=0)])) for q in
                    (np.asarray(face.corners) / [wide, tall] for face in result.added)]
        labelled += len(boxes)
        found += sum(any(iou(box, c) >= 0.5 for c in captured) for box in boxes)
        assert all(any(iou(box, c) >= 0.3 for box in boxes) for c in captured)  # every face is a labelled card
    assert labelled >= 10 and found >= 0.8 * labelled
    assert all(face.proposed is not None for face in draft.faces)  # the reading that found it proposes it


def test_a_bad_photo_is_named_and_skipped_and_the_batch_goes_on(finder, tmp_path):
    import cv2

    from vision.enroll.capture import NO_CARD, TOO_DARK, Proposer, capture_photos
    from vision.enroll.profile import Draft

    faces = load_deck(SPREAD_DECK)
    good = render_spread(faces, CARDS[:8], seed=91, size=(960, 540)).image
    photos = {
        "missing.jpg": None,
        "notes.jpg": b"not a picture",
        "dark.jpg": (good.astype(np.float32) * 0.12).astype(np.uint8),  # the lamp is off
        "empty.jpg": render_spread(faces, [], seed=92, size=(960, 540)).image,  # the felt, no card
        "good.jpg": good,
    }
    paths = []
    for name, content in photos.items():
        path = tmp_path / name
        if isinstance(content, bytes):
            path.write_bytes(content)
        elif content is not None:
            cv2.imwrite(str(path), content)
        paths.append(path)
    draft = Draft.open("House deck", tmp_path / "data")
    heard = []
    batch = capture_photos(draft, paths, Proposer(reader=finder.reader), finder=finder,
                           report=lambda photo, result: heard.append(photo))
    skipped = dict(batch.skipped)
    assert list(skipped) == [str(p) for p in paths[:4]]  # each named …
    assert "no such image" in skipped[str(paths[0])]
    assert "not an image" in skipped[str(paths[1])]
    assert skipped[str(paths[2])] == TOO_DARK
    assert skipped[str(paths[3])] == NO_CARD
    good_result = dict(batch.results)[str(paths[4])]  # … and the photo after them is captured
    assert len(good_result.added) == 8 and not good_result.skipped and batch.added == 8
    assert heard == [str(p) for p in paths] and len(draft.faces) == 8 and draft.frames == 1


def test_squashed_photos_are_captured_as_read_reads_them(finder, tmp_path):
    """A 16:9 frame squashed to a square: capture takes the stretch `vision read` takes (vision.photo_batch) and
    keeps the frame and its faces stretched back."""
    import cv2

    from vision.enroll.capture import Proposer, capture_photos
    from vision.enroll.profile import Draft
    from vision.photo_batch import read_photos
    from vision.synth.textures import squashed_to_square

    faces = load_deck(SPREAD_DECK)
    paths = []
    for k, seed in enumerate((93, 94)):
        spread = render_spread(faces, CARDS[k * 10:(k + 1) * 10], seed=seed, size=(1280, 720), card_width=110)
        path = tmp_path / f"squashed{k}.jpg"
        cv2.imwrite(str(path), squashed_to_square(spread.image))
        paths.append(path)
    finder.reader.forget_deck()
    read = read_photos(finder.reader, paths, lambda p: cv2.imread(str(p)))
    finder.reader.forget_deck()
    draft = Draft.open("Squashed", tmp_path / "data")
    batch = capture_photos(draft, paths, Proposer(reader=finder.reader), finder=finder)
    assert batch.aspect == read.aspect  # the same choice as read
    assert batch.aspect[0] > batch.aspect[1] and batch.added == 20  # stretched back wide; every card captured
    frame = cv2.imread(str(draft.folder / draft.faces[0].frame))
    assert frame.shape[1] == round(720 * batch.aspect[0]) and frame.shape[0] == round(720 * batch.aspect[1])
    unsquashed = capture_photos(Draft.open("As they are", tmp_path / "data"), paths, None, finder=finder,
                                unsquash=False)
    assert unsquashed.aspect == (1.0, 1.0)
