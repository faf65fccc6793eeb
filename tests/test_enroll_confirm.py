"""Confirm: a captured deck checked through the controller the kiosk drives, then saved as a versioned profile."""

from __future__ import annotations

import json

import pytest

from engine.cards import JOKER, parse_card, standard_deck
from vision.enroll.capture import FaceProposer, capture_frame
from vision.enroll.confirm import OK, UNNAMED, ConfirmController
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


def test_completeness_points_out_missing_cards_and_counts_the_views_of_each():
    deck = list(standard_deck())
    check = completeness([*deck[:50], deck[0], None])
    assert check.missing == (deck[50], deck[51])
    assert check.views[deck[0]] == 2 and check.duplicates == {deck[0]: 2}  # two views of one card: more examples
    assert check.unidentified == 1 and not check.complete and check.savable
    text = " ".join(check.problems())
    assert str(deck[50]) in text and "1 face not named" in text
    assert "more than once" not in text and f"{deck[0]} ×2" not in text  # a second view is no problem
    assert check.views_line() == f"views: {deck[0]} ×2; 49 cards once"
    assert completeness(deck).complete
    assert completeness(deck).views_line() == "views: every card once (52 cards once)"
    assert not completeness(deck, with_joker=True).complete
    assert completeness([*deck, JOKER], with_joker=True).complete
    assert not completeness([None, None]).savable  # nothing named: nothing to save


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


def test_proposals_sort_the_grid_and_a_wrong_fix_shows_as_a_missing_card(tmp_path, spreads, faces):
    draft = Draft.open("Copag blue 2026", tmp_path)
    proposer = FaceProposer(faces)  # an earlier profile of the same design proposes the identities
    for spread in spreads:
        capture_frame(draft, spread.image, proposer)
    controller = ConfirmController(draft)
    assert controller.check.complete, controller.problems()
    tiles = controller.tiles()
    assert [t.card for t in tiles] == sorted(CARDS, key=lambda c: c.sort_key())
    assert all(t.card == t.proposed and t.views == 1 for t in tiles)

    nine = next(t for t in tiles if t.card == parse_card("9H"))
    controller.fix(nine.index, parse_card("6H"))  # a slip of the finger
    after = {t.index: t for t in controller.tiles()}
    assert after[nine.index].state == OK and after[nine.index].views == 2  # 6H has two views now
    assert controller.check.missing == (parse_card("9H"),)
    problems = " ".join(controller.problems())
    assert "missing 1: 9H" in problems and "6H" not in problems
    controller.fix(nine.index, parse_card("9H"))
    assert all(t.state == OK for t in controller.tiles()) and controller.check.complete

    first = controller.save(FixedClock())
    second = controller.save(FixedClock())  # saving again makes a new version; the first is kept as it was
    assert (first.version, second.version) == (1, 2)
    assert not first.missing and len(first.views) == 52
    assert profile_versions("Copag blue 2026", tmp_path) == [1, 2]
    assert load_profile("copag-blue-2026", tmp_path).version == 2
    assert load_profile("copag-blue-2026@v1", tmp_path).version == 1
    assert list_profiles(tmp_path) == ["copag-blue-2026@v1", "copag-blue-2026@v2"]
    with pytest.raises(ProfileError, match="no version 7"):
        load_profile("copag-blue-2026@v7", tmp_path)
    with pytest.raises(ProfileError, match="no deck profile"):
        load_profile("bicycle", tmp_path)


def test_a_second_view_of_a_card_is_kept_as_another_example(tmp_path, spreads, faces):
    draft = Draft.open("Two views", tmp_path)
    proposer = FaceProposer(faces)
    capture_frame(draft, spreads[0].image, proposer)
    capture_frame(draft, spreads[0].image, proposer)  # the same 26 cards photographed again
    controller = ConfirmController(draft)
    assert len(controller.check.views) == 26 and set(controller.check.views.values()) == {2}
    assert all(t.views == 2 and t.state == OK for t in controller.tiles())
    assert controller.can_save
    profile = controller.save(FixedClock())
    assert len(profile.cards) == 26 and len(profile.views) == 52  # every view kept
    ace = parse_card("AS")
    views = profile.views_of(ace)
    assert [v.face for v in views] == ["faces/AS.png", "faces/AS_2.png"]
    assert {v.frame for v in views} == {"frames/0001.jpg", "frames/0002.jpg"}
    assert (profile.folder / "faces" / "AS_2_turned.png").exists()
    assert len(profile.view_faces()) == 52 and len(profile.faces()) == 26
    stored = json.loads((profile.folder / "profile.json").read_text())
    assert len(stored["views"]) == 52 and stored["sources"]["AS"]["frame"] == "frames/0001.jpg"


def test_a_partial_deck_is_saved_and_says_what_it_lacks(tmp_path, spreads, faces):
    draft = Draft.open("Half a deck", tmp_path)
    capture_frame(draft, spreads[0].image, FaceProposer(faces))  # 26 of the 52 cards
    controller = ConfirmController(draft)
    assert not controller.check.complete and controller.can_save
    assert "missing 26" in " ".join(controller.problems())
    profile = controller.save(FixedClock())
    assert len(profile.cards) == 26 and profile.missing == tuple(CARDS[26:])
    again = load_profile("half-a-deck", tmp_path)  # what it lacks is read back from disk
    assert again.missing == tuple(CARDS[26:])
    assert json.loads((profile.folder / "profile.json").read_text())["missing"] == [str(c) for c in CARDS[26:]]


def test_faces_nobody_named_are_left_out_and_nothing_named_cannot_be_saved(tmp_path, spreads):
    draft = Draft.open("Unnamed", tmp_path)
    capture_frame(draft, spreads[0].image, proposer=None)
    controller = ConfirmController(draft)
    assert not controller.can_save
    with pytest.raises(ProfileError, match="no face is named"):
        controller.save(FixedClock())
    first = draft.faces[0]
    controller.fix(first.index, CARDS[0])
    profile = controller.save(FixedClock())
    assert profile.cards == (CARDS[0],) and len(profile.views) == 1 and len(profile.missing) == 51


def test_a_profile_saved_before_views_were_kept_still_loads(tmp_path, spreads, faces):
    draft = Draft.open("Old style", tmp_path)
    capture_frame(draft, spreads[0].image, FaceProposer(faces))
    profile = ConfirmController(draft).save(FixedClock())
    path = profile.folder / "profile.json"
    stored = json.loads(path.read_text())
    for key in ("views", "missing", "with_joker"):
        del stored[key]
    path.write_text(json.dumps(stored))
    old = load_profile("old-style", tmp_path)
    assert len(old.views) == 26 and old.views[0].face == f"faces/{old.cards[0]}.png"
    assert len(old.faces()) == 26 and len(old.missing) == 26


def test_a_face_that_is_not_a_card_is_dropped_and_the_joker_can_be_required(tmp_path, spreads, faces):
    draft = Draft.open("Schmier deck", tmp_path)
    proposer = FaceProposer(faces)
    capture_frame(draft, spreads[0].image, proposer)
    capture_frame(draft, spreads[0].image, proposer)  # the same half twice: two views of 26 cards
    controller = ConfirmController(draft)
    assert len(controller.check.duplicates) == 26 and len(controller.check.missing) == 26
    for tile in controller.tiles()[1::2]:  # the dealer drops one of each pair (say, a spoiled photo)
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
