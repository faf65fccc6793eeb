"""Confirm: a captured deck checked through the controller the kiosk drives, then saved as a versioned profile."""

from __future__ import annotations

import json

import pytest

from engine.cards import JOKER, parse_card, standard_deck
from vision.enroll.capture import FaceProposer, capture_frame
from vision.enroll.confirm import DUPLICATE, OK, UNNAMED, ConfirmController
from vision.enroll.profile import (
    Draft,
    ProfileError,
    completeness,
    list_profiles,
    load_profile,
    profile_versions,
    slug_of,
)
from vision.enroll.spread import render_spread
from vision.synth.faces import available_decks, load_deck

DECK = "standard" if "standard" in available_decks() else "five-card-draw"
CARDS = list(standard_deck())


class FixedClock:
    def now(self):
        from datetime import UTC, datetime

        return datetime(2026, 3, 1, 12, 0, tzinfo=UTC)

    def monotonic_ns(self) -> int:
        return 0


@pytest.fixture(scope="module")
def faces():
    return load_deck(DECK)


@pytest.fixture(scope="module")
def spreads(faces):
    return [render_spread(faces, CARDS[:26], seed=11), render_spread(faces, CARDS[26:], seed=12, perspective=0.03)]


def _truth_by_position(spread, corners):
    import numpy as np

    centres = [c.mean(axis=0) for c in spread.corners]
    return spread.cards[int(np.argmin([np.linalg.norm(np.asarray(corners).mean(axis=0) - c) for c in centres]))]


def test_completeness_points_out_missing_and_duplicate_cards():
    deck = list(standard_deck())
    check = completeness([*deck[:50], deck[0], None])
    assert check.missing == (deck[50], deck[51])
    assert check.duplicates == {deck[0]: 2}
    assert check.unidentified == 1 and not check.complete
    text = " ".join(check.problems())
    assert str(deck[50]) in text and f"{deck[0]} ×2" in text and "1 face not named" in text
    assert completeness(deck).complete
    assert not completeness(deck, with_joker=True).complete
    assert completeness([*deck, JOKER], with_joker=True).complete


def test_deck_names_become_folder_names():
    assert slug_of("Copag blue 2026") == "copag-blue-2026"
    with pytest.raises(ProfileError, match="letters or digits"):
        slug_of("  ★ ")


def test_capture_without_a_model_then_name_every_face_by_touch(tmp_path, spreads):
    draft = Draft.open("House red", tmp_path)
    for spread in spreads:
        result = capture_frame(draft, spread.image, proposer=None)
        assert not result.problems and len(result.added) == 26
    controller = ConfirmController(draft)
    changes = []
    controller.subscribe(lambda: changes.append(1))
    assert all(t.state == UNNAMED for t in controller.tiles())
    assert not controller.can_save and "52 faces not named" in " ".join(controller.problems())

    frames = {1: spreads[0], 2: spreads[1]}
    for face in list(draft.faces):
        spread = frames[int(face.frame.split("/")[1].split(".")[0])]
        controller.fix(face.index, _truth_by_position(spread, face.corners))
    assert len(changes) == 52 and controller.can_save
    assert [t.card for t in controller.tiles()] == sorted(CARDS, key=lambda c: c.sort_key())

    # The draft is on disk after every touch: a restarted kiosk picks up where it was.
    again = ConfirmController(Draft.open("House red", tmp_path))
    assert again.can_save
    profile = again.save(FixedClock())
    assert profile.ref == "house-red@v1" and profile.version == 1 and len(profile.cards) == 52
    assert profile.created.startswith("2026-03-01T12:00")
    stored = json.loads((profile.folder / "profile.json").read_text())
    assert stored["sources"]["AS"]["frame"].startswith("frames/")
    assert (profile.folder / "faces" / "AS_turned.png").exists() and len(profile.frames()) == 2


def test_proposals_sort_the_grid_and_a_wrong_fix_shows_as_a_duplicate(tmp_path, spreads, faces):
    draft = Draft.open("Copag blue 2026", tmp_path)
    proposer = FaceProposer(faces)  # an earlier profile of the same design proposes the identities
    for spread in spreads:
        capture_frame(draft, spread.image, proposer)
    controller = ConfirmController(draft)
    assert controller.can_save, controller.problems()
    tiles = controller.tiles()
    assert [t.card for t in tiles] == sorted(CARDS, key=lambda c: c.sort_key())
    assert all(t.card == t.proposed for t in tiles)

    nine = next(t for t in tiles if t.card == parse_card("9H"))
    controller.fix(nine.index, parse_card("6H"))  # a slip of the finger
    states = {t.index: t.state for t in controller.tiles()}
    assert states[nine.index] == DUPLICATE
    assert controller.check.missing == (parse_card("9H"),)
    assert not controller.can_save
    problems = " ".join(controller.problems())
    assert "missing 1: 9H" in problems and "6H ×2" in problems
    with pytest.raises(ProfileError, match="cannot be saved"):
        controller.save()
    controller.fix(nine.index, parse_card("9H"))
    assert all(t.state == OK for t in controller.tiles())

    first = controller.save(FixedClock())
    second = controller.save(FixedClock())  # saving again makes a new version; the first is kept as it was
    assert (first.version, second.version) == (1, 2)
    assert profile_versions("Copag blue 2026", tmp_path) == [1, 2]
    assert load_profile("copag-blue-2026", tmp_path).version == 2
    assert load_profile("copag-blue-2026@v1", tmp_path).version == 1
    assert list_profiles(tmp_path) == ["copag-blue-2026@v1", "copag-blue-2026@v2"]
    with pytest.raises(ProfileError, match="no version 7"):
        load_profile("copag-blue-2026@v7", tmp_path)
    with pytest.raises(ProfileError, match="no deck profile"):
        load_profile("bicycle", tmp_path)


def test_a_face_that_is_not_a_card_is_dropped_and_the_joker_can_be_required(tmp_path, spreads, faces):
    draft = Draft.open("Schmier deck", tmp_path)
    proposer = FaceProposer(faces)
    capture_frame(draft, spreads[0].image, proposer)
    capture_frame(draft, spreads[0].image, proposer)  # the same half twice: 26 duplicates
    controller = ConfirmController(draft)
    assert len(controller.check.duplicates) == 26 and len(controller.check.missing) == 26
    for tile in controller.tiles()[1::2]:
        controller.fix(tile.index, None)
    assert not controller.check.duplicates and len(draft.faces) == 26
    controller.set_joker(True)
    assert JOKER in controller.check.missing


def test_a_damaged_draft_says_so(tmp_path):
    folder = tmp_path / "decks" / "broken" / "draft"
    folder.mkdir(parents=True)
    (folder / "draft.json").write_text("{not json")
    with pytest.raises(ProfileError, match="damaged"):
        Draft.open("broken", tmp_path)
