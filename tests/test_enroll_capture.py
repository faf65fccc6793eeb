"""Capture: cards found by their outline on rendered spreads with known answers, warped flat to their faces."""

from __future__ import annotations

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
